"""The excess-animal licence's term at its edges (issue 16): the first and last day it is valid and
the day after, a licence not approved, the renewal window's first and last day and the days around.

Expected dates are worked by hand from the articles:
- GRU 37 §1 IV: "válida pelo prazo de um ano": approved on 10 Mar 2026, valid through 10 Mar 2027.
- GRU 37 §1 V: renewal asked for "nos 30 dias anteriores ao vencimento": 10 Mar 2027 − 30 days =
  8 Feb 2027 opens the window; it closes on the last valid day.
"""

from __future__ import annotations

from datetime import date

import pytest

from portal.blueprints.licences.terms import is_valid, public_status, renewal_window, term_end
from portal.models import ExcessLicence, LicenceStatus
from portal.profiles import load_profile

GRU, VV = load_profile("guarulhos"), load_profile("vilavelha")
FROM, UNTIL = date(2026, 3, 10), date(2027, 3, 10)


def _licence(status: str = LicenceStatus.APPROVED, **dates: date | None) -> ExcessLicence:
    return ExcessLicence(
        status=status,
        valid_from=dates.get("valid_from", FROM),
        valid_until=dates.get("until", UNTIL),
    )


def test_gru_37_1_iv_one_year_is_the_same_date_next_year():
    assert GRU.licence is not None
    assert term_end(FROM, GRU.licence) == UNTIL


@pytest.mark.parametrize(
    ("day", "valid"),
    [
        (date(2026, 3, 9), False),  # the day before it starts
        (FROM, True),  # the first day
        (UNTIL, True),  # the last day
        (date(2027, 3, 11), False),  # the day after
    ],
)
def test_gru_37_1_iv_valid_from_its_first_to_its_last_day(day: date, valid: bool):
    assert is_valid(_licence(), day) is valid


@pytest.mark.parametrize(
    "status",
    [LicenceStatus.REQUESTED, LicenceStatus.REFUSED, LicenceStatus.CANCELLED],
)
def test_gru_37_1_a_licence_not_approved_is_never_valid(status: str):
    assert is_valid(_licence(status), FROM) is False


def test_a_licence_without_its_dates_is_not_valid():
    assert is_valid(_licence(valid_from=None), FROM) is False
    assert is_valid(_licence(until=None), FROM) is False


def test_public_check_says_valid_through_the_last_day_then_expired():
    assert public_status(_licence(), UNTIL) == "valid"
    assert public_status(_licence(), date(2027, 3, 11)) == "expired"
    assert public_status(_licence(LicenceStatus.CANCELLED), FROM) == "cancelled"
    assert public_status(_licence(LicenceStatus.REQUESTED), FROM) is None  # never public
    assert public_status(_licence(until=None), FROM) is None


def test_gru_37_1_v_renewal_window_is_the_30_days_before_expiry():
    window = renewal_window(_licence(), GRU)
    assert window is not None
    assert (window.opens, window.closes) == (date(2027, 2, 8), UNTIL)
    assert not window.contains(date(2027, 2, 7))
    assert window.contains(date(2027, 2, 8))
    assert window.contains(UNTIL)
    assert not window.contains(date(2027, 3, 11))


def test_gru_37_1_v_no_renewal_window_without_an_approved_licence_or_a_rule():
    assert renewal_window(_licence(LicenceStatus.REQUESTED), GRU) is None
    assert renewal_window(_licence(until=None), GRU) is None
    assert renewal_window(_licence(), VV) is None  # VV 2: no household limit, no licence
    assert GRU.licence is not None
    no_window = GRU.model_copy(
        update={"licence": GRU.licence.model_copy(update={"renewal_window_days": None})}
    )
    assert renewal_window(_licence(), no_window) is None
