"""What each Stripe webhook event changes.

Events are trusted only after ``stripe.Webhook.construct_event`` checked the signature
(the webhook view does that). :func:`handle_event` then works from the event alone — it never
calls Stripe back, so it also works when only STRIPE_WEBHOOK_SECRET is configured — and is
idempotent: every event id is stored once, and an item only moves forward (a paid item never
returns to ``processing`` when an older event arrives late). Money is accepted only when the
session's currency and ``amount_total`` match the item; anything odd becomes a review flag.
Refund events (``charge.refunded``, refund updates) keep the item and the reconciliation in step
with refunds made in the Stripe dashboard or that failed after the portal asked for them."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from flask import current_app
from flask_babel import gettext as _
from sqlalchemy import select

from portal.blueprints.billing.items import transition
from portal.blueprints.billing.settlement import flag_for_review, settle
from portal.extensions import db
from portal.models import (
    CheckoutSession,
    Payment,
    PaymentItem,
    PaymentMethod,
    PaymentStatus,
    Refund,
    ReviewCode,
    StripeWebhookEvent,
)
from portal.models.base import utcnow
from portal.services import audit
from portal.services.clock import local_date
from portal.services.money import format_brl

CURRENCY = "brl"
# Our own refund changed state (Stripe sends one or the other depending on the API version).
REFUND_UPDATE_EVENTS = frozenset({"refund.updated", "refund.failed", "charge.refund.updated"})
HANDLED_EVENTS = frozenset(
    {
        "checkout.session.completed",
        "checkout.session.async_payment_succeeded",
        "checkout.session.async_payment_failed",
        "checkout.session.expired",
    }
)


# ---------------------------------------------------------------------------------------------
# Webhook events
# ---------------------------------------------------------------------------------------------


def handle_event(event: Mapping[str, Any]) -> str:
    """Apply one verified Stripe event; returns a short outcome for the log and the response.

    The same event id twice is a no-op ("duplicate"). Raises ValueError for a payload that is not
    an event at all.
    """
    if not isinstance(event, Mapping):
        raise ValueError("not a Stripe event")
    event_id, event_type = event.get("id"), event.get("type")
    if not isinstance(event_id, str) or not isinstance(event_type, str):
        raise ValueError("not a Stripe event")
    data = event.get("data") or {}
    obj = (data.get("object") or {}) if isinstance(data, Mapping) else None
    if not isinstance(obj, Mapping):  # signed JSON whose "data" or "data.object" is not an object
        raise ValueError("not a Stripe event")
    if (
        db.session.scalar(
            select(StripeWebhookEvent.id).where(StripeWebhookEvent.event_id == event_id)
        )
        is not None
    ):
        return "duplicate"
    created = event.get("created")
    record = StripeWebhookEvent(
        event_id=event_id,
        type=event_type,
        livemode=bool(event.get("livemode")),
        event_created_at=datetime.fromtimestamp(created, UTC) if isinstance(created, int) else None,
        stripe_session_id=obj.get("id") if obj.get("object") == "checkout.session" else None,
    )
    db.session.add(record)
    db.session.flush()  # a concurrent delivery of the same event fails here on the unique id
    if event_type == "charge.refunded" and obj.get("object") == "charge":
        record.outcome = _charge_refunded(obj, record)
        return record.outcome
    if event_type in REFUND_UPDATE_EVENTS and obj.get("object") == "refund":
        record.outcome = _refund_updated(obj, record)
        return record.outcome
    if event_type not in HANDLED_EVENTS or obj.get("object") != "checkout.session":
        record.outcome = "ignored"
        return record.outcome
    record.outcome = _handle_session_event(event_type, obj, record)
    return record.outcome


def _item_id(session: Mapping[str, Any]) -> int | None:
    raw = (session.get("metadata") or {}).get("payment_id") or session.get("client_reference_id")
    try:
        return int(raw) if raw is not None else None
    except (TypeError, ValueError):
        return None


def _handle_session_event(
    event_type: str, session: Mapping[str, Any], record: StripeWebhookEvent
) -> str:
    item_id = _item_id(session)
    if item_id is None:
        return "ignored: not a portal session"
    # Lock the item row (PostgreSQL) so two events for it are applied one after the other.
    item = db.session.scalar(select(PaymentItem).where(PaymentItem.id == item_id).with_for_update())
    if item is None:
        current_app.logger.warning(
            "Stripe event %s names unknown payment item %s", record.event_id, item_id
        )
        return "ignored: unknown item"
    record.item_id = item.id

    local = _local_session(item, session)
    if local.item_id != item.id:
        flag_for_review(
            item,
            ReviewCode.SESSION_MISMATCH,
            _("A sessão da Stripe pertence a outro pagamento."),
            {"session": local.stripe_session_id, "event": record.event_id},
        )
        return "flagged: session mismatch"
    local.payment_status = session.get("payment_status") or local.payment_status
    local.payment_intent_id = session.get("payment_intent") or local.payment_intent_id

    if event_type == "checkout.session.expired":
        if local.status != "complete":
            local.status = "expired"
        return "session expired"

    local.status = "complete"
    local.completed_at = local.completed_at or utcnow()
    if event_type == "checkout.session.async_payment_failed":
        return _payment_failed(item, record)
    paid_now = session.get("payment_status") in ("paid", "no_payment_required")
    if event_type == "checkout.session.async_payment_succeeded" or paid_now:
        return _confirm_paid(item, session, local, record)
    return _awaiting_payment(item, session, record)


def _local_session(item: PaymentItem, session: Mapping[str, Any]) -> CheckoutSession:
    """Our record of the session; created from the event when we have none (e.g. our own
    transaction failed after Stripe had opened the session)."""
    local = db.session.scalar(
        select(CheckoutSession).where(CheckoutSession.stripe_session_id == session.get("id"))
    )
    if local is None:
        local = CheckoutSession(
            item=item,
            stripe_session_id=str(session.get("id")),
            url=None,
            amount_cents=int(session.get("amount_total") or 0),
            currency=str(session.get("currency") or CURRENCY),
            status=str(session.get("status") or "open"),
        )
        db.session.add(local)
        db.session.flush()
    return local


def _money_matches(
    item: PaymentItem, session: Mapping[str, Any], record: StripeWebhookEvent
) -> bool:
    """Currency and amount of the session against the item; a mismatch is flagged for staff."""
    currency = str(session.get("currency") or "").lower()
    amount = session.get("amount_total")
    detail = {
        "event": record.event_id,
        "session": session.get("id"),
        "currency": currency,
        "amount_total": amount,
        "expected_cents": item.amount_cents,
    }
    if currency != item.currency:
        flag_for_review(
            item,
            ReviewCode.CURRENCY_MISMATCH,
            _(
                "A Stripe informou um pagamento em %(currency)s; o esperado era BRL.",
                currency=currency.upper() or "?",
            ),
            detail,
        )
        return False
    if amount != item.amount_cents:
        flag_for_review(
            item,
            ReviewCode.AMOUNT_MISMATCH,
            _("O valor informado pela Stripe difere do valor devido."),
            detail,
        )
        return False
    return True


def _confirm_paid(
    item: PaymentItem,
    session: Mapping[str, Any],
    local: CheckoutSession,
    record: StripeWebhookEvent,
) -> str:
    intent = str(session.get("payment_intent") or session.get("id"))
    if (
        item.status == PaymentStatus.PAID
        and item.payment is not None
        and item.payment.provider_reference == intent
    ):
        return "already paid"  # the same money told twice (completed, then succeeded)
    if not _money_matches(item, session, record):
        return "flagged: money mismatch"
    if item.status not in (PaymentStatus.PENDING, PaymentStatus.PROCESSING, PaymentStatus.FAILED):
        # Money arrived for an item already paid by other means, exempted or cancelled: a person
        # must refund it. The item keeps its state and its single payment record.
        flag_for_review(
            item,
            ReviewCode.ALREADY_SETTLED,
            _(
                "Pagamento online recebido para um item que já estava %(status)s: "
                "verifique e estorne se for o caso.",
                status=_status_word(item.status),
            ),
            {"event": record.event_id, "session": session.get("id"), "payment_intent": intent},
        )
        return "flagged: already settled"
    created = record.event_created_at or utcnow()
    settle(
        item,
        method=PaymentMethod.STRIPE,
        amount_cents=item.amount_cents,
        provider_reference=intent,
        received_on=local_date(created),
        checkout_session_id=local.id,
        note=_("Pagamento online confirmado pela Stripe"),
    )
    audit.record(
        "payment.paid_online",
        item,
        detail={
            "event": record.event_id,
            "session": session.get("id"),
            "amount_cents": item.amount_cents,
        },
        actor_id=None,
    )
    return "paid"


def _awaiting_payment(
    item: PaymentItem, session: Mapping[str, Any], record: StripeWebhookEvent
) -> str:
    """Checkout finished with a boleto or PIX still to be paid: the item waits in processing."""
    if item.status not in (PaymentStatus.PENDING, PaymentStatus.FAILED):
        return f"ignored: item {item.status}"  # never back from paid to processing
    settled = db.session.scalar(
        select(StripeWebhookEvent.id)
        .where(
            StripeWebhookEvent.stripe_session_id == session.get("id"),
            StripeWebhookEvent.id != record.id,
            StripeWebhookEvent.type.in_(
                (
                    "checkout.session.async_payment_failed",
                    "checkout.session.async_payment_succeeded",
                )
            ),
        )
        .limit(1)
    )
    if settled is not None:
        # Out of order: this boleto/PIX already failed (or was paid); a late "completed" must not
        # lock the item in processing again.
        return "ignored: session already settled"
    if not _money_matches(item, session, record):
        return "flagged: money mismatch"
    transition(
        item,
        PaymentStatus.PROCESSING,
        _("Boleto ou PIX gerado; aguardando a confirmação do pagamento"),
    )
    return "processing"


def _payment_failed(item: PaymentItem, record: StripeWebhookEvent) -> str:
    if item.status not in (PaymentStatus.PENDING, PaymentStatus.PROCESSING):
        return f"ignored: item {item.status}"
    transition(
        item,
        PaymentStatus.FAILED,
        _("O boleto ou PIX não foi pago no prazo; é possível pagar de novo"),
    )
    return "failed"


def _charge_refunded(charge: Mapping[str, Any], record: StripeWebhookEvent) -> str:
    """Money given back in the Stripe dashboard (or the echo of a refund made in the portal).

    A full refund of a paid item makes it ``refunded`` with a Refund record, so the item and the
    reconciliation agree with the money; a partial refund, which the portal never makes, is only
    flagged for staff. The echo of our own refund changes nothing.
    """
    intent = charge.get("payment_intent")
    payment = (
        db.session.scalar(
            select(Payment).where(
                Payment.method == PaymentMethod.STRIPE, Payment.provider_reference == intent
            )
        )
        if isinstance(intent, str)
        else None
    )
    if payment is None:
        return "ignored: unknown payment"
    item = db.session.scalar(
        select(PaymentItem).where(PaymentItem.id == payment.item_id).with_for_update()
    )
    assert item is not None
    record.item_id = item.id
    if item.status == PaymentStatus.REFUNDED:
        return "already refunded"
    refunded = charge.get("amount_refunded")
    detail = {
        "event": record.event_id,
        "payment_intent": intent,
        "amount_refunded": refunded,
        "expected_cents": payment.amount_cents,
    }
    if item.status != PaymentStatus.PAID or refunded != payment.amount_cents:
        flag_for_review(
            item,
            ReviewCode.REFUND_OUTSIDE,
            _(
                "A Stripe informou um estorno de %(amount)s feito fora do portal: confira.",
                amount=format_brl(refunded if isinstance(refunded, int) else 0),
            ),
            detail,
        )
        return "flagged: refund outside the portal"
    refunds = (charge.get("refunds") or {}).get("data") or []
    refund_id = refunds[0].get("id") if refunds and isinstance(refunds[0], Mapping) else None
    if (
        refund_id
        and db.session.scalar(select(Refund.id).where(Refund.stripe_refund_id == refund_id))
        is not None
    ):
        refund_id = None  # already recorded (cannot happen for a paid item, but keep it unique)
    reason = _("Estorno feito no painel da Stripe")
    db.session.add(
        Refund(
            item=item,
            amount_cents=payment.amount_cents,
            reason=reason,
            method=PaymentMethod.STRIPE,
            stripe_refund_id=refund_id,
            status="succeeded",
        )
    )
    transition(item, PaymentStatus.REFUNDED, reason)
    audit.record(
        "payment.refunded",
        item,
        detail={
            "amount_cents": payment.amount_cents,
            "method": PaymentMethod.STRIPE,
            "stripe_refund_id": refund_id,
            "source": "stripe_dashboard",
        },
        actor_id=None,
    )
    db.session.flush()
    return "refunded"


def _refund_updated(refund: Mapping[str, Any], record: StripeWebhookEvent) -> str:
    """A refund the portal asked for changed state. A failed or cancelled one means the citizen
    did not get the money back although the item shows ``refunded``: staff must act."""
    local = db.session.scalar(select(Refund).where(Refund.stripe_refund_id == refund.get("id")))
    if local is None:
        return "ignored: unknown refund"
    record.item_id = local.item_id
    status = str(refund.get("status") or local.status)
    if status == local.status:
        return "no change"
    local.status = status[:30]
    if status in ("failed", "canceled"):
        flag_for_review(
            local.item,
            ReviewCode.REFUND_FAILED,
            _(
                "A Stripe não concluiu o estorno (situação: %(status)s): o dinheiro "
                "não voltou ao cidadão.",
                status=status,
            ),
            {"event": record.event_id, "refund": local.stripe_refund_id},
        )
        return "flagged: refund failed"
    return f"refund {status}"


def _status_word(status: str) -> str:
    words: dict[str, str] = {
        PaymentStatus.PAID: _("pago"),
        PaymentStatus.EXEMPT: _("isento"),
        PaymentStatus.CANCELLED: _("cancelado"),
        PaymentStatus.REFUNDED: _("estornado"),
    }
    return words.get(status, status)
