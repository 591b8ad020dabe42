"""Issue 26 Low #8: integers typed into forms and query strings beyond a database integer
(``99999999999999999999``) are refused like any other wrong value, never a 500 (SQLite raises
``OverflowError``, PostgreSQL "integer out of range"). ``portal.services.ids`` is the shared
reader; each place that turned text into an id or a count goes through it."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import select

from portal.extensions import db
from portal.models import MaltreatmentReport, SterilisationBooking, SterilisationSlot
from portal.services.clock import local_today
from portal.services.ids import DB_INT_MAX, parse_id
from tests import factories
from tests.integration.sterilisation.test_sterilisation_pages import _site_and_day

HUGE = "99999999999999999999"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("12", 12),
        (" 7 ", 7),
        ("0", None),
        ("-3", None),
        ("²", None),
        ("١٢", None),  # Arabic-Indic digits are digits to str.isdigit
        (str(DB_INT_MAX), DB_INT_MAX),
        (str(DB_INT_MAX + 1), None),
        (HUGE, None),
        (None, None),
        ("", None),
    ],
)
def test_parse_id_reads_only_database_ids(text, expected) -> None:  # type: ignore[no-untyped-def]
    assert parse_id(text) == expected


@pytest.mark.parametrize(
    "data",
    [
        {"slot": HUGE},
        {"slot": "wait-" + HUGE},
        {"animal": HUGE, "slot": "wait"},
    ],
)
def test_booking_a_castration_with_a_huge_slot_is_a_field_error(app, client, auth, data) -> None:  # type: ignore[no-untyped-def]
    _site_and_day(app.extensions["portal_profile"])
    person = factories.user()
    pet = factories.animal(person, name="Thor")
    db.session.commit()
    auth.login(person)
    response = client.post("/castracao/agendar", data={"animal": str(pet.id), **data})
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    assert "Escolha" in page or "não está mais aberto" in page
    assert db.session.scalar(select(SterilisationBooking)) is None


def test_opening_a_day_with_a_huge_capacity_is_a_field_error(app, client, auth) -> None:
    site, _slot = _site_and_day(app.extensions["portal_profile"])
    auth.login(roles=("coordinator",))
    day = (local_today() + timedelta(days=14)).isoformat()
    response = client.post(
        "/ccz/castracao/dias", data={"site": str(site.id), "day": day, "capacity": HUGE}
    )
    assert response.status_code == 200
    assert "Número grande demais." in response.get_data(as_text=True)
    assert len(db.session.scalars(select(SterilisationSlot)).all()) == 1


def test_assigning_a_report_to_a_huge_agent_id_is_refused(client, auth) -> None:
    assert client.post("/denuncias/nova", data=factories.report_form_data()).status_code in (
        200,
        302,
    )
    report = db.session.scalar(select(MaltreatmentReport))
    assert report is not None
    auth.login(roles=("coordinator",))
    day = (local_today() + timedelta(days=2)).isoformat()
    response = client.post(
        f"/ccz/denuncias/{report.protocol}/atribuir",
        data={"agent_id": HUGE, "inspection_on": day},
    )
    assert response.status_code in (200, 302)
    assert report.assigned_agent_id is None


def test_huge_ids_in_query_strings_read_as_absent(client, auth) -> None:
    auth.login(roles=("citizen",))
    assert client.get(f"/licencas/pedido?renova={HUGE}").status_code in (200, 302)
    assert client.get(f"/adocao/meus-documentos?pedido={HUGE}&voltar={HUGE}").status_code == 200


def test_a_bar_naming_a_huge_listing_number_is_a_field_error(client, auth) -> None:
    auth.login(roles=("coordinator",))
    response = client.post(
        "/adocao/gestao/impedimentos",
        data={
            "novo-cpf": factories.make_cpf(777),
            "novo-kind": "commitment_never_keep",
            "novo-listing_id": HUGE,
            "novo-reason": "Termo assinado",
        },
    )
    assert response.status_code == 400
    assert "Número grande demais." in response.get_data(as_text=True)
