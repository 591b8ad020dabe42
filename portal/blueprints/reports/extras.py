"""Report pieces that plug into shared machinery: the LGPD data download, demo data for
``make run``, and the staff workspace queues (``declare_queues``, wired by the lead in
``portal.blueprints.workspace.init_workspace``)."""

from __future__ import annotations

from collections import Counter
from datetime import timedelta
from typing import Any

from flask import url_for
from flask_babel import lazy_gettext as _l
from sqlalchemy import func, select

from portal.blueprints.reports import STAFF_ROLES
from portal.blueprints.reports.common import ReportData
from portal.blueprints.reports.intake import create_report, reports_of
from portal.blueprints.reports.labels import STAFF_STATE_LABELS, category_label
from portal.extensions import db
from portal.models import MaltreatmentReport, ReportState, User
from portal.models.base import utcnow
from portal.services.clock import current_profile, local_day_start, local_today, tz
from portal.workspace import (
    Chart,
    ChartData,
    Period,
    SearchHit,
    SearchProvider,
    month_key,
    monthly,
    my_id,
)


def export_reports(user: User) -> list[dict[str, Any]]:
    """LGPD: the confidential reports the person made with their account, and their contact.

    Anonymous reports are not linked to anyone, so they cannot be exported (nor found)."""
    return [
        {
            "protocolo": r.protocol,
            "tipo": r.category,
            "situacao": r.state,
            "enviada_em": r.created_at,
            "relato": r.description,
            "contato": {
                "nome": r.contact.name,
                "email": r.contact.email,
                "telefone": r.contact.phone,
            }
            if r.contact
            else None,
        }
        for r in reports_of(user)
    ]


def seed_reports_demo() -> None:
    """Three reports for the demo (idempotent: only when there are none)."""
    if db.session.scalar(select(MaltreatmentReport.id).limit(1)) is not None:
        return
    profile = current_profile()
    today = local_today(profile)
    codes = [c.code for c in profile.reports.categories]
    citizen = db.session.scalar(select(User).where(User.email == "cidada@demo.ccz"))
    samples = [
        ReportData(
            category=codes[0],
            description="Cachorro preso no quintal, sem água e sem sombra há dias.",
            street="Rua das Flores",
            number="10",
            district="Centro",
            species="dog",
            animal_count=1,
        ),
        ReportData(
            category=codes[1 % len(codes)],
            description="Gato ferido abandonado na praça, parece não comer há dias.",
            street="Praça da Matriz",
            district="Vila Galvão",
            species="cat",
            animal_count=1,
        ),
        ReportData(
            category=codes[0],
            description="Três cães acorrentados num terreno.",
            street="Avenida Brasil",
            number="500",
            district="Bonsucesso",
            species="dog",
            animal_count=3,
            identity="confidential",
            name=citizen.full_name if citizen else "Cidadã Demo",
            email=citizen.email if citizen else "cidada@demo.ccz",
        ),
    ]
    for data in samples:
        create_report(profile, data, today=today, user=citizen if data.name else None)


def _triage_overdue():
    days = current_profile().reports.triage_days
    return MaltreatmentReport.created_at < utcnow() - timedelta(days=days)


def _my_inspections_today():
    """Reports assigned to the signed-in agent whose inspection is due today or earlier."""
    return select(MaltreatmentReport).where(
        MaltreatmentReport.state == ReportState.ASSIGNED,
        MaltreatmentReport.assigned_agent_id == my_id(),
        MaltreatmentReport.inspection_on <= local_today(),
    )


def declare_queues(registry) -> None:
    from portal.workspace import Column, Queue

    columns = (
        Column(_l("Protocolo"), lambda r: r.protocol),
        Column(_l("Tipo"), lambda r: category_label(current_profile(), r.category)),
        Column(_l("Bairro"), lambda r: r.district or ""),
        Column(_l("Situação"), lambda r: str(STAFF_STATE_LABELS[r.state])),
    )
    registry.declare(
        Queue(
            key="denuncias-triagem",
            title=_l("Denúncias de maus-tratos para triagem"),
            roles=STAFF_ROLES,
            entity=MaltreatmentReport,
            rows=lambda: select(MaltreatmentReport).where(
                MaltreatmentReport.state == ReportState.TRIAGE
            ),
            since=MaltreatmentReport.created_at,
            order=MaltreatmentReport.created_at,
            overdue=_triage_overdue,
            link=lambda r: url_for("reports.staff_detail", protocol=r.protocol),
            columns=columns,
            personal_data=False,  # the list shows no reporter
            # triage (assign, out of scope, merge) is the coordination's: routes in staff.py
            acted_by=("coordinator", "admin"),
            acted_by_note=_l("A triagem das denúncias é feita pela coordenação."),
        )
    )
    registry.declare(
        Queue(
            # issue 25: the agent's first screen shows the inspections assigned to them for today
            # (and any left from earlier days)
            key="minhas-vistorias-hoje",
            title=_l("Minhas vistorias de hoje"),
            roles=("agent",),
            entity=MaltreatmentReport,
            rows=_my_inspections_today,
            since=MaltreatmentReport.updated_at,
            order=MaltreatmentReport.inspection_on,
            overdue=lambda: MaltreatmentReport.inspection_on < local_today(),
            due=lambda r: r.inspection_on,
            link=lambda r: url_for("reports.staff_inspection", protocol=r.protocol),
            columns=columns,
            personal_data=False,
        )
    )
    registry.declare(
        Queue(
            key="denuncias-aguardando",
            title=_l("Denúncias aguardando notificação/captura"),
            roles=STAFF_ROLES,
            entity=MaltreatmentReport,
            rows=lambda: select(MaltreatmentReport).where(
                MaltreatmentReport.state == ReportState.INSPECTED
            ),
            since=MaltreatmentReport.updated_at,
            order=MaltreatmentReport.updated_at,
            link=lambda r: url_for("reports.staff_detail", protocol=r.protocol),
            columns=columns,
            personal_data=False,
        )
    )

    registry.declare_search(
        SearchProvider("denuncias", _l("Denúncias (protocolo)"), STAFF_ROLES, _search_protocol)
    )
    registry.declare_chart(
        Chart(
            "denuncias-por-categoria",
            _l("Denúncias por mês e tipo"),
            ("coordinator", "admin"),
            reports_by_category,
        )
    )
    registry.declare_chart(
        Chart(
            "denuncias-por-bairro",
            _l("Denúncias por bairro no período"),
            ("coordinator", "admin"),
            reports_by_district,
        )
    )


def _search_protocol(term: str) -> list[SearchHit]:
    """A protocol typed as printed ("DEN-2026-000123") or in lower case."""
    protocol = term.strip().upper()
    if not protocol.startswith("DEN-"):
        return []
    report = db.session.scalar(
        select(MaltreatmentReport).where(MaltreatmentReport.protocol == protocol)
    )
    if report is None:
        return []
    return [
        SearchHit(
            report.protocol,
            str(STAFF_STATE_LABELS[report.state]),
            url_for("reports.staff_detail", protocol=report.protocol),
        )
    ]


def _reports_in(period: Period) -> list[MaltreatmentReport]:
    start = local_day_start(period.start)
    end = local_day_start(period.end + timedelta(days=1))
    query = select(MaltreatmentReport).where(
        MaltreatmentReport.created_at >= start,
        MaltreatmentReport.created_at < end,
        MaltreatmentReport.state != ReportState.MERGED,
    )
    if period.district:
        query = query.where(func.lower(MaltreatmentReport.district) == period.district.lower())
    return list(db.session.scalars(query))


def reports_by_category(period: Period) -> ChartData:
    profile = current_profile()
    counts: Counter[tuple[str, str]] = Counter(
        (month_key(r.created_at.astimezone(tz())), r.category) for r in _reports_in(period)
    )
    return monthly(
        period,
        [(c.code, category_label(profile, c.code)) for c in profile.reports.categories],
        counts,
    )


def reports_by_district(period: Period) -> ChartData:
    counts = Counter((r.district or "—") for r in _reports_in(period))
    return ChartData([_l("Denúncias")], [(d, [n]) for d, n in counts.most_common(30)])


__all__ = ["declare_queues", "export_reports", "seed_reports_demo"]
