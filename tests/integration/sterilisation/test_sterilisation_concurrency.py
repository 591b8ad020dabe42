"""The last places of a surgery day taken at the same instant: a day never takes more animals than
its capacity. Only PostgreSQL runs transactions truly in parallel (SQLite serialises writers)."""

from __future__ import annotations

import os
import threading
from datetime import timedelta

import pytest
from sqlalchemy import func, select

from portal.blueprints.sterilisation import services
from portal.extensions import db
from portal.models import BookingStatus, SterilisationBooking, SterilisationSlot
from portal.services.clock import local_today
from tests import factories

pytestmark = [
    pytest.mark.skipif(
        not os.environ.get("TEST_DATABASE_URL", "").startswith("postgres"),
        reason="needs PostgreSQL: SQLite serialises all writers, so there is no race to test",
    ),
    pytest.mark.real_commits,  # threads on their own connections must see each other's commits
]


def test_six_people_at_once_for_two_places_get_exactly_two(app) -> None:
    profile = app.extensions["portal_profile"]
    today = local_today()
    coord = factories.user(roles=("coordinator",))
    site = services.save_site(
        None,
        services.SiteData(name="CCZ", partner_kind="ccz", address="Rua A, 1", district="Centro"),
        coord,
        profile=profile,
    )
    slot_id = services.add_slot(site, today + timedelta(days=3), 2, coord, today=today).id
    pairs = []
    for _n in range(6):
        person = factories.user()
        pairs.append((person.id, factories.animal(person).id))
    db.session.commit()
    barrier = threading.Barrier(len(pairs))
    outcomes: list[str] = []

    def book(person_id: int, animal_id: int) -> None:
        from portal.models import Animal, User

        with app.app_context():
            barrier.wait(timeout=30)
            person = db.session.get(User, person_id)
            slot = db.session.get(SterilisationSlot, slot_id)
            request = services.BookingRequest(animal=db.session.get(Animal, animal_id), slot=slot)
            try:
                services.request_booking(person, request, profile=profile, today=today)
                db.session.commit()
                outcomes.append("booked")
            except services.SterilisationError as err:
                db.session.rollback()
                outcomes.append(err.code)

    threads = [threading.Thread(target=book, args=pair) for pair in pairs]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert sorted(outcomes) == ["booked"] * 2 + ["slot_full"] * 4
    taken = db.session.scalar(
        select(func.count(SterilisationBooking.id)).where(
            SterilisationBooking.slot_id == slot_id,
            SterilisationBooking.status == BookingStatus.BOOKED,
        )
    )
    assert taken == 2
