"""How long ago, in the words staff and citizens use: "hoje", "ontem", "há 3 dias" (issue 25).

One helper for every page ("O mais antigo: há 0 dias" read like an error), and
:func:`days_until` for deadlines ("hoje", "amanhã", "em 3 dias"). Days are calendar days
of the municipality: something from 23:30 yesterday in São Paulo is "ontem", even if it was a
few minutes ago.
"""

from __future__ import annotations

from datetime import UTC, date, datetime

from flask_babel import gettext as _
from flask_babel import ngettext

from portal.services.clock import local_date, local_today


def days_between(value: date | datetime, today: date | None = None) -> int:
    """Whole local calendar days from ``value`` to ``today`` (never negative)."""
    if isinstance(value, datetime):
        day = local_date(value if value.tzinfo else value.replace(tzinfo=UTC))
    else:
        day = value
    return max(((today or local_today()) - day).days, 0)


def days_ago(value: date | datetime | int | None, today: date | None = None) -> str:
    """ "hoje", "ontem" or "há N dias"; ``value`` is a day, an instant or a number of days ago.
    An empty string for ``None`` (nothing to date)."""
    if value is None:
        return ""
    days = max(value, 0) if isinstance(value, int) else days_between(value, today)
    if days == 0:
        return _("hoje")
    if days == 1:
        return _("ontem")
    return ngettext("há %(num)d dia", "há %(num)d dias", days)


def days_until(value: date | int | None, today: date | None = None) -> str:
    """A deadline in the same words: "hoje", "amanhã" or "em N dias" ("faltam 0 dias" and
    "1 dias" read like errors); a day already past reads as :func:`days_ago`."""
    if value is None:
        return ""
    days = value if isinstance(value, int) else (value - (today or local_today())).days
    if days < 0:
        return days_ago(-days)
    if days == 0:
        return _("hoje")
    if days == 1:
        return _("amanhã")
    return ngettext("em %(num)d dia", "em %(num)d dias", days)
