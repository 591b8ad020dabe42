"""Administrator tasks: unit values with effective dates, municipal holidays, roles."""

from datetime import date

from sqlalchemy import select

from portal.extensions import db
from portal.models import AuditEvent, MunicipalHoliday, UnitValue
from portal.services.money import units_to_cents
from tests import factories


def test_admin_records_a_unit_value_used_from_its_effective_date(client, auth) -> None:
    auth.login(roles=("admin",))
    response = client.post("/admin/unidades", data={"unit": "UFG", "value": "1.234,56",
                                                    "effective_from": "2027-01-01", "note": "Decreto"})
    assert response.status_code == 302
    value = db.session.scalar(select(UnitValue).where(UnitValue.unit == "UFG",
                                                      UnitValue.effective_from == date(2027, 1, 1)))
    assert value.value_cents == 123456
    assert units_to_cents(2, "UFG", date(2027, 3, 1)) == 246912
    assert db.session.scalar(select(AuditEvent).where(AuditEvent.action == "unit_value.created"))


def test_unit_value_with_bad_amount_keeps_the_form(client, auth) -> None:
    auth.login(roles=("admin",))
    html = client.post("/admin/unidades", data={"unit": "UFM", "value": "doze",
                                                "effective_from": "2027-01-01"}).get_data(as_text=True)
    assert "Valor inválido" in html and 'value="doze"' in html


def test_admin_adds_a_municipal_holiday(client, auth) -> None:
    auth.login(roles=("admin",))
    client.post("/admin/feriados", data={"day": "2026-12-08", "name": "Nossa Senhora da Conceição"})
    assert db.session.scalar(select(MunicipalHoliday).where(MunicipalHoliday.day == date(2026, 12, 8)))


def test_admin_grants_a_staff_role_and_it_is_audited(client, auth) -> None:
    auth.login(roles=("admin",))
    person = factories.user()
    db.session.commit()
    client.post(f"/admin/usuarios/{person.id}", data={"role_citizen": "y", "role_agent": "y",
                                                      "active": "y"})
    db.session.refresh(person)
    assert person.roles == {"citizen", "agent"}
    assert db.session.scalar(select(AuditEvent).where(AuditEvent.action == "admin.roles_changed"))


def test_user_search_by_cpf_is_a_post_and_shows_cpf_masked(client, auth) -> None:
    auth.login(roles=("admin",))
    person = factories.user(full_name="Fulana Procurada")
    db.session.commit()
    html = client.post("/admin/usuarios", data={"q": person.cpf}).get_data(as_text=True)
    results = html.split("Resultado", 1)[1]
    assert "Fulana Procurada" in results
    assert person.cpf not in results and f"***.{person.cpf[3:6]}" in results
