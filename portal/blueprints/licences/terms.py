"""A licence's term: validity (GRU 37 §1 IV; CAB 31 §2), the public status and the renewal window
(GRU 37 §1 V). Its labels and the staff look-up are in labels.py."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta

from sqlalchemy import select

from portal.extensions import db
from portal.models import (
    ExcessLicence,
    LicenceStatus,
)
from portal.profiles.schema import LicenceRule, Profile
from portal.services.dates import next_anniversary

# ---------------------------------------------------------------------------------------------
# Terms
# ---------------------------------------------------------------------------------------------


def term_end(valid_from: date, rule: LicenceRule, *, first_issued_on: date | None = None) -> date:
    """GRU 37 §1 IV; CAB 31 §2: a year ends on the same date next year, 29 February on 1 March
    (Código Civil art. 132 §3, the one rule for terms in years). A renewal's term is counted from
    the first issue (``first_issued_on``), so the renewals never drift: 2026-12-01 ends
    2027-12-01, its renewal 2028-12-01 (not 2028-12-02 from the day after the old end)."""
    return next_anniversary(first_issued_on or valid_from, valid_from, rule.validity_months)


def first_issued_on(licence: ExcessLicence) -> date | None:
    """The first day of the first licence this one renews, through every renewal before it."""
    first, seen = licence, {id(licence)}
    while first.renews is not None and id(first.renews) not in seen:
        seen.add(id(first.renews))
        first = first.renews
    return first.valid_from


def is_valid(licence: ExcessLicence, on: date) -> bool:
    return (
        licence.status == LicenceStatus.APPROVED
        and licence.valid_from is not None
        and licence.valid_until is not None
        and licence.valid_from <= on <= licence.valid_until
    )


def public_status(licence: ExcessLicence, on: date) -> str | None:
    """``valid``, ``expired`` or ``cancelled``; None for a request never approved (not public).
    A licence approved to start later (a renewal decided early) is reported valid from its day."""
    if licence.status == LicenceStatus.CANCELLED:
        return "cancelled"
    if licence.status != LicenceStatus.APPROVED or licence.valid_until is None:
        return None
    return "expired" if on > licence.valid_until else "valid"


@dataclass(frozen=True)
class RenewalWindow:
    opens: date
    closes: date

    def contains(self, day: date) -> bool:
        return self.opens <= day <= self.closes


def renewal_window(licence: ExcessLicence, profile: Profile) -> RenewalWindow | None:
    """GRU 37 §1 V: the renewal is asked for within the 30 days before the licence expires."""
    rule = profile.licence
    if (
        rule is None
        or licence.status != LicenceStatus.APPROVED
        or licence.valid_until is None
        or rule.renewal_window_days is None
    ):
        return None
    opens = licence.valid_until - timedelta(days=rule.renewal_window_days)
    return RenewalWindow(opens, licence.valid_until)


def renewal_of(licence: ExcessLicence) -> ExcessLicence | None:
    """The renewal asked for (or granted) from this licence, if any (not refused nor withdrawn)."""
    return db.session.scalar(
        select(ExcessLicence)
        .where(
            ExcessLicence.renews_id == licence.id,
            ExcessLicence.status.not_in([LicenceStatus.REFUSED, LicenceStatus.WITHDRAWN]),
        )
        .order_by(ExcessLicence.id.desc())
    )
