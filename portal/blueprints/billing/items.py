"""Payment items: the one place other domains create something to pay, references, who sees an
item, and every change of its status (the status graph, cancellation, settlement listeners)."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from datetime import date, timedelta
from typing import Any

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from sqlalchemy import or_, select

from portal import urls
from portal.blueprints.billing.labels import status_label
from portal.domain import DomainError
from portal.extensions import db
from portal.models import (
    ApiClient,
    ExemptionStatus,
    PaymentEvent,
    PaymentItem,
    PaymentStatus,
    User,
)
from portal.models.base import utcnow
from portal.services import audit
from portal.services.clock import local_today
from portal.services.fees import Fee
from portal.wiring import wiring

# A guia printed for an item without a legal due date is valid for this many days.
GUIA_VALID_DAYS = 10

# Which status may follow which. Paid never goes back to processing (webhooks out of order);
# exempt, refunded and cancelled are final.
_NEXT: dict[str, frozenset[str]] = {
    PaymentStatus.PENDING: frozenset(
        {
            PaymentStatus.PROCESSING,
            PaymentStatus.PAID,
            PaymentStatus.FAILED,
            PaymentStatus.EXEMPT,
            PaymentStatus.CANCELLED,
        }
    ),
    PaymentStatus.FAILED: frozenset(
        {
            PaymentStatus.PROCESSING,
            PaymentStatus.PAID,
            PaymentStatus.EXEMPT,
            PaymentStatus.CANCELLED,
        }
    ),
    PaymentStatus.PROCESSING: frozenset({PaymentStatus.PAID, PaymentStatus.FAILED}),
    PaymentStatus.PAID: frozenset({PaymentStatus.REFUNDED}),
    PaymentStatus.EXEMPT: frozenset(),
    PaymentStatus.REFUNDED: frozenset(),
    PaymentStatus.CANCELLED: frozenset(),
}


# An item that stops being owed (paid, or exempted by staff). Other domains react to it through
# ``wiring(app).on_settlement(listener)`` in their ``init_app`` instead of polling items (e.g. a
# provisional RGA becomes definitive once its fee is settled). Listeners run inside the same
# transaction (they may flush, never commit).
SETTLED_STATUSES = frozenset({PaymentStatus.PAID, PaymentStatus.EXEMPT})
SettlementListener = Callable[[PaymentItem], None]


class BillingError(DomainError):
    """A payment action the rules do not allow; ``message`` is shown to the person. The code is
    ``invalid`` unless a caller (the API, a test) needs to tell the cases apart."""


# ---------------------------------------------------------------------------------------------
# Items
# ---------------------------------------------------------------------------------------------


def _luhn_digit(digits: str) -> str:
    total = 0
    for i, ch in enumerate(reversed(digits)):
        n = int(ch)
        if i % 2 == 0:
            n *= 2
            n = n - 9 if n > 9 else n
        total += n
    return str((10 - total % 10) % 10)


def new_reference() -> str:
    """A guia reference: 11 random digits plus a Luhn check digit, typed at the counter."""
    while True:
        body = f"{secrets.randbelow(10**11):011d}"
        reference = body + _luhn_digit(body)
        taken = select(PaymentItem.id).where(PaymentItem.reference == reference)
        if db.session.scalar(taken) is None:
            return reference


def clean_reference(text: str | None) -> str | None:
    """The 12 digits of a reference typed with any spacing, or None when the check digit fails."""
    digits = "".join(ch for ch in (text or "") if ch.isdigit())
    if len(digits) != 12 or _luhn_digit(digits[:-1]) != digits[-1]:
        return None
    return digits


def create_payment_item(
    *,
    kind: str,
    amount_cents: int,
    description: str,
    payer: User | None,
    subject_type: str | None = None,
    subject_id: int | None = None,
    breakdown: list[dict] | None = None,
    api_client_id: int | None = None,
    due_on: date | None = None,
) -> PaymentItem:
    """Create a pending item (or an already-settled zero item when nothing is due)."""
    if amount_cents < 0:
        raise ValueError("amount_cents must not be negative")
    status = PaymentStatus.PENDING if amount_cents > 0 else PaymentStatus.EXEMPT
    item = PaymentItem(
        kind=kind,
        amount_cents=amount_cents,
        description=description,
        payer_id=payer.id if payer else None,
        subject_type=subject_type,
        subject_id=subject_id,
        breakdown=breakdown,
        api_client_id=api_client_id,
        reference=new_reference(),
        status=status,
        due_on=due_on,
    )
    item.events.append(PaymentEvent(from_status=None, to_status=status, note="created"))
    db.session.add(item)
    db.session.flush()
    return item


def create_item_for_fee(
    fee: Fee,
    *,
    description: str,
    payer: User | None,
    subject_type: str | None = None,
    subject_id: int | None = None,
    api_client_id: int | None = None,
    due_on: date | None = None,
) -> PaymentItem:
    """An item for a computed fee: amount and itemised lines (with articles) come from ``fee``."""
    return create_payment_item(
        kind=fee.kind,
        amount_cents=fee.total_cents,
        description=description,
        payer=payer,
        subject_type=subject_type,
        subject_id=subject_id,
        breakdown=fee.breakdown(),
        api_client_id=api_client_id,
        due_on=due_on,
    )


def external_url(endpoint: str, **values: Any) -> str:
    """An absolute URL for e-mails, QR codes and the API (see :mod:`portal.urls`)."""
    return urls.absolute_url(endpoint, **values)


def pay_url(item: PaymentItem) -> str:
    """The public page of an item: the payer signs in there (or learns how to claim the record)."""
    return external_url("billing.item", item_id=item.id)


def fee_json(item: PaymentItem) -> dict:
    """The shape API responses use for fees."""
    return {
        "id": item.id,
        "kind": item.kind,
        "amount_cents": item.amount_cents,
        "status": item.status,
        "pay_url": pay_url(item),
    }


def get_item(item_id: int) -> PaymentItem | None:
    return db.session.get(PaymentItem, item_id)


def is_responsible(item: PaymentItem, user: Any) -> bool:
    """True when ``user`` is the one who pays ``item`` (see PaymentItem.responsible)."""
    if user is None or not getattr(user, "is_authenticated", False):
        return False
    responsible = item.responsible
    return responsible is not None and responsible.id == user.id


def may_view(item: PaymentItem, user: Any) -> bool:
    """The payer and CCZ staff see an item; nobody else (views answer 404, not 403)."""
    if user is None or not getattr(user, "is_authenticated", False):
        return False
    return is_responsible(item, user) or user.is_staff


def items_of(user: User) -> list[PaymentItem]:
    """Everything ``user`` has to pay or paid: as payer, or for the API client they act for."""
    clients = select(ApiClient.id).where(ApiClient.user_id == user.id)
    return list(
        db.session.scalars(
            select(PaymentItem)
            .where(
                or_(
                    PaymentItem.payer_id == user.id,
                    PaymentItem.payer_id.is_(None) & PaymentItem.api_client_id.in_(clients),
                )
            )
            .order_by(PaymentItem.id.desc())
        )
    )


# What a held item's guia or online payment answers (GRU 110: the appeal suspends the charge).
SUSPENDED_MESSAGE = _l(
    "Cobrança suspensa enquanto o recurso é julgado: não há nada a pagar agora. Você será avisado "
    "da decisão por e-mail e na sua página inicial."
)


def on_hold(item: PaymentItem) -> bool:
    """An unpaid item a domain holds (``Wiring.payment_hold``: a fine suspended by an appeal,
    GRU 110): nothing to pay while it lasts, so neither the to-do nor the item page asks for it."""
    return item.payable and any(hold(item) for hold in wiring().payment_holds)


def guia_due_date(item: PaymentItem, today: date | None = None) -> date:
    """The due date printed on a guia: the item's legal due date, else a few days from today."""
    today = today or local_today()
    if item.due_on is not None and item.due_on >= today:
        return item.due_on
    return today + timedelta(days=GUIA_VALID_DAYS)


def transition(item: PaymentItem, to: str, note: str, *, actor_id: int | None = None) -> None:
    """Move ``item`` to status ``to`` and write it in the history. Raises BillingError."""
    if to not in _NEXT[item.status]:
        raise BillingError(
            None,
            "invalid_transition",
            _(
                "Este pagamento está %(status)s e não pode passar a %(to)s.",
                status=status_label(item.status).lower(),
                to=status_label(to).lower(),
            ),
        )
    item.events.append(
        PaymentEvent(from_status=item.status, to_status=to, note=note[:500], actor_id=actor_id)
    )
    item.status = to
    if to in SETTLED_STATUSES:
        from portal.wiring import wiring

        for listener in list(wiring().settlement_listeners):
            listener(item)


def add_note(item: PaymentItem, note: str, *, actor_id: int | None = None) -> None:
    """A history line that does not change the status."""
    item.events.append(
        PaymentEvent(
            from_status=item.status, to_status=item.status, note=note[:500], actor_id=actor_id
        )
    )


def cancel_payment_item(item: PaymentItem, reason: str, *, actor: User | None = None) -> None:
    """Cancel an unpaid item (e.g. the registration it paid for was withdrawn).

    Raises BillingError."""
    if not reason.strip():
        raise BillingError("reason", "invalid", _("Informe o motivo do cancelamento."))
    transition(item, PaymentStatus.CANCELLED, reason.strip(), actor_id=actor.id if actor else None)
    close_exemption_requests(item)
    close_online_sessions(item)
    audit.record(
        "payment.cancelled",
        item,
        detail={"reason": reason.strip()[:200]},
        actor_id=actor.id if actor else None,
    )
    db.session.flush()


def close_online_sessions(item: PaymentItem) -> None:
    """The item left "payable" by another way: close its open Stripe pages (no double payment)."""
    from portal.blueprints.billing import stripe_gateway

    stripe_gateway.expire_open_sessions(item)


def close_exemption_requests(item: PaymentItem) -> None:
    for req in item.exemption_requests:
        if req.status == ExemptionStatus.PENDING:
            req.status = ExemptionStatus.CLOSED
            req.decided_at = utcnow()
