"""The fee service at the edges of the law (issue 13 "fines", issue 16 mutation testing).

Every expected value is worked by hand from the article in the comment next to it, with the example
unit values in force from 1 Jan 2026: UFG R$ 4,80; UFM R$ 50,00; minimum wage (MW) R$ 1.621,00;
UFIR R$ 1,06. Counts of 1, 2 and 4, the first and last day that count and the day after, omitted
inputs and error codes, so that a change to a legal rule fails a test.
"""

from __future__ import annotations

from datetime import date

import pytest

from portal.extensions import db
from portal.models import MunicipalHoliday, PriceOverride, UnitValue
from portal.profiles import load_profile
from portal.services.fees import FeeError, compute_fee, price_cents, price_list

ISSUE_DAY = date(2026, 3, 16)  # Monday


def _amounts(fee) -> list[int]:  # type: ignore[no-untyped-def]
    return [line.amount_cents for line in fee.lines]


def _error(profile, kind: str, inputs: dict, on: date = ISSUE_DAY) -> FeeError:  # type: ignore[no-untyped-def]
    with pytest.raises(FeeError) as err:
        compute_fee(profile, kind, inputs, on)
    return err.value


def _fine(profile, on: date = ISSUE_DAY, **inputs):  # type: ignore[no-untyped-def]
    return compute_fee(profile, "fine", inputs, on)


def _days(n: int) -> list[date]:
    """n distinct earlier dates (laws without a repeat window count them all)."""
    return [date(2025, 1 + i, 10) for i in range(n)]


# -- BJP 16 §4 III and VV 34 §2 III: + 50 % at each repeat, compounding -------------------------


def test_bjp_16_4_iii_adds_50_percent_at_each_repeat(profile_of) -> None:
    bjp = profile_of("bjp")
    keeping = {"specific": "inadequate_keeping", "notified_on": date(2026, 1, 5)}
    # 16 §4 II: 1 UFM = R$ 50,00; III: x 1,5 at each repeat.
    assert _amounts(_fine(bjp, **keeping)) == [5000]
    # 1st repeat: 50,00 x 1,5 = 75,00 -> + 25,00
    assert _amounts(_fine(bjp, **keeping, previous_offences=_days(1))) == [5000, 2500]
    # 2nd repeat: 50,00 x 1,5 x 1,5 = 112,50 -> + 62,50 (not 50,00 + 2 x 25,00 = 100,00)
    assert _amounts(_fine(bjp, **keeping, previous_offences=_days(2))) == [5000, 6250]
    # 4th repeat: 50,00 x 1,5^4 = 253,125 -> R$ 253,13 (half up) -> + 203,13
    fee = _fine(bjp, **keeping, previous_offences=_days(4))
    assert _amounts(fee) == [5000, 20313]
    assert fee.total_cents == 25313
    assert fee.lines[1].article == "BJP 16 §4 III"
    assert "4ª" in fee.lines[1].label
    assert {line.payer for line in fee.lines} == {"owner"}  # 16 §4: "ao proprietário"


def test_bjp_16_4_iii_repeat_given_as_a_count(profile_of) -> None:
    bjp = profile_of("bjp")
    keeping = {"specific": "inadequate_keeping", "notified_on": date(2026, 1, 5)}
    # BJP has no repeat window: a count of earlier penalties is enough; 2 -> x 2,25 = 112,50.
    assert _fine(bjp, **keeping, repeat=2).total_cents == 11250
    assert _fine(bjp, **keeping, repeat=True).total_cents == 7500  # True = one earlier penalty
    assert _fine(bjp, **keeping, repeat=False).total_cents == 5000
    assert _fine(bjp, **keeping, repeat=0).total_cents == 5000
    assert _error(bjp, "fine", {**keeping, "repeat": -1}).code == "invalid"


def test_vv_34_2_iii_adds_50_percent_at_each_repeat(profile_of) -> None:
    vv = profile_of("vilavelha")
    keeping = {"specific": "inadequate_keeping", "notified_on": date(2026, 2, 1)}
    # 34 §2 II: 10 % of R$ 1.621,00 = R$ 162,10.
    assert _fine(vv, **keeping).total_cents == 16210
    # 1st repeat: 162,10 x 1,5 = 243,15
    assert _fine(vv, **keeping, repeat=1).total_cents == 24315
    # 2nd repeat: 162,10 x 2,25 = 364,725 -> R$ 364,73 (half up)
    fee = _fine(vv, **keeping, repeat=2)
    assert _amounts(fee) == [16210, 20263]
    assert fee.lines[1].article == "VV 34 §2 III"


def test_vv_34_2_i_fine_only_after_the_30_days_to_comply(profile_of) -> None:
    vv = profile_of("vilavelha")
    # Intimation on Friday 13 Feb: 30 calendar days, start excluded -> last day Sunday 15 Mar
    # (VV counts calendar days and does not move an end on a weekend).
    keeping = {"specific": "inadequate_keeping", "notified_on": date(2026, 2, 13)}
    err = _error(vv, "fine", {**keeping, "infraction_on": date(2026, 3, 15)})
    assert (err.field, err.code) == ("infraction_on", "term_running")
    assert err.message == (
        "O prazo de 30 dias para regularizar vai até 15/03/2026 (VV 34 §2 I): a "
        "multa só cabe depois dele."
    )
    assert _fine(vv, **keeping, infraction_on=date(2026, 3, 16)).total_cents == 16210


# -- BJP 17 §2: the household-limit ladder ------------------------------------------------------


def test_bjp_17_2_i_no_fine_within_the_30_days_to_comply(profile_of) -> None:
    bjp = profile_of("bjp")
    limit = {"specific": "above_household_limit", "notified_on": date(2026, 1, 5)}
    # I: intimation Monday 5 Jan + 30 days (start excluded) = Wednesday 4 Feb, still inside.
    err = _error(bjp, "fine", {**limit, "infraction_on": date(2026, 2, 4)})
    assert (err.field, err.code) == ("infraction_on", "term_running")
    assert "04/02/2026 (BJP 17 §2 I)" in err.message
    # II: the day after the term, 1 UFM.
    fee = _fine(bjp, **limit, infraction_on=date(2026, 2, 5))
    assert _amounts(fee) == [5000]
    assert fee.lines[0].article == "BJP 17 §2 II"


def test_bjp_17_2_ii_new_30_day_term_after_the_first_fine(profile_of) -> None:
    bjp = profile_of("bjp")
    limit = {
        "specific": "above_household_limit",
        "notified_on": date(2026, 1, 5),
        "previous_offences": [date(2026, 2, 5)],
    }
    # II: "estabelecer novo prazo de 30 dias": fined 5 Feb + 30 = Saturday 7 Mar, still inside.
    err = _error(bjp, "fine", {**limit, "infraction_on": date(2026, 3, 7)})
    assert (err.code, "07/03/2026 (BJP 17 §2 II)" in err.message) == ("term_running", True)
    # III: after the new term the fine doubles: 2 UFM = 50,00 + 50,00.
    fee = _fine(bjp, **limit, infraction_on=date(2026, 3, 8))
    assert _amounts(fee) == [5000, 5000]
    assert fee.lines[1].article == "BJP 17 §2 III"


def test_bjp_17_2_iii_doubles_at_each_repeat(profile_of) -> None:
    bjp = profile_of("bjp")
    fines = [date(2026, 2, 5), date(2026, 3, 8), date(2026, 4, 8), date(2026, 5, 9)]
    limit = {"specific": "above_household_limit", "notified_on": date(2026, 1, 5)}
    # 3rd fine (2 earlier): 1 UFM x 2 x 2 = 4 UFM = R$ 200,00
    fee = _fine(
        bjp, date(2026, 6, 1), **limit, previous_offences=fines[:2], infraction_on=date(2026, 5, 1)
    )
    assert fee.total_cents == 20000
    # 5th fine (4 earlier): 1 UFM x 2^4 = 16 UFM = R$ 800,00
    fee = _fine(
        bjp, date(2026, 6, 20), **limit, previous_offences=fines, infraction_on=date(2026, 6, 10)
    )
    assert _amounts(fee) == [5000, 75000]


def test_bjp_17_2_i_needs_the_intimation_date(profile_of) -> None:
    bjp = profile_of("bjp")
    err = _error(bjp, "fine", {"specific": "above_household_limit"})
    assert (err.field, err.code) == ("notified_on", "required")
    err = _error(
        bjp, "fine", {"specific": "above_household_limit", "notified_on": date(2026, 3, 17)}
    )
    assert (err.field, err.code) == ("notified_on", "after_infraction")


def test_bjp_2_3_unregistered_animals_fined_per_animal_after_30_days(profile_of) -> None:
    bjp = profile_of("bjp")
    unregistered = {"specific": "unregistered_animal", "notified_on": date(2026, 2, 1)}
    # 2 §3 II: 0,5 UFM per animal = 25,00; 1, 2 and 4 animals.
    assert _fine(bjp, **unregistered).total_cents == 2500
    assert _fine(bjp, **unregistered, animals=2).total_cents == 5000
    fee = _fine(bjp, **unregistered, animals=4)
    assert (fee.total_cents, fee.lines[0].quantity, fee.lines[0].unit_cents) == (10000, 4, 2500)
    # 1 Feb + 30 = 3 Mar: an infraction that day is still inside the term.
    err = _error(bjp, "fine", {**unregistered, "infraction_on": date(2026, 3, 3)})
    assert err.code == "term_running"


# -- BJP 19 §1: two fines on two people ---------------------------------------------------------


def test_bjp_19_1_owner_and_unregistered_trainer_are_two_fines(profile_of) -> None:
    bjp = profile_of("bjp")
    fee = _fine(bjp, specific="street_training", joint=["unregistered_trainer"])
    # I: 1 UFM to the owner; II: 1 UFM to the unregistered trainer.
    assert _amounts(fee) == [5000, 5000]
    assert [(line.article, line.payer) for line in fee.lines] == [
        ("BJP 19 §1 I", "owner"),
        ("BJP 19 §1 II", "trainer"),
    ]
    assert [row["payer"] for row in fee.breakdown()] == ["owner", "trainer"]
    # Without an unregistered trainer only the owner is fined.
    alone = _fine(bjp, specific="street_training")
    assert [(line.amount_cents, line.payer) for line in alone.lines] == [(5000, "owner")]


def test_bjp_19_1_each_person_has_their_own_repeat(profile_of) -> None:
    bjp = profile_of("bjp")
    fee = _fine(
        bjp,
        specific="street_training",
        previous_offences=_days(1),
        joint=[{"code": "unregistered_trainer", "previous_offences": _days(2)}],
    )
    # Owner, 1st repeat, "dobrada": 2 UFM = 50,00 + 50,00. Trainer, 2nd repeat: 4 UFM = 200,00.
    by_payer: dict[str, int] = {}
    for line in fee.lines:
        by_payer[line.payer] = by_payer.get(line.payer, 0) + line.amount_cents
    assert by_payer == {"owner": 10000, "trainer": 20000}
    assert _amounts(fee) == [5000, 5000, 5000, 15000]


def test_bjp_19_1_joint_fine_must_be_one_the_law_links(profile_of) -> None:
    bjp = profile_of("bjp")
    err = _error(bjp, "fine", {"specific": "street_training", "joint": ["abandonment"]})
    assert (err.field, err.code) == ("joint", "not_joint")
    err = _error(bjp, "fine", {"specific": "abandonment", "joint": ["unregistered_trainer"]})
    assert err.code == "not_joint"
    err = _error(bjp, "fine", {"specific": "street_training", "joint": "unregistered_trainer"})
    assert (err.field, err.code) == ("joint", "invalid")
    err = _error(
        bjp,
        "fine",
        {"specific": "street_training", "joint": [{"code": "unregistered_trainer", "units": 3}]},
    )
    assert (err.field, err.code) == ("joint", "invalid")


def test_bjp_31_obstructing_the_agent_doubles_the_previous_fine(profile_of) -> None:
    bjp = profile_of("bjp")
    # 31 §ú: 5 UFM "dobrada na reincidência": 1st repeat 10 UFM, 2nd 20 UFM = R$ 1.000,00.
    assert _fine(bjp, specific="obstructing_agent").total_cents == 25000
    assert _fine(bjp, specific="obstructing_agent", repeat=1).total_cents == 50000
    assert _fine(bjp, specific="obstructing_agent", repeat=2).total_cents == 100000


def test_bjp_23_applied_in_double_is_twice_the_fine_whatever_the_count(profile_of) -> None:
    bjp = profile_of("bjp")
    # 23: 5 UFM "aplicada em dobro na reincidência": 10 UFM at the 1st and at the 4th repeat.
    assert _fine(bjp, specific="unauthorised_sale_event", repeat=1).total_cents == 50000
    fee = _fine(bjp, specific="unauthorised_sale_event", repeat=4)
    assert _amounts(fee) == [25000, 25000]


def test_bjp_15_fine_not_per_animal_ignores_the_number_of_animals(profile_of) -> None:
    bjp = profile_of("bjp")
    # 15 §ú: 0,5 UFM "ao proprietário" (not per animal); 14 §ú: 1 UFM "por animal".
    assert _fine(bjp, specific="faeces_not_collected", animals=3).total_cents == 2500
    assert _fine(bjp, specific="no_leash_or_tag", animals=2).total_cents == 10000
    assert _fine(bjp, specific="no_leash_or_tag").total_cents == 5000


def test_bjp_21_abandonment_has_no_repeat_increase(profile_of) -> None:
    bjp = profile_of("bjp")
    assert _amounts(_fine(bjp, specific="abandonment", repeat=4)) == [5000]  # 21: 1 UFM


# -- VV 32 §1 II and VV 43 §2: double when the animal dies --------------------------------------


def test_vv_32_1_ii_double_fine_when_the_animal_dies(profile_of) -> None:
    vv = profile_of("vilavelha")
    # 32 §1 I: 20 % of R$ 1.621,00 = 324,20; II: in double when the animal dies = 648,40.
    assert _fine(vv, specific="no_help_after_accident").total_cents == 32420
    assert _fine(vv, specific="no_help_after_accident", animal_died=False).total_cents == 32420
    fee = _fine(vv, specific="no_help_after_accident", animal_died=True)
    assert _amounts(fee) == [32420, 32420]
    assert fee.lines[1].article == "VV 32 §1 II"
    assert _fine(vv, specific="no_help_after_accident", animal_died="true").total_cents == 64840


def test_vv_43_2_fights_double_per_animal_when_one_dies(profile_of) -> None:
    vv = profile_of("vilavelha")
    # 43 §1: 2 MW per animal present = 3.242,00; 3 animals = 9.726,00; §2: a death doubles it.
    assert _fine(vv, specific="animal_fights", animals=3).total_cents == 972600
    fee = _fine(vv, specific="animal_fights", animals=3, animal_died=True)
    assert _amounts(fee) == [972600, 972600]
    assert fee.lines[1].article == "VV 43 §2"


def test_vv_death_doubling_only_where_the_law_says_so(profile_of) -> None:
    vv = profile_of("vilavelha")
    err = _error(vv, "fine", {"specific": "unsafe_walking_or_faeces", "animal_died": True})
    assert (err.field, err.code) == ("animal_died", "not_applicable")
    err = _error(vv, "fine", {"specific": "animal_fights", "animal_died": "talvez"})
    assert (err.field, err.code) == ("animal_died", "invalid")


# -- VV 22 §6: the 5 % for a repeat capture away from home is one charge ------------------------


def _reclaim_inputs(size: str, days: int, capture: int | None = 1, **extra) -> dict:  # type: ignore[no-untyped-def]
    """A reclaim ``days`` after an apprehension on Monday 2 March 2026, no municipal holidays."""
    monday = date(2026, 3, 2)
    inputs = {
        "size": size,
        "apprehended_on": monday,
        "reclaimed_on": date.fromordinal(monday.toordinal() + days),
        "municipal_holidays": [],
        **extra,
    }
    if capture is not None:
        inputs["capture_number"] = capture
    return inputs


def _reclaim(profile, size: str, days: int, capture: int | None = 1, **extra):  # type: ignore[no-untyped-def]
    return compute_fee(profile, "reclaim", _reclaim_inputs(size, days, capture, **extra), ISSUE_DAY)


def test_vv_22_6_repeat_capture_away_from_home_charged_once(profile_of) -> None:
    vv = profile_of("vilavelha")
    # 5 % of R$ 1.621,00 = 81,05, as a fine at the reclaim, once.
    fee = _reclaim(vv, "small", 1, capture=2, away_from_home=True)
    assert _amounts(fee) == [8105]
    assert (fee.lines[0].kind, fee.lines[0].article) == ("fine", "VV 22 §6")
    # Caught again near home: no fine.
    assert _reclaim(vv, "small", 1, capture=2, away_from_home=False).lines == ()
    # The fine is not also offered as a separate infraction.
    assert all("VV 22" not in fine.article for fine in vv.fines.specific)
    err = _error(vv, "fine", {"specific": "repeat_apprehension_away_from_home"})
    assert (err.field, err.code) == ("specific", "unknown")


def test_vv_22_6_repeat_capture_needs_to_know_if_away_from_home(profile_of) -> None:
    vv = profile_of("vilavelha")
    err = _error(
        vv,
        "reclaim",
        {
            "size": "small",
            "apprehended_on": date(2026, 3, 2),
            "capture_number": 2,
            "municipal_holidays": [],
        },
    )
    assert (err.field, err.code) == ("away_from_home", "required")
    # A first capture has no such fine: the question is not asked.
    assert _reclaim(vv, "small", 1).lines == ()


def test_vv_22_5_free_term_with_a_start_on_a_holiday(profile_of) -> None:
    vv = profile_of("vilavelha")
    # Apprehended on Tiradentes (Tue 21 Apr 2026). 5 business days, start excluded: Wed 22, Thu 23,
    # Fri 24, Mon 27, Tue 28. Reclaimed Thu 30 Apr: 2 days charged x 1 % MW (16,21) = 32,42.
    inputs = {"size": "small", "apprehended_on": date(2026, 4, 21), "municipal_holidays": []}
    assert (
        compute_fee(
            vv, "reclaim", {**inputs, "reclaimed_on": date(2026, 4, 28)}, ISSUE_DAY
        ).total_cents
        == 0
    )
    fee = compute_fee(vv, "reclaim", {**inputs, "reclaimed_on": date(2026, 4, 30)}, ISSUE_DAY)
    assert (fee.total_cents, fee.lines[0].quantity) == (3242, 2)


def test_vv_22_5_free_term_with_a_start_on_a_saturday(profile_of) -> None:
    vv = profile_of("vilavelha")
    # Saturday 7 Mar: VV 22 §5 counts business days from the apprehension (no GRU 114 shift):
    # Mon 9, Tue 10, Wed 11, Thu 12, Fri 13. Reclaimed Fri 13: free; Sat 14: 1 day = 16,21.
    inputs = {"size": "small", "apprehended_on": date(2026, 3, 7), "municipal_holidays": []}
    assert (
        compute_fee(
            vv, "reclaim", {**inputs, "reclaimed_on": date(2026, 3, 13)}, ISSUE_DAY
        ).total_cents
        == 0
    )
    assert (
        compute_fee(
            vv, "reclaim", {**inputs, "reclaimed_on": date(2026, 3, 14)}, ISSUE_DAY
        ).total_cents
        == 1621
    )


# -- GRU 79, 80, 113: repeat window, doubling, prescription --------------------------------------

GRU_FINE = {"severity": "medio", "units": 100, "units_reason": "risco à saúde"}  # 100 UFG = 480,00


def test_gru_79_offence_exactly_three_years_before_is_a_repeat(profile_of) -> None:
    gru = profile_of("guarulhos")
    # GRU 79 "dentro do período de três anos", counted like GRU 114 (start day excluded, last day
    # included): from 16 Mar 2023 the period's last day is 16 Mar 2026 -> a repeat, doubled.
    fee = _fine(gru, **GRU_FINE, previous_offence_on=date(2023, 3, 16))
    assert _amounts(fee) == [48000, 48000]
    # From 15 Mar 2023 the period ended on 15 Mar 2026: the day after, no longer a repeat.
    assert _amounts(_fine(gru, **GRU_FINE, previous_offence_on=date(2023, 3, 15))) == [48000]


def test_gru_79_window_runs_from_the_earlier_offence_across_29_february(profile_of) -> None:
    gru = profile_of("guarulhos")
    on = date(2028, 3, 10)
    # From 29 Feb 2024, three years end on 1 Mar 2027 (Código Civil 132 §3: no 29 Feb -> the next
    # day). An infraction on 1 Mar 2027 repeats; on 2 Mar 2027 it does not.
    assert (
        _fine(
            gru,
            on,
            **GRU_FINE,
            infraction_on=date(2027, 3, 1),
            previous_offences=[date(2024, 2, 29)],
        ).total_cents
        == 96000
    )
    assert (
        _fine(
            gru,
            on,
            **GRU_FINE,
            infraction_on=date(2027, 3, 2),
            previous_offences=[date(2024, 2, 29)],
        ).total_cents
        == 48000
    )
    # From 28 Feb 2025, three years end on 28 Feb 2028: 29 Feb 2028 is outside.
    assert (
        _fine(
            gru,
            on,
            **GRU_FINE,
            infraction_on=date(2028, 2, 29),
            previous_offences=[date(2025, 2, 28)],
        ).total_cents
        == 48000
    )


def test_gru_80_doubles_the_fine_once_not_at_each_repeat(profile_of) -> None:
    gru = profile_of("guarulhos")
    # GRU 80: "o dobro do valor definido para a respectiva infração": 2 x 480,00 with 1, 2 or 4
    # earlier offences inside the window.
    for previous in (
        [date(2025, 6, 1)],
        [date(2024, 6, 1), date(2025, 6, 1)],
        [date(2023, 6, 1), date(2024, 1, 1), date(2024, 6, 1), date(2025, 6, 1)],
    ):
        fee = _fine(gru, **GRU_FINE, previous_offences=previous)
        assert _amounts(fee) == [48000, 48000]
        assert all(type(amount) is int for amount in _amounts(fee))  # centavos, never float
        assert fee.lines[1].article == "GRU 80"
        assert fee.lines[1].label == "Reincidência: multa em dobro"


def test_gru_79_only_offences_inside_the_window_count(profile_of) -> None:
    gru = profile_of("guarulhos")
    # 1 Jan 2023 is outside the three years before 16 Mar 2026; 1 Jan 2024 is inside.
    assert _fine(gru, **GRU_FINE, previous_offences=[date(2023, 1, 1)]).total_cents == 48000
    assert (
        _fine(gru, **GRU_FINE, previous_offences=[date(2023, 1, 1), date(2024, 1, 1)]).total_cents
        == 96000
    )
    # Same day as the infraction: it is a previous penalty of the same day, still a repeat.
    assert _fine(gru, **GRU_FINE, previous_offences=[ISSUE_DAY]).total_cents == 96000


def test_gru_79_previous_offence_after_this_one_is_refused(profile_of) -> None:
    gru = profile_of("guarulhos")
    err = _error(gru, "fine", {**GRU_FINE, "previous_offences": [date(2026, 3, 17)]})
    assert (err.field, err.code) == ("previous_offences", "future")
    err = _error(gru, "fine", {**GRU_FINE, "previous_offence_on": "2026-03-17"})
    assert (err.field, err.code) == ("previous_offence_on", "future")
    err = _error(gru, "fine", {**GRU_FINE, "previous_offences": "2025-01-01"})
    assert (err.field, err.code) == ("previous_offences", "invalid")
    err = _error(gru, "fine", {**GRU_FINE, "previous_offences": ["ontem"]})
    assert (err.field, err.code) == ("previous_offences", "invalid")


def test_gru_113_infraction_prescribes_after_five_years(profile_of) -> None:
    gru = profile_of("guarulhos")
    db.session.add(UnitValue(unit="UFG", value_cents=400, effective_from=date(2021, 1, 1)))
    db.session.flush()
    # 16 Mar 2021 + 5 years: the last day is 16 Mar 2026 -> still finable, at the 2021 UFG
    # (100 x 4,00 = 400,00: the unit value of the infraction day).
    fee = _fine(gru, **GRU_FINE, infraction_on=date(2021, 3, 16))
    assert fee.total_cents == 40000
    err = _error(gru, "fine", {**GRU_FINE, "infraction_on": date(2021, 3, 15)})
    assert (err.field, err.code) == ("infraction_on", "prescribed")
    assert err.message == "A infração prescreveu: passaram mais de 5 anos (GRU 113)."
    # §1: a notice on 1 Jun 2021 interrupted it; five years run again from there.
    fee = _fine(
        gru,
        **GRU_FINE,
        infraction_on=date(2021, 3, 15),
        prescription_interrupted_on=date(2021, 6, 1),
    )
    assert fee.total_cents == 40000
    for bad in (date(2021, 3, 14), date(2026, 3, 17)):
        err = _error(
            gru,
            "fine",
            {**GRU_FINE, "infraction_on": date(2021, 3, 15), "prescription_interrupted_on": bad},
        )
        assert (err.field, err.code) == ("prescription_interrupted_on", "invalid")


def test_gru_113_prescribed_offence_never_counts_as_a_repeat(profile_of) -> None:
    gru = profile_of("guarulhos")
    # A city profile without a repeat window still stops at the five-year prescription.
    no_window = gru.model_copy(
        update={"fines": gru.fines.model_copy(update={"repeat_window_years": None})}
    )
    # 16 Mar 2021 + 5 years = 16 Mar 2026: not yet prescribed on the infraction day -> doubled.
    assert _fine(no_window, **GRU_FINE, previous_offences=[date(2021, 3, 16)]).total_cents == 96000
    assert _fine(no_window, **GRU_FINE, previous_offences=[date(2021, 3, 15)]).total_cents == 48000


def test_gru_79_a_bare_repeat_flag_is_refused(profile_of) -> None:
    gru = profile_of("guarulhos")
    err = _error(gru, "fine", {**GRU_FINE, "repeat": 2})
    assert (err.field, err.code) == ("previous_offence_on", "required")
    assert "3 anos" in err.message


# -- GRU 69 II and CABO 39: the agent's range, with a reason -------------------------------------


def test_gru_69_ii_both_ends_of_42_to_42000_ufg_are_allowed(profile_of) -> None:
    gru = profile_of("guarulhos")
    why = {"severity": "leve", "units_reason": "sem risco imediato"}
    assert _fine(gru, **why, units=42).total_cents == 42 * 480  # 201,60
    assert _fine(gru, **why, units="42000").total_cents == 42000 * 480  # 201.600,00
    for units in ("41.99", "42000.01", 0, -42):
        err = _error(gru, "fine", {**why, "units": units})
        assert err.field == "units"
        assert err.code == ("out_of_range" if units not in (0, -42) else "required")


def test_gru_69_ii_out_of_range_message_names_the_range(profile_of) -> None:
    gru = profile_of("guarulhos")
    err = _error(gru, "fine", {"severity": "grave", "units": 41, "units_reason": "x"})
    assert err.message == "A multa deve ficar entre 42 e 42000 UFG (GRU 69 II)."


def test_gru_69_ii_the_agent_records_why(profile_of) -> None:
    gru = profile_of("guarulhos")
    fee = _fine(gru, severity="grave", units=500, units_reason="  dano considerável  ")
    assert fee.lines[0].note == "dano considerável"
    assert fee.breakdown()[0]["note"] == "dano considerável"
    assert "500 UFG" in fee.lines[0].label
    for reason in (None, "", "   ", 12):
        inputs = {"severity": "grave", "units": 500, "units_reason": reason}
        err = _error(gru, "fine", inputs)
        assert (err.field, err.code) == ("units_reason", "required")
    err = _error(gru, "fine", {"severity": "grave", "units_reason": "x"})
    assert (err.field, err.code) == ("units", "required")
    err = _error(gru, "fine", {"severity": "grave", "units": "muito", "units_reason": "x"})
    assert (err.field, err.code) == ("units", "required")
    err = _error(gru, "fine", {"severity": "grave", "units": "Infinity", "units_reason": "x"})
    assert (err.field, err.code) == ("units", "required")


def test_cabo_39_minimums_of_each_severity(profile_of) -> None:
    cabo = profile_of("cabo")
    why = {"units_reason": "natureza da infração"}
    # Leve: from 0,1 UFIR (0,1 x 1,06 = 0,106 -> R$ 0,11); 0,09 is below.
    assert _fine(cabo, severity="leve", units="0.1", **why).total_cents == 11
    assert (
        _error(cabo, "fine", {"severity": "leve", "units": "0.09", **why}).code == "below_minimum"
    )
    # Grave: above 1 (1 itself is refused; 1,01 x 1,06 = 1,0706 -> R$ 1,07).
    err = _error(cabo, "fine", {"severity": "grave", "units": 1, **why})
    assert (err.field, err.code) == ("units", "below_minimum")
    assert "acima de 1" in err.message
    assert _fine(cabo, severity="grave", units="1.01", **why).total_cents == 107
    # Gravíssima: above 5 (5,5 x 1,06 = R$ 5,83).
    assert (
        _error(cabo, "fine", {"severity": "gravissima", "units": 5, **why}).code == "below_minimum"
    )
    assert _fine(cabo, severity="gravissima", units="5.5", **why).total_cents == 583
    err = _error(cabo, "fine", {"severity": "leve", "units": "0.05", **why})
    assert "a partir de 0,1" in err.message


def test_fixed_fines_refuse_an_amount_from_the_agent(profile_of) -> None:
    cab = profile_of("cabeceira")
    err = _error(cab, "fine", {"severity": "leve", "units": 7})  # CAB 40 I: 5 UFM, fixed
    assert (err.field, err.code) == ("units", "fixed_by_law")
    assert err.message == (
        "O valor desta multa é fixado em lei (CAB 40): não há faixa para escolher."
    )


def test_bjp_and_vv_fixed_fines_refuse_an_amount_from_the_agent(profile_of) -> None:
    bjp = profile_of("bjp")
    err = _error(bjp, "fine", {"specific": "abandonment", "units": 2})
    assert (err.field, err.code) == ("units", "fixed_by_law")
    vv = load_profile("vilavelha")
    err = _error(vv, "fine", {"units": 1})  # VV 50 I: 25 % MW, fixed
    assert (err.field, err.code) == ("units", "fixed_by_law")


# -- CAB 40 §2 and CABO 39 §2: the two readings of "em dobro" -----------------------------------


def test_cab_40_2_doubles_the_previous_penalty_at_each_repeat(profile_of) -> None:
    cab = profile_of("cabeceira")
    # Leve 5 UFM = 250,00. "Em dobro em relação à penalidade anterior": 1st repeat 500,00,
    # 2nd 1.000,00, 4th 5 x 2^4 = 80 UFM = 4.000,00.
    assert _fine(cab, severity="leve", repeat=1).total_cents == 50000
    assert _fine(cab, severity="leve", repeat=2).total_cents == 100000
    fee = _fine(cab, severity="leve", repeat=4)
    assert _amounts(fee) == [25000, 375000]
    assert "4ª" in fee.lines[1].label


def test_cab_40_2_previous_penalty_given_in_money(profile_of) -> None:
    cab = profile_of("cabeceira")
    # Previous penalty R$ 600,00 -> 1.200,00 now; never less than this infraction's own fine.
    assert (
        _fine(cab, severity="leve", repeat=True, previous_amount_cents=60000).total_cents == 120000
    )
    assert (
        _fine(cab, severity="leve", repeat=True, previous_amount_cents=10000).total_cents == 25000
    )
    # Not a repeat: the previous amount plays no part.
    assert _fine(cab, severity="leve", previous_amount_cents=60000).total_cents == 25000
    err = _error(cab, "fine", {"severity": "leve", "repeat": True, "previous_amount_cents": -1})
    assert (err.field, err.code) == ("previous_amount_cents", "invalid")
    # Left empty: the previous amount is not known, so the repeat doubles by count (5 x 2 UFM).
    assert _fine(cab, severity="leve", repeat=True, previous_amount_cents="").total_cents == 50000
    assert (
        _fine(cab, severity="leve", repeat=True, previous_amount_cents="60000").total_cents
        == 120000
    )


def test_cabo_39_2_doubles_once(profile_of) -> None:
    cabo = profile_of("cabo")
    inputs = {"severity": "gravissima", "units": 10, "units_reason": "x"}
    # 10 UFIR = 10,60; "na reincidência, a multa será aplicada em dobro" -> 21,20 at any count.
    assert _fine(cabo, **inputs, repeat=1).total_cents == 2120
    assert _fine(cabo, **inputs, repeat=4).total_cents == 2120


def test_vv_50_ii_default_fine_doubles_once(profile_of) -> None:
    vv = profile_of("vilavelha")
    # 50 I: 25 % MW = 405,25; II: "aplicada em dobro" -> 810,50 with 1, 2 or 4 repeats.
    for count in (1, 2, 4):
        assert _amounts(_fine(vv, repeat=count)) == [40525, 40525]


# -- unit value on the infraction date ----------------------------------------------------------


def test_unit_value_in_force_on_the_infraction_date(profile_of) -> None:
    cab = profile_of("cabeceira")
    db.session.add(UnitValue(unit="UFM", value_cents=6000, effective_from=date(2026, 6, 1)))
    db.session.flush()
    issued = date(2026, 6, 10)
    # CAB 40 I: 5 UFM. Infraction on 31 May (UFM 50,00) -> 250,00 even if issued in June.
    assert _fine(cab, issued, severity="leve", infraction_on=date(2026, 5, 31)).total_cents == 25000
    assert _fine(cab, issued, severity="leve", infraction_on="2026-06-01").total_cents == 30000
    assert _fine(cab, issued, severity="leve").total_cents == 30000  # omitted: the issue day
    err = _error(cab, "fine", {"severity": "leve", "infraction_on": date(2026, 6, 11)}, issued)
    assert (err.field, err.code) == ("infraction_on", "future")
    err = _error(cab, "fine", {"severity": "leve", "infraction_on": "31/05/2026"}, issued)
    assert (err.field, err.code) == ("infraction_on", "invalid")


def test_specific_fine_uses_the_unit_value_of_the_infraction_date(profile_of) -> None:
    bjp = profile_of("bjp")
    db.session.add(UnitValue(unit="UFM", value_cents=5500, effective_from=date(2026, 3, 1)))
    db.session.flush()
    # BJP 21: 1 UFM; infraction 28 Feb (50,00) vs 1 Mar (55,00).
    assert _fine(bjp, specific="abandonment", infraction_on=date(2026, 2, 28)).total_cents == 5000
    assert _fine(bjp, specific="abandonment", infraction_on=date(2026, 3, 1)).total_cents == 5500


# -- expenses: CABO 41, CABO 10 §ú f, GRU 72 §1 -------------------------------------------------


def test_cabo_41_expenses_itemised_with_the_reclaim(profile_of) -> None:
    cabo = profile_of("cabo")
    fee = _reclaim(
        cabo,
        "small",
        2,
        expenses=[
            {"kind": "transport", "amount_cents": 4500, "description": "Viatura, 12 km"},
            {"kind": "veterinary", "amount_cents": 12000},
        ],
    )
    # CABO 44: 2 days x 5,65 = 11,30; plus 45,00 and 120,00 of expenses.
    assert _amounts(fee) == [1130, 4500, 12000]
    assert [line.kind for line in fee.lines] == ["fee", "expense", "expense"]
    assert fee.lines[1].article == "CABO 10 §ú f, 41"
    assert fee.lines[1].label == "Despesa: transporte (Viatura, 12 km)"
    assert fee.lines[2].label == "Despesa: assistência veterinária"


def test_cabo_41_expenses_itemised_with_the_fine(profile_of) -> None:
    cabo = profile_of("cabo")
    fee = _fine(
        cabo,
        severity="leve",
        units=1,
        units_reason="x",
        expenses=[{"kind": "food", "amount_cents": 3000}],
    )
    assert _amounts(fee) == [106, 3000]
    assert (fee.lines[1].article, fee.lines[1].kind) == ("CABO 41", "expense")
    # 41 lists transport, food, veterinary care "e outras"; storage is the GRU word, not CABO's.
    err = _error(
        cabo,
        "fine",
        {
            "severity": "leve",
            "units": 1,
            "units_reason": "x",
            "expenses": [{"kind": "storage", "amount_cents": 100}],
        },
    )
    assert (err.field, err.code) == ("expenses", "not_recoverable")


def test_gru_72_1_expenses_paid_back_before_the_return(profile_of) -> None:
    gru = profile_of("guarulhos")
    expenses = [{"kind": "capture", "amount_cents": 2000}, {"kind": "storage", "amount_cents": 900}]
    fee = _reclaim(gru, "small", 1, expenses=expenses)
    assert _amounts(fee) == [5000, 2000, 900]
    assert fee.lines[2].article == "GRU 72 §1"
    # GRU 82 §3 waives the "taxas", not the expenses the city is paid back for (72 §1).
    waived = _reclaim(gru, "small", 1, expenses=expenses, exemption="unemployed_3_months")
    assert _amounts(waived) == [5000, 2000, 900, -5000]
    assert waived.total_cents == 2900
    err = _error(
        gru,
        "reclaim",
        {
            "size": "small",
            "apprehended_on": date(2026, 3, 2),
            "municipal_holidays": [],
            "expenses": [{"kind": "veterinary", "amount_cents": 100}],
        },
    )
    assert (err.field, err.code) == ("expenses", "not_recoverable")
    assert err.message == "Esta despesa não está entre as previstas em GRU 72 §1."


def test_expenses_only_where_the_law_lets_the_city_recover_them(profile_of) -> None:
    gru = profile_of("guarulhos")
    err = _error(gru, "fine", {**GRU_FINE, "expenses": [{"kind": "capture", "amount_cents": 1}]})
    assert (err.field, err.code) == ("expenses", "not_recoverable")
    bjp = load_profile("bjp")
    err = _error(
        bjp,
        "reclaim",
        {
            "size": "small",
            "apprehended_on": date(2026, 3, 2),
            "expenses": [{"kind": "transport", "amount_cents": 1}],
        },
    )
    assert (err.field, err.code) == ("expenses", "not_recoverable")
    assert _reclaim(gru, "small", 1, expenses=[]).total_cents == 5000


@pytest.mark.parametrize(
    "expenses",
    [
        "transport",
        [{"kind": "transport"}],
        [{"kind": "transport", "amount_cents": 0}],
        [{"kind": "transport", "amount_cents": True}],
        [{"kind": "transport", "amount_cents": 12.5}],
        ["transport"],
    ],
)
def test_cabo_41_expense_needs_a_kind_and_a_positive_amount(profile_of, expenses) -> None:
    cabo = profile_of("cabo")
    err = _error(
        cabo,
        "reclaim",
        {
            "size": "small",
            "apprehended_on": date(2026, 3, 2),
            "municipal_holidays": [],
            "expenses": expenses,
        },
    )
    assert (err.field, err.code) == ("expenses", "invalid")


# -- reclaim: counts of 1, 2 and 4, omitted inputs ----------------------------------------------


def test_cab_17_fourth_capture_is_8_times_not_6(profile_of) -> None:
    cab = profile_of("cabeceira")
    # CAB 17 §ú: doubled relative to the last capture, "e assim sucessivamente":
    # 1st 0,5 UFM = 25,00/day; 2nd 50,00; 4th 25,00 x 2^3 = 200,00 (not 6 x 25,00 = 150,00).
    assert _reclaim(cab, "small", 1, capture=1).total_cents == 2500
    assert _reclaim(cab, "small", 1, capture=2).total_cents == 5000
    fee = _reclaim(cab, "small", 1, capture=4)
    assert fee.total_cents == 20000
    assert fee.lines[0].article == "CAB 17; CAB 17 §ú"


def test_cab_19_2_fourth_capture_fine_is_8_times(profile_of) -> None:
    cab = profile_of("cabeceira")
    # CAB 19 §1: 2 UFM per head = 100,00; §2 doubles at each repeat: 4th = 800,00.
    fee = _reclaim(cab, "large", 1, capture=4)
    assert _amounts(fee) == [20000, 80000]
    assert fee.lines[1].article == "CAB 19 §1; CAB 19 §2"


def test_cab_17_per_head_counts_1_2_and_4_animals(profile_of) -> None:
    cab = profile_of("cabeceira")
    # 0,5 UFM per head per day; 3 days: 75,00 per head.
    assert _reclaim(cab, "small", 3, animals=1).total_cents == 7500
    fee = _reclaim(cab, "small", 3, animals=2)
    assert fee.total_cents == 15000
    assert (fee.lines[0].quantity, fee.lines[0].unit_cents) == (6, 2500)
    assert _reclaim(cab, "small", 3, animals=4).total_cents == 30000
    # CAB 19 §1 per head: 4 medium animals, 1 day: 4 x 25,00 + 4 x 100,00.
    assert _amounts(_reclaim(cab, "medium", 1, animals=4)) == [10000, 40000]


def test_omitted_capture_number_is_a_first_capture(profile_of) -> None:
    cabo = profile_of("cabo")
    # CABO 44: the first-capture daily rate (5,65), not the repeat column (11,30).
    assert _reclaim(cabo, "small", 2, capture=None).total_cents == 1130
    bjp = load_profile("bjp")
    # BJP 28 §ú: the 0,5 UFM repeat fine is not charged on an omitted capture number.
    assert _amounts(_reclaim(bjp, "small", 2, capture=None)) == [5000]
    assert _amounts(_reclaim(bjp, "small", 2, capture=4)) == [5000, 2500]  # not doubled


def test_reclaim_inputs_are_checked(profile_of) -> None:
    cabo = profile_of("cabo")
    base = {"size": "small", "apprehended_on": date(2026, 3, 2), "municipal_holidays": []}
    for name, value in (
        ("capture_number", 0),
        ("capture_number", "dois"),
        ("animals", 0),
        ("animals", True),
        ("capture_number", 1.5),
    ):
        err = _error(cabo, "reclaim", {**base, name: value})
        assert (err.field, err.code) == (name, "invalid")
    err = _error(cabo, "reclaim", {"size": "small", "municipal_holidays": []})
    assert (err.field, err.code) == ("apprehended_on", "required")
    err = _error(cabo, "reclaim", {**base, "tagged": "sim"})
    assert (err.field, err.code) == ("tagged", "invalid")
    err = _error(cabo, "reclaim", {**base, "size": None})
    assert (err.field, err.code) == ("size", "invalid")
    # The reclaim day defaults to the issue day: Mon 2 -> Mon 16 Mar = 14 days x 5,65 = 79,10.
    assert compute_fee(cabo, "reclaim", base, ISSUE_DAY).total_cents == 7910
    # Same-day reclaim: one day; reclaim one day later: one day (nights in the kennel).
    assert (
        compute_fee(
            cabo, "reclaim", {**base, "reclaimed_on": date(2026, 3, 2)}, ISSUE_DAY
        ).total_cents
        == 565
    )
    assert (
        compute_fee(cabo, "reclaim", {**base, "reclaimed_on": "2026-03-03"}, ISSUE_DAY).total_cents
        == 565
    )


# -- GRU 82 §4-5 with GRU 114 and the holidays staff keep ----------------------------------------


def test_gru_82_5_municipal_holiday_rows_extend_the_hold(profile_of) -> None:
    gru = profile_of("guarulhos")
    inputs = {"size": "small", "apprehended_on": date(2026, 3, 2), "reclaimed_on": date(2026, 3, 7)}
    # Mon 2 Mar + 3 business days = Thu 5; reclaimed Sat 7: 2 days beyond x 15,00.
    assert _amounts(compute_fee(gru, "reclaim", inputs, ISSUE_DAY)) == [5000, 3000]
    # Staff enter a municipal holiday on Wed 4 Mar: the hold ends Fri 6, 1 day beyond.
    db.session.add(MunicipalHoliday(day=date(2026, 3, 4), name="Feriado municipal"))
    db.session.flush()
    assert _amounts(compute_fee(gru, "reclaim", inputs, ISSUE_DAY)) == [5000, 1500]
    # Holidays given by the caller replace the table.
    assert _amounts(
        compute_fee(gru, "reclaim", {**inputs, "municipal_holidays": []}, ISSUE_DAY)
    ) == [5000, 3000]
    assert _amounts(
        compute_fee(gru, "reclaim", {**inputs, "municipal_holidays": ["2026-03-04"]}, ISSUE_DAY)
    ) == [5000, 1500]


def test_gru_82_4_hold_from_a_saturday_and_from_a_state_holiday(profile_of) -> None:
    gru = profile_of("guarulhos")
    # Saturday 7 Mar: GRU 114 §ú moves the start to Mon 9; 3 business days: Tue 10, Wed 11,
    # Thu 12. Reclaimed Thu 12: no daily charge; Fri 13: one day (15,00).
    saturday = {"size": "small", "apprehended_on": date(2026, 3, 7), "municipal_holidays": []}
    assert _amounts(
        compute_fee(gru, "reclaim", {**saturday, "reclaimed_on": date(2026, 3, 12)}, ISSUE_DAY)
    ) == [5000]
    assert _amounts(
        compute_fee(gru, "reclaim", {**saturday, "reclaimed_on": date(2026, 3, 13)}, ISSUE_DAY)
    ) == [5000, 1500]
    # Wed 8 Jul; Thu 9 Jul is a São Paulo holiday: Fri 10, Mon 13, Tue 14 -> Wed 15 is beyond.
    july = {"size": "small", "apprehended_on": date(2026, 7, 8), "municipal_holidays": []}
    assert _amounts(
        compute_fee(gru, "reclaim", {**july, "reclaimed_on": date(2026, 7, 14)}, ISSUE_DAY)
    ) == [5000]
    assert _amounts(
        compute_fee(gru, "reclaim", {**july, "reclaimed_on": date(2026, 7, 15)}, ISSUE_DAY)
    ) == [5000, 1500]
    # Medium animals: 5 business days from Wed 8 Jul: 10, 13, 14, 15, 16 -> Fri 17 is beyond.
    medium = {**july, "size": "medium"}
    assert _amounts(
        compute_fee(gru, "reclaim", {**medium, "reclaimed_on": date(2026, 7, 16)}, ISSUE_DAY)
    ) == [5000]
    assert _amounts(
        compute_fee(gru, "reclaim", {**medium, "reclaimed_on": date(2026, 7, 17)}, ISSUE_DAY)
    ) == [5000, 1500]


def test_bjp_28_untagged_and_tagged_reclaim_price_is_the_same(profile_of) -> None:
    bjp = profile_of("bjp")
    # BJP 28 charges the city's price per animal, whatever the hold (no per-day line).
    assert _amounts(_reclaim(bjp, "small", 9, tagged=False)) == [5000]
    assert _amounts(_reclaim(bjp, "small", 9, tagged="false", animals=2)) == [10000]


# -- GRU 22: price list per profile, the latest override wins ------------------------------------


def test_gru_22_one_citys_override_does_not_apply_to_another(profile_of) -> None:
    gru = profile_of("guarulhos")
    bjp = load_profile("bjp")
    db.session.add(
        PriceOverride(
            profile_key="guarulhos",
            key="registration",
            amount_cents=3190,
            effective_from=date(2026, 2, 1),
        )
    )
    db.session.flush()
    assert compute_fee(gru, "registration", {}, ISSUE_DAY).total_cents == 3190
    # Bom Jesus dos Perdões keeps its own (shipped) price: R$ 25,00.
    assert compute_fee(bjp, "registration", {}, ISSUE_DAY).total_cents == 2500
    assert price_cents(bjp, "registration", ISSUE_DAY).example is True


def test_gru_22_the_latest_override_in_force_wins(profile_of) -> None:
    gru = profile_of("guarulhos")
    for cents, day in (
        (3500, date(2026, 3, 1)),
        (3000, date(2026, 2, 1)),
        (9999, date(2026, 4, 1)),
    ):
        db.session.add(
            PriceOverride(
                profile_key="guarulhos",
                key="card_copy",
                amount_cents=cents,
                effective_from=day,
                note=f"Decreto {cents}",
            )
        )
    db.session.flush()
    assert compute_fee(gru, "card_copy", {}, date(2026, 1, 31)).total_cents == 1000  # shipped
    assert compute_fee(gru, "card_copy", {}, date(2026, 2, 1)).total_cents == 3000
    assert compute_fee(gru, "card_copy", {}, date(2026, 2, 28)).total_cents == 3000
    assert compute_fee(gru, "card_copy", {}, date(2026, 3, 1)).total_cents == 3500
    assert compute_fee(gru, "card_copy", {}, date(2026, 3, 31)).total_cents == 3500
    entry = price_cents(gru, "card_copy", date(2026, 3, 31))
    assert (entry.effective_from, entry.note, entry.example) == (
        date(2026, 3, 1),
        "Decreto 3500",
        False,
    )
    # The tag copy is a separate line of the list (GRU 22 II) and keeps its price.
    assert compute_fee(gru, "tag_copy", {}, date(2026, 3, 31)).total_cents == 1000


def test_gru_22_price_list_has_only_the_lines_the_law_charges(profile_of) -> None:
    gru = profile_of("guarulhos")
    keys = [entry.key for entry in price_list(gru, ISSUE_DAY)]
    assert keys == ["registration", "card_copy", "tag_copy", "reclaim", "reclaim_daily"]
    assert compute_fee(gru, "adoption", {}, ISSUE_DAY).lines == ()  # GRU 88: adoption is free


def test_price_missing_from_the_list_is_an_error(profile_of) -> None:
    gru = profile_of("guarulhos")
    with pytest.raises(FeeError) as err:
        price_cents(gru, "adoption", ISSUE_DAY)
    assert err.value.code == "not_charged"


# -- the itemised shape callers store (PaymentItem.breakdown) -----------------------------------


def test_breakdown_rows_carry_quantity_only_for_multiplied_lines(profile_of) -> None:
    cab = profile_of("cabeceira")
    single = _reclaim(cab, "small", 1).breakdown()[0]
    assert single == {
        "label": "Taxa por cabeça e por dia de apreensão",
        "amount_cents": 2500,
        "article": "CAB 17",
        "kind": "fee",
    }
    # 2 days: 2 x 25,00 -> the quantity and the unit price are kept.
    two_days = _reclaim(cab, "small", 2).breakdown()[0]
    assert (two_days["quantity"], two_days["unit_cents"]) == (2, 2500)
    # One day for 2 animals: per-head line x 2.
    heads = _reclaim(cab, "medium", 1, animals=2)
    assert [(r["quantity"], r["unit_cents"], r["kind"]) for r in heads.breakdown()] == [
        (2, 2500, "fee"),
        (2, 10000, "fine"),
    ]
    assert heads.lines[1].label.endswith("× 2 animais")
    assert heads.lines[1].article == "CAB 19 §1"


def test_breakdown_row_of_a_hand_made_line() -> None:
    from portal.services.fees import FeeLine

    assert FeeLine("Multa", 100, "GRU 69 II", quantity=2).as_dict() == {
        "label": "Multa",
        "amount_cents": 100,
        "article": "GRU 69 II",
        "kind": "fee",
        "quantity": 2,
        "unit_cents": None,
    }
    assert FeeLine("Multa", 100, "GRU 69 II", unit_cents=50).as_dict()["quantity"] == 1
    assert "payer" not in FeeLine("Taxa", 100, "GRU 22 I").as_dict()


def test_adoption_fee_counts_the_animals(profile_of) -> None:
    bjp = profile_of("bjp")
    assert compute_fee(bjp, "adoption", {"animals": 2}, ISSUE_DAY).total_cents == 6000  # BJP 28
    cab = load_profile("cabeceira")
    # CAB 17: 0,5 UFM per head per day held; 6 days x 2 animals x 25,00 = 300,00.
    fee = compute_fee(cab, "adoption", {"days_held": 6, "animals": 2}, ISSUE_DAY)
    assert fee.total_cents == 30000
    err = _error(cab, "adoption", {})
    assert (err.field, err.code) == ("days_held", "required")
    assert compute_fee(cab, "adoption", {"days_held": 0}, ISSUE_DAY).total_cents == 0
    err = _error(cab, "adoption", {"days_held": -1})
    assert (err.field, err.code) == ("days_held", "invalid")


def test_expense_labels_name_each_kind_the_law_lists(profile_of) -> None:
    cabo = profile_of("cabo")
    kinds = ["capture", "transport", "food", "veterinary", "other"]
    fee = _reclaim(cabo, "small", 0, expenses=[{"kind": k, "amount_cents": 100} for k in kinds])
    assert [line.label for line in fee.lines[1:]] == [
        "Despesa: captura e remoção",
        "Despesa: transporte",
        "Despesa: alimentação",
        "Despesa: assistência veterinária",
        "Despesa: outras despesas",
    ]
    gru = load_profile("guarulhos")
    fee = _reclaim(
        gru, "small", 0, expenses=[{"kind": "storage", "amount_cents": 100, "description": "  "}]
    )
    assert fee.lines[-1].label == "Despesa: depósito"
    assert fee.lines[-1].payer is None  # the owner who reclaims


def test_cabo_39_minimum_written_in_reais(profile_of) -> None:
    from portal.profiles.schema import Amount

    cabo = profile_of("cabo")
    # A city restating the table in R$ (fine unit BRL): "grave: acima de R$ 1,00".
    grave = cabo.fines.severities["grave"].model_copy(update={"minimum": Amount(cents=100)})
    fines = cabo.fines.model_copy(update={"unit": "BRL", "severities": {"grave": grave}})
    in_reais = cabo.model_copy(update={"fines": fines, "fine_unit": "BRL"})
    why = {"severity": "grave", "units_reason": "x"}
    err = _error(in_reais, "fine", {**why, "units": 1})
    assert err.code == "below_minimum"
    fee = _fine(in_reais, **why, units="1.01")
    assert fee.total_cents == 101
    assert fee.lines[0].label == "Multa por infração grave (R$ 1,01)"


# -- repeat records: combined inputs, the latest fine, each person's own record ------------------


def test_bjp_16_4_iii_list_and_single_date_both_count(profile_of) -> None:
    bjp = profile_of("bjp")
    keeping = {"specific": "inadequate_keeping", "notified_on": date(2026, 1, 5)}
    # Two earlier penalties (a tuple of dates and one more date): 1 UFM x 1,5^2 = 112,50.
    fee = _fine(
        bjp, **keeping, previous_offences=(date(2025, 1, 10),), previous_offence_on="2025-06-10"
    )
    assert fee.total_cents == 11250


def test_bjp_17_2_ii_new_term_runs_from_the_latest_fine(profile_of) -> None:
    bjp = profile_of("bjp")
    limit = {
        "specific": "above_household_limit",
        "notified_on": date(2026, 1, 5),
        "previous_offences": [date(2026, 3, 8), date(2026, 2, 5)],
    }
    # The latest fine was 8 Mar: its new term ends 7 Apr, so 5 Apr is too early (even though
    # 30 days from the first fine, 5 Feb, ended long before).
    err = _error(bjp, "fine", {**limit, "infraction_on": date(2026, 4, 5)}, date(2026, 4, 10))
    assert err.code == "term_running" and "07/04/2026" in err.message
    fee = _fine(bjp, date(2026, 4, 10), **limit, infraction_on=date(2026, 4, 8))
    assert fee.total_cents == 20000  # 3rd fine: 4 UFM


def test_bjp_17_2_i_intimation_on_the_infraction_day_is_still_in_its_term(profile_of) -> None:
    bjp = profile_of("bjp")
    err = _error(bjp, "fine", {"specific": "above_household_limit", "notified_on": ISSUE_DAY})
    assert (err.field, err.code) == ("infraction_on", "term_running")


def test_comply_term_moves_off_weekends_and_holidays_where_the_law_says_so(profile_of) -> None:
    bjp = profile_of("bjp")
    # A city whose notices follow GRU 114 §ú (start and end on business days), e.g. by decree.
    notices = bjp.notices.model_copy(update={"moves_to_business_day": True})
    moving = bjp.model_copy(update={"notices": notices})
    limit = {"specific": "above_household_limit", "municipal_holidays": [date(2026, 4, 6)]}
    # Fri 6 Mar + 30 = Sun 5 Apr -> Mon 6 Apr is a municipal holiday -> Tue 7 Apr.
    err = _error(
        moving,
        "fine",
        {**limit, "notified_on": date(2026, 3, 6), "infraction_on": date(2026, 4, 7)},
        date(2026, 4, 10),
    )
    assert err.code == "term_running" and "07/04/2026" in err.message
    assert (
        _fine(
            moving,
            date(2026, 4, 10),
            **limit,
            notified_on=date(2026, 3, 6),
            infraction_on=date(2026, 4, 8),
        ).total_cents
        == 5000
    )
    # Tue 9 Jun + 30 = Thu 9 Jul, the São Paulo state holiday -> Fri 10 Jul.
    err = _error(
        moving,
        "fine",
        {**limit, "notified_on": date(2026, 6, 9), "infraction_on": date(2026, 7, 10)},
        date(2026, 7, 20),
    )
    assert "10/07/2026" in err.message


def test_bjp_19_1_the_owners_record_is_not_the_trainers(profile_of) -> None:
    bjp = profile_of("bjp")
    fee = _fine(bjp, specific="street_training", repeat=1, joint=["unregistered_trainer"])
    # Owner: 1st repeat, 2 UFM. Trainer: no record of their own, 1 UFM.
    assert [(line.payer, line.amount_cents) for line in fee.lines] == [
        ("owner", 5000),
        ("owner", 5000),
        ("trainer", 5000),
    ]


def test_bjp_14_per_animal_fine_line_shows_the_count(profile_of) -> None:
    bjp = profile_of("bjp")
    fee = _fine(bjp, specific="no_leash_or_tag", animals=2)
    line = fee.lines[0]
    assert line.label == (
        "Multa: Animal sem coleira, guia ou plaqueta em via pública (2 animais × R$ 50,00)"
    )
    assert (line.kind, line.article, line.quantity, line.unit_cents) == (
        "fine",
        "BJP 14 §ú",
        2,
        5000,
    )


def test_death_and_repeat_together_compound(profile_of) -> None:
    vv = profile_of("vilavelha")
    # If a law doubled both on death and on repeat (none of the five does for the same fine):
    # 324,20 -> death 648,40 -> repeat doubles that: 1.296,80.
    fine = next(f for f in vv.fines.specific if f.code == "no_help_after_accident")
    fines = vv.fines.model_copy(update={"specific": [fine.model_copy(update={"repeat": "double"})]})
    both = vv.model_copy(update={"fines": fines})
    fee = _fine(both, specific="no_help_after_accident", animal_died=True, repeat=1)
    assert _amounts(fee) == [32420, 32420, 64840]


def test_previous_amount_is_only_read_on_a_repeat(profile_of) -> None:
    cab = profile_of("cabeceira")
    assert _fine(cab, severity="leve", previous_amount_cents=-1).total_cents == 25000


def test_empty_units_on_a_fixed_fine_is_no_choice(profile_of) -> None:
    cab = profile_of("cabeceira")
    assert _fine(cab, severity="leve", units="").total_cents == 25000
    bjp = load_profile("bjp")
    assert _fine(bjp, specific="abandonment", units=None).total_cents == 5000


def test_joint_fine_shares_the_facts_of_the_case(profile_of) -> None:
    bjp = profile_of("bjp")
    # If the second person's fine were per animal, the animals of the case would count for it.
    specific = [
        f.model_copy(update={"per_animal": True}) if f.code == "unregistered_trainer" else f
        for f in bjp.fines.specific
    ]
    per_head = bjp.model_copy(update={"fines": bjp.fines.model_copy(update={"specific": specific})})
    fee = _fine(per_head, specific="street_training", animals=3, joint=["unregistered_trainer"])
    assert [(line.payer, line.amount_cents) for line in fee.lines] == [
        ("owner", 5000),
        ("trainer", 15000),
    ]
    # No one else fined: an empty answer is no joint fine.
    for nobody in ("", [], (), None):
        assert _amounts(_fine(bjp, specific="street_training", joint=nobody)) == [5000]


def test_bjp_17_2_ii_new_term_message_cites_its_own_provision(profile_of) -> None:
    bjp = profile_of("bjp")
    fine = next(f for f in bjp.fines.specific if f.code == "above_household_limit")
    cites = {**fine.cites, "renewed_comply_days": "BJP 17 §2 II, III"}
    specific = [fine.model_copy(update={"cites": cites})]
    cited = bjp.model_copy(update={"fines": bjp.fines.model_copy(update={"specific": specific})})
    err = _error(
        cited,
        "fine",
        {
            "specific": "above_household_limit",
            "notified_on": date(2026, 1, 5),
            "previous_offences": [date(2026, 2, 5)],
            "infraction_on": date(2026, 3, 7),
        },
    )
    assert "(BJP 17 §2 II, III)" in err.message


def test_joint_entries_name_their_fine(profile_of) -> None:
    bjp = profile_of("bjp")
    err = _error(
        bjp,
        "fine",
        {"specific": "street_training", "joint": [{"previous_offences": [date(2025, 1, 1)]}]},
    )
    assert (err.field, err.code) == ("joint", "not_joint")
    err = _error(
        bjp,
        "fine",
        {"specific": "street_training", "joint": [{"code": "unregistered_trainer", "animals": 2}]},
    )
    assert err.message == "Informe as outras pessoas multadas pelo mesmo fato."
    err = _error(bjp, "fine", {"specific": "abandonment", "units": 2})
    assert err.message == (
        "O valor desta multa é fixado em lei (BJP 21): não há faixa para escolher."
    )


def test_vv_32_1_ii_every_line_is_a_fine_of_the_same_person(profile_of) -> None:
    vv = profile_of("vilavelha")
    fee = _fine(vv, specific="no_help_after_accident", animal_died=True)
    assert [(line.kind, line.payer) for line in fee.lines] == [("fine", "offender")] * 2
    assert all(type(amount) is int for amount in _amounts(fee))
    bjp = load_profile("bjp")
    fee = _fine(bjp, specific="obstructing_agent", repeat=2)
    assert [(line.kind, line.payer) for line in fee.lines] == [("fine", "offender")] * 2


def test_empty_repeat_answers_are_no_repeat(profile_of) -> None:
    gru = profile_of("guarulhos")
    fee = _fine(gru, **GRU_FINE, previous_offences="", previous_offence_on="", repeat="")
    assert _amounts(fee) == [48000]


def test_bjp_17_2_iii_repeat_given_as_a_count(profile_of) -> None:
    bjp = profile_of("bjp")
    # One earlier fine, date not given: no new-term check is possible; 2 UFM.
    fee = _fine(bjp, specific="above_household_limit", notified_on=date(2026, 1, 5), repeat=1)
    assert fee.total_cents == 10000


def test_gru_82_4_untagged_hold_extended_by_the_ccz(profile_of) -> None:
    gru = profile_of("guarulhos")
    # GRU 82 §4: the CCZ may extend the term for animals without RGA (here to 5 business days).
    from portal.profiles.schema import HoldDays

    impound = gru.impound.model_copy(
        update={"untagged_hold_days": HoldDays(small=5, medium=5, large=5)}
    )
    extended = gru.model_copy(update={"impound": impound})
    # Mon 2 Mar: tagged hold ends Thu 5; untagged Mon 9. Reclaimed Tue 10.
    assert _amounts(_reclaim(extended, "small", 8, tagged=True)) == [5000, 5 * 1500]
    assert _amounts(_reclaim(extended, "small", 8, tagged=False)) == [5000, 1500]


def test_gru_23_exemption_line_names_the_exemption(profile_of) -> None:
    gru = profile_of("guarulhos")
    fee = compute_fee(gru, "registration", {"exemption": "unemployed_3_months"}, ISSUE_DAY)
    line = fee.lines[-1]
    assert (line.label, line.kind, line.amount_cents) == (
        "Isenção: Desempregado há mais de três meses",
        "exemption",
        -2500,
    )
    err = _error(gru, "card_copy", {"exemption": "unemployed_3_months"})
    assert (err.field, err.code) == ("exemption", "unknown_exemption")


def test_gru_23_exemption_of_a_free_or_one_centavo_price(profile_of) -> None:
    gru = profile_of("guarulhos")
    db.session.add(
        PriceOverride(
            profile_key="guarulhos",
            key="registration",
            amount_cents=0,
            effective_from=date(2026, 2, 1),
        )
    )
    db.session.add(
        PriceOverride(
            profile_key="guarulhos",
            key="registration",
            amount_cents=1,
            effective_from=date(2026, 3, 1),
        )
    )
    db.session.flush()
    waived = {"exemption": "income_below_2_minimum_wages"}
    # Nothing to waive on a free registration: no exemption line.
    assert _amounts(compute_fee(gru, "registration", waived, date(2026, 2, 10))) == [0]
    assert _amounts(compute_fee(gru, "registration", waived, date(2026, 3, 10))) == [1, -1]


def test_expense_of_one_centavo_and_its_payer(profile_of) -> None:
    cabo = profile_of("cabo")
    fee = _reclaim(cabo, "small", 0, expenses=[{"kind": "transport", "amount_cents": 1}])
    assert _amounts(fee) == [565, 1]
    fee = _fine(
        cabo,
        severity="leve",
        units=1,
        units_reason="x",
        expenses=[{"kind": "transport", "amount_cents": 700}],
    )
    assert [line.payer for line in fee.lines] == ["offender", "offender"]
    assert _reclaim(cabo, "small", 0, expenses="").total_cents == 565


def test_graded_fine_messages_name_the_unit_and_the_article(profile_of) -> None:
    gru = profile_of("guarulhos")
    err = _error(gru, "fine", {"severity": "grave", "units_reason": "x"})
    assert err.message == "Informe o valor da multa em UFG."
    cabo = load_profile("cabo")
    err = _error(cabo, "fine", {"severity": "grave", "units": 1, "units_reason": "x"})
    assert err.message == "Para esta gravidade a multa é acima de 1 UFIR (CABO 39)."


def test_vv_22_5_free_term_skips_the_espirito_santo_holiday(profile_of) -> None:
    vv = profile_of("vilavelha")
    # Thu 9 Apr + 5 business days in ES: Fri 10, (Mon 13 Penha), Tue 14, Wed 15, Thu 16, Fri 17.
    inputs = {"size": "small", "apprehended_on": date(2026, 4, 9), "municipal_holidays": []}
    assert (
        compute_fee(
            vv, "reclaim", {**inputs, "reclaimed_on": date(2026, 4, 17)}, ISSUE_DAY
        ).total_cents
        == 0
    )
    assert (
        compute_fee(
            vv, "reclaim", {**inputs, "reclaimed_on": date(2026, 4, 18)}, ISSUE_DAY
        ).total_cents
        == 1621
    )


# -- the fine's own lines: who pays, what kind, which article (issue 16) -------------------------


def test_a_fine_by_severity_and_by_infraction_at_once_is_refused(profile_of) -> None:
    gru = profile_of("guarulhos")
    err = _error(gru, "fine", {**GRU_FINE, "specific": "abandonment"})
    assert (err.field, err.code) == ("specific", "ambiguous")
    assert err.message == "Informe a gravidade ou a infração específica, não ambas."


def test_a_severity_the_law_does_not_have_is_refused(profile_of) -> None:
    gru = profile_of("guarulhos")
    # GRU 69 grades leve, médio, grave and gravíssimo: no "altíssimo".
    err = _error(gru, "fine", {**GRU_FINE, "severity": "altissimo"})
    assert (err.field, err.code) == ("severity", "unknown")
    assert err.message == "Gravidade desconhecida nesta lei."


def test_a_fine_needs_a_severity_where_the_law_has_no_default(profile_of) -> None:
    gru = profile_of("guarulhos")
    err = _error(gru, "fine", {"units": 100, "units_reason": "x"})
    assert (err.field, err.code) == ("severity", "required")
    assert err.message == "Informe a gravidade ou a infração."


def test_cab_40_fixed_severity_fine_line(profile_of) -> None:
    cab = profile_of("cabeceira")
    # CAB 40 I: leve, 5 UFM = R$ 250,00, paid by the offender.
    (line,) = _fine(cab, severity="leve").lines
    assert (line.label, line.amount_cents, line.article, line.kind, line.payer) == (
        "Multa por infração leve",
        25000,
        "CAB 40",
        "fine",
        "offender",
    )
    # CAB 40 §2, 1st repeat: twice the previous penalty; the added line is a fine too.
    first, repeat = _fine(cab, severity="leve", repeat=1).lines
    assert (repeat.amount_cents, repeat.kind, repeat.payer) == (25000, "fine", "offender")
    assert repeat.article == "CAB 40 §2"


def test_gru_69_graded_fine_line_keeps_the_agents_reason(profile_of) -> None:
    gru = profile_of("guarulhos")
    (line,) = _fine(gru, **GRU_FINE).lines
    assert (line.amount_cents, line.kind, line.payer, line.note) == (
        48000,
        "fine",
        "offender",
        "risco à saúde",
    )
    assert line.label == "Multa por infração de nível médio (100 UFG)"  # issue 25: GRU 77
    assert line.article.startswith("GRU 69")


def test_vv_50_i_default_fine_line_and_its_fixed_amount(profile_of) -> None:
    vv = profile_of("vilavelha")
    # VV 50 I: an infraction without its own fine pays 25 % of the minimum wage (R$ 405,25).
    (line,) = _fine(vv).lines
    assert (line.amount_cents, line.article, line.kind, line.payer) == (
        40525,
        "VV 50 I",
        "fine",
        "offender",
    )
    assert line.label == "Multa (infração sem valor próprio na lei)"
    err = _error(vv, "fine", {"units": 1})
    assert "(VV 50 I)" in err.message
    # VV 50 II: the repeat line cites its own paragraph.
    repeat = _fine(vv, repeat=1).lines[1]
    assert (repeat.article, repeat.kind, repeat.payer) == ("VV 50 II", "fine", "offender")


def test_expenses_with_a_specific_fine_go_to_the_person_it_names(profile_of) -> None:
    bjp = profile_of("bjp")
    # Bom Jesus dos Perdões' law lets the CCZ recover no expenses with a fine.
    err = _error(
        bjp,
        "fine",
        {"specific": "abandonment", "expenses": [{"kind": "food", "amount_cents": 3000}]},
    )
    assert (err.field, err.code) == ("expenses", "not_recoverable")
    # A city whose law has both (BJP's fines with CABO 41's expenses): the expense is the owner's,
    # the person BJP 19 §1 I names, not the trainer's.
    cabo = load_profile("cabo")
    both = bjp.model_copy(update={"expenses": cabo.expenses})
    fee = compute_fee(
        both,
        "fine",
        {"specific": "street_training", "expenses": [{"kind": "food", "amount_cents": 3000}]},
        ISSUE_DAY,
    )
    expense = fee.lines[-1]
    assert (expense.kind, expense.amount_cents, expense.article, expense.payer) == (
        "expense",
        3000,
        "CABO 41",
        "owner",
    )


# -- the whole fee: its day, its kind, its lines' labels (issue 16) -------------------------------


def test_a_fee_is_dated_the_day_it_was_computed_for(profile_of) -> None:
    gru = profile_of("guarulhos")
    fee = compute_fee(gru, "registration", {}, ISSUE_DAY)
    assert (fee.kind, fee.on) == ("registration", ISSUE_DAY)
    (line,) = fee.lines
    assert line.label == "Registro do animal (RGA)"


def test_an_unknown_kind_of_charge_is_refused(profile_of) -> None:
    gru = profile_of("guarulhos")
    err = _error(gru, "parking", {})
    assert (err.field, err.code) == ("kind", "unknown_kind")
    assert err.message == "Tipo de cobrança desconhecido: parking."


def test_a_reclaim_before_the_apprehension_is_refused(profile_of) -> None:
    gru = profile_of("guarulhos")
    inputs = _reclaim_inputs("small", -1)  # reclaimed Sun 1 March, the day before
    err = _error(gru, "reclaim", inputs)
    assert (err.field, err.code) == ("reclaimed_on", "before_apprehension")
    # The same day is allowed: one day of the kennel (GRU 82: R$ 50,00 at the reclaim).
    assert compute_fee(gru, "reclaim", {**inputs, "reclaimed_on": date(2026, 3, 2)}, ISSUE_DAY)


def test_vv_22_6_fine_line_names_what_it_charges(profile_of) -> None:
    vv = profile_of("vilavelha")
    (line,) = _reclaim(vv, "small", 1, capture=2, away_from_home=True).lines
    assert line.label == "Multa por nova apreensão longe do domicílio"


def test_a_charge_that_does_not_apply_leaves_the_next_ones(profile_of) -> None:
    # The order of a city's charges is the order of its table, not a rule: a charge that does not
    # apply (VV 22 §6 near home; CAB 19 §1 for a small animal) must not end the list.
    vv = profile_of("vilavelha")
    swapped = vv.model_copy(
        update={"reclaim": vv.reclaim.model_copy(update={"charges": vv.reclaim.charges[::-1]})}
    )
    # Repeat capture near home, reclaimed 9 days after a Monday: 5 business days free (to Mon 9
    # Mar), then Tue 10 and Wed 11: 2 days x 1 % MW (16,21) = 32,42.
    fee = _reclaim(swapped, "small", 9, capture=2, away_from_home=False)
    assert _amounts(fee) == [3242]
    cab = load_profile("cabeceira")
    swapped = cab.model_copy(
        update={"reclaim": cab.reclaim.model_copy(update={"charges": cab.reclaim.charges[::-1]})}
    )
    # CAB 17: small animal, 2 days x 0,5 UFM (25,00); no CAB 19 §1 fine for a small animal.
    assert _amounts(_reclaim(swapped, "small", 2)) == [5000]
