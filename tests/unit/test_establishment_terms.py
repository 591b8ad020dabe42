"""GRU 11 §2-3: a one-year cadastro counted from the first issue, renewed in the 60 days before
expiry, the renewal in force from the day after the old term ends. Dates worked by hand."""

from __future__ import annotations

from datetime import date

import pytest

from portal.blueprints.establishments.services import anniversary, next_term_end


@pytest.mark.parametrize(
    ("first", "expected"),
    [
        (date(2026, 3, 10), date(2027, 3, 10)),  # the same date next year, not +365 days
        (date(2027, 3, 10), date(2028, 3, 10)),  # across 29 Feb 2028: still the same date
        # a leap day: 1 March of the common year (Código Civil art. 132 §3, issue 27 #8)
        (date(2028, 2, 29), date(2029, 3, 1)),
        (date(2026, 12, 31), date(2027, 12, 31)),
    ],
)
def test_gru_11_2_one_year_is_the_same_date_next_year(first: date, expected: date) -> None:
    assert anniversary(first, 1) == expected


def test_gru_11_2_renewals_run_to_the_anniversaries_of_the_first_issue_without_drift() -> None:
    first = date(2028, 2, 29)
    # first term: 2028-02-29 .. 2029-03-01 (Código Civil art. 132 §3); renewed from 2029-03-02
    # to 2030-03-01, and in 2032 (a leap year) the anniversary is 29 Feb again
    assert next_term_end(first, date(2029, 3, 1), 1) == date(2030, 3, 1)
    assert next_term_end(first, date(2031, 3, 1), 1) == date(2032, 2, 29)


def test_next_term_end_is_strictly_after_the_day_given() -> None:
    first = date(2026, 5, 5)
    assert next_term_end(first, date(2026, 5, 5), 1) == date(2027, 5, 5)
    assert next_term_end(first, date(2027, 5, 4), 1) == date(2027, 5, 5)
    assert next_term_end(first, date(2027, 5, 5), 1) == date(2028, 5, 5)
