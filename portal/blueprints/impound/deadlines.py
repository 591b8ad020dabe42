"""Hold deadlines and the capture count (GRU 82 §4, 84 §1 II; BJP 25; VV 22 §3).

The hold deadline comes from the profile through the one date engine (``portal.services.dates``);
observation custody has its own end (CAB 14, 30; GRU 61). The capture count per animal follows
GRU 83 §ú, 84 §1-2, §4 and 113."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import date, timedelta

from sqlalchemy import select

from portal.extensions import db
from portal.models import (
    Capture,
    CustodyType,
)
from portal.profiles.schema import Profile, SizeClass
from portal.services.dates import deadline, impound_release_date, term_of_years_ends
from portal.services.municipal_holidays import municipal_holidays

# ---------------------------------------------------------------------------------------------
# Deadlines
# ---------------------------------------------------------------------------------------------


def legal_size(profile: Profile, capture: Capture) -> SizeClass:
    """The size class the law counts for a captured animal: from its species where the law
    defines the classes by species (GRU 10 XV; CAB 12, 19), else the agent's class. The capture's
    own ``size`` stays the description the agent chose (Pequeno / Médio / Grande)."""
    return profile.impound.legal_size(capture.species, capture.size)


def hold_deadline(
    profile: Profile,
    *,
    size: str,
    captured_on: date,
    tagged: bool,
    custody_type: str,
    holidays: Sequence[date] | None = None,
    species: str | None = None,
) -> date:
    """The last day the owner can reclaim, through the one date engine.

    ``species`` given: the hold is that of the species' legal size class (GRU 10 XV, 82 §4: a
    dog of any weight is held 3 business days), ``size`` only where the law has no class.
    Observation custody (CAB 14, 30; GRU 61): the observation days run first, calendar days; then
    the owner has ``observation_reclaim_hours`` (CAB 14: 48 hours), or the ordinary hold.
    """
    rule = profile.impound
    if species is not None:
        size = rule.legal_size(species, size)  # GRU 10 XV-XVII
    days_off = list(holidays) if holidays is not None else municipal_holidays([captured_on])
    observation_days = profile.observation_days()[0]  # CAB 30; GRU 61 (the CCZ's days)
    if custody_type == CustodyType.OBSERVATION and observation_days:
        observed = deadline(
            captured_on,
            observation_days,
            "calendar",
            state=profile.state,
            municipal_holidays=days_off,
            moves_to_business_day=rule.moves_to_business_day,
        )
        if rule.observation_reclaim_hours:
            # CAB 14: 48 hours after the observation: whole days, counted like any term.
            return deadline(
                observed,
                -(-rule.observation_reclaim_hours // 24),
                "calendar",
                state=profile.state,
                municipal_holidays=days_off,
                moves_to_business_day=rule.moves_to_business_day,
            )
        return impound_release_date(profile, size, observed, tagged, days_off)  # type: ignore[arg-type]
    return impound_release_date(profile, size, captured_on, tagged, days_off)  # type: ignore[arg-type]


def observation_ends(profile: Profile, capture: Capture) -> date | None:
    """The last day of a rabies observation (CAB 14, 30; GRU 61); None for other custody."""
    rule = profile.impound
    days = profile.observation_days()[0]  # CAB 30; GRU 61 (the CCZ's days)
    if capture.custody_type != CustodyType.OBSERVATION or not days:
        return None
    return deadline(
        capture.captured_on,
        days,
        "calendar",
        state=profile.state,
        municipal_holidays=municipal_holidays([capture.captured_on]),
        moves_to_business_day=rule.moves_to_business_day,
    )


def capture_day_counts(profile: Profile) -> bool:
    """For the rules page: whether the capture day is day 1 of the hold (BJP 25 §1-2)."""
    return profile.impound.counting == "calendar_inclusive"


# ---------------------------------------------------------------------------------------------
# Capture count (GRU 83 §ú, 84 §1-2, §4, 113)
# ---------------------------------------------------------------------------------------------


def count_in_period(capture_days: Iterable[date], on: date, period_years: int | None) -> int:
    """Captures on or before ``on`` that have not prescribed by ``on``.

    GRU 84 §1 II, 113: each capture weighs on the animal for five years from its day (Código
    Civil art. 132 §3 for terms in years); a capture whose period ended before ``on`` no longer
    counts. 2021-03-15, 2023-02-01, 2026-03-10 → 3; 2020-12-01, 2023-05-05, 2026-01-20 → 2.
    ``period_years`` None: the law sets no period, every capture counts.
    """
    return sum(
        1
        for day in capture_days
        if day <= on and (period_years is None or on <= term_of_years_ends(day, period_years))
    )


def first_day_counted(on: date, period_years: int) -> date:
    """The earliest capture day that still counts on ``on`` (:func:`count_in_period`): the start
    of the period a certidão states (GRU 84 §3, 113). Around 29 February it is not simply ``on``
    minus the years: on 29 Feb 2028 a capture of 28 Feb 2023 has prescribed (1 Mar 2023 is the
    first that counts), and on 1 Mar 2029 one of 29 Feb 2024 still counts (Código Civil art. 132
    §3)."""
    day = date(on.year - period_years, on.month, 28 if (on.month, on.day) == (2, 29) else on.day)
    while term_of_years_ends(day, period_years) < on:
        day += timedelta(days=1)
    while term_of_years_ends(day - timedelta(days=1), period_years) >= on:
        day -= timedelta(days=1)
    return day


def capture_count(
    profile: Profile, animal_id: int | None, on: date, *, exclude_id: int | None = None
) -> int:
    """Captures of one animal that count on ``on``, whoever owned it (GRU 83 §ú, 84 §2).

    The count restarts after a definitive apprehension was decided and the animal destined
    (GRU 84 §4): only captures after the last such one count.
    """
    if animal_id is None:
        return 0
    rows = db.session.execute(
        select(Capture.id, Capture.captured_on, Capture.count_reset)
        .where(Capture.animal_id == animal_id)
        .order_by(Capture.captured_on, Capture.id)
    ).all()
    days: list[date] = []
    for capture_id, day, reset in rows:
        if capture_id == exclude_id:
            continue
        if reset:
            days = []  # GRU 84 §4: "cessa o ônus apreensivo com a destinação"
            continue
        days.append(day)
    rule = profile.impound.capture_count
    return count_in_period(days, on, rule.period_years if rule else None)
