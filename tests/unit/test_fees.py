"""The fee service, one test per rule, named after the article that sets it (DOMAIN §2, §7)."""

from __future__ import annotations

from datetime import date

import pytest

from portal.extensions import db
from portal.models import PriceOverride, UnitValue
from portal.services.fees import FeeError, compute_fee, price_list

ISSUE_DAY = date(2026, 3, 16)
MONDAY = date(2026, 3, 2)  # no national, SP, ES or MG holiday in the weeks used below


def _amounts(fee) -> list[int]:  # type: ignore[no-untyped-def]
    return [line.amount_cents for line in fee.lines]


# -- price list ---------------------------------------------------------------------------------


def test_gru_22_registration_uses_the_city_price_list(profile_of) -> None:
    gru = profile_of("guarulhos")
    fee = compute_fee(gru, "registration", {}, ISSUE_DAY)
    assert fee.total_cents == 2500
    assert fee.lines[0].article == "GRU 22 I"
    assert isinstance(fee.total_cents, int)


def test_gru_22_price_set_by_the_city_applies_from_its_effective_date(profile_of) -> None:
    gru = profile_of("guarulhos")
    db.session.add(
        PriceOverride(
            profile_key="guarulhos",
            key="registration",
            amount_cents=3190,
            effective_from=date(2026, 4, 1),
            note="Decreto 1/2026",
        )
    )
    db.session.flush()
    assert compute_fee(gru, "registration", {}, date(2026, 3, 31)).total_cents == 2500
    assert compute_fee(gru, "registration", {}, date(2026, 4, 1)).total_cents == 3190
    entries = {e.key: e for e in price_list(gru, date(2026, 4, 1))}
    assert entries["registration"].example is False
    assert entries["card_copy"].example is True  # still the shipped placeholder


def test_gru_22_ii_second_copies_of_card_and_tag(profile_of) -> None:
    gru = profile_of("guarulhos")
    assert compute_fee(gru, "card_copy", {}, ISSUE_DAY).lines[0].article == "GRU 22 II"
    assert compute_fee(gru, "tag_copy", {}, ISSUE_DAY).total_cents == 1000


def test_gru_23_unemployed_exempt(profile_of) -> None:
    gru = profile_of("guarulhos")
    fee = compute_fee(gru, "registration", {"exemption": "unemployed_3_months"}, ISSUE_DAY)
    assert fee.total_cents == 0
    assert _amounts(fee) == [2500, -2500]  # the waived amount stays visible, with its article
    assert fee.lines[-1].article == "GRU 23"
    assert fee.charged


def test_gru_23_income_below_two_minimum_wages_exempt(profile_of) -> None:
    gru = profile_of("guarulhos")
    fee = compute_fee(gru, "registration", {"exemption": "income_below_2_minimum_wages"}, ISSUE_DAY)
    assert fee.total_cents == 0


def test_gru_23_exemptions_are_offered_on_registration_only(profile_of) -> None:
    gru = profile_of("guarulhos")
    assert {e.code for e in compute_fee(gru, "registration", {}, ISSUE_DAY).exemptions} == {
        "unemployed_3_months",
        "income_below_2_minimum_wages",
    }
    with pytest.raises(FeeError) as err:
        compute_fee(gru, "card_copy", {"exemption": "unemployed_3_months"}, ISSUE_DAY)
    assert err.value.field == "exemption"


def test_vv_12_par3_programme_participants_exempt_from_registration(profile_of) -> None:
    vv = profile_of("vilavelha")
    assert compute_fee(vv, "registration", {}, ISSUE_DAY).total_cents == 2500  # VV 12 §4
    fee = compute_fee(vv, "registration", {"exemption": "programme_participant"}, ISSUE_DAY)
    assert fee.total_cents == 0
    assert fee.lines[-1].article == "VV 12 §3-4"


def test_cabo_19_registration_has_no_fee(profile_of) -> None:
    cabo = profile_of("cabo")
    fee = compute_fee(cabo, "registration", {}, ISSUE_DAY)
    assert fee.total_cents == 0 and not fee.charged and fee.lines == ()


def test_bjp_11_registration_and_second_copies(profile_of) -> None:
    bjp = profile_of("bjp")
    assert compute_fee(bjp, "registration", {"animals": 2}, ISSUE_DAY).total_cents == 5000
    assert compute_fee(bjp, "card_copy", {}, ISSUE_DAY).lines[0].article == "BJP 11 b"


def test_licence_is_not_charged_where_the_law_sets_no_price(profile_of) -> None:
    gru = profile_of("guarulhos")
    assert compute_fee(gru, "licence", {}, ISSUE_DAY).total_cents == 0


# -- adoption -----------------------------------------------------------------------------------


def test_cab_17_adoption_half_ufm_per_day_held(profile_of) -> None:
    cab = profile_of("cabeceira")
    fee = compute_fee(cab, "adoption", {"days_held": 6}, ISSUE_DAY)
    assert fee.total_cents == 6 * 2500
    assert fee.lines[0].quantity == 6 and fee.lines[0].unit_cents == 2500
    assert fee.lines[0].article == "CAB 17"


def test_bjp_28_adoption_uses_the_price_list(profile_of) -> None:
    bjp = profile_of("bjp")
    assert compute_fee(bjp, "adoption", {}, ISSUE_DAY).total_cents == 3000


def test_gru_88_adoption_is_free(profile_of) -> None:
    gru = profile_of("guarulhos")
    assert compute_fee(gru, "adoption", {}, ISSUE_DAY).total_cents == 0


# -- reclaim (resgate) --------------------------------------------------------------------------


def _reclaim(profile, size: str, days: int, capture: int = 1, **extra):  # type: ignore[no-untyped-def]
    inputs = {
        "size": size,
        "apprehended_on": MONDAY,
        "reclaimed_on": date.fromordinal(MONDAY.toordinal() + days),
        "capture_number": capture,
        "municipal_holidays": [],
        **extra,
    }
    return compute_fee(profile, "reclaim", inputs, ISSUE_DAY)


def test_cabo_44_reclaim_small_first_capture_5_65_per_day(profile_of) -> None:
    cabo = profile_of("cabo")
    fee = _reclaim(cabo, "small", 4)
    assert fee.total_cents == 4 * 565
    assert fee.lines[0].article == "CABO 44"


def test_cabo_44_reclaim_small_repeat_11_30_per_day(profile_of) -> None:
    cabo = profile_of("cabo")
    fee = _reclaim(cabo, "small", 4, capture=2)
    assert _amounts(fee) == [4 * 1130]  # the repeat column replaces the daily rate


def test_cabo_44_reclaim_medium_and_large_rates(profile_of) -> None:
    cabo = profile_of("cabo")
    assert _reclaim(cabo, "medium", 2).total_cents == 2 * 1724
    assert _reclaim(cabo, "large", 2).total_cents == 2 * 2724
    assert _reclaim(cabo, "medium", 2, capture=3).total_cents == 2 * 5448


def test_cabo_44_reclaim_same_day_counts_one_day(profile_of) -> None:
    cabo = profile_of("cabo")
    assert _reclaim(cabo, "small", 0).total_cents == 565


def test_cab_17_reclaim_half_ufm_per_head_per_day(profile_of) -> None:
    cab = profile_of("cabeceira")
    fee = _reclaim(cab, "small", 3)
    assert fee.total_cents == 3 * 2500
    assert len(fee.lines) == 1  # no CAB 19 fine for small animals


def test_cab_17_reclaim_doubles_each_recapture(profile_of) -> None:
    cab = profile_of("cabeceira")
    assert _reclaim(cab, "small", 3, capture=2).total_cents == 3 * 5000
    fee = _reclaim(cab, "small", 3, capture=3)
    assert fee.total_cents == 3 * 10000
    assert "CAB 17 §ú" in fee.lines[0].article


def test_cab_19_medium_animal_pays_2_ufm_per_head_doubling_on_repeat(profile_of) -> None:
    cab = profile_of("cabeceira")
    first = _reclaim(cab, "medium", 1)
    assert _amounts(first) == [2500, 10000]
    assert first.lines[1].kind == "fine" and first.lines[1].article == "CAB 19 §1"
    second = _reclaim(cab, "large", 1, capture=2)
    assert _amounts(second) == [5000, 20000]
    assert "CAB 19 §2" in second.lines[1].article


def test_cab_17_reclaim_counts_every_animal(profile_of) -> None:
    cab = profile_of("cabeceira")
    assert _reclaim(cab, "small", 2, animals=3).total_cents == 3 * 2 * 2500


def test_vv_22_par5_free_within_5_business_days_then_1_percent_mw(profile_of) -> None:
    vv = profile_of("vilavelha")
    # Apprehended Monday 2 March: the 5th business day is Monday 9 March.
    assert _reclaim(vv, "small", 7).total_cents == 0
    fee = _reclaim(vv, "small", 10)  # Thursday 12 March: 3 days after the free term
    assert fee.total_cents == 3 * 1621
    assert fee.lines[0].article == "VV 22 §5"


def test_vv_22_par5_free_term_skips_holidays(profile_of) -> None:
    vv = profile_of("vilavelha")
    # A municipal holiday on Wednesday 4 March pushes the free term to Tuesday 10 March.
    fee = _reclaim(vv, "small", 8, municipal_holidays=[date(2026, 3, 4)])
    assert fee.total_cents == 0


def test_vv_22_par6_repeat_away_from_home_5_percent_mw(profile_of) -> None:
    vv = profile_of("vilavelha")
    fee = _reclaim(vv, "small", 1, capture=2, away_from_home=True)
    assert _amounts(fee) == [8105]  # 5 % of R$ 1.621,00, still inside the free days
    assert fee.lines[0].kind == "fine" and fee.lines[0].article == "VV 22 §6"


def test_bjp_28_reclaim_price_list_plus_half_ufm_on_repeat(profile_of) -> None:
    bjp = profile_of("bjp")
    assert _amounts(_reclaim(bjp, "small", 2)) == [5000]
    repeat = _reclaim(bjp, "small", 2, capture=2)
    assert _amounts(repeat) == [5000, 2500]
    assert repeat.lines[1].article == "BJP 28 §ú"


def test_gru_82_par5_daily_charge_only_beyond_the_hold(profile_of) -> None:
    gru = profile_of("guarulhos")
    # Small tagged animal: 3 business days from Monday 2 March end on Thursday 5 March.
    assert _amounts(_reclaim(gru, "small", 3)) == [5000]
    fee = _reclaim(gru, "small", 5)  # Saturday 7 March: 2 days beyond the term
    assert _amounts(fee) == [5000, 2 * 1500]
    assert fee.lines[1].article == "GRU 82 §5"


def test_gru_82_par3_unemployed_exempt_from_reclaim(profile_of) -> None:
    gru = profile_of("guarulhos")
    fee = _reclaim(gru, "small", 5, exemption="unemployed_3_months")
    assert fee.total_cents == 0
    assert fee.lines[-1].article == "GRU 82 §3"


def test_reclaim_rejects_a_reclaim_before_the_apprehension(profile_of) -> None:
    cabo = profile_of("cabo")
    with pytest.raises(FeeError) as err:
        _reclaim(cabo, "small", -1)
    assert err.value.field == "reclaimed_on"
    with pytest.raises(FeeError) as err:
        _reclaim(cabo, "huge", 1)
    assert err.value.field == "size"


# -- fines --------------------------------------------------------------------------------------


def test_gru_69_fine_graded_within_42_to_42000_ufg(profile_of) -> None:
    gru = profile_of("guarulhos")
    fee = compute_fee(
        gru, "fine", {"severity": "grave", "units": 100, "units_reason": "dano"}, ISSUE_DAY
    )
    assert fee.total_cents == 100 * 480
    assert fee.lines[0].article == "GRU 69 II"
    for units in (41, 42001):
        with pytest.raises(FeeError) as err:
            compute_fee(
                gru, "fine", {"severity": "grave", "units": units, "units_reason": "x"}, ISSUE_DAY
            )
        assert err.value.field == "units"


def test_gru_80_repeat_fine_doubled(profile_of) -> None:
    gru = profile_of("guarulhos")
    fee = compute_fee(
        gru,
        "fine",
        {
            "severity": "medio",
            "units": 100,
            "units_reason": "risco",
            "previous_offence_on": date(2024, 6, 1),
        },
        ISSUE_DAY,
    )
    assert _amounts(fee) == [48000, 48000]
    assert fee.total_cents == 2 * 48000
    assert fee.lines[1].article == "GRU 80"


def test_gru_79_repeat_only_within_3_years(profile_of) -> None:
    gru = profile_of("guarulhos")
    fee = compute_fee(
        gru,
        "fine",
        {
            "severity": "medio",
            "units": 100,
            "units_reason": "risco",
            "previous_offence_on": date(2023, 3, 15),
        },
        ISSUE_DAY,
    )
    assert fee.total_cents == 48000
    with pytest.raises(FeeError) as err:  # a bare "repeat" cannot be checked against the window
        compute_fee(
            gru,
            "fine",
            {"severity": "medio", "units": 100, "units_reason": "risco", "repeat": True},
            ISSUE_DAY,
        )
    assert err.value.field == "previous_offence_on"


def test_cab_40_fine_by_severity_in_ufm(profile_of) -> None:
    cab = profile_of("cabeceira")
    assert compute_fee(cab, "fine", {"severity": "leve"}, ISSUE_DAY).total_cents == 5 * 5000
    assert compute_fee(cab, "fine", {"severity": "gravissima"}, ISSUE_DAY).total_cents == 20 * 5000


def test_cab_40_par2_repeat_doubles_the_previous_penalty(profile_of) -> None:
    cab = profile_of("cabeceira")
    fee = compute_fee(
        cab, "fine", {"severity": "leve", "repeat": True, "previous_amount_cents": 50000}, ISSUE_DAY
    )
    assert fee.total_cents == 100000
    assert fee.lines[1].article == "CAB 40 §2"


def test_cabo_39_fine_above_the_minimum_of_its_severity(profile_of) -> None:
    cabo = profile_of("cabo")
    why = {"units_reason": "reincidência de incômodo à vizinhança"}
    fee = compute_fee(cabo, "fine", {"severity": "grave", "units": 2, **why}, ISSUE_DAY)
    assert fee.total_cents == 212
    with pytest.raises(FeeError):  # "grave: > 1" UFIR
        compute_fee(cabo, "fine", {"severity": "grave", "units": 1, **why}, ISSUE_DAY)
    assert (
        compute_fee(
            cabo, "fine", {"severity": "leve", "units": "0.1", **why}, ISSUE_DAY
        ).total_cents
        == 11
    )


def test_cabo_39_par2_repeat_fine_doubled(profile_of) -> None:
    cabo = profile_of("cabo")
    fee = compute_fee(
        cabo,
        "fine",
        {
            "severity": "gravissima",
            "units": 10,
            "repeat": True,
            "units_reason": "animal mordedor solto",
        },
        ISSUE_DAY,
    )
    assert fee.total_cents == 2 * 1060
    assert fee.lines[1].article == "CABO 39 §2"


def test_vv_50_default_fine_25_percent_mw_doubled_on_repeat(profile_of) -> None:
    vv = profile_of("vilavelha")
    assert compute_fee(vv, "fine", {}, ISSUE_DAY).total_cents == 40525
    fee = compute_fee(vv, "fine", {"repeat": True}, ISSUE_DAY)
    assert fee.total_cents == 81050
    assert [line.article for line in fee.lines] == ["VV 50 I", "VV 50 II"]


def test_vv_23_specific_fine_is_not_doubled(profile_of) -> None:
    vv = profile_of("vilavelha")
    fee = compute_fee(vv, "fine", {"specific": "maltreatment_repeat", "repeat": True}, ISSUE_DAY)
    assert fee.total_cents == 81050  # 50 % of the minimum wage, the repeat is already the cause


def test_vv_33_per_animal_fine(profile_of) -> None:
    vv = profile_of("vilavelha")
    fee = compute_fee(vv, "fine", {"specific": "unsafe_walking_or_faeces", "animals": 3}, ISSUE_DAY)
    assert fee.total_cents == 3 * 16210


def test_bjp_16_par4_repeat_adds_50_percent(profile_of) -> None:
    bjp = profile_of("bjp")
    fee = compute_fee(
        bjp,
        "fine",
        {"specific": "inadequate_keeping", "repeat": True, "notified_on": date(2026, 1, 5)},
        ISSUE_DAY,
    )
    assert _amounts(fee) == [5000, 2500]
    assert fee.lines[1].article == "BJP 16 §4 III"


def test_bjp_30_fine_needs_an_infraction(profile_of) -> None:
    bjp = profile_of("bjp")
    with pytest.raises(FeeError) as err:
        compute_fee(bjp, "fine", {}, ISSUE_DAY)
    assert err.value.field == "severity"


# -- unit values and shape ----------------------------------------------------------------------


def test_unit_value_in_force_on_the_issue_day_is_used(profile_of) -> None:
    cab = profile_of("cabeceira")
    db.session.add(UnitValue(unit="UFM", value_cents=6000, effective_from=date(2026, 6, 1)))
    db.session.flush()
    assert compute_fee(cab, "fine", {"severity": "leve"}, date(2026, 5, 31)).total_cents == 25000
    assert compute_fee(cab, "fine", {"severity": "leve"}, date(2026, 6, 1)).total_cents == 30000


def test_missing_unit_value_is_a_fee_error(profile_of) -> None:
    cab = profile_of("cabeceira")
    with pytest.raises(FeeError) as err:
        compute_fee(cab, "fine", {"severity": "leve"}, date(2025, 12, 31))
    assert err.value.code == "unit_value_missing"


def test_breakdown_lists_label_amount_and_article(profile_of) -> None:
    cab = profile_of("cabeceira")
    fee = _reclaim(cab, "medium", 2)
    rows = fee.breakdown()
    assert all({"label", "amount_cents", "article", "kind"} <= set(row) for row in rows)
    assert sum(row["amount_cents"] for row in rows) == fee.total_cents
    assert all(isinstance(row["amount_cents"], int) for row in rows)


def test_unknown_kind_is_refused(profile_of) -> None:
    gru = profile_of("guarulhos")
    with pytest.raises(FeeError) as err:
        compute_fee(gru, "parking", {}, ISSUE_DAY)
    assert err.value.field == "kind"


def test_fee_error_is_a_domain_error_and_still_a_value_error() -> None:
    from portal.domain import DomainError

    err = FeeError("size", "invalid", "Informe o porte.")
    assert isinstance(err, DomainError) and isinstance(err, ValueError)
    assert err.as_api() == {"field": "size", "code": "invalid", "message": "Informe o porte."}


# -- typed inputs: one record per kind, a dict read into it once ----------------------------------


def test_compute_fee_takes_the_reclaim_record_a_dict_is_read_into(profile_of) -> None:
    from portal.services.fees import ReclaimInputs, parse_inputs

    gru = profile_of("guarulhos")
    typed = {
        "size": "medium",
        "apprehended_on": "2026-03-02",
        "reclaimed_on": "2026-03-20",
        "capture_number": "2",
        "tagged": "false",
        "municipal_holidays": ["2026-03-06"],
    }
    record = parse_inputs("reclaim", typed)
    assert record == ReclaimInputs(
        size="medium",
        apprehended_on=MONDAY,
        reclaimed_on=date(2026, 3, 20),
        capture_number=2,
        tagged=False,
        municipal_holidays=(date(2026, 3, 6),),
    )
    fee = compute_fee(gru, "reclaim", record, ISSUE_DAY)
    assert fee == compute_fee(gru, "reclaim", typed, ISSUE_DAY) and fee.total_cents > 0


def test_compute_fee_takes_the_price_list_record(profile_of) -> None:
    from portal.services.fees import PriceInputs

    bjp = profile_of("bjp")
    assert compute_fee(bjp, "registration", PriceInputs(animals=2), ISSUE_DAY).total_cents == 5000


def test_compute_fee_takes_the_adoption_record(profile_of) -> None:
    from portal.services.fees import AdoptionInputs

    cab = profile_of("cabeceira")
    fee = compute_fee(cab, "adoption", AdoptionInputs(days_held=6), ISSUE_DAY)
    assert fee == compute_fee(cab, "adoption", {"days_held": "6"}, ISSUE_DAY)
    assert fee.total_cents == 6 * 2500  # CAB 17: 0,5 UFM a day


def test_compute_fee_takes_the_fine_record(profile_of) -> None:
    from portal.services.fees import FineInputs, Repeats

    vv = profile_of("vilavelha")
    fee = compute_fee(vv, "fine", FineInputs(repeats=Repeats(repeat=1)), ISSUE_DAY)
    assert fee == compute_fee(vv, "fine", {"repeat": True}, ISSUE_DAY)
    assert fee.total_cents == 2 * 40525  # VV 50 II: twice the default fine


def test_bjp_19_1_each_joint_fine_is_read_with_its_own_record() -> None:
    from portal.services.fees import JointFine, Repeats, parse_inputs

    fine = parse_inputs(
        "fine",
        {
            "specific": "a",
            "previous_offence_on": "2025-01-02",
            "joint": ["b", {"code": "c", "repeat": "2"}],
        },
    )
    assert fine.repeats == Repeats(previous_offence_on=date(2025, 1, 2))  # type: ignore[union-attr]
    assert fine.joint == (JointFine("b"), JointFine("c", Repeats(repeat=2)))  # type: ignore[union-attr]


def test_a_record_of_another_kind_is_refused(profile_of) -> None:
    from portal.services.fees import FineInputs, PriceInputs

    gru = profile_of("guarulhos")
    with pytest.raises(TypeError):
        compute_fee(gru, "reclaim", PriceInputs(), ISSUE_DAY)
    with pytest.raises(TypeError):
        compute_fee(gru, "registration", FineInputs(), ISSUE_DAY)


def test_parse_inputs_refuses_an_unknown_kind() -> None:
    from portal.services.fees import parse_inputs

    with pytest.raises(FeeError) as err:
        parse_inputs("parking", {})
    assert (err.value.field, err.value.code) == ("kind", "unknown_kind")


def test_cab_19_2_the_owners_earlier_captures_are_read_from_a_dict_and_checked(profile_of) -> None:
    from portal.services.fees import parse_inputs

    given = {"size": "large", "apprehended_on": "2026-03-02", "reclaimed_on": "2026-03-03"}
    record = parse_inputs("reclaim", {**given, "owner_captures": ["medium", "large"]})
    assert record.owner_captures == ("medium", "large")
    assert parse_inputs("reclaim", given).owner_captures == ()
    for bad in ("large", ["large", "huge"], {"size": "large"}):
        with pytest.raises(FeeError) as err:
            parse_inputs("reclaim", {**given, "owner_captures": bad})
        assert (err.value.field, err.value.code) == ("owner_captures", "invalid")
        assert err.value.message == "Informe o porte de cada captura anterior do dono."
