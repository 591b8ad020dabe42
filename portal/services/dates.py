"""Date rules of the municipal laws: business days, legal deadlines, impound holds and ages.

Pure functions: no Flask, no database. Municipal holidays are passed in by the caller (staff keep
them in ``MunicipalHoliday``); national and state holidays come from the ``holidays`` library.

Three ways of counting a term of N days appear in the laws (``Counting``):

``calendar``
    Continuous days, the start day excluded and the last day included (the Brazilian default,
    Código Civil art. 132; GRU 114; VV 22 §3 "dias corridos"). A term of 5 days from Monday ends
    on Saturday.
``business``
    Business days only, the start day excluded (VV 22 §5, GRU 82 §4 "dias úteis").
``calendar_inclusive``
    Continuous days counting the start day as day 1 (BJP 25 §1-2 "incluindo-se o dia da
    apreensão"). 5 days from Monday end on Friday.

``moves_to_business_day`` applies GRU 114 §ú: a term only starts or ends on a business day. A start
on a weekend or holiday is treated as made on the next business day (the start day itself stays
excluded from the count), and an end on a non-business day moves to the next business day.
"""

from __future__ import annotations

import calendar
import functools
from collections.abc import Iterable
from datetime import date, timedelta
from typing import TYPE_CHECKING, Literal, get_args

import holidays

if TYPE_CHECKING:
    from portal.profiles.schema import Profile, SizeClass

Counting = Literal["calendar", "business", "calendar_inclusive"]
COUNTINGS: tuple[str, ...] = get_args(Counting)

_ONE_DAY = timedelta(days=1)


@functools.lru_cache(maxsize=32)
def _public_holidays(state: str) -> holidays.HolidayBase:
    """National + state public holidays of Brazil; years are filled in lazily on lookup.

    Only the library's PUBLIC category: Carnival and Corpus Christi are *pontos facultativos*, so a
    municipality that closes its offices on them enters them as municipal holidays.
    """
    try:
        return holidays.country_holidays("BR", subdiv=state)
    except NotImplementedError:
        raise ValueError(f"unknown Brazilian state (UF) {state!r}") from None


class BusinessCalendar:
    """Answers "is this a business day?" for one state plus a set of municipal holidays.

    Call it like a function (``calendar(day)``) or use :meth:`is_business_day`.
    """

    def __init__(self, state: str, municipal_holidays: Iterable[date] = ()) -> None:
        self.state = state
        self._public = _public_holidays(state)
        self._municipal = frozenset(municipal_holidays)

    def is_business_day(self, day: date) -> bool:
        return day.weekday() < 5 and day not in self._public and day not in self._municipal

    __call__ = is_business_day

    def next_business_day(self, day: date, *, include_day: bool = False) -> date:
        """The first business day after ``day`` (or ``day`` itself, if ``include_day`` and open)."""
        candidate = day if include_day else day + _ONE_DAY
        while not self.is_business_day(candidate):
            candidate += _ONE_DAY
        return candidate

    def add_business_days(self, start: date, days: int) -> date:
        """The ``days``-th business day after ``start`` (``start`` itself never counts)."""
        if days < 0:
            raise ValueError("days must not be negative")
        current = start
        for _ in range(days):
            current = self.next_business_day(current)
        return current


def business_days_calendar(state: str, municipal_holidays: Iterable[date] = ()) -> BusinessCalendar:
    """A business-day calendar for a state (UF, e.g. "SP") and the municipality's own holidays.

    Raises ValueError for an unknown state.
    """
    return BusinessCalendar(state, municipal_holidays)


def deadline(
    start: date,
    days: int,
    counting: Counting,
    *,
    state: str,
    municipal_holidays: Iterable[date] = (),
    moves_to_business_day: bool,
) -> date:
    """The last day of a term of ``days`` days that starts on ``start`` (the event's day).

    The returned day is inside the term: an act done on it is on time.
    Raises ValueError for a negative term, a zero-day inclusive term or an unknown counting.
    """
    if days < 0:
        raise ValueError("days must not be negative")
    if counting not in COUNTINGS:
        raise ValueError(f"unknown counting {counting!r}; expected one of {', '.join(COUNTINGS)}")
    cal = business_days_calendar(state, municipal_holidays)

    if moves_to_business_day and not cal(start):
        start = cal.next_business_day(start)  # GRU 114 §ú: terms only start on a business day

    if counting == "calendar_inclusive":
        if days == 0:
            raise ValueError("an inclusive term has at least one day (the start day)")
        end = start + timedelta(days=days - 1)  # BJP 25 §1-2: the apprehension day is day 1
    elif counting == "business":
        end = cal.add_business_days(start, days)  # VV 22 §5, GRU 82 §4: dias úteis
    else:
        end = start + timedelta(days=days)  # GRU 114, VV 22 §3: start excluded, end included

    if moves_to_business_day and not cal(end):
        end = cal.next_business_day(end)  # GRU 114 §ú: nor end on a non-business day
    return end


def impound_release_date(
    profile: Profile,
    size: SizeClass,
    apprehended_on: date,
    tagged: bool,
    municipal_holidays: Iterable[date] = (),
) -> date:
    """The last day the owner can reclaim an impounded animal; from the next day it may be adopted.

    ``tagged`` is True when the animal carries its RGA tag (BJP 25 §1-2 and GRU 82 §4 treat tagged
    and untagged animals differently). Numbers and counting come from ``profile.impound``.
    """
    rule = profile.impound
    return deadline(
        apprehended_on,
        rule.days_for(size, tagged),
        rule.counting,
        state=profile.state,
        municipal_holidays=municipal_holidays,
        moves_to_business_day=rule.moves_to_business_day,
    )


def add_months(day: date, months: int) -> date:
    """``day`` plus ``months`` months; a day missing in the target month becomes its last day.

    For calendar arithmetic (ages, report months). A term the law counts in months or years ends
    by :func:`term_of_months_ends` (Código Civil art. 132 §3), never by this clamp."""
    index = day.year * 12 + (day.month - 1) + months
    year, month0 = divmod(index, 12)
    last = calendar.monthrange(year, month0 + 1)[1]
    return date(year, month0 + 1, min(day.day, last))


def term_of_years_ends(start: date, years: int) -> date:
    """The last day of a term of ``years`` years counted from ``start`` (the start day excluded).

    Código Civil art. 132 §3: terms in years "expiram no dia de igual número do de início, ou no
    imediato, se faltar exata correspondência" — a term from 29 February ends on 1 March of a
    common year (unlike :func:`add_months`, which clamps to 28 February). The one rule lives in
    :func:`term_of_months_ends`.
    """
    if years < 0:
        raise ValueError("years must not be negative")
    return term_of_months_ends(start, 12 * years)


def term_of_months_ends(start: date, months: int) -> date:
    """The last day of a term of ``months`` months counted from ``start`` (the start day excluded).

    Código Civil art. 132 §3 (and Lei 810/1949 art. 3 for years): "os prazos de meses e anos
    expiram no dia de igual número do de início, ou no imediato, se faltar exata correspondência"
    — a yearly term from 29 February ends on 1 March of a common year, and a month from 31
    January on 1 March. The one rule for every term the portal counts in months or years.
    """
    if months < 0:
        raise ValueError("months must not be negative")
    index = start.year * 12 + (start.month - 1) + months
    year, month0 = divmod(index, 12)
    last = calendar.monthrange(year, month0 + 1)[1]
    if start.day > last:  # no such day that month: the next one (the 1st of the month after)
        return date(year, month0 + 1, last) + timedelta(days=1)
    return date(year, month0 + 1, start.day)


def next_anniversary(first: date, after: date, months: int) -> date:
    """The end of the current term of a document renewed every ``months`` months and counted from
    its first issue ``first`` (no drift: every end is ``first`` plus a whole number of terms,
    Código Civil art. 132 §3): the first such end after ``after``."""
    k = 1
    while (end := term_of_months_ends(first, months * k)) <= after:
        k += 1
    return end


def age_in_days(birth: date, on: date) -> int:
    """Whole days lived on ``on``: the household limits count animals "older than N days"."""
    if on < birth:
        raise ValueError("the date is before the birth date")
    return (on - birth).days


def age_in_months(birth: date, on: date) -> int:
    """Completed months of age on ``on`` (registration windows speak of months of age)."""
    if on < birth:
        raise ValueError("the date is before the birth date")
    months = (on.year - birth.year) * 12 + (on.month - birth.month)
    if add_months(birth, months) > on:
        months -= 1
    return months
