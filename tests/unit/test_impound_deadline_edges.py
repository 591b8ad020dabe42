"""Impound hold deadlines and the capture count at their edges (issue 16): starts on a weekend and
on holidays, observation custody, tagged and untagged animals, the first and last day a capture
counts and the day after, counts of 1, 2 and 4, a leap-day start.

Every expected date is counted by hand on the 2026 calendar in the comment next to it:
- GRU 82 §4: the owner has 3 business days (small) or 5 (medium, large); GRU 114: the start day is
  excluded and a term only starts or ends on a working day (§ú).
- BJP 25 §1-2: 5 days with the RGA tag, 3 without; the apprehension day is day 1.
- CAB 14, 30: 10 days of rabies observation, then the owner has 48 hours; CAB 12: 5 days.
- GRU 84 §1 II, 113: the third capture within five years of the first leads to definitive
  apprehension; a capture stops weighing once its five years (Código Civil 132 §3) are over.
"""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from portal.blueprints.impound import deadlines
from portal.blueprints.impound.deadlines import capture_day_counts, count_in_period, hold_deadline
from portal.profiles import load_profile

GRU, BJP, CAB, VV = (load_profile(k) for k in ("guarulhos", "bjp", "cabeceira", "vilavelha"))
SATURDAY = date(2026, 3, 7)


def _hold(profile, day, *, size="small", tagged=True, custody="ordinary", holidays=()):  # type: ignore[no-untyped-def]
    return hold_deadline(
        profile,
        size=size,
        captured_on=day,
        tagged=tagged,
        custody_type=custody,
        holidays=list(holidays),
    )


# -- GRU 82 §4 with GRU 114 ----------------------------------------------------------------------


def test_gru_82_4_small_three_business_days_medium_and_large_five():
    # Captured Mon 2 Mar: Tue 3, Wed 4, Thu 5 -> Thu 5; five business days -> Mon 9.
    assert _hold(GRU, date(2026, 3, 2)) == date(2026, 3, 5)
    assert _hold(GRU, date(2026, 3, 2), size="medium") == date(2026, 3, 9)
    assert _hold(GRU, date(2026, 3, 2), size="large") == date(2026, 3, 9)


def test_gru_114_capture_on_a_saturday_starts_on_monday():
    # Sat 7 Mar: the term starts on Mon 9 (excluded): Tue 10, Wed 11, Thu 12.
    assert _hold(GRU, SATURDAY) == date(2026, 3, 12)


def test_gru_114_capture_on_friday_counts_from_monday():
    # Fri 6 Mar: Mon 9, Tue 10, Wed 11.
    assert _hold(GRU, date(2026, 3, 6)) == date(2026, 3, 11)


def test_gru_114_state_holiday_is_not_a_working_day_in_sao_paulo():
    # Thu 9 Jul 2026 is the São Paulo state holiday (Revolução Constitucionalista).
    # Captured Wed 8 Jul: Fri 10, Mon 13, Tue 14 (Thu 9 skipped).
    assert _hold(GRU, date(2026, 7, 8)) == date(2026, 7, 14)


def test_gru_114_municipal_holiday_passed_in_is_skipped_too():
    # A municipal holiday on Wed 4 Mar; captured Mon 2: Tue 3, Thu 5, Fri 6.
    assert _hold(GRU, date(2026, 3, 2), holidays=[date(2026, 3, 4)]) == date(2026, 3, 6)


# -- BJP 25 §1-2: tagged and untagged, the apprehension day counts --------------------------------


def test_bjp_25_tagged_five_days_untagged_three_from_the_day_itself():
    # Sat 7 Mar is day 1: tagged -> Wed 11; untagged -> Mon 9.
    assert _hold(BJP, SATURDAY) == date(2026, 3, 11)
    assert _hold(BJP, SATURDAY, tagged=False) == date(2026, 3, 9)
    assert capture_day_counts(BJP) is True
    assert capture_day_counts(GRU) is False
    assert capture_day_counts(VV) is False


def test_vv_22_3_five_calendar_days_do_not_move_off_a_sunday():
    # Tue 3 Mar + 5 calendar days = Sun 8 Mar, and VV has no rule moving it.
    assert _hold(VV, date(2026, 3, 3)) == date(2026, 3, 8)


# -- CAB 14, 30: observation custody ---------------------------------------------------------------


def test_cab_14_ten_days_of_observation_then_48_hours():
    # Mon 2 Mar + 10 = Thu 12 (end of observation) + 2 days = Sat 14.
    assert _hold(CAB, date(2026, 3, 2), custody="observation") == date(2026, 3, 14)
    assert _hold(CAB, date(2026, 3, 2)) == date(2026, 3, 7)  # CAB 12: ordinary hold, 5 days


@pytest.mark.parametrize(("hours", "days"), [(24, 1), (25, 2), (48, 2), (49, 3)])
def test_cab_14_hours_after_the_observation_are_whole_days_rounded_up(hours, days):
    # 24 h is one day; 25 h reaches into a second day: the owner keeps it whole.
    rule = CAB.impound.model_copy(update={"observation_reclaim_hours": hours})
    city = CAB.model_copy(update={"impound": rule})
    assert _hold(city, date(2026, 3, 2), custody="observation") == date(2026, 3, 12 + days)


def test_gru_61_observation_then_the_ordinary_hold_of_three_business_days():
    # Guarulhos gives no hours after the observation: Mon 2 Mar + 10 calendar days = Thu 12;
    # then GRU 82 §4 from there: Fri 13, Mon 16, Tue 17.
    assert _hold(GRU, date(2026, 3, 2), custody="observation") == date(2026, 3, 17)


def test_gru_114_a_municipal_holiday_in_the_hold_after_the_observation_is_skipped():
    # Observation to Thu 12 Mar; a municipal holiday on Mon 16: Fri 13, Tue 17, Wed 18.
    assert _hold(
        GRU, date(2026, 3, 2), custody="observation", holidays=[date(2026, 3, 16)]
    ) == date(2026, 3, 18)


def test_observation_custody_in_a_city_without_observation_days_is_the_ordinary_hold():
    assert _hold(VV, date(2026, 3, 3), custody="observation") == date(2026, 3, 8)


# -- GRU 84 §1 II, 113: which captures count ------------------------------------------------


def test_gru_113_first_capture_counts_on_its_fifth_anniversary_not_the_day_after():
    assert count_in_period([date(2021, 3, 10), date(2026, 3, 10)], date(2026, 3, 10), 5) == 2
    assert count_in_period([date(2021, 3, 10), date(2026, 3, 11)], date(2026, 3, 11), 5) == 1


def test_gru_113_from_29_february_the_five_years_end_on_1_march():
    # Código Civil 132 §3: 29 Feb 2020 + 5 years has no 29 Feb: it ends on Sat 1 Mar 2025.
    assert count_in_period([date(2020, 2, 29), date(2025, 3, 1)], date(2025, 3, 1), 5) == 2
    assert count_in_period([date(2020, 2, 29), date(2025, 3, 2)], date(2025, 3, 2), 5) == 1


def test_gru_84_counts_of_1_2_and_4():
    days = [date(2024, 1, 8), date(2024, 6, 3), date(2025, 2, 10), date(2026, 1, 5)]
    assert count_in_period(days[:1], date(2024, 1, 8), 5) == 1
    assert count_in_period(days[:2], date(2024, 6, 3), 5) == 2
    assert count_in_period(days, date(2026, 1, 5), 5) == 4
    assert count_in_period([], date(2026, 1, 5), 5) == 0


def test_a_capture_after_the_day_asked_about_does_not_count_yet():
    assert count_in_period([date(2026, 1, 2), date(2026, 2, 2)], date(2026, 1, 15), 5) == 1


def test_without_a_period_in_the_law_every_capture_counts():
    assert count_in_period([date(2001, 1, 1), date(2026, 1, 1)], date(2026, 1, 1), None) == 2


@pytest.mark.parametrize(
    ("on", "first"),
    [
        # GRU 84 §3, 113: five years; a capture counts while ``on`` <= its day + 5 years.
        (date(2026, 3, 10), date(2021, 3, 10)),  # 10 Mar 2021 + 5 y = 10 Mar 2026: counts
        # CC 132 §3: 28 Feb 2023 + 5 y = 28 Feb 2028 < 29 Feb 2028, prescribed; 1 Mar 2023 counts.
        (date(2028, 2, 29), date(2023, 3, 1)),
        # 29 Feb 2024 + 5 y has no 29 Feb 2029: it ends on 1 Mar 2029, so it still counts then.
        (date(2029, 3, 1), date(2024, 2, 29)),
        # 28 Feb 2029: 28 Feb 2024 + 5 y = 28 Feb 2029 counts; 27 Feb 2024 ended the day before.
        (date(2029, 2, 28), date(2024, 2, 28)),
        # one year back across a leap day: 1 Mar 2025 - 1 y; 29 Feb 2024 + 1 y = 1 Mar 2025.
        (date(2025, 3, 1), date(2024, 2, 29)),
    ],
)
def test_gru_113_first_day_counted_matches_the_count_around_29_february(on, first):
    years = 1 if on.year == 2025 else 5
    assert deadlines.first_day_counted(on, years) == first
    # the same rule as the count: the first day counts, the day before does not
    assert deadlines.count_in_period([first], on, years) == 1
    assert deadlines.count_in_period([first - timedelta(days=1)], on, years) == 0
