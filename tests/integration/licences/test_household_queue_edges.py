"""The households above the limit that staff watch, and the RGAs waiting for a licence (issue 16):
GRU 37 (5 dogs and cats older than 120 days per residence, not in flats, condominiums or rural
homes), GRU 37 §1 (a valid licence lifts the limit), at the exact limit and the day after."""

from __future__ import annotations

from datetime import date, timedelta
from itertools import count

import pytest
from sqlalchemy import select

from portal.blueprints.licences import services
from portal.blueprints.licences.household import counted, household_viewed
from portal.extensions import db
from portal.models import Animal, ExcessLicence, LicenceAnimal, LicenceStatus
from tests import factories

TODAY = date(2026, 6, 10)
_codes = count(1)


def _pets(owner, n, *, age_days=500, **fields):  # type: ignore[no-untyped-def]
    pets = [
        factories.animal(owner, birth_date=TODAY - timedelta(days=age_days), **fields)
        for _ in range(n)
    ]
    db.session.flush()
    return pets


def _queue(profile, on=TODAY):  # type: ignore[no-untyped-def]
    return db.session.scalars(services.households_above_limit(profile, on)).all()


def _licence(owner, *, status=LicenceStatus.APPROVED, valid_from=None, valid_until=None):  # type: ignore[no-untyped-def]
    pet = db.session.scalars(select(Animal).where(Animal.owner_id == owner.id)).first()
    licence = ExcessLicence(
        code=f"LIC-{next(_codes)}",
        holder_id=owner.id,
        residence_key=pet.residence_key,
        address_line="Rua das Flores",
        status=status,
        animals_requested=7,
        requested_on=TODAY - timedelta(days=60),
        valid_from=valid_from or TODAY - timedelta(days=30),
        valid_until=valid_until or TODAY + timedelta(days=300),
        max_animals=7,
    )
    db.session.add(licence)
    db.session.flush()
    return licence


def test_gru_37_six_counted_animals_put_the_household_in_the_queue_five_do_not(gru):
    over, at_limit = factories.user(), factories.user()
    first = _pets(over, 6)[0]
    _pets(at_limit, 5)
    queue = _queue(gru)
    # One row per household: its first registered animal.
    assert [a.id for a in queue] == [first.id]


def test_gru_37_the_count_is_per_residence(gru):
    a, b = factories.user(), factories.user()
    _pets(a, 3)
    _pets(b, 3)  # six in all, three per residence
    assert _queue(gru) == []
    # Two owners at the same address are one household.
    flatmate = factories.user(street=a.street, number=a.number, cep=a.cep)
    _pets(flatmate, 3)
    assert [p.owner_id for p in _queue(gru)] == [a.id]


def test_gru_37_young_animals_do_not_count_until_120_days(gru):
    owner = factories.user()
    _pets(owner, 5)
    # Born exactly 120 days before: not yet "older than 120 days".
    (young,) = _pets(owner, 1, age_days=120)
    assert _queue(gru) == []
    assert _queue(gru, TODAY + timedelta(days=1))[0].owner_id == owner.id
    assert counted([young], TODAY, gru) == 0
    assert counted([young], TODAY + timedelta(days=1), gru) == 1


def test_gru_37_a_closed_rga_does_not_count_a_cat_does(gru):
    owner = factories.user()
    _pets(owner, 5)
    _pets(owner, 1, status="closed")  # GRU 21: death reported
    assert _queue(gru) == []
    _pets(owner, 1, species="cat")
    assert len(_queue(gru)) == 1


def test_gru_37_not_counted_in_flats_condominiums_and_rural_homes(gru):
    flat, house, unknown = (
        factories.user(housing_type="apartment_condo"),
        factories.user(housing_type="house"),
        factories.user(housing_type=None),
    )
    for owner in (flat, house, unknown):
        _pets(owner, 6)
    # An owner who never said how they live is read as a house (the law's rule applies).
    assert sorted(a.owner_id for a in _queue(gru)) == sorted([house.id, unknown.id])


@pytest.mark.parametrize(
    ("status", "valid_until", "listed"),
    [
        (LicenceStatus.APPROVED, TODAY + timedelta(days=300), False),
        (LicenceStatus.APPROVED, TODAY, False),  # GRU 37 §1 IV: the last valid day
        (LicenceStatus.APPROVED, TODAY - timedelta(days=1), True),  # expired yesterday
        (LicenceStatus.REFUSED, TODAY + timedelta(days=300), True),
        (LicenceStatus.CANCELLED, TODAY + timedelta(days=300), True),  # GRU 37 §1 III
    ],
)
def test_gru_37_par1_only_a_valid_licence_keeps_the_household_out(gru, status, valid_until, listed):
    owner = factories.user()
    _pets(owner, 6)
    _licence(owner, status=status, valid_until=valid_until)
    assert bool(_queue(gru)) is listed


def test_gru_37_par1_a_licence_not_yet_in_force_does_not_count(gru):
    owner = factories.user()
    _pets(owner, 6)
    _licence(owner, valid_from=TODAY + timedelta(days=1))
    assert len(_queue(gru)) == 1


def test_a_city_without_a_limit_has_no_queue(make_app):
    app = make_app(PORTAL_PROFILE="vilavelha")
    with app.app_context(), app.test_request_context():
        owner = factories.user()
        _pets(owner, 12)
        assert _queue(app.extensions["portal_profile"]) == []


def test_opening_a_household_is_on_record(gru):
    owner = factories.user()
    (first,) = _pets(owner, 1)
    household_viewed(first)
    (event,) = factories.audit_events("licence.household_viewed")
    assert (event.subject_type, event.subject_id) == ("Animal", str(first.id))


# -- RGAs issued inside a licence request --------------------------------------------------------


def _inside(licence, pet, *, covered=False):  # type: ignore[no-untyped-def]
    link = LicenceAnimal(licence=licence, animal=pet, registered_inside=True, covered=covered)
    db.session.add(link)
    db.session.flush()
    return link


def test_gru_37_rga_inside_a_request_waits_for_the_decision_on_that_request(gru):
    owner = factories.user()
    pet, other = _pets(owner, 2)
    request = _licence(owner, status=LicenceStatus.REQUESTED)
    _inside(request, pet)
    code, message = services.rga_hold(pet)
    assert code == "licence" and f"nº {request.id}" in message
    assert services.rga_hold(other) is None  # not registered inside any request


def test_gru_37_rga_hold_after_the_decision(gru):
    owner = factories.user()
    named, left_out, refused_pet = _pets(owner, 3)
    approved = _licence(owner)
    _inside(approved, named, covered=True)
    _inside(approved, left_out, covered=False)
    assert services.rga_hold(named) is None
    code, message = services.rga_hold(left_out)
    assert code == "licence_not_covered" and f"nº {approved.id}" in message
    refused = _licence(owner, status=LicenceStatus.REFUSED)
    _inside(refused, refused_pet)
    code, message = services.rga_hold(refused_pet)
    assert code == "licence_refused" and f"nº {refused.id}" in message
    # A licence cancelled later keeps the RGAs it named definitive.
    approved.status = LicenceStatus.CANCELLED
    assert services.rga_hold(named) is None


def test_gru_37_the_latest_request_decides_an_rga(gru):
    owner = factories.user()
    (pet,) = _pets(owner, 1)
    refused = _licence(owner, status=LicenceStatus.REFUSED)
    _inside(refused, pet)
    again = _licence(owner, status=LicenceStatus.REQUESTED)
    _inside(again, pet)
    code, message = services.rga_hold(pet)
    assert code == "licence" and f"nº {again.id}" in message


# -- the allowance a valid licence gives (GRU 37 §1 II; BJP 17 §5; CAB 31 §2) ----------------------


def _licensed(owner, pets, *, covered=True, **fields):  # type: ignore[no-untyped-def]
    licence = _licence(owner, **fields)
    for pet in pets:
        db.session.add(LicenceAnimal(licence=licence, animal=pet, covered=covered))
    db.session.flush()
    return licence


def test_gru_37_par1_ii_the_named_animals_above_five_are_the_allowance(gru):
    owner = factories.user()
    pets = _pets(owner, 7)
    licence = _licensed(owner, pets)  # up to 7 (max_animals)
    key = licence.residence_key
    assert services.household_allowance(gru, key, TODAY).limit == 7
    # One named animal dies: never replaced, the allowance goes down to 6.
    pets[6].status = "closed"
    db.session.flush()
    allowance = services.household_allowance(gru, key, TODAY)
    assert (allowance.limit, allowance.licence) == (6, licence)
    # Another dies, and another: never below the plain limit of 5.
    pets[5].status = pets[4].status = "closed"
    db.session.flush()
    assert services.household_allowance(gru, key, TODAY).limit == 5


def test_gru_37_par1_ii_only_animals_named_in_this_licence_and_living_here_count(gru):
    owner, neighbour = factories.user(), factories.user()
    pets = _pets(owner, 5)
    unnamed = _pets(owner, 1)
    sixth = _pets(owner, 1)
    licence = _licensed(owner, pets + sixth)
    # Listed in the request but not named in the decision.
    db.session.add(LicenceAnimal(licence=licence, animal=unnamed[0], covered=False))
    other_home = _pets(neighbour, 1)
    db.session.add(LicenceAnimal(licence=licence, animal=other_home[0], covered=True))
    db.session.flush()
    # The neighbour's animal is named but lives elsewhere; the unnamed one does not count: 6.
    assert services.household_allowance(gru, licence.residence_key, TODAY).limit == 6


def test_gru_37_a_named_puppy_counts_once_older_than_120_days(gru):
    owner = factories.user()
    adults = _pets(owner, 5)
    puppy = _pets(owner, 1, age_days=120)
    licence = _licensed(owner, adults + puppy)
    key = licence.residence_key
    assert services.household_allowance(gru, key, TODAY).limit == 5
    assert services.household_allowance(gru, key, TODAY + timedelta(days=1)).limit == 6


def test_gru_37_the_latest_of_two_valid_licences_decides(gru):
    owner = factories.user()
    pets = _pets(owner, 8)
    old = _licensed(owner, pets[:6], valid_until=TODAY + timedelta(days=10))
    renewal = _licensed(owner, pets, valid_until=TODAY + timedelta(days=375))
    renewal.max_animals = 8
    assert services.valid_licence(old.residence_key, TODAY) == renewal
    assert services.household_allowance(gru, old.residence_key, TODAY).limit == 8
    # A licence not in force yet is not the valid one.
    future = _licensed(owner, pets, valid_from=TODAY + timedelta(days=1))
    assert services.valid_licence(old.residence_key, TODAY) == renewal
    assert services.valid_licence(old.residence_key, TODAY + timedelta(days=11)) in (
        renewal,
        future,
    )


def test_gru_37_a_licence_request_registering_its_own_animals_checks_them_itself(gru):
    from portal.blueprints.licences.household import registering_inside_request

    owner = factories.user()
    (pet,) = _pets(owner, 1)
    key = pet.residence_key
    with registering_inside_request(key):
        inside = services.household_allowance(gru, key, TODAY)
        elsewhere = services.household_allowance(gru, "outra-residencia", TODAY)
    assert inside.inside_request is True and inside.limit >= 10**6
    assert (elsewhere.inside_request, elsewhere.limit) == (False, 5)
    assert services.household_allowance(gru, key, TODAY).inside_request is False


def test_cab_31_par2_kennel_laudo_sets_the_number_and_is_the_licence(make_app):
    app = make_app(PORTAL_PROFILE="cabeceira")
    with app.app_context(), app.test_request_context():
        cab = app.extensions["portal_profile"]
        owner = factories.user()
        pets = _pets(owner, 3)
        licence = _licensed(owner, pets)
        licence.max_animals = 14
        allowance = services.household_allowance(cab, licence.residence_key, TODAY)
        assert (allowance.limit, allowance.licence) == (14, licence)


def test_residence_animals_in_order_of_registration_without_closed_ones(gru):
    from datetime import UTC, datetime

    from portal.blueprints.licences.household import residence_animals

    owner = factories.user()
    first, second, gone = _pets(owner, 3)
    first.registered_at = datetime(2026, 1, 2, tzinfo=UTC)
    second.registered_at = datetime(2026, 1, 1, tzinfo=UTC)
    gone.status = "closed"
    db.session.flush()
    assert residence_animals(first.residence_key) == [second, first]


def test_gru_37_the_licence_valid_longest_decides_then_the_latest(gru):
    owner = factories.user()
    pets = _pets(owner, 8)
    longer = _licensed(owner, pets, valid_until=TODAY + timedelta(days=375))
    shorter = _licensed(owner, pets[:6], valid_until=TODAY + timedelta(days=10))
    key = longer.residence_key
    assert services.valid_licence(key, TODAY) == longer
    # Same last day: the one decided later.
    again = _licensed(owner, pets, valid_until=TODAY + timedelta(days=375))
    assert services.valid_licence(key, TODAY) == again
    # One that starts tomorrow is not in force today, however long it runs.
    _licensed(
        owner, pets, valid_from=TODAY + timedelta(days=1), valid_until=TODAY + timedelta(days=900)
    )
    assert services.valid_licence(key, TODAY) == again
    assert shorter.id


def test_gru_37_par1_ii_animals_named_only_in_an_earlier_licence_do_not_count(gru):
    owner = factories.user()
    pets = _pets(owner, 7)
    _licensed(
        owner, pets, valid_from=TODAY - timedelta(days=400), valid_until=TODAY - timedelta(days=35)
    )
    current = _licensed(owner, pets[:6])
    assert services.household_allowance(gru, current.residence_key, TODAY).limit == 6


def test_gru_37_a_licensed_household_leaves_the_queue_the_others_stay(gru):
    licensed, unlicensed = factories.user(), factories.user()
    _pets(licensed, 6)
    first = _pets(unlicensed, 6)[0]
    _licence(licensed)
    assert [a.id for a in _queue(gru)] == [first.id]


def test_a_city_without_a_limit_lists_no_household_however_many_animals(make_app):
    app = make_app(PORTAL_PROFILE="vilavelha")
    with app.app_context(), app.test_request_context():
        owner = factories.user()
        _pets(owner, 61)
        assert _queue(app.extensions["portal_profile"]) == []


def test_residence_animals_registered_at_the_same_moment_in_rga_order(gru):
    from datetime import UTC, datetime

    from portal.blueprints.licences.household import residence_animals

    owner = factories.user()
    pets = _pets(owner, 3)
    for pet in pets:
        pet.registered_at = datetime(2026, 1, 1, tzinfo=UTC)
    db.session.flush()
    assert residence_animals(pets[0].residence_key) == sorted(pets, key=lambda p: p.id)


def test_gru_37_an_animal_already_registered_and_listed_in_a_request_has_no_hold(gru):
    owner = factories.user()
    (pet,) = _pets(owner, 1)
    request = _licence(owner, status=LicenceStatus.REQUESTED)
    db.session.add(LicenceAnimal(licence=request, animal=pet, registered_inside=False))
    db.session.flush()
    assert services.rga_hold(pet) is None
