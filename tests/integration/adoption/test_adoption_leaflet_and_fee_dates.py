"""The adopter's leaflet (VV 28 §3) and the adoption fee (CAB 17) count days in the
municipality's time zone; ages are spelled in plain Portuguese; the leaflet's PDF keeps each
heading with its text."""

from __future__ import annotations

from datetime import date

import pytest

from portal.blueprints.adoption import applications as apps
from portal.extensions import db
from portal.models import AdoptionApplication, Listing
from tests.factories import eligible_person, make_listing, ngo_user, pdf_page_lines

ANSWERS = apps.Answers(
    home_type="house_yard", other_animals="none", caretaker="Eu", holidays="Minha mãe"
)


def _submitted(listing: Listing, person=None) -> AdoptionApplication:  # type: ignore[no-untyped-def]
    from flask import current_app

    return apps.submit_application(
        current_app.extensions["portal_profile"],
        person or eligible_person(),
        listing,
        ANSWERS,
        True,
        date.today(),
    )


def test_vv_28_par3_leaflet_prints_the_local_day_of_a_late_evening_adoption(app) -> None:
    from datetime import UTC, datetime

    from portal.blueprints.adoption.leaflet import leaflet_intro

    reviewer, org = ngo_user()
    application = _submitted(make_listing(org, author=reviewer))
    # 22:30 in São Paulo on 29/11 is 01:30 UTC on 30/11.
    application.completed_at = datetime(2026, 11, 30, 1, 30, tzinfo=UTC)
    application.rga_number = "C-2026-000001-0"
    assert "29/11/2026" in leaflet_intro(application)


def test_cab_17_days_held_count_from_the_local_day_of_publication(make_app) -> None:
    from datetime import UTC, datetime

    from portal.models import UnitValue

    app = make_app(PORTAL_PROFILE="cabeceira")
    with app.app_context():
        profile = app.extensions["portal_profile"]
        db.session.add(UnitValue(unit="UFM", value_cents=10_000, effective_from=date(2026, 1, 1)))
        listing = make_listing(None, on=date(2026, 11, 20))
        # Published at 22:00 on 20/11 in the municipality: 01:00 UTC on 21/11.
        listing.published_at = datetime(2026, 11, 21, 1, 0, tzinfo=UTC)
        fee = apps.adoption_fee(profile, listing, date(2026, 11, 27))
        assert fee is not None
        total, _breakdown = fee
        assert total == 7 * 5_000  # CAB 17: 50 % UFM per day, 7 days from 20/11


@pytest.mark.parametrize(
    ("birth", "on", "text"),
    [
        (date(2024, 5, 10), date(2026, 6, 10), "2 anos e 1 mês"),
        (date(2025, 5, 10), date(2026, 8, 10), "1 ano e 3 meses"),
        (date(2026, 11, 20), date(2026, 11, 29), "menos de 1 mês"),
    ],
)
def test_ages_are_spelled_without_parenthesised_plurals(app, birth, on, text) -> None:
    from portal.blueprints.adoption.routes import age_label

    with app.test_request_context():
        assert age_label(birth, False, on) == text


def test_vv_28_par3_leaflet_pdf_never_ends_a_page_with_a_heading(app) -> None:
    from portal.blueprints.adoption.leaflet import leaflet_pdf, leaflet_sections

    reviewer, org = ngo_user()
    application = _submitted(make_listing(org, author=reviewer, story="x" * 300))
    application.rga_number = "C-2026-000001-0"
    with app.test_request_context():
        pages = pdf_page_lines(leaflet_pdf(application))
        titles = {s.title for s in leaflet_sections(application)}
    assert len(pages) >= 2  # only a leaflet with page breaks can end a page with a heading
    assert titles <= {line for lines in pages for line in lines}  # every heading read back
    for lines in pages:
        assert lines[-1] not in titles, lines[-1]
