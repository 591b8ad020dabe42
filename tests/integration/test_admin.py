"""Administrator tasks: unit values with effective dates, municipal holidays, roles."""

from datetime import date

from sqlalchemy import select

from portal.extensions import db
from portal.models import AuditEvent, MunicipalHoliday, UnitValue
from portal.services.money import units_to_cents
from tests import factories


def test_admin_records_a_unit_value_used_from_its_effective_date(client, auth) -> None:
    auth.login(roles=("admin",))
    response = client.post(
        "/admin/unidades",
        data={
            "unit": "UFG",
            "value": "1.234,56",
            "effective_from": "2027-01-01",
            "note": "Decreto",
        },
    )
    assert response.status_code == 302
    value = db.session.scalar(
        select(UnitValue).where(
            UnitValue.unit == "UFG", UnitValue.effective_from == date(2027, 1, 1)
        )
    )
    assert value.value_cents == 123456
    assert units_to_cents(2, "UFG", date(2027, 3, 1)) == 246912
    assert db.session.scalar(select(AuditEvent).where(AuditEvent.action == "unit_value.created"))


def test_unit_value_with_bad_amount_keeps_the_form(client, auth) -> None:
    auth.login(roles=("admin",))
    html = client.post(
        "/admin/unidades", data={"unit": "UFM", "value": "doze", "effective_from": "2027-01-01"}
    ).get_data(as_text=True)
    assert "Valor inválido" in html and 'value="doze"' in html


def test_admin_adds_a_municipal_holiday(client, auth) -> None:
    auth.login(roles=("admin",))
    client.post("/admin/feriados", data={"day": "2026-12-08", "name": "Nossa Senhora da Conceição"})
    assert db.session.scalar(
        select(MunicipalHoliday).where(MunicipalHoliday.day == date(2026, 12, 8))
    )


def test_admin_grants_a_staff_role_and_it_is_audited(client, auth) -> None:
    auth.login(roles=("admin",))
    person = factories.user()
    db.session.commit()
    client.post(
        f"/admin/usuarios/{person.id}", data={"role_citizen": "y", "role_agent": "y", "active": "y"}
    )
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


# -- Portuguese labels and a usable audit log (issue 8, item 7) ----------------------------------


def test_staff_list_shows_role_names_not_codes(client, auth) -> None:
    auth.login(roles=("admin",))
    factories.user(full_name="Agente Alfa", roles=("citizen", "agent", "coordinator"))
    factories.user(full_name="ONG Beta", roles=("citizen", "ngo"))
    db.session.commit()
    html = client.get("/admin/usuarios").get_data(as_text=True)
    staff = html.split("Agente Alfa", 1)[1].split("</li>", 1)[0]
    assert "Agente sanitário" in staff and "Coordenador" in staff and "Cidadão" in staff
    assert "agent" not in staff and "coordinator" not in staff and "citizen" not in staff
    ngo = html.split("ONG Beta", 1)[1].split("</li>", 1)[0]
    assert "ONG (protetora de animais)" in ngo and ", ngo" not in ngo


def test_every_audited_action_has_a_portuguese_label(app) -> None:
    """Scans the code for ``audit.record("…")``: a new action without a label fails here."""
    import re
    from pathlib import Path

    from portal.services.audit import action_labels

    root = Path(__file__).resolve().parents[2] / "portal"
    found: set[str] = set()
    for path in root.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        for call in re.findall(r"audit\.record\(\s*(.{0,160})", text, re.S):
            found.update(
                re.findall(
                    r'"([a-z_]+\.[a-z_.]+)"',
                    call.split(",", 1)[0] if " if " not in call.split(",", 1)[0] else call[:160],
                )
            )
    assert found, "the scan found no audited actions"
    assert sorted(found - set(action_labels())) == []


def _payment_viewed(staff) -> tuple:  # type: ignore[no-untyped-def]
    from portal.blueprints.billing.services import create_payment_item
    from portal.services import audit

    item = create_payment_item(
        kind="registration", amount_cents=2500, description="Registro", payer=factories.user()
    )
    audit.record("payment.viewed", item, actor_id=staff.id)
    audit.record("holiday.created", None, actor_id=staff.id)
    db.session.commit()
    return item


def test_audit_log_names_actions_and_objects_as_people_do(client, auth) -> None:
    admin = auth.login(roles=("admin",))
    item = _payment_viewed(admin)
    html = client.get("/admin/auditoria").get_data(as_text=True)
    rows = html.split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    assert "Consultou cobrança" in rows and f"Guia {item.formatted_reference}" in rows
    assert ">payment.viewed<" not in rows and "PaymentItem" not in rows


def test_audit_log_filters_by_action_who_object_and_period(client, auth) -> None:
    from datetime import date, timedelta

    admin = auth.login(roles=("coordinator",))
    other = factories.user(full_name="Outra Servidora", roles=("agent",))
    item = _payment_viewed(admin)
    from portal.services import audit

    audit.record("payment.cancelled", item, actor_id=other.id)
    db.session.commit()

    def rows(**args: str) -> str:
        html = client.get("/admin/auditoria", query_string=args).get_data(as_text=True)
        return html.split("<tbody>", 1)[1].split("</tbody>", 1)[0]

    assert "Cancelou cobrança" in rows() and "Consultou cobrança" in rows()
    only = rows(acao="payment.viewed")
    assert "Consultou cobrança" in only and "Cancelou cobrança" not in only
    by_who = rows(quem="outra servidora")
    assert "Cancelou cobrança" in by_who and "Consultou cobrança" not in by_who
    by_object = rows(objeto=item.formatted_reference)
    assert "Cancelou cobrança" in by_object and "Cadastrou feriado" not in by_object
    assert "Nenhum RGA, protocolo ou guia" in client.get(
        "/admin/auditoria", query_string={"objeto": "9999"}
    ).get_data(as_text=True)
    by_type = rows(tipo="PaymentItem")
    assert "Cadastrou feriado" not in by_type and "Consultou cobrança" in by_type
    tomorrow = (date.today() + timedelta(days=2)).isoformat()
    assert "Nenhum evento" in rows(de=tomorrow)
    yesterday = (date.today() - timedelta(days=2)).isoformat()
    assert "Consultou cobrança" in rows(de=yesterday, ate=tomorrow)


def test_audit_log_refuses_a_cpf_in_the_who_filter(client, auth) -> None:
    auth.login(roles=("admin",))
    html = client.get("/admin/auditoria", query_string={"quem": "529.982.247-25"}).get_data(
        as_text=True
    )
    assert "não pelo CPF" in html


def test_staff_payment_detail_shows_stripe_statuses_in_portuguese(app) -> None:
    from flask import render_template_string

    with app.test_request_context():
        out = render_template_string("{{ 'expired'|stripe_status }} / {{ 'unpaid'|stripe_status }}")
    assert out == "expirada / não paga"


def test_a_page_number_typed_too_big_or_as_words_answers_a_page_not_an_error(client, auth) -> None:
    # An OFFSET past PostgreSQL's bigint fails in the database: the lists clamp the page.
    auth.login(roles=("admin",))
    for url in ("/admin/auditoria", "/pagamentos/ccz/", "/ong/laudos"):
        for page in ("99999999999999999999", "-3", "dois"):
            response = client.get(url, query_string={"page": page})
            assert response.status_code == 200, (url, page)


def test_audit_filter_finds_an_animal_by_its_rga_through_the_animals_domain(app) -> None:
    """Issue 28: the kernel's audit filter asks the domains (``wiring.audit_subject_finder``);
    animals answers for an RGA typed in any spacing or case, and for no other text."""
    from portal.services import audit

    pet = factories.animal(factories.user())
    typed = pet.rga.replace("-", " ").lower()
    assert audit.find_subject(typed) == ("Animal", str(pet.id))
    assert audit.find_subject("C-1999-999999-0") is None  # not an RGA: wrong check digit or none
