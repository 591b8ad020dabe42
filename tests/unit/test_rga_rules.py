"""RGA registration rules, one test per provision: numbers, age window, rabies proof, microchip,
fees, the public data. Named after the article they check. The household limit, transfers and
second copies have their own files (test_rga_household.py, test_rga_transfers.py,
test_rga_copies.py)."""

from __future__ import annotations

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
from portal.models import PaymentItem
from portal.services.api_auth import issue_client
from tests import factories
from tests.factories import RGA_TODAY as TODAY
from tests.factories import profile_app as profile
from tests.factories import rga_data as data
from tests.factories import rga_register as register
from tests.factories import rga_vaccine as vaccine


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
            typo = number[:i] + other + number[i + 1 :]
            with pytest.raises(InvalidRgaNumber) as err:
                parse_rga(typo)
            assert err.value.reason == "check_digit"


def test_rga_check_digit_catches_adjacent_swaps_and_species_letter() -> None:
    number = format_rga("dog", 2026, 123456)
    compact = number.replace("-", "")
    for i in range(1, len(compact) - 1):
        if compact[i] != compact[i + 1]:
            swapped = compact[:i] + compact[i + 1] + compact[i] + compact[i + 2 :]
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
        services.record_vaccination(
            pending, vaccine(applied_on=TODAY), recorded_by=staff, at_ccz=True, today=TODAY
        )
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


def test_gru_60_next_dose_follows_the_profiles_programme_interval(gru) -> None:
    """GRU 60 sets no interval: the programme's, from the profile file, not a constant."""
    from portal.profiles.schema import ProgrammePolicy

    six = gru.model_copy(update={"programme": ProgrammePolicy(revaccination_months=6)})
    assert services.next_rabies_due(date(2026, 3, 6), six) == date(2026, 9, 6)
    assert services.next_rabies_due(date(2026, 3, 6), gru) == date(2027, 3, 6)


def test_animal_error_is_a_domain_error_in_the_api_shape() -> None:
    from portal.domain import DomainError

    err = services.AnimalError("animal.microchip", "duplicate_microchip", "Já registrado.")
    assert isinstance(err, DomainError) and isinstance(err, ValueError)
    expected = {
        "field": "animal.microchip",
        "code": "duplicate_microchip",
        "message": "Já registrado.",
    }
    assert err.as_dict() == err.as_api() == expected
    assert services.AnimalErrors([err]).errors == [err]


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
        adopter=adopter, data=data(), vaccination=None, registered_by=None, profile=gru, today=TODAY
    )
    assert animal.status == "pending" and services.fees_of(animal) == []


def test_public_data_never_carries_owner_data(gru) -> None:
    owner = factories.user(full_name="Fulana Secreta", phone="11 91234-5678")
    payload = services.public_data(factories.animal(owner))
    text = repr(payload)
    assert set(payload) == {
        "rga",
        "name",
        "species",
        "status",
        "provisional",
        "photo_url",
        "public_url",
    }  # issue 8 added "provisional"
    assert "Fulana" not in text and owner.cpf not in text and "91234" not in text
