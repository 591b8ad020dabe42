"""Stripe: Checkout sessions (card, boleto, PIX), refunds, and what each webhook event changes.

Outgoing calls go through ``stripe.StripeClient`` built from STRIPE_SECRET_KEY; STRIPE_API_BASE
points it elsewhere (tests run a local stand-in of the Stripe API, never the network).

Incoming events are handled in :mod:`portal.blueprints.billing.stripe_events` (``handle_event`` is
re-exported here for the webhook view), only after ``stripe.Webhook.construct_event`` checked the
signature.

Outgoing calls carry a network timeout (STRIPE_TIMEOUT_SECONDS). Whenever an item stops being
payable online (paid at the counter, exempted, cancelled) or a new session replaces an old one,
its open sessions are expired through the API, so one item never has two payable Stripe pages.
"""

from __future__ import annotations

import secrets
from datetime import UTC, datetime, timedelta
from typing import Any

import stripe
from flask import current_app
from flask_babel import gettext as _

from portal.blueprints.billing.items import (
    SUSPENDED_MESSAGE,
    BillingError,
    add_note,
    external_url,
    is_responsible,
    on_hold,
)
from portal.blueprints.billing.stripe_events import CURRENCY
from portal.blueprints.billing.stripe_events import HANDLED_EVENTS as HANDLED_EVENTS
from portal.blueprints.billing.stripe_events import REFUND_UPDATE_EVENTS as REFUND_UPDATE_EVENTS
from portal.blueprints.billing.stripe_events import handle_event as handle_event
from portal.extensions import db
from portal.models import (
    CheckoutSession,
    Payment,
    PaymentItem,
    User,
)
from portal.models.base import utcnow
from portal.services import audit

PAYMENT_METHOD_TYPES = ["card", "boleto", "pix"]
BOLETO_EXPIRES_AFTER_DAYS = 3
# Seconds an outgoing Stripe call may take (connect + read) before the citizen is told to try
# again: a Stripe outage must not hold a web worker for the library's default 80 s.
STRIPE_TIMEOUT_SECONDS = 8


def stripe_enabled() -> bool:
    """Online payment is offered only with a secret key; without it the guia is the way to pay."""
    return bool(current_app.config.get("STRIPE_SECRET_KEY"))


def client() -> stripe.StripeClient:
    cfg = current_app.config
    base = cfg.get("STRIPE_API_BASE")
    return stripe.StripeClient(
        cfg["STRIPE_SECRET_KEY"],
        base_addresses={"api": base.rstrip("/")} if base else None,
        # Retries are safe: every create carries an idempotency key.
        max_network_retries=2,
        http_client=stripe.new_default_http_client(
            timeout=cfg.get("STRIPE_TIMEOUT_SECONDS", STRIPE_TIMEOUT_SECONDS)
        ),
    )


# ---------------------------------------------------------------------------------------------
# Checkout
# ---------------------------------------------------------------------------------------------


def start_checkout(item: PaymentItem, payer: User) -> CheckoutSession:
    """A Checkout session for ``item`` (an open one is reused). Raises BillingError."""
    if on_hold(item):  # GRU 110: the appeal suspends the charge; nothing to pay meanwhile
        raise BillingError(None, "on_hold", str(SUSPENDED_MESSAGE))
    if not stripe_enabled():
        raise BillingError(
            None,
            "stripe_disabled",
            _("O pagamento online não está disponível. Imprima a guia e pague no balcão do CCZ."),
        )
    if not is_responsible(item, payer):
        raise BillingError(None, "invalid", _("Só quem deve o pagamento pode pagá-lo online."))
    # Two tabs clicking "Pagar online" at once (or the cashier settling the guia meanwhile): on
    # PostgreSQL this waits for the other transaction, then sees its status and its session.
    db.session.refresh(item, with_for_update=True)
    db.session.refresh(item, ["checkout_sessions", "exemption_requests"])
    if not item.payable:
        raise BillingError(None, "not_payable", _("Este pagamento não está em aberto."))
    if item.open_exemption_request is not None:
        raise BillingError(
            None,
            "exemption_pending",
            _(
                "Há um pedido de isenção em análise para este pagamento. Aguarde a "
                "decisão antes de pagar."
            ),
        )

    still_open_after = utcnow() + timedelta(minutes=10)
    for existing in reversed(item.checkout_sessions):
        if (
            existing.status == "open"
            and existing.url
            and existing.amount_cents == item.amount_cents
            and (existing.expires_at is None or existing.expires_at > still_open_after)
        ):
            return existing  # the same payment page again: never two open sessions per click
    # A session about to expire (or for an old amount) is closed before a new one is opened, so
    # the citizen never holds two payable Stripe pages for one item.
    expire_open_sessions(item)

    params: dict[str, Any] = {
        "mode": "payment",
        "payment_method_types": PAYMENT_METHOD_TYPES,
        "line_items": [
            {
                "quantity": 1,
                "price_data": {
                    "currency": CURRENCY,
                    "unit_amount": item.amount_cents,
                    "product_data": {"name": item.description[:250]},
                },
            }
        ],
        "client_reference_id": str(item.id),
        "metadata": {"payment_id": str(item.id), "reference": item.reference, "kind": item.kind},
        "payment_intent_data": {
            "metadata": {"payment_id": str(item.id), "reference": item.reference}
        },
        "payment_method_options": {"boleto": {"expires_after_days": BOLETO_EXPIRES_AFTER_DAYS}},
        "locale": "pt-BR",
        "success_url": external_url("billing.checkout_return", item_id=item.id),
        "cancel_url": external_url("billing.checkout_cancelled", item_id=item.id),
    }
    if payer.email:
        params["customer_email"] = payer.email
    attempt = len(item.checkout_sessions) + 1
    try:
        session = (
            client()
            .v1.checkout.sessions.create(
                params=params,  # type: ignore[arg-type]
                options={"idempotency_key": f"ccz-checkout-{item.id}-{attempt}"},
            )
            .to_dict()
        )
    except stripe.StripeError as err:
        current_app.logger.warning(
            "Stripe checkout for payment item %s failed: %s", item.id, type(err).__name__
        )
        raise BillingError(
            None,
            "stripe_error",
            _(
                "Não foi possível abrir o pagamento online agora. Tente de novo em "
                "alguns minutos ou pague com a guia."
            ),
        ) from err

    expires = session.get("expires_at")
    local = CheckoutSession(
        item=item,
        stripe_session_id=session["id"],
        url=session.get("url"),
        amount_cents=item.amount_cents,
        currency=CURRENCY,
        status=session.get("status") or "open",
        payment_status=session.get("payment_status"),
        expires_at=datetime.fromtimestamp(expires, UTC) if expires else None,
        created_by_id=payer.id,
    )
    db.session.add(local)
    add_note(item, _("Pagamento online iniciado"), actor_id=payer.id)
    audit.record(
        "payment.checkout_started", item, detail={"session": session["id"]}, actor_id=payer.id
    )
    db.session.flush()
    return local


def open_session_url(item: PaymentItem | None) -> str | None:
    """The Stripe page of the item's newest open session, if any."""
    if item is None:
        return None
    for existing in reversed(item.checkout_sessions):
        if existing.status == "open" and existing.url:
            return existing.url
    return None


def expire_open_sessions(item: PaymentItem) -> int:
    """Close, through the Stripe API, every Checkout session of ``item`` still open; returns how
    many Stripe closed.

    Called when the item stops being payable online (paid at the counter, exempted, cancelled) or
    before a new session replaces an old one, so a Stripe page left open in another tab cannot
    take the money a second time. Best effort: when Stripe is unreachable or the session was
    completed meanwhile, the session stays as it is and a late payment is flagged by the webhook
    (never counted twice).
    """
    if not stripe_enabled():
        return 0
    closed = 0
    for local in item.checkout_sessions:
        if local.status != "open":
            continue
        if local.expires_at is not None and local.expires_at <= utcnow():
            local.status = "expired"  # Stripe closed it already; its webhook may still come
            continue
        try:
            client().v1.checkout.sessions.expire(local.stripe_session_id)
        except stripe.StripeError as err:
            current_app.logger.warning(
                "Could not expire Stripe session of payment item %s: %s",
                item.id,
                type(err).__name__,
            )
            continue
        local.status = "expired"
        closed += 1
    if closed:
        add_note(item, _("Página de pagamento online anterior encerrada"))
    db.session.flush()
    return closed


# ---------------------------------------------------------------------------------------------
# Refunds
# ---------------------------------------------------------------------------------------------


def create_refund(payment: Payment, reason: str) -> tuple[str, str]:
    """Refund an online payment in full through the Stripe API; returns (refund id, status).

    Raises BillingError when Stripe is not configured or refuses. A fresh idempotency key per
    attempt is safe: Stripe never refunds more than was charged.
    """
    if not stripe_enabled():
        raise BillingError(
            None, "invalid", _("O estorno online exige a chave da Stripe (STRIPE_SECRET_KEY).")
        )
    try:
        refund = (
            client()
            .v1.refunds.create(
                params={
                    "payment_intent": payment.provider_reference,
                    "reason": "requested_by_customer",
                    "metadata": {"payment_id": str(payment.item_id), "motivo": reason[:450]},
                },
                options={"idempotency_key": f"ccz-refund-{payment.item_id}-{secrets.token_hex(8)}"},
            )
            .to_dict()
        )
    except stripe.StripeError as err:
        current_app.logger.warning(
            "Stripe refund for payment item %s failed: %s", payment.item_id, type(err).__name__
        )
        detail = getattr(err, "user_message", None) or ""
        raise BillingError(
            None,
            "stripe_error",
            _("A Stripe não aceitou o estorno. %(detail)s", detail=detail).strip(),
        ) from err
    status = refund.get("status") or "pending"
    if status in ("failed", "canceled"):
        raise BillingError(
            None,
            "refund_failed",
            _("A Stripe não concluiu o estorno (situação: %(status)s).", status=status),
        )
    return refund["id"], status


# ---------------------------------------------------------------------------------------------
