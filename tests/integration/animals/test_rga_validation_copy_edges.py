"""Edges of the RGA input checks (validation.py) and of second copies and the death report
(copies.py): each limit on its last allowed day and the day after, each refusal by the field and
code it names. Dates are worked by hand in the comments; TODAY is 16/03/2026 (tests/factories.py).

Window "entre o terceiro e sexto mês de idade" (BJP 2 §2; GRU 14 §3; VV 12 §6): from the day the
animal completes 3 months to the day it completes 6 months, older animals are registered late."""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta
from types import SimpleNamespace

import pytest

from portal.blueprints.animals import copies, validation
from portal.blueprints.animals.common import AnimalError
from portal.extensions import db
from portal.models import OwnershipTransfer, PaymentItem
from tests import factories
from tests.factories import RGA_TODAY as TODAY
from tests.factories import audit_events
from tests.factories import profile_app as profile
from tests.factories import rga_data as data
from tests.factories import rga_vaccine as vaccine

WINDOW_PROFILES = [("guarulhos", "GRU 14 §3"), ("bjp", "BJP 2 §2"), ("vilavelha", "VV 12 §6")]


@pytest.fixture
def gru(make_app):
    with profile(make_app, "guarulhos") as prof:
        yield prof


def _refusal(call, *args, **kwargs) -> AnimalError:
    """The error ``call`` raises; a refusal always tells the user something."""
    with pytest.raises(AnimalError) as err:
        call(*args, **kwargs)
    assert err.value.message
    return err.value


def _codes(problems: list[AnimalError]) -> list[tuple[str | None, str]]:
    """Field and code of each problem, in order; every problem carries a message."""
    assert all(p.message for p in problems)
    return [(p.field, p.code) for p in problems]


# --------------------------------------------------------------------------------------------
# Age window (BJP 2 §2; GRU 14 §3; VV 12 §6)
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("key", "article"), WINDOW_PROFILES)
def test_bjp_2_par_2_registration_on_the_day_the_animal_reaches_the_minimum_age(
    make_app, key, article
) -> None:
    # born 16/12/2025: 3 months on 16/03/2026 (today), 6 months on 16/06/2026
    with profile(make_app, key) as prof:
        result = validation.check_age(prof, date(2025, 12, 16), TODAY)
    assert result == validation.AgeCheck(late=False, window=(TODAY, date(2026, 6, 16)))


@pytest.mark.parametrize(("key", "article"), WINDOW_PROFILES)
def test_gru_14_par_3_refused_the_day_before_the_minimum_age_with_the_first_day(
    make_app, key, article
) -> None:
    # born 17/12/2025: 3 months only on 17/03/2026, so today (16/03) is one day early
    with profile(make_app, key) as prof:
        err = _refusal(validation.check_age, prof, date(2025, 12, 17), TODAY)
    assert (err.field, err.code) == ("animal.birth_date", "age")
    assert article in err.message and re.search(r"(?<!\w)17/03/2026(?!\w)", err.message)


@pytest.mark.parametrize(("key", "article"), WINDOW_PROFILES)
def test_vv_12_par_6_last_day_of_the_window_is_on_time_the_next_is_late(
    make_app, key, article
) -> None:
    # born 16/09/2025: 6 months on 16/03/2026 (today): still on time; born 15/09/2025: 6 months
    # on 15/03/2026, so today is the first late day, registered all the same
    with profile(make_app, key) as prof:
        last = validation.check_age(prof, date(2025, 9, 16), TODAY)
        late = validation.check_age(prof, date(2025, 9, 15), TODAY)
    assert last == validation.AgeCheck(late=False, window=(date(2025, 12, 16), TODAY))
    assert late == validation.AgeCheck(late=True, window=(date(2025, 12, 15), date(2026, 3, 15)))


def test_gru_14_par_3_window_across_the_new_year(gru) -> None:
    # born 10/11/2025: window 10/02/2026 to 10/05/2026
    born = date(2025, 11, 10)
    window = (date(2026, 2, 10), date(2026, 5, 10))
    assert _refusal(validation.check_age, gru, born, date(2026, 2, 9)).code == "age"
    assert validation.check_age(gru, born, date(2026, 2, 10)).window == window
    assert validation.check_age(gru, born, date(2026, 5, 10)).late is False
    assert validation.check_age(gru, born, date(2026, 5, 11)).late is True
    # born 20/10/2025: the 3rd month falls in the next year, 20/01/2026
    assert validation.check_age(gru, date(2025, 10, 20), date(2026, 1, 20)).late is False


def test_gru_14_par_3_on_its_first_birthday_the_animal_is_registered_late(gru) -> None:
    # born 16/03/2025: one year old today; window 16/06/2025 to 16/09/2025, long past
    result = validation.check_age(gru, date(2025, 3, 16), TODAY)
    assert result == validation.AgeCheck(late=True, window=(date(2025, 6, 16), date(2025, 9, 16)))


def test_birth_date_in_the_future_or_missing_is_refused(gru) -> None:
    future = _refusal(validation.check_age, gru, TODAY + timedelta(days=1), TODAY)
    assert (future.field, future.code) == ("animal.birth_date", "age")
    missing = _refusal(validation.check_age, gru, None, TODAY)
    assert (missing.field, missing.code) == ("animal.birth_date", "required")
    # even a shop, allowed to register the young, cannot register an animal not yet born
    shop = _refusal(validation.check_age, gru, TODAY + timedelta(days=1), TODAY, at_purchase=True)
    assert shop.code == "age"


def test_gru_14_par_1_shop_registers_at_sale_even_an_animal_born_today(gru) -> None:
    # born today: window 16/06/2026 to 16/09/2026; the sale is the exception of GRU 14 §1
    result = validation.check_age(gru, TODAY, TODAY, at_purchase=True)
    assert result == validation.AgeCheck(late=False, window=(date(2026, 6, 16), date(2026, 9, 16)))
    # without the sale the same animal is refused
    assert _refusal(validation.check_age, gru, TODAY, TODAY).code == "age"


def test_bjp_2_par_2_no_sale_exception_even_at_purchase(make_app) -> None:
    with profile(make_app, "bjp") as bjp:
        err = _refusal(validation.check_age, bjp, date(2026, 1, 16), TODAY, at_purchase=True)
    assert err.code == "age" and "BJP 2 §2" in err.message


def test_birth_date_more_than_30_years_back_is_a_typing_error(gru) -> None:
    # 30 years before 16/03/2026 is 16/03/1996: still accepted (late); the day before is refused
    assert validation.check_age(gru, date(1996, 3, 16), TODAY).late is True
    err = _refusal(validation.check_age, gru, date(1996, 3, 15), TODAY)
    assert (err.field, err.code) == ("animal.birth_date", "age") and "30" in err.message


@pytest.mark.parametrize("key", ["cabeceira", "cabo"])
def test_cab_and_cabo_have_no_age_window(make_app, key) -> None:
    # no window in these laws: a day-old animal and a 10-year-old one are both on time
    with profile(make_app, key) as prof:
        young = validation.check_age(prof, TODAY - timedelta(days=1), TODAY)
        old = validation.check_age(prof, date(2016, 3, 16), TODAY)
    assert young == old == validation.AgeCheck(late=False, window=None)


# --------------------------------------------------------------------------------------------
# Animal fields (BJP 3 a; GRU 15 I c; VV 12 §2)
# --------------------------------------------------------------------------------------------


def test_complete_animal_is_accepted_and_its_text_cleaned(gru) -> None:
    animal = data(name="  Rex   da  Silva ", breed=" SRD ", color=" Caramelo  claro ")
    animal.microchip = " 985-112.000 000 123 "
    assert validation.validate_animal_data(animal) == []
    assert (animal.name, animal.breed, animal.color) == ("Rex da Silva", "SRD", "Caramelo claro")
    assert animal.microchip == "985112000000123"


def test_empty_animal_names_every_required_field(gru) -> None:
    empty = data(name="   ", species=None, sex="", breed="  ", color=None, size=None)
    empty.birth_date = None
    problems = validation.validate_animal_data(empty)
    assert _codes(problems) == [
        ("animal.name", "required"),
        ("animal.species", "required"),
        ("animal.sex", "required"),
        ("animal.breed", "required"),
        ("animal.color", "required"),
        ("animal.size", "required"),
        ("animal.birth_date", "required"),
    ]
    assert empty.name == "" and empty.breed is None and empty.color is None


def test_values_outside_the_lists_are_invalid_not_missing(gru) -> None:
    wrong = data(species="bird", sex="unknown", size="huge")
    assert _codes(validation.validate_animal_data(wrong)) == [
        ("animal.species", "invalid"),
        ("animal.sex", "invalid"),
        ("animal.size", "invalid"),
    ]


@pytest.mark.parametrize("species", ["dog", "cat"])
@pytest.mark.parametrize("sex", ["male", "female"])
@pytest.mark.parametrize("size", ["small", "medium", "large"])
def test_every_allowed_value_is_accepted(gru, species, sex, size) -> None:
    assert validation.validate_animal_data(data(species=species, sex=sex, size=size)) == []


def test_name_up_to_100_characters(gru) -> None:
    assert validation.validate_animal_data(data(name="a" * 100)) == []
    assert _codes(validation.validate_animal_data(data(name="a" * 101))) == [
        ("animal.name", "invalid")
    ]


@pytest.mark.parametrize(
    ("grams", "ok"),
    [(None, True), (50, True), (150_000, True), (49, False), (150_001, False), (0, False)],
)
def test_weight_between_50_grams_and_150_kilos(gru, grams, ok) -> None:
    problems = validation.validate_animal_data(data(weight_grams=grams))
    assert _codes(problems) == ([] if ok else [("animal.weight_kg", "invalid")])


@pytest.mark.parametrize(
    ("chip", "ok"),
    [
        (None, True),
        ("", True),
        ("123-456-789", True),  # 9 characters once the dashes go
        ("A" * 15, True),
        ("12345678", False),
        ("1234567890123456", False),
    ],
)
def test_microchip_of_9_to_15_letters_or_digits(gru, chip, ok) -> None:
    problems = validation.validate_animal_data(data(microchip=chip))
    assert _codes(problems) == ([] if ok else [("animal.microchip", "invalid")])


# --------------------------------------------------------------------------------------------
# Rabies vaccination fields (BJP 13 §1)
# --------------------------------------------------------------------------------------------


def test_bjp_13_par_1_complete_record_gets_the_yearly_revaccination_date(gru) -> None:
    shot = vaccine(
        applied_on=date(2026, 3, 6),
        vaccine_name="  Rabisin ",
        batch=" L1 ",
        vet_name=" Dra.  Ana ",
        manufacturer="  Boehringer ",
        establishment=" Clínica  Bicho ",
    )
    assert validation.validate_vaccination(shot, birth_date=date(2025, 12, 1), today=TODAY) == []
    # applied 06/03/2026; GRU 60 sets no interval: the programme's 12 months give 06/03/2027
    assert shot.next_due_on == date(2027, 3, 6)
    assert (shot.vaccine_name, shot.batch, shot.vet_name) == ("Rabisin", "L1", "Dra. Ana")
    assert (shot.manufacturer, shot.establishment) == ("Boehringer", "Clínica Bicho")
    assert shot.vet_crmv == "CRMV-SP 1234"


def test_bjp_13_par_1_empty_record_names_every_field_under_its_prefix(gru) -> None:
    shot = vaccine(applied_on=None, vaccine_name=" ", batch="", vet_name=None, vet_crmv="")
    problems = validation.validate_vaccination(shot, birth_date=None, today=TODAY, prefix="vac")
    assert _codes(problems) == [
        ("vac.date", "required"),
        ("vac.vaccine", "required"),
        ("vac.batch", "required"),
        ("vac.vet_name", "required"),
        ("vac.vet_crmv", "required"),
    ]
    assert (shot.vaccine_name, shot.batch, shot.vet_name) == ("", "", "")
    assert shot.next_due_on is None


def test_bjp_13_par_1_date_of_application_not_in_the_future(gru) -> None:
    # today counts; tomorrow (17/03/2026) is refused
    today_shot = vaccine(applied_on=TODAY)
    assert validation.validate_vaccination(today_shot, birth_date=None, today=TODAY) == []
    tomorrow = vaccine(applied_on=TODAY + timedelta(days=1))
    problems = validation.validate_vaccination(tomorrow, birth_date=None, today=TODAY)
    assert _codes(problems) == [("rabies_vaccination.date", "invalid")]
    assert tomorrow.next_due_on is None


def test_bjp_13_par_1_vaccination_not_before_birth(gru) -> None:
    born = date(2026, 1, 10)
    on_birth = vaccine(applied_on=born)
    assert validation.validate_vaccination(on_birth, birth_date=born, today=TODAY) == []
    before = vaccine(applied_on=date(2026, 1, 9))
    assert _codes(validation.validate_vaccination(before, birth_date=born, today=TODAY)) == [
        ("rabies_vaccination.date", "invalid")
    ]
    # born today, vaccinated yesterday: still before the birth
    yesterday = vaccine(applied_on=TODAY - timedelta(days=1))
    assert _codes(validation.validate_vaccination(yesterday, birth_date=TODAY, today=TODAY)) == [
        ("rabies_vaccination.date", "invalid")
    ]


def test_future_birth_date_is_left_to_the_age_check(gru) -> None:
    # a birth date in the future is the age check's error; the shot is not judged against it
    shot = vaccine(applied_on=TODAY - timedelta(days=1))
    future = TODAY + timedelta(days=3)
    assert validation.validate_vaccination(shot, birth_date=future, today=TODAY) == []


@pytest.mark.parametrize(
    ("crmv", "code"),
    [
        ("CRMV-SP", "invalid"),  # no number at all
        ("SP 12345", None),
        ("1" * 40, None),
        ("1" * 41, "invalid"),
    ],
)
def test_bjp_13_par_1_f_vet_crmv_needs_a_number(gru, crmv, code) -> None:
    shot = vaccine(vet_crmv=crmv)
    problems = validation.validate_vaccination(shot, birth_date=None, today=TODAY)
    assert _codes(problems) == ([] if code is None else [("rabies_vaccination.vet_crmv", code)])


def test_bjp_13_par_1_c_expiry_not_before_manufacture_nor_application(gru) -> None:
    applied = date(2026, 3, 6)
    same_days = vaccine(applied_on=applied, manufactured_on=applied, expires_on=applied)
    assert validation.validate_vaccination(same_days, birth_date=None, today=TODAY) == []
    # made 06/03/2026, expired 05/03/2026: both before the manufacture and before the shot
    expired = vaccine(
        applied_on=applied, manufactured_on=applied, expires_on=applied - timedelta(days=1)
    )
    assert _codes(validation.validate_vaccination(expired, birth_date=None, today=TODAY)) == [
        ("rabies_vaccination.expires_on", "invalid"),
        ("rabies_vaccination.expires_on", "invalid"),
    ]
    # made 01/01/2026, expiring 01/03/2026, applied 06/03/2026: expired at the application only
    late = vaccine(
        applied_on=applied, manufactured_on=date(2026, 1, 1), expires_on=date(2026, 3, 1)
    )
    assert _codes(validation.validate_vaccination(late, birth_date=None, today=TODAY)) == [
        ("rabies_vaccination.expires_on", "invalid")
    ]
    # made 01/03/2026, "expiring" 01/01/2026, no application date given
    backwards = vaccine(
        applied_on=None, manufactured_on=date(2026, 3, 1), expires_on=date(2026, 1, 1)
    )
    assert ("rabies_vaccination.expires_on", "invalid") in _codes(
        validation.validate_vaccination(backwards, birth_date=None, today=TODAY)
    )


def test_bjp_13_par_1_d_revaccination_after_the_application(gru) -> None:
    applied = date(2026, 3, 6)
    same_day = vaccine(applied_on=applied, next_due_on=applied)
    assert _codes(validation.validate_vaccination(same_day, birth_date=None, today=TODAY)) == [
        ("rabies_vaccination.next_due", "invalid")
    ]
    # the vet's own date (next day) is kept, not replaced by the yearly default
    next_day = vaccine(applied_on=applied, next_due_on=date(2026, 3, 7))
    assert validation.validate_vaccination(next_day, birth_date=None, today=TODAY) == []
    assert next_day.next_due_on == date(2026, 3, 7)


def test_bjp_13_no_revaccination_date_filled_in_while_a_field_is_wrong(gru) -> None:
    shot = vaccine(applied_on=date(2026, 3, 6), batch="")
    assert _codes(validation.validate_vaccination(shot, birth_date=None, today=TODAY)) == [
        ("rabies_vaccination.batch", "required")
    ]
    assert shot.next_due_on is None


@pytest.mark.parametrize("key", ["bjp", "vilavelha"])
def test_vv_52_next_rabies_due_follows_the_given_profile(make_app, key) -> None:
    # BJP 13 and VV 52: yearly, 06/03/2026 -> 06/03/2027; a profile given wins over the app's
    with profile(make_app, key) as prof:
        assert validation.next_rabies_due(date(2026, 3, 6)) == date(2027, 3, 6)
        assert validation.next_rabies_due(date(2026, 3, 6), prof) == date(2027, 3, 6)
        rule = prof.registration.model_copy(update={"revaccination_months": 3})
        three = prof.model_copy(update={"registration": rule})
        # 06/03/2026 + 3 months = 06/06/2026
        assert validation.next_rabies_due(date(2026, 3, 6), three) == date(2026, 6, 6)


# --------------------------------------------------------------------------------------------
# Rabies proof still current (BJP 6; BJP 13; GRU 15 V)
# --------------------------------------------------------------------------------------------


def test_bjp_13_vaccination_current_until_its_last_day(gru) -> None:
    # applied 16/03/2025, no date from the vet: yearly, due 16/03/2026 (today) -> still current
    assert validation.vaccination_is_current(date(2025, 3, 16), None, TODAY) is True
    # applied 15/03/2025: due 15/03/2026, today is the day after
    assert validation.vaccination_is_current(date(2025, 3, 15), None, TODAY) is False
    # the vet's date wins over the yearly default: due today, due yesterday
    assert validation.vaccination_is_current(date(2025, 9, 1), TODAY, TODAY) is True
    yesterday = TODAY - timedelta(days=1)
    assert validation.vaccination_is_current(date(2026, 1, 1), yesterday, TODAY) is False
    # applied today counts; a shot dated after today does not cover today
    assert validation.vaccination_is_current(TODAY, None, TODAY) is True
    assert validation.vaccination_is_current(TODAY + timedelta(days=1), None, TODAY) is False


def test_current_vaccination_is_the_first_still_valid(gru) -> None:
    # applied 01/01/2024: yearly, due 01/01/2025, expired; applied 01/01/2026 but the vet's
    # date was 01/03/2026, expired too; applied 01/01/2025 with the vet's date 01/06/2026: current
    old = SimpleNamespace(applied_on=date(2024, 1, 1), next_due_on=None)
    short = SimpleNamespace(applied_on=date(2026, 1, 1), next_due_on=date(2026, 3, 1))
    extended = SimpleNamespace(applied_on=date(2025, 1, 1), next_due_on=date(2026, 6, 1))
    later = SimpleNamespace(applied_on=date(2026, 3, 1), next_due_on=None)
    animal = SimpleNamespace(vaccinations=[old, short, extended, later])
    assert validation.current_vaccination(animal, TODAY) is extended
    assert validation.current_vaccination(SimpleNamespace(vaccinations=[old, short]), TODAY) is None


@pytest.mark.parametrize(
    ("key", "required"),
    [("guarulhos", True), ("bjp", True), ("vilavelha", False), ("cabeceira", False)],
)
def test_gru_15_v_and_bjp_6_rabies_proof_needed_where_the_law_asks(make_app, key, required):
    # GRU 15 V: proof; BJP 6 §ú: proof or shot at registration; VV and CAB: neither
    with profile(make_app, key) as prof:
        assert validation.rabies_required(prof) is required


@pytest.mark.parametrize(("key", "article"), [("guarulhos", "GRU 15 V"), ("bjp", "BJP 6")])
def test_gru_15_v_expired_proof_refused_the_day_after_its_last_day(make_app, key, article):
    with profile(make_app, key) as prof:
        # applied 16/03/2025: due 16/03/2026, today -> accepted
        validation.check_vaccination_current(prof, vaccine(applied_on=date(2025, 3, 16)), TODAY)
        # applied 15/03/2025: due 15/03/2026 -> expired today
        expired = vaccine(applied_on=date(2025, 3, 15))
        err = _refusal(validation.check_vaccination_current, prof, expired, TODAY)
        # the vet's revaccination date wins over the yearly default: applied 01/09/2025 and due
        # 15/03/2026 is expired today; applied 10/03/2025 and due 16/03/2026 is still current
        vet_due = vaccine(applied_on=date(2025, 9, 1), next_due_on=date(2026, 3, 15))
        vet_err = _refusal(validation.check_vaccination_current, prof, vet_due, TODAY)
        assert vet_err.code == "missing_vaccination"
        extended = vaccine(applied_on=date(2025, 3, 10), next_due_on=TODAY)
        validation.check_vaccination_current(prof, extended, TODAY)
        # no date at all: nothing to judge (the missing date is validate_vaccination's)
        validation.check_vaccination_current(prof, vaccine(applied_on=None), TODAY)
    assert (err.field, err.code) == ("rabies_vaccination.date", "missing_vaccination")
    assert article in err.message


def test_vv_12_expired_vaccination_does_not_stop_the_registration(make_app) -> None:
    with profile(make_app, "vilavelha") as vv:
        validation.check_vaccination_current(vv, vaccine(applied_on=date(2020, 1, 1)), TODAY)


# --------------------------------------------------------------------------------------------
# Microchip already registered (one chip, one animal)
# --------------------------------------------------------------------------------------------


def test_microchip_already_registered_whatever_the_case_or_separators(gru) -> None:
    pet = factories.animal(factories.user(), microchip="985ABC000000123")
    typed = data(microchip="985-abc 000.000.123")
    assert validation.validate_animal_data(typed) == []
    err = _refusal(validation.check_microchip_free, typed.microchip)
    assert (err.field, err.code) == ("animal.microchip", "duplicate_microchip")
    assert validation.microchip_taken(typed.microchip) is True
    # the animal itself, being edited, does not collide with its own chip
    assert validation.microchip_taken(typed.microchip, except_id=pet.id) is False
    assert validation.microchip_taken(typed.microchip, except_id=pet.id + 1) is True


def test_a_new_microchip_or_none_is_free(gru) -> None:
    factories.animal(factories.user(), microchip="985ABC000000123")
    for chip in (None, "", "985ABC000000124"):
        assert validation.microchip_taken(chip) is False
        assert validation.check_microchip_free(chip) is None


def test_duplicate_microchip_error_shape(gru) -> None:
    err = validation.duplicate_microchip_error()
    assert (err.field, err.code) == ("animal.microchip", "duplicate_microchip")


# --------------------------------------------------------------------------------------------
# Second copy (BJP 8; GRU 19)
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("key", "until"),
    [
        ("guarulhos", date(2026, 4, 30)),  # GRU 19 §1: 16/03 + 45 d = 15 left in March + 30
        ("bjp", date(2026, 5, 15)),  # BJP 8 §ú: 16/03 + 60 d = 15 + 30 (April) + 15 (May)
        ("vilavelha", None),
        ("cabeceira", None),
        ("cabo", None),
    ],
)
def test_gru_19_par_1_provisional_identification_last_day(make_app, key, until) -> None:
    with profile(make_app, key) as prof:
        assert copies.provisional_valid_until(prof, TODAY) == until


def test_gru_19_par_1_provisional_identification_across_a_month_end(gru) -> None:
    # requested 31/01/2026: 45 days later, February having 28 days: 28 + 17 = 17/03/2026
    assert copies.provisional_valid_until(gru, date(2026, 1, 31)) == date(2026, 3, 17)


@pytest.mark.parametrize(("kind", "price_key"), [("card", "card_copy"), ("tag", "tag_copy")])
def test_gru_19_second_copy_of_the_item_asked_with_its_fee(gru, kind, price_key) -> None:
    owner = factories.user()
    pet = factories.animal(owner, name="Pipoca")
    copy = copies.request_copy(
        pet, kind, requested_by=owner, profile=gru, today=TODAY, reason="  perdi   na  rua "
    )
    assert (copy.animal, copy.kind, copy.reason, copy.status) == (
        pet,
        kind,
        "perdi na rua",
        "requested",
    )
    assert (copy.requested_on, copy.requested_by_id) == (TODAY, owner.id)
    assert copy.valid_until == date(2026, 4, 30)  # GRU 19 §1: 16/03/2026 + 45 days
    assert copy.id is not None
    # GRU 22 II: R$ 10,00 for either item, charged to the owner, against this animal
    item = db.session.get(PaymentItem, copy.payment_item_id)
    assert (item.kind, item.amount_cents, item.status) == (price_key, 1000, "pending")
    assert (item.payer_id, item.subject_type, item.subject_id) == (owner.id, "animal", pet.id)
    assert pet.rga in item.description and "Pipoca" in item.description
    assert len(item.breakdown) == 1
    assert item.breakdown[0]["amount_cents"] == 1000
    assert item.breakdown[0]["article"] == "GRU 22 II"
    assert item.breakdown[0]["label"] in item.description


def test_gru_19_the_fee_names_the_item_lost_card_or_tag(gru) -> None:
    # GRU 19 and BJP 8 name the two items "carteira" (card) and "plaqueta" (tag)
    owner = factories.user()
    pet = factories.animal(owner)
    card = copies.request_copy(pet, "card", requested_by=owner, profile=gru, today=TODAY)
    tag = copies.request_copy(pet, "tag", requested_by=owner, profile=gru, today=TODAY)
    card_label = db.session.get(PaymentItem, card.payment_item_id).breakdown[0]["label"]
    tag_label = db.session.get(PaymentItem, tag.payment_item_id).breakdown[0]["label"]
    assert "carteira" in card_label.lower() and "plaqueta" not in card_label.lower()
    assert "plaqueta" in tag_label.lower() and "carteira" not in tag_label.lower()
    assert card.reason is None


def test_bjp_11_b_second_copy_fee_cites_the_bjp_price(make_app) -> None:
    with profile(make_app, "bjp") as bjp:
        owner = factories.user()
        copy = copies.request_copy(
            factories.animal(owner), "tag", requested_by=owner, profile=bjp, today=TODAY
        )
        item = db.session.get(PaymentItem, copy.payment_item_id)
        assert (item.kind, item.amount_cents) == ("tag_copy", 1000)
        assert item.breakdown[0]["article"] == "BJP 11 b"
        assert copy.valid_until == date(2026, 5, 15)  # BJP 8 §ú: 60 days


@pytest.mark.parametrize("key", ["vilavelha", "cabeceira"])
def test_second_copy_is_free_where_the_law_sets_no_price(make_app, key) -> None:
    with profile(make_app, key) as prof:
        owner = factories.user()
        copy = copies.request_copy(
            factories.animal(owner), "card", requested_by=owner, profile=prof, today=TODAY
        )
        assert copy.payment_item_id is None and copy.valid_until is None


def test_bjp_8_only_the_card_or_the_tag_and_not_for_a_closed_rga(gru) -> None:
    owner = factories.user()
    pet = factories.animal(owner)
    for kind in ("collar", "", None):
        err = _refusal(copies.request_copy, pet, kind, requested_by=owner, profile=gru, today=TODAY)
        assert (err.field, err.code) == ("kind", "invalid")
    closed = factories.animal(owner, status="closed")
    err = _refusal(
        copies.request_copy, closed, "card", requested_by=owner, profile=gru, today=TODAY
    )
    assert (err.field, err.code) == (None, "invalid")
    assert pet.copy_requests == [] and closed.copy_requests == []
    assert db.session.query(PaymentItem).count() == 0


def test_gru_19_par_2_staff_issue_the_copy_once_with_an_audit_entry(gru) -> None:
    owner = factories.user()
    staff = factories.user(roles=("agent",))
    copy = copies.request_copy(
        factories.animal(owner), "tag", requested_by=owner, profile=gru, today=TODAY
    )
    copies.mark_copy_issued(copy, staff)
    assert (copy.status, copy.issued_by_id) == ("issued", staff.id)
    assert isinstance(copy.issued_at, datetime)
    [event] = audit_events("animal.copy_issued")
    assert (event.subject_type, event.subject_id) == ("Animal", str(copy.animal.id))
    assert event.detail == {"copy_id": copy.id, "kind": "tag"}
    err = _refusal(copies.mark_copy_issued, copy, staff)
    assert (err.field, err.code) == (None, "invalid")
    assert len(audit_events("animal.copy_issued")) == 1


# --------------------------------------------------------------------------------------------
# Death report (GRU 21; BJP 10)
# --------------------------------------------------------------------------------------------


def _pet_with_transfers(owner):
    pet = factories.animal(owner, birth_date=date(2025, 1, 10))
    first, second = factories.user(), factories.user()
    pending = OwnershipTransfer(from_owner_id=owner.id, to_owner_id=first.id, reason="citizen")
    declined = OwnershipTransfer(
        from_owner_id=owner.id, to_owner_id=second.id, status="declined", reason="citizen"
    )
    pet.transfers.extend([pending, declined])
    db.session.flush()
    return pet, pending, declined


def test_gru_21_owner_reports_the_death_and_the_rga_is_closed(gru) -> None:
    owner = factories.user()
    pet, pending, declined = _pet_with_transfers(owner)
    number = pet.rga
    copies.report_death(
        pet, reported_by=owner, died_on=TODAY, today=TODAY, note="  atropelado   na rua "
    )
    assert (pet.status, pet.closed_reason, pet.died_on) == ("closed", "death", TODAY)
    assert (pet.closed_note, pet.closed_by_id, pet.rga) == ("atropelado na rua", owner.id, number)
    assert isinstance(pet.closed_at, datetime)
    # a transfer still waiting for the new owner is cancelled; a decided one is left alone
    assert pending.status == "cancelled" and isinstance(pending.decided_at, datetime)
    assert declined.status == "declined" and declined.decided_at is None
    [event] = audit_events("animal.closed")
    assert (event.subject_type, event.subject_id) == ("Animal", str(pet.id))
    assert event.detail == {"rga": number, "reason": "death"}


def test_bjp_10_the_vet_may_report_and_a_death_on_the_birth_date_is_plausible(gru) -> None:
    owner = factories.user()
    vet = factories.user(roles=("vet",))
    pet = factories.animal(owner, birth_date=date(2026, 3, 1))
    copies.report_death(pet, reported_by=vet, died_on=date(2026, 3, 1), today=TODAY)
    assert (pet.status, pet.closed_by_id, pet.died_on) == ("closed", vet.id, date(2026, 3, 1))
    assert pet.closed_note is None


def test_gru_21_death_date_required_not_in_the_future_not_before_birth(gru) -> None:
    owner = factories.user()
    pet = factories.animal(owner, birth_date=date(2026, 3, 1))
    for died_on, code in (
        (None, "required"),
        (TODAY + timedelta(days=1), "invalid"),  # 17/03/2026, tomorrow
        (date(2026, 2, 28), "invalid"),  # the day before the birth
    ):
        err = _refusal(copies.report_death, pet, reported_by=owner, died_on=died_on, today=TODAY)
        assert (err.field, err.code) == ("died_on", code)
    assert pet.status == "active" and pet.died_on is None
    assert audit_events("animal.closed") == []


def test_gru_21_a_closed_rga_cannot_be_closed_twice(gru) -> None:
    owner = factories.user()
    pet = factories.animal(owner)
    copies.report_death(pet, reported_by=owner, died_on=TODAY, today=TODAY)
    err = _refusal(copies.report_death, pet, reported_by=owner, died_on=TODAY, today=TODAY)
    assert (err.field, err.code) == (None, "invalid")
    assert len(audit_events("animal.closed")) == 1
