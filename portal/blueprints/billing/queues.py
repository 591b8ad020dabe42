"""Billing's queues in the staff workspace: exemption requests, payments flagged for review,
boletos stuck in processing and open guias past their due date."""

from __future__ import annotations

from collections import Counter
from datetime import timedelta

from flask import url_for
from flask_babel import lazy_gettext as _l
from sqlalchemy import func, select
from sqlalchemy.orm import joinedload

from portal.access import STAFF
from portal.blueprints.billing.items import BillingError
from portal.blueprints.billing.labels import kind_label, status_label
from portal.blueprints.billing.settlement import find_by_reference
from portal.extensions import db
from portal.models import (
    ExemptionRequest,
    ExemptionStatus,
    Payment,
    PaymentItem,
    PaymentReviewFlag,
    PaymentStatus,
    User,
)
from portal.models.base import utcnow
from portal.services.clock import local_day_start, local_today, tz
from portal.workspace import (
    Chart,
    ChartData,
    Column,
    Period,
    Queue,
    QueueRegistry,
    SearchHit,
    SearchProvider,
    month_key,
    monthly,
)

DASHBOARD_ROLES = ("coordinator", "admin")
STALE_PROCESSING_DAYS = 7  # a boleto normally clears in 1-3 business days


def _search_payments(term: str) -> list[SearchHit]:
    """A guia's reference (the 12 digits printed on it)."""
    if sum(ch.isdigit() for ch in term) != 12:
        return []
    try:
        item = find_by_reference(term)
    except BillingError:
        return []
    if item is None:
        return []
    return [
        SearchHit(
            item.reference,
            f"{kind_label(item.kind)} · {status_label(item.status)}",
            url_for("billing.staff_item", item_id=item.id),
        )
    ]


def declare_queues(registry: QueueRegistry) -> None:
    registry.declare_search(
        SearchProvider("pagamentos", _l("Pagamentos (referência da guia)"), STAFF, _search_payments)
    )
    registry.declare_chart(
        Chart(
            "pagamentos-por-tipo",
            _l("Valores recebidos por mês e tipo"),
            DASHBOARD_ROLES,
            payments_by_kind,
        )
    )
    registry.declare_chart(
        Chart(
            "isencoes-concedidas",
            _l("Isenções concedidas por mês"),
            DASHBOARD_ROLES,
            exemptions_granted,
        )
    )
    registry.declare(
        Queue(
            key="isencoes",
            title=_l("Pagamentos: pedidos de isenção"),
            roles=STAFF,
            entity=ExemptionRequest,
            rows=lambda: (
                select(ExemptionRequest)
                .options(joinedload(ExemptionRequest.item))
                .where(ExemptionRequest.status == ExemptionStatus.PENDING)
            ),
            since=ExemptionRequest.created_at,
            order=ExemptionRequest.created_at,
            link=lambda r: url_for("billing.exemption_detail", request_id=r.id),
            columns=(
                Column(_l("Cobrança"), lambda r: kind_label(r.item.kind)),
                Column(_l("Motivo"), lambda r: r.label),
                Column(_l("Pedido em"), lambda r: r.created_at.strftime("%d/%m/%Y")),
            ),
        )
    )
    registry.declare(
        Queue(
            key="pagamentos-pendencias",
            title=_l("Pagamentos: pendências a conferir"),
            roles=STAFF,
            entity=PaymentReviewFlag,
            rows=lambda: (
                select(PaymentReviewFlag)
                .options(joinedload(PaymentReviewFlag.item))
                .where(PaymentReviewFlag.resolved_at.is_(None))
            ),
            since=PaymentReviewFlag.created_at,
            order=PaymentReviewFlag.created_at,
            link=lambda f: url_for("billing.staff_item", item_id=f.item_id),
            columns=(
                Column(_l("Referência"), lambda f: f.item.reference),
                Column(_l("Pendência"), lambda f: f.message),
            ),
            personal_data=False,
        )
    )
    registry.declare(
        Queue(
            key="boletos-em-processamento",
            title=_l("Pagamentos: em processamento há mais de 7 dias"),
            roles=STAFF,
            entity=PaymentItem,
            rows=lambda: select(PaymentItem).where(
                PaymentItem.status == PaymentStatus.PROCESSING,
                PaymentItem.created_at < utcnow() - timedelta(days=STALE_PROCESSING_DAYS),
            ),
            since=PaymentItem.created_at,
            order=PaymentItem.created_at,
            link=lambda i: url_for("billing.staff_item", item_id=i.id),
            columns=(
                Column(_l("Referência"), lambda i: i.reference),
                Column(_l("Cobrança"), lambda i: kind_label(i.kind)),
            ),
            personal_data=False,
        )
    )
    registry.declare(
        Queue(
            key="guias-vencidas",
            title=_l("Pagamentos: guias vencidas sem baixa"),
            description=_l(
                "Cobranças com vencimento passado e ainda em aberto: confira o retorno "
                "do banco e dê baixa nas pagas."
            ),
            roles=STAFF,
            entity=PaymentItem,
            rows=lambda: select(PaymentItem).where(
                PaymentItem.status == PaymentStatus.PENDING, PaymentItem.due_on < local_today()
            ),
            since=PaymentItem.created_at,
            order=PaymentItem.due_on,  # never null here: the rows are those with a due date
            overdue=lambda: PaymentItem.due_on < local_today(),
            due=lambda i: i.due_on,
            link=lambda i: url_for("billing.staff_item", item_id=i.id),
            columns=(
                Column(_l("Referência"), lambda i: i.reference),
                Column(_l("Cobrança"), lambda i: kind_label(i.kind)),
            ),
            personal_data=False,
        )
    )


def payments_by_kind(period: Period) -> ChartData:
    query = (
        select(Payment.received_on, PaymentItem.kind, Payment.amount_cents)
        .join(PaymentItem, Payment.item_id == PaymentItem.id)
        .where(Payment.received_on >= period.start, Payment.received_on <= period.end)
    )
    if period.district:
        query = query.join(User, PaymentItem.payer_id == User.id).where(
            func.lower(User.district) == period.district.lower()
        )
    totals: Counter[tuple[str, str]] = Counter()
    kinds: set[str] = set()
    for received_on, kind, cents in db.session.execute(query):
        totals[(month_key(received_on), kind)] += cents
        kinds.add(kind)
    return monthly(period, [(k, kind_label(k)) for k in sorted(kinds)], totals, unit="cents")


def exemptions_granted(period: Period) -> ChartData:
    start, end = local_day_start(period.start), local_day_start(period.end + timedelta(days=1))
    query = select(
        ExemptionRequest.decided_at, ExemptionRequest.code, ExemptionRequest.label
    ).where(
        ExemptionRequest.status == ExemptionStatus.ACCEPTED,
        ExemptionRequest.decided_at >= start,
        ExemptionRequest.decided_at < end,
    )
    if period.district:
        query = query.join(User, ExemptionRequest.requester_id == User.id).where(
            func.lower(User.district) == period.district.lower()
        )
    counts: Counter[tuple[str, str]] = Counter()
    labels: dict[str, str] = {}
    for decided_at, code, label in db.session.execute(query):
        if decided_at is None:
            continue
        counts[(month_key(decided_at.astimezone(tz())), code)] += 1
        labels[code] = label
    return monthly(period, sorted(labels.items()), counts)
