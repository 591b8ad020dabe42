"""The household limit (DOMAIN §4: GRU 37; BJP 17; CABO 33; VV 2) and where animals live."""

from __future__ import annotations

from datetime import timedelta

import pytest

from portal.blueprints.animals import services
from portal.extensions import db
from tests import factories
from tests.factories import RGA_TODAY as TODAY
from tests.factories import profile_app as profile
from tests.factories import rga_register as register


@pytest.fixture
def gru(app):
    with app.test_request_context():
        yield app.extensions["portal_profile"]


# --------------------------------------------------------------------------------------------
# Household limit (DOMAIN §4)
# --------------------------------------------------------------------------------------------


def test_gru_37_household_limit_counts_all_owners_at_residence(gru) -> None:
    adult = TODAY - timedelta(days=400)
    first = factories.user(street="Rua das Flores", number="10", complement="Apto 12")
    second = factories.user(street="R. das Flores", number="10", complement="ap. 12")
    for i in range(3):
        factories.animal(first, birth_date=adult, name=f"A{i}")
    for i in range(2):
        factories.animal(second, birth_date=adult, name=f"B{i}")
    key = services.owner_residence_key(first)
    assert key == services.owner_residence_key(second)
    assert services.household_count(key, TODAY, gru) == 5
    with pytest.raises(services.HouseholdLimitExceeded) as err:
        register(second, gru, birth_date=TODAY - timedelta(days=150))
    assert err.value.code == "household_limit" and err.value.article == "GRU 37"
    assert "5" in err.value.message and "120" in err.value.message


def test_gru_37_only_animals_older_than_120_days_count(gru) -> None:
    owner = factories.user()
    key = services.owner_residence_key(owner)
    factories.animal(owner, birth_date=TODAY - timedelta(days=120))  # exactly 120: not older
    factories.animal(owner, birth_date=TODAY - timedelta(days=121))
    factories.animal(owner, birth_date=TODAY - timedelta(days=500), status="closed")
    factories.animal(owner, birth_date=TODAY - timedelta(days=500), status="pending")
    assert services.household_count(key, TODAY, gru) == 2


def test_gru_37_a_puppy_that_does_not_count_yet_is_not_refused(gru) -> None:
    owner = factories.user()
    for _ in range(5):
        factories.animal(owner, birth_date=TODAY - timedelta(days=400))
    puppy = register(owner, gru, birth_date=TODAY - timedelta(days=100))
    assert puppy.rga


def test_gru_37_par2_condo_flat_excluded(gru) -> None:
    owner = factories.user(housing_type="apartment_condo")
    for _ in range(5):
        factories.animal(owner, birth_date=TODAY - timedelta(days=400))
    animal = register(owner, gru, birth_date=TODAY - timedelta(days=400))
    assert animal.late_registration is True
    house = factories.user(housing_type="house")
    for _ in range(5):
        factories.animal(house, birth_date=TODAY - timedelta(days=400))
    services.check_household_limit(gru, house, housing_type="apartment_condo", on=TODAY)
    with pytest.raises(services.HouseholdLimitExceeded):
        services.check_household_limit(gru, house, on=TODAY)


def test_gru_37_par1_over_the_limit_names_and_links_the_licence_request(app, gru) -> None:
    owner = factories.user()
    for _ in range(5):
        factories.animal(owner, birth_date=TODAY - timedelta(days=400))
    with pytest.raises(services.HouseholdLimitExceeded) as err:
        services.check_household_limit(gru, owner, on=TODAY)
    assert err.value.licence_url == "/licencas/pedido"
    assert "licença especial" in err.value.message
    # without a licence the household has the plain limit (the licence rules are tested in
    # tests/integration/licences)
    assert services.licensed_limit(gru, "x", TODAY) is None


def test_bjp_17_limit_is_10_older_than_90_days(make_app) -> None:
    with profile(make_app, "bjp") as bjp:
        owner = factories.user()
        for _ in range(9):
            factories.animal(owner, birth_date=TODAY - timedelta(days=91))
        services.check_household_limit(bjp, owner, on=TODAY)
        factories.animal(owner, birth_date=TODAY - timedelta(days=91))
        with pytest.raises(services.HouseholdLimitExceeded) as err:
            services.check_household_limit(bjp, owner, on=TODAY)
        # BJP 17 §6: the licence requests closed on 17/12/2010: no link to a request page
        assert err.value.article == "BJP 17" and "BJP 17 §6" in err.value.message
        assert err.value.licence_url is None


def test_vv_2_no_household_limit(make_app) -> None:
    with profile(make_app, "vilavelha") as vv:
        owner = factories.user()
        for _ in range(30):
            factories.animal(owner, birth_date=TODAY - timedelta(days=400))
        services.check_household_limit(vv, owner, extra=5, on=TODAY)


def test_cabo_33_above_the_limit_is_forbidden_without_licence_link(make_app) -> None:
    with profile(make_app, "cabo") as cabo:
        owner = factories.user()
        for _ in range(cabo.household.limit):
            factories.animal(owner, birth_date=TODAY - timedelta(days=400))
        with pytest.raises(services.HouseholdLimitExceeded) as err:
            services.check_household_limit(cabo, owner, on=TODAY)
        assert err.value.licence_url is None and "não permite" in err.value.message


def test_household_needs_a_complete_address(gru) -> None:
    owner = factories.user(cep=None, street=None, number=None)
    with pytest.raises(services.AnimalError) as err:
        register(owner, gru)
    assert (err.value.field, err.value.code) == ("owner.address", "required")


def test_animals_move_with_their_owner_when_the_address_changes(gru) -> None:
    owner = factories.user()
    pet = factories.animal(owner)
    closed = factories.animal(owner, status="closed")
    old_key = closed.residence_key
    owner.street, owner.number = "Avenida Brasil", "999"
    services.move_animals_with_owner(owner)
    assert pet.residence_key == services.owner_residence_key(owner) != old_key
    assert closed.residence_key == old_key  # a closed RGA stays where it ended


def test_nothing_moves_the_animals_without_the_explicit_call(gru) -> None:
    """No flush hook: writing an address outside the services that call
    move_animals_with_owner leaves the animals where they were."""
    owner = factories.user()
    pet = factories.animal(owner)
    old_key = pet.residence_key
    owner.street, owner.number = "Avenida Brasil", "999"
    db.session.flush()
    db.session.expire(pet)
    assert pet.residence_key == old_key != services.owner_residence_key(owner)


def test_the_wizard_address_moves_the_animals(gru) -> None:
    owner = factories.user()
    pet = factories.animal(owner)
    services.update_owner_address(
        owner,
        cep="07010-000",
        street="Rua Dom Pedro II",
        number="120",
        complement=None,
        district="Centro",
        city="Guarulhos",
        state="SP",
        housing_type="house",
    )
    assert pet.residence_key == services.owner_residence_key(owner)
