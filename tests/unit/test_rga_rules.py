"""RGA rules, one test per provision: numbers, age window, household limit, rabies proof,
transfers, second copies, death, fees. Named after the article they check."""

from __future__ import annotations

import itertools
from contextlib import contextmanager
from datetime import date, timedelta

import pytest
from sqlalchemy import select

from portal.blueprints.animals import services
from portal.blueprints.animals.rga import (
    InvalidRgaNumber,
    format_rga,
    normalise_rga,
    parse_rga,
)
from portal.extensions import db
from portal.models import Animal, PaymentItem
from portal.services.api_auth import issue_client
from tests import factories

TODAY = date(2026, 3, 16)
_chips = itertools.count(1)


@contextmanager
def profile(make_app, key: str):
    app = make_app(PORTAL_PROFILE=key)
    with app.app_context(), app.test_request_context():
        yield app.extensions["portal_profile"]


def data(**fields) -> services.AnimalData:
    defaults = dict(name="Rex", species="dog", sex="male", birth_date=TODAY - timedelta(days=120),
                    breed="SRD", color="Caramelo", size="medium")
    defaults.update(fields)
    return services.AnimalData(**defaults)


def vaccine(**fields) -> services.VaccinationData:
    defaults = dict(applied_on=TODAY - timedelta(days=10), vaccine_name="Rabisin", batch="L1",
                    vet_name="Dra. Ana", vet_crmv="crmv sp 1234")
    defaults.update(fields)
    return services.VaccinationData(**defaults)


def register(owner, prof, *, today=TODAY, vaccination="default", at_ccz=False, client=None,
             **fields) -> Animal:
    return services.register_animal(
        owner=owner, data=data(**fields),
        vaccination=vaccine() if vaccination == "default" else vaccination,
        vaccinate_at_ccz=at_ccz, registered_by=None if client else owner, api_client=client,
        profile=prof, today=today)


@pytest.fixture
def gru(app):
    with app.test_request_context():
        yield app.extensions["portal_profile"]


# --------------------------------------------------------------------------------------------
# Numbers
# --------------------------------------------------------------------------------------------


def test_gru_14_par4_number_distinguishes_species() -> None:
    assert format_rga("dog", 2026, 123).startswith("C-2026-000123-")
    assert format_rga("cat", 2026, 123).startswith("G-2026-000123-")
    assert parse_rga(format_rga("cat", 2026, 7)).species == "cat"


def test_rga_check_digit_catches_every_single_digit_typo() -> None:
    number = format_rga("dog", 2026, 4815)
    digits = [i for i, ch in enumerate(number) if ch.isdigit()]
    for i in digits:
        for other in "0123456789":
            if other == number[i]:
                continue
            typo = number[:i] + other + number[i + 1:]
            with pytest.raises(InvalidRgaNumber) as err:
                parse_rga(typo)
            assert err.value.reason == "check_digit"


def test_rga_check_digit_catches_adjacent_swaps_and_species_letter() -> None:
    number = format_rga("dog", 2026, 123456)
    compact = number.replace("-", "")
    for i in range(1, len(compact) - 1):
        if compact[i] != compact[i + 1]:
            swapped = compact[:i] + compact[i + 1] + compact[i] + compact[i + 2:]
            with pytest.raises(InvalidRgaNumber):
                parse_rga(swapped)
    with pytest.raises(InvalidRgaNumber):
        parse_rga("G" + number[1:])


def test_rga_input_is_normalised() -> None:
    number = format_rga("cat", 2026, 42)
    assert normalise_rga(number.lower().replace("-", " ")) == number
    assert normalise_rga(" " + number.replace("-", "") + " ") == number
    assert normalise_rga(number.replace("-", ".")) == number


@pytest.mark.parametrize("text", ["", "X-2026-000001-1", "C-26-1-1", "123", "C-2026-00001-1"])
def test_rga_malformed_numbers_are_format_errors(text: str) -> None:
    with pytest.raises(InvalidRgaNumber) as err:
        parse_rga(text)
    assert err.value.reason == "format"


def test_rga_numbers_count_up_per_species_and_year(app) -> None:
    first = services.issue_rga("dog", TODAY)
    second = services.issue_rga("dog", TODAY)
    cat = services.issue_rga("cat", TODAY)
    assert parse_rga(second).sequence == parse_rga(first).sequence + 1
    assert parse_rga(cat).sequence == 1
    assert parse_rga(services.issue_rga("dog", date(2027, 1, 2))).sequence == 1


# --------------------------------------------------------------------------------------------
# Age window
# --------------------------------------------------------------------------------------------


def test_gru_14_registration_window_3_to_6_months_flags_late(gru) -> None:
    owner = factories.user()
    on_time = register(owner, gru, birth_date=TODAY - timedelta(days=100))
    assert on_time.late_registration is False
    last_day = register(owner, gru, birth_date=date(2025, 9, 16), name="Seis meses")
    assert last_day.late_registration is False
    late = register(owner, gru, birth_date=date(2025, 9, 15), name="Tardio")
    assert late.late_registration is True and late.status == "active"  # accepted, not refused


def test_gru_14_par3_younger_than_3_months_is_refused_with_the_date(gru) -> None:
    owner = factories.user()
    with pytest.raises(services.AnimalError) as err:
        register(owner, gru, birth_date=date(2025, 12, 17))
    assert err.value.code == "age" and err.value.field == "animal.birth_date"
    assert "GRU 14 §3" in err.value.message and "17/03/2026" in err.value.message


def test_gru_14_par1_establishment_registers_at_purchase_before_3_months(gru) -> None:
    owner = factories.user()
    client, _token = issue_client("establishment", "Pet Shop")
    animal = register(owner, gru, client=client, birth_date=TODAY - timedelta(days=60))
    assert animal.api_client_id == client.id


def test_bjp_2_par2_no_purchase_exception_before_3_months(make_app) -> None:
    with profile(make_app, "bjp") as bjp:
        owner = factories.user()
        client, _token = issue_client("establishment", "Clínica")
        with pytest.raises(services.AnimalError) as err:
            register(owner, bjp, client=client, birth_date=TODAY - timedelta(days=60))
        assert err.value.code == "age" and "BJP 2 §2" in err.value.message


def test_future_or_absurd_birth_dates_are_age_errors(gru) -> None:
    owner = factories.user()
    for birth in (TODAY + timedelta(days=1), date(1980, 1, 1)):
        with pytest.raises(services.AnimalError) as err:
            register(owner, gru, birth_date=birth)
        assert err.value.code == "age"


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
        assert err.value.article == "BJP 17" and "BJP 17 §3" in err.value.message


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
    db.session.flush()
    assert pet.residence_key == services.owner_residence_key(owner) != old_key
    assert closed.residence_key == old_key  # a closed RGA stays where it ended


# --------------------------------------------------------------------------------------------
# Rabies (BJP 6; GRU 15 V)
# --------------------------------------------------------------------------------------------


def test_bjp_6_without_rabies_proof_registration_is_pending(make_app) -> None:
    with profile(make_app, "bjp") as bjp:
        owner = factories.user()
        staff = factories.user(roles=("vet",))
        pending = register(owner, bjp, vaccination=None, at_ccz=True)
        assert pending.status == "pending" and pending.rga
        with pytest.raises(services.AnimalError) as err:
            services.approve_registration(pending, approved_by=staff, profile=bjp, today=TODAY)
        assert err.value.code == "missing_vaccination"
        services.record_vaccination(pending, vaccine(applied_on=TODAY), recorded_by=staff,
                                    at_ccz=True, today=TODAY)
        assert pending.status == "active" and pending.vaccinations[0].at_ccz


def test_bjp_6_par_u_no_proof_and_no_ccz_choice_is_refused(make_app) -> None:
    with profile(make_app, "bjp") as bjp:
        with pytest.raises(services.AnimalError) as err:
            register(factories.user(), bjp, vaccination=None)
        assert err.value.code == "missing_vaccination" and "BJP 6" in err.value.message


def test_gru_15_v_expired_rabies_proof_is_refused(gru) -> None:
    old = vaccine(applied_on=TODAY - timedelta(days=400))
    with pytest.raises(services.AnimalError) as err:
        register(factories.user(), gru, vaccination=old, birth_date=TODAY - timedelta(days=900))
    assert err.value.code == "missing_vaccination"


def test_bjp_13_par1_vaccination_fields_required_and_next_dose_yearly(gru) -> None:
    with pytest.raises(services.AnimalErrors) as err:
        register(factories.user(), gru, vaccination=vaccine(batch="", vet_crmv=""))
    fields = {e.field for e in err.value.errors}
    assert {"rabies_vaccination.batch", "rabies_vaccination.vet_crmv"} <= fields
    animal = register(factories.user(), gru)
    shot = animal.vaccinations[0]
    assert shot.next_due_on == date(2027, 3, 6) and shot.vet_crmv == "CRMV-SP 1234"


def test_vv_12_registration_is_active_without_vaccination(make_app) -> None:
    with profile(make_app, "vilavelha") as vv:
        animal = register(factories.user(), vv, vaccination=None)
        assert animal.status == "active"


# --------------------------------------------------------------------------------------------
# Microchip, fee
# --------------------------------------------------------------------------------------------


def test_duplicate_microchip_refused_whatever_the_spacing(gru) -> None:
    register(factories.user(), gru, microchip="985 112 000 000 123")
    with pytest.raises(services.AnimalError) as err:
        register(factories.user(), gru, microchip="985112000000123")
    assert err.value.code == "duplicate_microchip" and err.value.field == "animal.microchip"


def test_gru_22_registration_fee_is_a_pending_item_in_centavos(gru) -> None:
    owner = factories.user()
    animal = register(owner, gru)
    item = db.session.scalar(select(PaymentItem).where(PaymentItem.subject_id == animal.id))
    assert (item.kind, item.amount_cents, item.status) == ("registration", 2500, "pending")
    assert item.payer_id == owner.id and item.breakdown[0]["article"] == "GRU 22 I"


def test_bjp_11_a_establishment_pays_the_fee_of_its_registrations(make_app) -> None:
    with profile(make_app, "bjp") as bjp:
        client, _token = issue_client("establishment", "Clínica")
        animal = register(factories.user(), bjp, client=client)
        item = services.fees_of(animal)[0]
        assert item.payer_id is None and item.api_client_id == client.id


def test_adoption_registration_has_no_fee_and_stays_pending_without_vaccination(gru) -> None:
    adopter = factories.user()
    animal = services.register_animal_for_adoption(
        adopter=adopter, data=data(), vaccination=None, registered_by=None, profile=gru,
        today=TODAY)
    assert animal.status == "pending" and services.fees_of(animal) == []


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
    cases = [(owner, "123.456.789-00", "invalid_cpf"),
             (owner, factories.make_cpf(99999), "not_found"),
             (stranger, owner.cpf, "not_allowed")]
    for who, cpf, code in cases:
        with pytest.raises(services.AnimalError) as err:
            services.request_transfer(animal, who, cpf, profile=gru, today=TODAY)
        assert err.value.code == code


def test_transfer_animal_immediate_for_adoption(gru) -> None:
    old, new = factories.user(), factories.user(street="Rua B", number="2")
    animal = factories.animal(old)
    offer = services.transfer_animal(animal, new, immediate=True, profile=gru, today=TODAY)
    assert offer.status == "accepted" and animal.owner_id == new.id


# --------------------------------------------------------------------------------------------
# Second copy (GRU 19; BJP 8) and death (GRU 21)
# --------------------------------------------------------------------------------------------


def test_gru_19_provisional_copy_valid_45_days(gru) -> None:
    owner = factories.user()
    copy = services.request_copy(factories.animal(owner), "card", requested_by=owner,
                                 profile=gru, today=TODAY)
    assert copy.valid_until == TODAY + timedelta(days=45) == date(2026, 4, 30)
    item = db.session.get(PaymentItem, copy.payment_item_id)
    assert (item.kind, item.amount_cents) == ("card_copy", 1000)
    staff = factories.user(roles=("agent",))
    services.mark_copy_issued(copy, staff)
    assert copy.status == "issued"


def test_bjp_8_provisional_copy_valid_60_days(make_app) -> None:
    with profile(make_app, "bjp") as bjp:
        owner = factories.user()
        copy = services.request_copy(factories.animal(owner), "tag", requested_by=owner,
                                     profile=bjp, today=TODAY)
        assert copy.valid_until == TODAY + timedelta(days=60)


def test_vv_has_no_provisional_id(make_app) -> None:
    with profile(make_app, "vilavelha") as vv:
        owner = factories.user()
        copy = services.request_copy(factories.animal(owner), "card", requested_by=owner,
                                     profile=vv, today=TODAY)
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
        services.transfer_animal(animal, factories.user(), immediate=True, profile=gru,
                                 today=TODAY)


def test_death_date_must_be_plausible(gru) -> None:
    owner = factories.user()
    animal = factories.animal(owner, birth_date=TODAY - timedelta(days=100))
    for died in (TODAY + timedelta(days=1), TODAY - timedelta(days=200)):
        with pytest.raises(services.AnimalError) as err:
            services.report_death(animal, reported_by=owner, died_on=died, today=TODAY)
        assert err.value.field == "died_on"


def test_public_data_never_carries_owner_data(gru) -> None:
    owner = factories.user(full_name="Fulana Secreta", phone="11 91234-5678")
    payload = services.public_data(factories.animal(owner))
    text = repr(payload)
    assert set(payload) == {"rga", "name", "species", "status", "provisional", "photo_url",
                            "public_url"}  # issue 8 added "provisional"
    assert "Fulana" not in text and owner.cpf not in text and "91234" not in text
