"""What staff read: the searchable list of items, the reconciliation of a period and the exemption
queue."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any

from sqlalchemy import Select, func, or_, select

from portal.blueprints.billing.items import clean_reference, is_responsible
from portal.extensions import db
from portal.models import (
    ExemptionRequest,
    ExemptionStatus,
    Payment,
    PaymentItem,
    PaymentReviewFlag,
    PaymentStatus,
    Refund,
    User,
)
from portal.models.base import utcnow
from portal.services import audit
from portal.services.clock import local_day_start
from portal.services.identity import clean_cpf

# ---------------------------------------------------------------------------------------------
# Who looked at a person's payment data (every staff look is audited)
# ---------------------------------------------------------------------------------------------


def list_viewed(filters: dict[str, Any]) -> None:
    """The staff list was searched. The search text may be a CPF or a name: the log keeps only
    that a search was made."""
    audit.record(
        "payment.list_viewed",
        detail={
            k: (v.isoformat() if isinstance(v, date) else (True if k == "q" else v))
            for k, v in filters.items()
            if v
        },
    )


def item_viewed(item: PaymentItem, *, via: str | None = None) -> None:
    detail = {"reference": item.reference} | ({"via": via} if via else {})
    audit.record("payment.viewed", item, detail=detail)


def exemption_viewed(req: ExemptionRequest) -> None:
    audit.record("payment.exemption_viewed", req.item, detail={"request_id": req.id})


def guia_printed(item: PaymentItem, user: Any) -> bool:
    """Audit a guia printed by someone other than the payer (staff); True when recorded."""
    if is_responsible(item, user):
        return False
    audit.record("payment.guia_printed", item, detail={"reference": item.reference})
    return True


def receipt_viewed(item: PaymentItem, user: Any) -> bool:
    """Audit a receipt opened by someone other than the payer (staff); True when recorded."""
    if is_responsible(item, user):
        return False
    audit.record("payment.receipt_viewed", item, detail={"reference": item.reference})
    return True


# ---------------------------------------------------------------------------------------------
# Staff views: search and reconciliation
# ---------------------------------------------------------------------------------------------


def staff_items_query(
    *,
    status: str | None = None,
    kind: str | None = None,
    date_from: date | None = None,
    date_to: date | None = None,
    q: str | None = None,
) -> Select[PaymentItem]:
    """Items for the staff list, newest first. ``q`` is a guia reference, a payer's CPF, or words
    of the payer's name or the description. Dates are days in the municipality's time zone."""
    stmt = select(PaymentItem).order_by(PaymentItem.id.desc())
    if status:
        stmt = stmt.where(PaymentItem.status == status)
    if kind:
        stmt = stmt.where(PaymentItem.kind == kind)
    if date_from:
        stmt = stmt.where(PaymentItem.created_at >= local_day_start(date_from))
    if date_to:
        stmt = stmt.where(PaymentItem.created_at < local_day_start(date_to + timedelta(days=1)))
    if q and q.strip():
        text = q.strip()
        reference = clean_reference(text)
        cpf = clean_cpf(text) if reference is None else None
        if reference:
            stmt = stmt.where(PaymentItem.reference == reference)
        elif cpf:
            stmt = stmt.join(User, PaymentItem.payer_id == User.id).where(User.cpf == cpf)
        else:
            stmt = stmt.outerjoin(User, PaymentItem.payer_id == User.id).where(
                or_(
                    func.lower(User.full_name).contains(text.lower()),
                    func.lower(PaymentItem.description).contains(text.lower()),
                )
            )
    return stmt


@dataclass
class Totals:
    count: int = 0
    amount_cents: int = 0


@dataclass
class Reconciliation:
    date_from: date
    date_to: date
    by_status: dict[str, Totals] = field(default_factory=dict)
    by_kind: dict[str, Totals] = field(default_factory=dict)
    received_by_method: dict[str, Totals] = field(default_factory=dict)
    refunded_by_method: dict[str, Totals] = field(default_factory=dict)
    open_flags: list[PaymentReviewFlag] = field(default_factory=list)
    stale_processing: list[PaymentItem] = field(default_factory=list)

    @property
    def received_total(self) -> int:
        return sum(t.amount_cents for t in self.received_by_method.values())

    @property
    def refunded_total(self) -> int:
        return sum(t.amount_cents for t in self.refunded_by_method.values())


def reconciliation(date_from: date, date_to: date) -> Reconciliation:
    """Totals for a period: items issued (by status and kind), money received and refunded (by
    method), plus everything that needs a person: open review flags and boletos stuck in
    processing for more than a week."""
    start, end = local_day_start(date_from), local_day_start(date_to + timedelta(days=1))
    report = Reconciliation(date_from, date_to)
    issued = (PaymentItem.created_at >= start) & (PaymentItem.created_at < end)
    item_sum = func.coalesce(func.sum(PaymentItem.amount_cents), 0)
    for status, count, total in db.session.execute(
        select(PaymentItem.status, func.count(), item_sum)
        .where(issued)
        .group_by(PaymentItem.status)
    ):
        report.by_status[status] = Totals(count, int(total))
    for kind, count, total in db.session.execute(
        select(PaymentItem.kind, func.count(), item_sum).where(issued).group_by(PaymentItem.kind)
    ):
        report.by_kind[kind] = Totals(count, int(total))
    for method, count, total in db.session.execute(
        select(Payment.method, func.count(), func.coalesce(func.sum(Payment.amount_cents), 0))
        .where(Payment.received_on >= date_from, Payment.received_on <= date_to)
        .group_by(Payment.method)
    ):
        report.received_by_method[method] = Totals(count, int(total))
    for method, count, total in db.session.execute(
        select(Refund.method, func.count(), func.coalesce(func.sum(Refund.amount_cents), 0))
        .where(
            Refund.created_at >= start,
            Refund.created_at < end,
            # a refund Stripe failed or cancelled gave no money back
            Refund.status.not_in(("failed", "canceled")),
        )
        .group_by(Refund.method)
    ):
        report.refunded_by_method[method] = Totals(count, int(total))
    report.open_flags = list(
        db.session.scalars(
            select(PaymentReviewFlag)
            .where(PaymentReviewFlag.resolved_at.is_(None))
            .order_by(PaymentReviewFlag.id)
        )
    )
    report.stale_processing = list(
        db.session.scalars(
            select(PaymentItem)
            .where(
                PaymentItem.status == PaymentStatus.PROCESSING,
                PaymentItem.created_at < utcnow() - timedelta(days=7),
            )
            .order_by(PaymentItem.id)
        )
    )
    return report


def pending_exemption_requests() -> Iterable[ExemptionRequest]:
    return db.session.scalars(
        select(ExemptionRequest)
        .where(ExemptionRequest.status == ExemptionStatus.PENDING)
        .order_by(ExemptionRequest.id)
    )
