"""The municipal holidays every deadline reads: the days staff entered, with the ones marked
"repeats every year" expanded into each year asked for.

``portal.services.dates`` stays pure (no database); callers pass it ``municipal_holidays(...)``.
This is the one place that loads ``MunicipalHoliday`` for the date engine (fees, establishments,
impound), so a holiday staff add, edit, delete or mark as yearly reaches every term at once.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date

from sqlalchemy import select

from portal.extensions import db
from portal.models import MunicipalHoliday
from portal.services.clock import local_today

# Legal terms in this portal run for days or weeks; a window of one year either side of the dates
# a caller names (and of today) covers every term that starts or ends near them.
_MARGIN_YEARS = 1


def expand(rows: Iterable[tuple[date, bool]], years: Iterable[int]) -> list[date]:
    """Pure: the days of ``rows`` ((day, repeats_yearly) pairs) in ``years``, sorted.

    A fixed holiday stays on its own date whatever the years; a yearly one (e.g. the city's
    anniversary) appears on its day and month in every year asked. A 29 February holiday repeats
    only in leap years.
    """
    wanted = sorted(set(years))
    days: set[date] = set()
    for day, repeats in rows:
        days.add(day)
        if not repeats:
            continue
        for year in wanted:
            try:
                days.add(day.replace(year=year))
            except ValueError:
                continue  # 29 Feb in a common year: no holiday that year
    return sorted(days)


def municipal_holidays(around: Iterable[date] = ()) -> list[date]:
    """Municipal holidays for the years around ``around`` and today (one year either side)."""
    anchors = [*around, local_today()]
    years = {y for d in anchors for y in range(d.year - _MARGIN_YEARS, d.year + _MARGIN_YEARS + 2)}
    rows = db.session.execute(select(MunicipalHoliday.day, MunicipalHoliday.repeats_yearly)).all()
    return expand(((day, bool(repeats)) for day, repeats in rows), years)
