"""The staff's lists of reports: queues with their deadlines, filters, the district map and
look-ups."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from flask_babel import gettext as _
from sqlalchemy import func, select

from portal.blueprints.reports.common import local_day_start, normalise_protocol
from portal.blueprints.reports.labels import category_label
from portal.extensions import db
from portal.models import (
    MaltreatmentReport,
    ReportState,
    User,
)
from portal.profiles.schema import Profile

# ---------------------------------------------------------------------------------------------
# Staff queues, filters and the district map
# ---------------------------------------------------------------------------------------------

QUEUES = ("triage", "mine", "today", "overdue", "waiting", "all")


@dataclass
class Filters:
    category: str | None = None
    district: str | None = None
    state: str | None = None
    since: date | None = None
    until: date | None = None


def _filtered(query: Any, filters: Filters, profile: Profile) -> Any:
    if filters.category:
        query = query.where(MaltreatmentReport.category == filters.category)
    if filters.district:
        query = query.where(func.lower(MaltreatmentReport.district) == filters.district.lower())
    if filters.state:
        query = query.where(MaltreatmentReport.state == filters.state)
    if filters.since:
        query = query.where(
            MaltreatmentReport.created_at >= local_day_start(filters.since, profile)
        )
    if filters.until:
        query = query.where(
            MaltreatmentReport.created_at
            < local_day_start(filters.until + timedelta(days=1), profile)
        )
    return query


def queue(
    name: str, user: User, filters: Filters, profile: Profile, today: date, limit: int = 200
) -> list[MaltreatmentReport]:
    """One staff queue; deadlines from the profile (the CCZ's service targets)."""
    q = select(MaltreatmentReport)
    if name == "triage":
        q = q.where(MaltreatmentReport.state == ReportState.TRIAGE)
    elif name == "mine":
        q = q.where(
            MaltreatmentReport.state == ReportState.ASSIGNED,
            MaltreatmentReport.assigned_agent_id == user.id,
        )
    elif name == "today":
        q = q.where(
            MaltreatmentReport.state == ReportState.ASSIGNED,
            MaltreatmentReport.inspection_on == today,
        )
    elif name == "waiting":
        q = q.where(MaltreatmentReport.state == ReportState.INSPECTED)
    elif name == "overdue":
        triage_limit = local_day_start(today - timedelta(days=profile.reports.triage_days), profile)
        q = q.where(MaltreatmentReport.state.in_([ReportState.TRIAGE, ReportState.ASSIGNED]))
        rows = db.session.scalars(
            _filtered(q, filters, profile).order_by(MaltreatmentReport.created_at)
        ).all()
        return [r for r in rows if is_overdue(r, profile, today, triage_limit)][:limit]
    q = _filtered(q, filters, profile).order_by(
        MaltreatmentReport.created_at.desc() if name == "all" else MaltreatmentReport.created_at
    )
    return list(db.session.scalars(q.limit(limit)))


def is_overdue(
    report: MaltreatmentReport, profile: Profile, today: date, triage_limit: datetime | None = None
) -> bool:
    if report.state == ReportState.TRIAGE:
        limit = triage_limit or local_day_start(
            today - timedelta(days=profile.reports.triage_days), profile
        )
        created = (
            report.created_at if report.created_at.tzinfo else report.created_at.replace(tzinfo=UTC)
        )
        return created < limit
    if report.state == ReportState.ASSIGNED:
        if report.inspection_on is not None and report.inspection_on < today:
            return True
        triaged = report.triaged_at or report.created_at
        triaged_day = triaged.astimezone(ZoneInfo(profile.timezone)).date()
        return triaged_day + timedelta(days=profile.reports.inspection_days) < today
    return False


def district_counts(filters: Filters, profile: Profile) -> list[dict[str, Any]]:
    """Reports per district (for the planning heat map): count and the mean map point if any."""
    q = _filtered(
        select(
            MaltreatmentReport.district,
            func.count(MaltreatmentReport.id),
            func.avg(MaltreatmentReport.lat),
            func.avg(MaltreatmentReport.lng),
        ).group_by(MaltreatmentReport.district),
        filters,
        profile,
    )
    rows = db.session.execute(q).all()
    out = [
        {
            "district": d or _("Sem bairro informado"),
            "count": int(n),
            "lat": float(lat) if lat is not None else None,
            "lng": float(lng) if lng is not None else None,
        }
        for d, n, lat, lng in rows
    ]
    return sorted(out, key=lambda r: -r["count"])


def known_districts() -> list[str]:
    rows = db.session.scalars(
        select(MaltreatmentReport.district)
        .distinct()
        .where(MaltreatmentReport.district.is_not(None))
    )
    return sorted({r for r in rows if r})


def agents() -> list[User]:
    from portal.models import UserRole

    return list(
        db.session.scalars(
            select(User)
            .join(UserRole)
            .where(UserRole.role == "agent", User.active.is_(True))
            .order_by(User.full_name)
        )
    )


def by_protocol(protocol: str) -> MaltreatmentReport | None:
    return db.session.scalar(
        select(MaltreatmentReport).where(
            MaltreatmentReport.protocol == normalise_protocol(protocol)
        )
    )


def category_choices(profile: Profile) -> list[tuple[str, str]]:
    return [(c.code, category_label(profile, c.code)) for c in profile.reports.categories]
