"""The municipality's clock: one ``local_today()`` for every rule that counts local dates.

The law counts days in the municipality (a registration at 22:00 in São Paulo is "today" there,
though it is already tomorrow in UTC); instants are stored in UTC (GRU 114 counts days)."""

from __future__ import annotations

from datetime import UTC, date, datetime, time
from zoneinfo import ZoneInfo

from flask import current_app

from portal.profiles.schema import Profile


def current_profile() -> Profile:
    """The jurisdiction profile this deployment runs (validated at start-up)."""
    return current_app.extensions["portal_profile"]


def tz(profile: Profile | None = None) -> ZoneInfo:
    return ZoneInfo((profile or current_profile()).timezone)


def local_now(profile: Profile | None = None) -> datetime:
    return datetime.now(tz(profile))


def local_today(profile: Profile | None = None) -> date:
    """Today in the municipality's time zone (``profile``: another city's, e.g. in a test)."""
    return local_now(profile).date()


def local_date(moment: datetime) -> date:
    """The municipality's calendar day of a stored (UTC) instant: 22:30 in São Paulo is 01:30 UTC
    of the next day, and every page, PDF and deadline must use the local day."""
    return moment.astimezone(tz()).date()


def local_day_start(day: date) -> datetime:
    """The UTC instant at which ``day`` starts in the municipality."""
    return datetime.combine(day, time.min, tzinfo=tz()).astimezone(UTC)
