"""Transfers of an animal with an RGA (BJP 7; GRU 18)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from portal.blueprints.animals import services
from tests import factories
from tests.factories import RGA_TODAY as TODAY


@pytest.fixture
def gru(app):
    with app.test_request_context():
        yield app.extensions["portal_profile"]


# --------------------------------------------------------------------------------------------
# Transfers (BJP 7; GRU 18)
# --------------------------------------------------------------------------------------------


def test_gru_18_par2_previous_owner_responsible_until_acceptance(gru) -> None:
    old, new = factories.user(), factories.user(street="Rua Nova", number="5")
    animal = factories.animal(old)
    offer = services.request_transfer(animal, old, new.cpf, profile=gru, today=TODAY)
    assert offer.status == "pending" and animal.owner_id == old.id
    assert animal.residence_key == services.owner_residence_key(old)
    services.accept_transfer(offer, new, profile=gru, today=TODAY)
    assert animal.owner_id == new.id and offer.status == "accepted" and offer.accepted_at
    assert animal.residence_key == services.owner_residence_key(new)


def test_gru_37_transfer_acceptance_checks_the_new_residence(gru) -> None:
    old, new = factories.user(), factories.user(street="Rua Cheia", number="1")
    for _ in range(5):
        factories.animal(new, birth_date=TODAY - timedelta(days=400))
    animal = factories.animal(old, birth_date=TODAY - timedelta(days=400))
    offer = services.request_transfer(animal, old, new.cpf, profile=gru, today=TODAY)
    with pytest.raises(services.HouseholdLimitExceeded):
        services.accept_transfer(offer, new, profile=gru, today=TODAY)


def test_transfer_refuses_bad_cpf_unknown_person_and_other_peoples_animals(gru) -> None:
    owner, stranger = factories.user(), factories.user()
    animal = factories.animal(owner)
    cases = [
        (owner, "123.456.789-00", "invalid_cpf"),
        (owner, factories.make_cpf(99999), "not_found"),
        (stranger, owner.cpf, "not_allowed"),
    ]
    for who, cpf, code in cases:
        with pytest.raises(services.AnimalError) as err:
            services.request_transfer(animal, who, cpf, profile=gru, today=TODAY)
        assert err.value.code == code


def test_transfer_animal_immediate_for_adoption(gru) -> None:
    old, new = factories.user(), factories.user(street="Rua B", number="2")
    animal = factories.animal(old)
    offer = services.transfer_animal(animal, new, immediate=True, profile=gru, today=TODAY)
    assert offer.status == "accepted" and animal.owner_id == new.id
