"""Date rules: business days with real 2026 holidays, the laws' ways of counting terms, ages."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest

from portal.profiles import load_profile
from portal.services.dates import (
    Counting,
    add_months,
    age_in_days,
    age_in_months,
    business_days_calendar,
    deadline,
    impound_release_date,
)

CONSCIENCIA_NEGRA = date(2026, 11, 20)  # Friday; national holiday since 2024 (Lei 14.759/2023)
CHRISTMAS = date(2026, 12, 25)  # Friday
SP_REVOLUTION = date(2026, 7, 9)  # Thursday; São Paulo state holiday only


def gru_deadline(start: date, days: int, counting: Counting = "calendar", **kw: Any) -> date:
    return deadline(start, days, counting, state="SP", moves_to_business_day=True, **kw)


# -- business-day calendar -----------------------------------------------------------------------


@pytest.mark.parametrize("state", ["SP", "ES", "MG", "PE"])
def test_consciencia_negra_and_christmas_are_national_holidays(state):
    calendar = business_days_calendar(state, [])
    assert not calendar(CONSCIENCIA_NEGRA)
    assert not calendar.is_business_day(CHRISTMAS)
    assert calendar(date(2026, 11, 19))


def test_state_holiday_only_in_its_state():
    assert not business_days_calendar("SP", [])(SP_REVOLUTION)
    assert business_days_calendar("ES", [])(SP_REVOLUTION)


def test_weekends_are_not_business_days():
    calendar = business_days_calendar("SP", [])
    assert not calendar(date(2026, 3, 7))  # Saturday
    assert not calendar(date(2026, 3, 8))  # Sunday


def test_municipal_holidays_come_from_the_caller():
    guarulhos_anniversary = date(2026, 12, 8)  # Tuesday
    assert business_days_calendar("SP", [])(guarulhos_anniversary)
    assert not business_days_calendar("SP", iter([guarulhos_anniversary]))(guarulhos_anniversary)


def test_unknown_state_is_refused():
    with pytest.raises(ValueError, match="XX"):
        business_days_calendar("XX", [])


# -- GRU 114: continuous terms that only start or end on a business day --------------------------


def test_gru_114_deadline_excludes_start_day_and_includes_end_day():
    assert gru_deadline(date(2026, 3, 2), 3) == date(2026, 3, 5)  # Mon + 3 = Thu


def test_gru_114_deadline_end_on_weekend_moves_to_monday():
    assert gru_deadline(date(2026, 3, 3), 4) == date(2026, 3, 9)  # Tue + 4 = Sat -> Mon


def test_gru_114_deadline_end_on_consciencia_negra_moves_to_monday():
    assert gru_deadline(date(2026, 11, 10), 10) == date(2026, 11, 23)  # Fri 20/11 -> Mon 23/11


def test_gru_114_deadline_end_on_christmas_moves_to_next_business_day():
    assert gru_deadline(date(2026, 12, 15), 10) == date(2026, 12, 28)


def test_gru_114_start_on_weekend_shifts_to_next_business_day():
    saturday = date(2026, 3, 7)
    assert gru_deadline(saturday, 10) == date(2026, 3, 19)  # counted from Monday 9/3
    # Without GRU 114 §ú the same term runs from Saturday.
    assert deadline(saturday, 10, "calendar", state="SP", moves_to_business_day=False) == date(
        2026, 3, 17
    )


def test_gru_114_end_on_new_year_2027_moves_to_monday():
    # 2027-01-01 (Friday) is a holiday and 2/1-3/1 a weekend.
    assert gru_deadline(date(2026, 12, 2), 30) == date(2027, 1, 4)


def test_gru_82_4_business_days_skip_holidays():
    # Wednesday 18/11; Friday 20/11 is Consciência Negra: Thu 19, Mon 23, Tue 24.
    assert gru_deadline(date(2026, 11, 18), 3, "business") == date(2026, 11, 24)


def test_gru_82_4_business_days_skip_sp_state_holiday():
    # Wednesday 8/7; Thursday 9/7 is a São Paulo holiday: Fri 10, Mon 13, Tue 14.
    assert gru_deadline(date(2026, 7, 8), 3, "business") == date(2026, 7, 14)


def test_zero_day_term_ends_on_its_start():
    assert gru_deadline(date(2026, 3, 2), 0) == date(2026, 3, 2)  # BJP 30 I "imediatamente"


# -- VV 22: calendar and business days -----------------------------------------------------------


def test_vv_22_3_hold_counts_calendar_days():
    assert deadline(
        date(2026, 3, 2), 5, "calendar", state="ES", moves_to_business_day=False
    ) == date(2026, 3, 7)  # ends on Saturday


def test_vv_22_5_free_reclaim_counts_business_days():
    # Wednesday 18/11 + 5 business days in ES, skipping Consciência Negra.
    assert deadline(
        date(2026, 11, 18), 5, "business", state="ES", moves_to_business_day=False
    ) == date(2026, 11, 26)


def test_vv_22_5_business_days_ignore_another_states_holiday():
    # 9/7 is a holiday in São Paulo, not in Espírito Santo.
    assert (
        deadline(date(2026, 7, 8), 1, "business", state="ES", moves_to_business_day=False)
        == SP_REVOLUTION
    )


# -- BJP 25: the apprehension day counts ---------------------------------------------------------


def test_bjp_25_count_includes_apprehension_day():
    assert deadline(
        date(2026, 3, 2), 5, "calendar_inclusive", state="SP", moves_to_business_day=False
    ) == date(2026, 3, 6)  # Mon..Fri


def test_bjp_25_inclusive_term_needs_at_least_one_day():
    with pytest.raises(ValueError):
        deadline(date(2026, 3, 2), 0, "calendar_inclusive", state="SP", moves_to_business_day=False)


# -- impound_release_date ------------------------------------------------------------------------


def test_gru_82_4_small_animal_held_3_business_days():
    gru = load_profile("guarulhos")
    assert impound_release_date(gru, "small", date(2026, 11, 18), tagged=True) == date(2026, 11, 24)


def test_gru_82_4_large_animal_held_5_business_days_over_christmas():
    gru = load_profile("guarulhos")
    # Mon 21/12: Tue 22, Wed 23, Thu 24, (Fri 25 Christmas), Mon 28, Tue 29.
    assert impound_release_date(gru, "large", date(2026, 12, 21), tagged=True) == date(2026, 12, 29)


def test_gru_82_4_with_114_apprehension_on_saturday_counts_from_monday():
    gru = load_profile("guarulhos")
    assert impound_release_date(gru, "small", date(2026, 3, 7), tagged=False) == date(2026, 3, 12)


def test_gru_82_4_municipal_holiday_extends_the_hold():
    gru = load_profile("guarulhos")
    monday = date(2026, 12, 7)
    assert impound_release_date(gru, "small", monday, tagged=True) == date(2026, 12, 10)
    assert impound_release_date(
        gru, "small", monday, tagged=True, municipal_holidays=[date(2026, 12, 8)]
    ) == date(2026, 12, 11)


def test_bjp_25_1_tagged_dog_held_5_days_including_apprehension_day():
    bjp = load_profile("bjp")
    assert impound_release_date(bjp, "small", date(2026, 3, 2), tagged=True) == date(2026, 3, 6)


def test_bjp_25_2_untagged_dog_held_3_days_including_apprehension_day():
    bjp = load_profile("bjp")
    # BJP has no business-day rule: a hold may end on a Sunday.
    assert impound_release_date(bjp, "small", CONSCIENCIA_NEGRA, tagged=False) == date(2026, 11, 22)


def test_cabo_10_hold_3_calendar_days():
    cabo = load_profile("cabo")
    assert impound_release_date(cabo, "medium", date(2026, 12, 24), tagged=False) == date(
        2026, 12, 27
    )


def test_cab_12_hold_5_days_from_apprehension():
    cab = load_profile("cabeceira")
    assert impound_release_date(cab, "small", date(2026, 3, 2), tagged=True) == date(2026, 3, 7)


def test_vv_22_3_hold_5_calendar_days():
    vv = load_profile("vilavelha")
    assert impound_release_date(vv, "small", date(2026, 12, 21), tagged=True) == date(2026, 12, 26)


# -- argument checks -----------------------------------------------------------------------------


def test_negative_term_is_refused():
    with pytest.raises(ValueError):
        deadline(date(2026, 3, 2), -1, "calendar", state="SP", moves_to_business_day=False)


def test_unknown_counting_is_refused():
    with pytest.raises(ValueError, match="counting"):
        deadline(date(2026, 3, 2), 1, "lunar", state="SP", moves_to_business_day=False)  # type: ignore[arg-type]


# -- ages ----------------------------------------------------------------------------------------


def test_gru_37_age_in_days_for_the_120_day_threshold():
    birth = date(2026, 1, 1)
    assert age_in_days(birth, date(2026, 5, 1)) == 120  # not yet "older than 120 days"
    assert age_in_days(birth, date(2026, 5, 2)) == 121


def test_age_before_birth_is_refused():
    with pytest.raises(ValueError):
        age_in_days(date(2026, 5, 1), date(2026, 4, 30))
    with pytest.raises(ValueError):
        age_in_months(date(2026, 5, 1), date(2026, 4, 30))


def test_add_months_clamps_to_the_end_of_the_month():
    assert add_months(date(2026, 1, 31), 1) == date(2026, 2, 28)
    assert add_months(date(2027, 12, 31), 2) == date(2028, 2, 29)  # leap year
    assert add_months(date(2026, 11, 15), 3) == date(2027, 2, 15)
    assert add_months(date(2026, 3, 15), -3) == date(2025, 12, 15)


def test_gru_14_3_age_in_completed_months():
    birth = date(2026, 1, 15)
    assert age_in_months(birth, date(2026, 4, 14)) == 2
    assert age_in_months(birth, date(2026, 4, 15)) == 3
    assert age_in_months(date(2026, 1, 31), date(2026, 2, 28)) == 1
    assert age_in_months(date(2026, 1, 31), date(2026, 2, 27)) == 0
