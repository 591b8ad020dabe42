"""Second copies (GRU 19; BJP 8) and the death report (GRU 21)."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from portal.blueprints.animals import services
from portal.blueprints.animals.rga import (
    parse_rga,
)
from portal.extensions import db
from portal.models import PaymentItem
from tests import factories
from tests.factories import RGA_TODAY as TODAY
from tests.factories import profile_app as profile
from tests.factories import rga_register as register


@pytest.fixture
def gru(app):
    with app.test_request_context():
        yield app.extensions["portal_profile"]


# --------------------------------------------------------------------------------------------
# Second copy (GRU 19; BJP 8) and death (GRU 21)
# --------------------------------------------------------------------------------------------


def test_gru_19_provisional_copy_valid_45_days(gru) -> None:
    owner = factories.user()
    copy = services.request_copy(
        factories.animal(owner), "card", requested_by=owner, profile=gru, today=TODAY
    )
    assert copy.valid_until == TODAY + timedelta(days=45) == date(2026, 4, 30)
    item = db.session.get(PaymentItem, copy.payment_item_id)
    assert (item.kind, item.amount_cents) == ("card_copy", 1000)
    staff = factories.user(roles=("agent",))
    services.mark_copy_issued(copy, staff)
    assert copy.status == "issued"


def test_bjp_8_provisional_copy_valid_60_days(make_app) -> None:
    with profile(make_app, "bjp") as bjp:
        owner = factories.user()
        copy = services.request_copy(
            factories.animal(owner), "tag", requested_by=owner, profile=bjp, today=TODAY
        )
        assert copy.valid_until == TODAY + timedelta(days=60)


def test_vv_has_no_provisional_id(make_app) -> None:
    with profile(make_app, "vilavelha") as vv:
        owner = factories.user()
        copy = services.request_copy(
            factories.animal(owner), "card", requested_by=owner, profile=vv, today=TODAY
        )
        assert copy.valid_until is None


def test_gru_21_death_closes_rga_never_reused(gru) -> None:
    owner = factories.user()
    animal = register(owner, gru, birth_date=TODAY - timedelta(days=400))
    number = animal.rga
    services.report_death(animal, reported_by=owner, died_on=TODAY, today=TODAY)
    assert animal.status == "closed" and animal.closed_reason == "death" and animal.rga == number
    assert services.household_count(animal.residence_key, TODAY, gru) == 0
    successor = register(owner, gru, birth_date=TODAY - timedelta(days=400), name="Novo")
    assert successor.rga != number
    assert parse_rga(successor.rga).sequence > parse_rga(number).sequence
    with pytest.raises(services.AnimalError):
        services.report_death(animal, reported_by=owner, died_on=TODAY, today=TODAY)
    with pytest.raises(services.AnimalError):
        services.transfer_animal(animal, factories.user(), immediate=True, profile=gru, today=TODAY)


def test_death_date_must_be_plausible(gru) -> None:
    owner = factories.user()
    animal = factories.animal(owner, birth_date=TODAY - timedelta(days=100))
    for died in (TODAY + timedelta(days=1), TODAY - timedelta(days=200)):
        with pytest.raises(services.AnimalError) as err:
            services.report_death(animal, reported_by=owner, died_on=died, today=TODAY)
        assert err.value.field == "died_on"
