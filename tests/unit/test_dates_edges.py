"""Date rules at their edges (issue 16): starts on weekends and holidays, 1, 2 and 4 days, the
first and last day of a term and the day after, ages across a year and on the birthday.

Each expected date is counted by hand on the 2026 calendar in the comment next to it.
"""

from __future__ import annotations

from datetime import date

import pytest

from portal.profiles import load_profile
from portal.services.dates import (
    add_months,
    age_in_days,
    age_in_months,
    business_days_calendar,
    deadline,
    impound_release_date,
    term_of_years_ends,
)

SATURDAY = date(2026, 3, 7)
TIRADENTES = date(2026, 4, 21)  # Tuesday, national holiday
PENHA = date(2026, 4, 13)  # Monday, Espírito Santo holiday (Nossa Senhora da Penha)
PE_REVOLUTION = date(2026, 3, 6)  # Friday, Pernambuco holiday


# -- the business-day calendar -------------------------------------------------------------------


def test_next_business_day_from_friday_saturday_and_a_business_day():
    cal = business_days_calendar("SP", [])
    assert cal.next_business_day(date(2026, 3, 6)) == date(2026, 3, 9)  # Fri -> Mon
    assert cal.next_business_day(SATURDAY) == date(2026, 3, 9)
    assert cal.next_business_day(SATURDAY, include_day=True) == date(2026, 3, 9)
    assert cal.next_business_day(date(2026, 3, 9), include_day=True) == date(2026, 3, 9)
    assert cal.next_business_day(date(2026, 3, 9)) == date(2026, 3, 10)


def test_add_business_days_counts_1_2_and_4():
    cal = business_days_calendar("SP", [])
    thursday = date(2026, 3, 5)
    assert cal.add_business_days(thursday, 0) == thursday
    assert cal.add_business_days(thursday, 1) == date(2026, 3, 6)  # Fri
    assert cal.add_business_days(thursday, 2) == date(2026, 3, 9)  # Mon (weekend skipped)
    assert cal.add_business_days(thursday, 4) == date(2026, 3, 11)  # Wed
    with pytest.raises(ValueError, match=r"^days must not be negative$"):
        cal.add_business_days(thursday, -1)
    assert cal.state == "SP"


def test_state_holidays_of_each_profile_state():
    # ES: Penha (Mon 13 Apr); PE: Revolução Pernambucana (Fri 6 Mar); neither in São Paulo.
    assert not business_days_calendar("ES", [])(PENHA)
    assert business_days_calendar("SP", [])(PENHA)
    assert not business_days_calendar("PE", [])(PE_REVOLUTION)
    assert business_days_calendar("MG", [])(PE_REVOLUTION)
    assert not business_days_calendar("MG", [])(TIRADENTES)


# -- deadline(): starts on weekends and holidays -------------------------------------------------


def test_gru_114_start_on_a_national_holiday_moves_and_end_on_may_day_moves():
    # Tiradentes (Tue 21 Apr) -> the term starts from Wed 22; + 10 = Sat 2 May -> Mon 4 May.
    assert deadline(TIRADENTES, 10, "calendar", state="SP", moves_to_business_day=True) == date(
        2026, 5, 4
    )
    # Without GRU 114 §ú: 21 Apr + 10 = Fri 1 May (Labour Day) and it stays there.
    assert deadline(TIRADENTES, 10, "calendar", state="SP", moves_to_business_day=False) == date(
        2026, 5, 1
    )


def test_gru_114_start_and_end_on_municipal_holidays():
    # A municipal holiday on Mon 2 Mar: start from Tue 3; + 3 = Fri 6.
    assert deadline(
        date(2026, 3, 2),
        3,
        "calendar",
        state="SP",
        moves_to_business_day=True,
        municipal_holidays=[date(2026, 3, 2)],
    ) == date(2026, 3, 6)
    # End on a municipal holiday (Thu 5 Mar): moves to Fri 6.
    assert deadline(
        date(2026, 3, 2),
        3,
        "calendar",
        state="SP",
        moves_to_business_day=True,
        municipal_holidays=[date(2026, 3, 5)],
    ) == date(2026, 3, 6)
    # The same holiday with moves_to_business_day=False changes nothing: Thu 5.
    assert deadline(
        date(2026, 3, 2),
        3,
        "calendar",
        state="SP",
        moves_to_business_day=False,
        municipal_holidays=[date(2026, 3, 5)],
    ) == date(2026, 3, 5)


def test_gru_114_zero_day_term_from_a_saturday_is_monday():
    # "Imediatamente" on a Saturday: the act can only be done on Monday 9 Mar.
    assert deadline(SATURDAY, 0, "calendar", state="SP", moves_to_business_day=True) == date(
        2026, 3, 9
    )
    assert deadline(SATURDAY, 0, "business", state="SP", moves_to_business_day=True) == date(
        2026, 3, 9
    )
    assert deadline(SATURDAY, 0, "calendar", state="SP", moves_to_business_day=False) == SATURDAY


def test_business_term_from_a_saturday_without_the_start_shift():
    # VV 22 §5: 5 business days from Sat 7 Mar: Mon 9 ... Fri 13.
    assert deadline(SATURDAY, 5, "business", state="ES", moves_to_business_day=False) == date(
        2026, 3, 13
    )
    # 1, 2 and 4 business days: Mon 9, Tue 10, Thu 12.
    for days, end in ((1, date(2026, 3, 9)), (2, date(2026, 3, 10)), (4, date(2026, 3, 12))):
        assert deadline(SATURDAY, days, "business", state="ES", moves_to_business_day=False) == end


def test_calendar_inclusive_counts_1_2_and_4_days():
    # BJP 25: the apprehension day is day 1.
    for days, end in ((1, SATURDAY), (2, date(2026, 3, 8)), (4, date(2026, 3, 10))):
        assert (
            deadline(SATURDAY, days, "calendar_inclusive", state="SP", moves_to_business_day=False)
            == end
        )


def test_calendar_counts_1_2_and_4_days():
    for days, end in ((1, date(2026, 3, 8)), (2, date(2026, 3, 9)), (4, date(2026, 3, 11))):
        assert deadline(SATURDAY, days, "calendar", state="SP", moves_to_business_day=False) == end


def test_deadline_errors():
    with pytest.raises(ValueError, match=r"^days must not be negative$"):
        deadline(SATURDAY, -1, "calendar", state="SP", moves_to_business_day=False)
    with pytest.raises(ValueError, match=r"^an inclusive term has at least one day \(the start"):
        deadline(SATURDAY, 0, "calendar_inclusive", state="SP", moves_to_business_day=False)
    with pytest.raises(ValueError, match="calendar, business, calendar_inclusive"):
        deadline(SATURDAY, 1, "weeks", state="SP", moves_to_business_day=False)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="XX"):
        deadline(SATURDAY, 1, "calendar", state="XX", moves_to_business_day=False)


# -- impound holds with each profile's counting --------------------------------------------------


def test_gru_82_4_hold_skips_the_sao_paulo_state_holiday():
    gru = load_profile("guarulhos")
    # Wed 8 Jul; Thu 9 Jul (SP): Fri 10, Mon 13, Tue 14.
    assert impound_release_date(gru, "small", date(2026, 7, 8), tagged=True) == date(2026, 7, 14)
    # Medium: 5 business days: 10, 13, 14, 15, 16 Jul.
    assert impound_release_date(gru, "medium", date(2026, 7, 8), tagged=True) == date(2026, 7, 16)


def test_gru_82_4_hold_from_a_holiday_and_a_saturday():
    gru = load_profile("guarulhos")
    # Tiradentes: start from Wed 22; Thu 23, Fri 24, Mon 27.
    assert impound_release_date(gru, "small", TIRADENTES, tagged=True) == date(2026, 4, 27)
    # Saturday: start from Mon 9; Tue 10, Wed 11, Thu 12.
    assert impound_release_date(gru, "small", SATURDAY, tagged=True) == date(2026, 3, 12)


def test_bjp_25_hold_from_a_saturday_counts_the_saturday():
    bjp = load_profile("bjp")
    # Tagged: 5 days including Sat 7 -> Wed 11; untagged: 3 days -> Mon 9. No business-day shift.
    assert impound_release_date(bjp, "small", SATURDAY, tagged=True) == date(2026, 3, 11)
    assert impound_release_date(bjp, "small", SATURDAY, tagged=False) == date(2026, 3, 9)
    assert impound_release_date(bjp, "large", SATURDAY, tagged=False) == date(2026, 3, 9)


def test_vv_22_3_hold_from_a_state_holiday_is_calendar_days():
    vv = load_profile("vilavelha")
    # Penha (Mon 13 Apr) + 5 calendar days = Sat 18 Apr: VV 22 §3 "dias corridos", no shift.
    assert impound_release_date(vv, "small", PENHA, tagged=True) == date(2026, 4, 18)


def test_vv_22_5_free_term_skips_the_espirito_santo_holiday():
    # Thu 9 Apr + 5 business days in ES: Fri 10, (Mon 13 Penha), Tue 14, Wed 15, Thu 16, Fri 17.
    assert deadline(
        date(2026, 4, 9), 5, "business", state="ES", moves_to_business_day=False
    ) == date(2026, 4, 17)
    assert deadline(
        date(2026, 4, 9), 5, "business", state="SP", moves_to_business_day=False
    ) == date(2026, 4, 16)


def test_cabo_10_hold_over_the_pernambuco_holiday_is_calendar_days():
    cabo = load_profile("cabo")
    # Thu 5 Mar + 3 calendar days = Sun 8 Mar (the PE holiday on Fri 6 changes nothing).
    assert impound_release_date(cabo, "small", date(2026, 3, 5), tagged=False) == date(2026, 3, 8)


def test_cab_12_hold_from_a_saturday():
    cab = load_profile("cabeceira")
    assert impound_release_date(cab, "medium", SATURDAY, tagged=True) == date(2026, 3, 12)


# -- years (GRU 79, 113) --------------------------------------------------------------------------


def test_term_of_years_ends_on_the_same_date_or_the_next_day():
    assert term_of_years_ends(date(2023, 3, 16), 3) == date(2026, 3, 16)
    assert term_of_years_ends(date(2021, 12, 31), 5) == date(2026, 12, 31)
    # Código Civil 132 §3: no 29 Feb in 2027 -> 1 Mar; in 2028 there is one.
    assert term_of_years_ends(date(2024, 2, 29), 3) == date(2027, 3, 1)
    assert term_of_years_ends(date(2024, 2, 29), 4) == date(2028, 2, 29)
    assert term_of_years_ends(date(2024, 2, 28), 3) == date(2027, 2, 28)
    assert term_of_years_ends(date(2024, 3, 1), 0) == date(2024, 3, 1)
    assert term_of_years_ends(date(2024, 3, 29), 3) == date(2027, 3, 29)  # only 29 Feb moves
    assert term_of_years_ends(date(2023, 2, 28), 1) == date(2024, 2, 28)
    with pytest.raises(ValueError, match=r"^years must not be negative$"):
        term_of_years_ends(date(2024, 3, 1), -1)
    # 2100 is not a leap year (Gregorian century rule): 29 Feb 2024 + 76 years = 1 Mar 2100.
    assert term_of_years_ends(date(2024, 2, 29), 76) == date(2100, 3, 1)


# -- months and ages -----------------------------------------------------------------------------


def test_add_months_across_years_both_ways():
    assert add_months(date(2026, 1, 31), -1) == date(2025, 12, 31)
    assert add_months(date(2026, 3, 31), -1) == date(2026, 2, 28)
    assert add_months(date(2026, 3, 16), 12) == date(2027, 3, 16)
    assert add_months(date(2024, 2, 29), 12) == date(2025, 2, 28)
    assert add_months(date(2026, 12, 15), 1) == date(2027, 1, 15)
    assert add_months(date(2026, 3, 16), 0) == date(2026, 3, 16)
    assert add_months(date(2026, 3, 16), -36) == date(2023, 3, 16)


def test_gru_14_3_age_in_months_across_a_year():
    birth = date(2025, 11, 15)
    # 15 Nov 2025 -> 15 Feb 2026 is 3 months; the day before, 2.
    assert age_in_months(birth, date(2026, 2, 14)) == 2
    assert age_in_months(birth, date(2026, 2, 15)) == 3
    # Six months: 15 May 2026.
    assert age_in_months(birth, date(2026, 5, 14)) == 5
    assert age_in_months(birth, date(2026, 5, 15)) == 6


def test_age_on_the_birthday_and_the_day_before():
    birth = date(2020, 5, 10)
    assert age_in_months(birth, date(2026, 5, 9)) == 71
    assert age_in_months(birth, date(2026, 5, 10)) == 72
    assert age_in_months(birth, birth) == 0
    assert age_in_days(birth, birth) == 0
    assert age_in_days(birth, date(2020, 5, 11)) == 1
    # BJP 17 / CABO 33 §ú: older than 90 days; 2026 is not a leap year: 1 Jan + 90 = 1 Apr.
    assert age_in_days(date(2026, 1, 1), date(2026, 4, 1)) == 90
    assert age_in_days(date(2025, 12, 1), date(2026, 3, 1)) == 90


def test_age_before_birth_is_refused_with_its_reason():
    for age in (age_in_days, age_in_months):
        with pytest.raises(ValueError, match=r"^the date is before the birth date$"):
            age(date(2026, 5, 1), date(2026, 4, 30))
