"""VV 10 §1: "no mínimo 10% (dez por cento), a cada ano [...] tendo como base o total dos cães e
gatos estimados no Município". The staff keep the estimate of each year; the staff page shows the
castrations done against the target (the share of the estimate, rounded up), with the article.
Guarulhos' law has a programme (GRU 8) but no target: nothing of it shows there."""

from __future__ import annotations

from datetime import date

import pytest
from sqlalchemy import select

from portal.blueprints.sterilisation import services, target
from portal.extensions import db
from portal.models import AuditEvent, BookingStatus, SterilisationBooking, SterilisationEstimate
from portal.profiles.summary import rule_sections
from portal.services.clock import local_today
from tests import factories
from tests.conftest import AuthActions

TODAY = date(2026, 12, 3)


def _done(n: int, on: date) -> None:
    person = factories.user()
    for i in range(n):
        db.session.add(
            SterilisationBooking(
                requester_id=person.id,
                species="dog",
                sex="female",
                animal_name=f"Cadela {i}",
                status=BookingStatus.DONE,
                outcome_on=on,
            )
        )
    db.session.flush()


def _estimate(profile, n: int, year: int = 2026, staff=None):  # type: ignore[no-untyped-def]
    return target.save_estimate(
        profile,
        year=year,
        dogs_and_cats=n,
        source="1 cão ou gato para cada 4 habitantes (IBGE 2022)",
        staff=staff or factories.user(roles=("coordinator",)),
        today=TODAY,
    )


@pytest.fixture
def vv(make_app):  # type: ignore[no-untyped-def]
    with factories.profile_app(make_app, "vilavelha") as profile:
        yield profile


def test_vv_10_1_the_target_is_10_percent_of_the_estimate_rounded_up(vv) -> None:
    _estimate(vv, 1005)
    _done(100, date(2026, 6, 1))
    _done(3, date(2025, 12, 31))  # another year
    year = target.progress(vv, 2026)
    assert year is not None
    assert (year.target, year.done, year.reached, year.missing) == (101, 100, False, 1)
    assert year.article == "VV 10 §1"
    _done(1, date(2026, 12, 31))
    year = target.progress(vv, 2026)
    assert year is not None and (year.done, year.reached, year.missing) == (101, True, 0)


def test_vv_10_1_a_new_estimate_of_the_year_replaces_the_old_audited(vv) -> None:
    staff = factories.user(roles=("coordinator",))
    _estimate(vv, 1000, staff=staff)
    _estimate(vv, 2000, staff=staff)
    (row,) = db.session.scalars(select(SterilisationEstimate)).all()
    assert (row.year, row.dogs_and_cats, row.set_by_id) == (2026, 2000, staff.id)
    events = db.session.scalars(
        select(AuditEvent).where(AuditEvent.action == "sterilisation.estimate_set")
    ).all()
    assert [(e.detail or {})["previous"] for e in events] == [None, 1000]
    assert target.progress(vv, 2026).target == 200  # type: ignore[union-attr]


def test_vv_10_1_without_an_estimate_there_is_no_target_yet(vv) -> None:
    _done(5, date(2026, 3, 1))
    year = target.progress(vv, 2026)
    assert year is not None and (year.target, year.done, year.reached) == (None, 5, False)
    assert [p.year for p in target.history(vv, TODAY)] == [2026]


@pytest.mark.parametrize(
    ("changes", "field", "code"),
    [
        ({"year": 1999}, "year", "invalid_year"),
        ({"year": 2028}, "year", "invalid_year"),  # next year (2027) is the last accepted
        ({"year": None}, "year", "invalid_year"),
        ({"dogs_and_cats": 0}, "dogs_and_cats", "invalid_estimate"),
        ({"dogs_and_cats": 10_000_001}, "dogs_and_cats", "invalid_estimate"),
        ({"source": " "}, "source", "required"),
    ],
)
def test_vv_10_1_each_input_is_checked(vv, changes, field, code) -> None:
    values = dict(
        year=2026,
        dogs_and_cats=1000,
        source="Censo",
        staff=factories.user(roles=("coordinator",)),
        today=TODAY,
    )
    values.update(changes)
    with pytest.raises(services.SterilisationError) as err:
        target.save_estimate(vv, **values)  # type: ignore[arg-type]
    assert (err.value.field, err.value.code) == (field, code)
    ok = {**values, **{"year": 2027, "dogs_and_cats": 1, "source": "Censo"}}
    assert target.save_estimate(vv, **ok).year == 2027  # type: ignore[arg-type]


def test_vv_10_1_the_staff_page_shows_done_against_target_and_keeps_the_estimate(
    make_app,
) -> None:
    app = make_app(PORTAL_PROFILE="vilavelha")
    client = app.test_client()
    with app.app_context(), app.test_request_context():
        auth = AuthActions(client)
        coord = factories.user(roles=("coordinator",))
        db.session.commit()
        auth.login(coord)
        year = local_today().year
        sent = client.post(
            "/ccz/castracao/estimativa",
            data={"year": str(year), "dogs_and_cats": "", "source": "Censo"},
        )
        assert "Campo obrigatório." in sent.get_data(as_text=True)
        sent = client.post(
            "/ccz/castracao/estimativa",
            data={"year": str(year), "dogs_and_cats": "1005", "source": "Censo animal"},
        )
        assert sent.status_code == 302
        _done(7, local_today())
        db.session.commit()
        page = client.get("/ccz/castracao").get_data(as_text=True)
        assert "Meta anual" in page and "VV 10 §1" in page
        assert "1.005" in page and "101" in page and "faltam 94 castrações" in page
        auth.logout()
        auth.login(factories.user(roles=("agent",)))
        refused = client.post(
            "/ccz/castracao/estimativa",
            data={"year": str(year), "dogs_and_cats": "1", "source": "x"},
        )
        assert refused.status_code == 403
        assert target.estimate_for(year).dogs_and_cats == 1005  # type: ignore[union-attr]


def test_vv_10_1_the_rules_page_states_the_target_and_the_reading(vv) -> None:
    section = next(s for s in rule_sections(vv) if s.anchor == "castracao")
    assert [item.article for item in section.items] == ["VV 10 §1", "VV 10 §2"]
    assert "10 %" in section.items[0].text


def test_vv_10_1_a_city_without_a_target_sees_nothing(app, client) -> None:
    profile = app.extensions["portal_profile"]  # Guarulhos: GRU 8, no share
    assert target.progress(profile, 2026) is None and target.history(profile, TODAY) == []
    with pytest.raises(services.SterilisationError) as err:
        _estimate(profile, 1000)
    assert err.value.code == "no_target"
    assert not [s for s in rule_sections(profile) if s.anchor == "castracao"]
    auth = AuthActions(client)
    auth.login(roles=("coordinator",))
    page = client.get("/ccz/castracao").get_data(as_text=True)
    assert "Meta anual" not in page
    assert (
        client.post(
            "/ccz/castracao/estimativa", data={"year": "2026", "dogs_and_cats": "1", "source": "x"}
        ).status_code
        == 404
    )


def test_vv_10_1_the_bounds_are_accepted_and_the_refusal_names_them(vv) -> None:
    staff = factories.user(roles=("coordinator",))
    first = target.save_estimate(
        vv, year=2000, dogs_and_cats=10_000_000, source="Censo", staff=staff, today=TODAY
    )
    assert (first.year, first.dogs_and_cats) == (2000, 10_000_000)
    with pytest.raises(services.SterilisationError) as err:
        target.save_estimate(
            vv, year=1999, dogs_and_cats=10, source="Censo", staff=staff, today=TODAY
        )
    assert err.value.message == "Informe um ano de 2000 a 2027."


def test_vv_10_1_the_estimate_keeps_its_source_cut_and_its_audit_entry(vv) -> None:
    staff = factories.user(roles=("coordinator",))
    row = target.save_estimate(
        vv, year=2026, dogs_and_cats=1234, source=f" {'x' * 301} ", staff=staff, today=TODAY
    )
    assert row.source == "x" * 300 and row.updated_at.tzinfo is not None
    (event,) = db.session.scalars(
        select(AuditEvent).where(AuditEvent.action == "sterilisation.estimate_set")
    ).all()
    assert (event.subject_type, event.subject_id, event.actor_id) == (
        "SterilisationEstimate",
        str(row.id),
        staff.id,
    )
    assert event.detail == {"year": 2026, "dogs_and_cats": 1234, "previous": None}


def test_vv_10_1_the_history_lists_the_years_newest_first(vv) -> None:
    _estimate(vv, 1000, year=2024)
    _estimate(vv, 1000, year=2025)
    assert [p.year for p in target.history(vv, TODAY)] == [2026, 2025, 2024]
