"""Adoption's queues in the staff workspace: applications for the CCZ's own animals, by state,
and NGOs asking to be registered."""

from __future__ import annotations

from collections import Counter
from datetime import timedelta
from statistics import median

from flask import url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from sqlalchemy import func, or_, select
from sqlalchemy.orm import contains_eager

from portal.access import STAFF
from portal.blueprints.adoption.progress import owner_step
from portal.extensions import db
from portal.models import (
    AdoptionApplication,
    ApplicationStatus,
    Listing,
    Organization,
    OrganizationStatus,
)
from portal.services.clock import local_day_start, tz
from portal.services.identity import clean_cnpj
from portal.workspace import (
    Chart,
    ChartData,
    Column,
    Filter,
    Period,
    Queue,
    QueueRegistry,
    SearchHit,
    SearchProvider,
    month_key,
    monthly,
)

DASHBOARD_ROLES = ("coordinator", "admin")
OPEN_STATES = (
    ApplicationStatus.SUBMITTED,
    ApplicationStatus.NEEDS_INFO,
    ApplicationStatus.APPROVED,
)


def _state_choices():
    return [
        (ApplicationStatus.SUBMITTED.value, _l("Aguardando análise")),
        (ApplicationStatus.NEEDS_INFO.value, _l("Aguardando informações do candidato")),
        (ApplicationStatus.APPROVED.value, _l("Aprovado, aguardando entrega")),
    ]


def _state_label(status: str):
    return dict(_state_choices()).get(status, status)


def _next_action(application: AdoptionApplication) -> str:
    """Issue 25: every record of an application names its next action and by when."""
    step = owner_step(application)
    if step.by is None:
        return step.what
    return _("%(what)s Até %(day)s.", what=step.what, day=step.by.strftime("%d/%m/%Y"))


def declare_queues(registry: QueueRegistry) -> None:
    registry.declare_search(
        SearchProvider("organizacoes", _l("Organizações"), STAFF, _search_organizations)
    )
    registry.declare_chart(
        Chart(
            "adocoes-por-mes",
            _l("Adoções concluídas por mês"),
            DASHBOARD_ROLES,
            adoptions_per_month,
        )
    )
    registry.declare_chart(
        Chart(
            "adocoes-dias-anunciado",
            _l("Mediana de dias entre o anúncio e a adoção"),
            DASHBOARD_ROLES,
            median_days_listed,
        )
    )
    registry.declare(
        Queue(
            key="adocao-ccz",
            title=_l("Adoção: pedidos para animais do CCZ"),
            roles=STAFF,
            entity=AdoptionApplication,
            rows=lambda: (
                select(AdoptionApplication)
                .join(Listing)
                .options(contains_eager(AdoptionApplication.listing))
                .where(
                    Listing.organization_id.is_(None), AdoptionApplication.status.in_(OPEN_STATES)
                )
            ),
            since=AdoptionApplication.submitted_at,
            order=AdoptionApplication.submitted_at,
            link=lambda a: url_for("adoption.review", application_id=a.id),
            columns=(
                Column(_l("Animal"), lambda a: a.listing.name),
                Column(_l("Situação"), lambda a: _state_label(a.status)),
                Column(_l("Enviado em"), lambda a: a.submitted_at.strftime("%d/%m/%Y")),
                Column(_l("Próxima ação"), _next_action),
            ),
            filters=(
                Filter(
                    "situacao",
                    _l("Situação"),
                    _state_choices,
                    lambda q, v: q.where(AdoptionApplication.status == v),
                ),
            ),
        )
    )
    registry.declare(
        Queue(
            key="ongs-a-aprovar",
            title=_l("Adoção: ONGs aguardando aprovação"),
            roles=STAFF,
            entity=Organization,
            rows=lambda: select(Organization).where(
                Organization.status == OrganizationStatus.PENDING
            ),
            since=Organization.created_at,
            order=Organization.created_at,
            link=lambda o: url_for("adoption.organizations"),
            columns=(
                Column(_l("Entidade"), lambda o: o.display_name),
                Column(_l("Pedido em"), lambda o: o.created_at.strftime("%d/%m/%Y")),
            ),
            personal_data=False,
        )
    )


def _search_organizations(term: str) -> list[SearchHit]:
    cnpj = clean_cnpj(term)
    if cnpj:
        condition = Organization.cnpj == cnpj
    elif len(term) >= 2:
        lowered = term.lower()
        condition = or_(
            func.lower(Organization.legal_name).contains(lowered),
            func.lower(Organization.trade_name).contains(lowered),
        )
    else:
        return []
    found = db.session.scalars(
        select(Organization).where(condition).order_by(Organization.legal_name).limit(20)
    )
    return [
        SearchHit(o.display_name, o.legal_name, url_for("adoption.organizations")) for o in found
    ]


def _adoptions(period: Period) -> list[tuple[str, int | None]]:
    """(month of hand-over, days listed) for each adoption completed in the period."""
    start, end = local_day_start(period.start), local_day_start(period.end + timedelta(days=1))
    query = (
        select(AdoptionApplication.completed_at, Listing.published_at)
        .join(Listing)
        .where(
            AdoptionApplication.status == ApplicationStatus.COMPLETED,
            AdoptionApplication.completed_at >= start,
            AdoptionApplication.completed_at < end,
        )
    )
    if period.district:
        query = query.where(func.lower(Listing.district) == period.district.lower())
    rows = []
    for completed_at, published_at in db.session.execute(query):
        if completed_at is None:
            continue
        local = completed_at.astimezone(tz())
        days = (completed_at - published_at).days if published_at else None
        rows.append((month_key(local), days))
    return rows


def adoptions_per_month(period: Period) -> ChartData:
    counts = Counter((month, "adoptions") for month, _days in _adoptions(period))
    return monthly(period, [("adoptions", _l("Adoções concluídas"))], counts)


def median_days_listed(period: Period) -> ChartData:
    by_month: dict[str, list[int]] = {}
    for month, days in _adoptions(period):
        if days is not None:
            by_month.setdefault(month, []).append(days)
    medians = {(month, "median"): int(median(values)) for month, values in by_month.items()}
    return monthly(period, [("median", _l("Mediana de dias anunciado"))], medians, unit="days")
