"""What administrators keep (``portal.blueprints.admin.services``): roles and account access,
unit values and municipal holidays, each refused with its message next to the field."""

from __future__ import annotations

from sqlalchemy import select

from portal.extensions import db
from portal.models import AuditEvent, MunicipalHoliday
from tests import factories


def test_an_admin_cannot_take_their_own_admin_role_away(client, auth) -> None:
    admin = auth.login(roles=("admin",))
    response = client.post(f"/admin/usuarios/{admin.id}", data={"role_agent": "y", "active": "y"})
    assert response.status_code == 200
    assert "Você não pode retirar seu próprio papel de administrador." in response.get_data(
        as_text=True
    )
    db.session.refresh(admin)
    assert admin.has_role("admin") and not admin.has_role("agent")


def test_an_admin_deactivates_an_account_and_it_is_audited(client, auth) -> None:
    auth.login(roles=("admin",))
    person = factories.user(roles=("agent",))
    response = client.post(f"/admin/usuarios/{person.id}", data={"role_agent": "y"})
    assert response.status_code == 302
    db.session.refresh(person)
    assert person.active is False and person.has_role("agent")
    event = db.session.scalars(
        select(AuditEvent).where(AuditEvent.action == "admin.roles_changed")
    ).one()
    assert event.detail == {"before": ["agent"], "after": ["agent"], "active": False}


def test_a_second_value_of_a_unit_for_the_same_date_is_refused_next_to_the_date(
    client, auth
) -> None:
    auth.login(roles=("admin",))
    data = {"unit": "UFM", "value": "10,00", "effective_from": "2027-02-01"}
    assert client.post("/admin/unidades", data=data).status_code == 302
    html = client.post("/admin/unidades", data={**data, "value": "11,00"}).get_data(as_text=True)
    assert "Já há um valor desta unidade para esta data." in html and 'value="11,00"' in html


def test_a_second_holiday_on_the_same_day_is_refused_and_an_edit_keeps_its_own_day(
    client, auth
) -> None:
    auth.login(roles=("admin",))
    client.post("/admin/feriados", data={"day": "2026-12-08", "name": "Conceição"})
    html = client.post("/admin/feriados", data={"day": "2026-12-08", "name": "Outro"}).get_data(
        as_text=True
    )
    assert "Já há um feriado nesta data." in html
    holiday = db.session.scalars(select(MunicipalHoliday)).one()
    edited = client.post(
        f"/admin/feriados/{holiday.id}/editar",
        data={"day": "2026-12-08", "name": "Nossa Senhora da Conceição", "repeats_yearly": "y"},
    )
    assert edited.status_code == 302
    db.session.refresh(holiday)
    assert holiday.name == "Nossa Senhora da Conceição" and holiday.repeats_yearly
    assert client.post(f"/admin/feriados/{holiday.id}/excluir").status_code == 302
    assert db.session.scalars(select(MunicipalHoliday)).first() is None
