"""Payment items and everything around them: history, settlement, exemptions, Stripe, refunds.

Issue #4 (fees and payments) owns the behaviour; other domains only create items through
``portal.blueprints.billing.services.create_payment_item``.

* :class:`PaymentItem` — one payable thing (a fee, a fine) with its status and history
  (:class:`PaymentEvent`).
* :class:`Payment` — the money actually received for an item: at most one per item, whichever way
  it came in (Stripe or the counter). A receipt (*comprovante*) is issued from it.
* :class:`PriceOverride` — the city's own amount for a line of its price list, from a date on.
* :class:`ExemptionRequest` — GRU 23 / VV 12 §3: the citizen asks, uploads proof, staff decide.
* :class:`CheckoutSession`, :class:`StripeWebhookEvent` — Stripe Checkout sessions we created and
  every webhook event we processed (its id is unique: the same event twice is processed once).
* :class:`Refund`, :class:`PaymentReviewFlag` — refunds, and anomalies staff must look at
  (amount or currency mismatch, money received for an item already settled).
"""

from __future__ import annotations

import enum
from datetime import date, datetime
from typing import Any

from flask_babel import lazy_gettext as _l
from sqlalchemy import JSON, ForeignKey, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from portal.extensions import Model
from portal.models.api_client import ApiClient
from portal.models.base import utcnow
from portal.models.upload import StoredFile
from portal.models.user import User


class PaymentStatus(enum.StrEnum):
    PENDING = "pending"
    PROCESSING = "processing"
    PAID = "paid"
    FAILED = "failed"
    EXEMPT = "exempt"
    REFUNDED = "refunded"
    CANCELLED = "cancelled"


# Statuses in which the payer may still pay (a failed boleto or card may be paid again).
PAYABLE_STATUSES = frozenset({PaymentStatus.PENDING, PaymentStatus.FAILED})


class PaymentMethod(enum.StrEnum):
    STRIPE = "stripe"  # card, boleto or PIX through Stripe Checkout
    COUNTER = "counter"  # guia paid at the bank or the CCZ counter, settled by staff


class PaymentItem(Model):
    __tablename__ = "payment_item"

    id: Mapped[int] = mapped_column(primary_key=True)
    kind: Mapped[str] = mapped_column(String(40), index=True)  # registration, card_copy, …
    description: Mapped[str] = mapped_column(String(300))
    amount_cents: Mapped[int]
    currency: Mapped[str] = mapped_column(String(3), default="brl")
    status: Mapped[str] = mapped_column(String(20), default=PaymentStatus.PENDING, index=True)
    # Itemised lines with their articles, from the fee service:
    # [{"label", "amount_cents", "article", "kind"}]
    breakdown: Mapped[list[dict[str, Any]] | None] = mapped_column(JSON)
    payer_id: Mapped[int | None] = mapped_column(ForeignKey("user_account.id"), index=True)
    # What the item pays for, e.g. ("animal", 12): kept generic so every domain can charge.
    subject_type: Mapped[str | None] = mapped_column(String(40))
    subject_id: Mapped[int | None]
    api_client_id: Mapped[int | None] = mapped_column(ForeignKey("api_client.id"), index=True)
    # Guia (counter slip) reference: printed on the slip, searched by staff.
    reference: Mapped[str] = mapped_column(String(20), unique=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow, index=True)
    paid_at: Mapped[datetime | None]
    # A legal due date when the charge has one (fines: GRU 100); None = the guia sets its own.
    due_on: Mapped[date | None]
    # How it was settled (PaymentMethod), once paid.
    method: Mapped[str | None] = mapped_column(String(20))

    payer: Mapped[User | None] = relationship()
    api_client: Mapped[ApiClient | None] = relationship()
    events: Mapped[list[PaymentEvent]] = relationship(
        back_populates="item", cascade="all, delete-orphan", order_by="PaymentEvent.id"
    )
    payment: Mapped[Payment | None] = relationship(back_populates="item", uselist=False)
    exemption_requests: Mapped[list[ExemptionRequest]] = relationship(
        back_populates="item", order_by="ExemptionRequest.id"
    )
    checkout_sessions: Mapped[list[CheckoutSession]] = relationship(
        back_populates="item", order_by="CheckoutSession.id"
    )
    refunds: Mapped[list[Refund]] = relationship(back_populates="item", order_by="Refund.id")
    review_flags: Mapped[list[PaymentReviewFlag]] = relationship(
        back_populates="item", order_by="PaymentReviewFlag.id"
    )

    @property
    def responsible(self) -> User | None:
        """Who pays: the payer, or for an establishment's own charge (GRU 22 §2; BJP 11 a: the
        clinic pays for the registrations it makes) the account acting for that API client."""
        if self.payer is not None:
            return self.payer
        return self.api_client.user if self.api_client is not None else None

    @property
    def payable(self) -> bool:
        return self.status in PAYABLE_STATUSES and self.amount_cents > 0

    @property
    def open_exemption_request(self) -> ExemptionRequest | None:
        return next(
            (r for r in self.exemption_requests if r.status == ExemptionStatus.PENDING), None
        )

    @property
    def open_flags(self) -> list[PaymentReviewFlag]:
        return [f for f in self.review_flags if f.resolved_at is None]

    @property
    def formatted_reference(self) -> str:
        """The reference in groups of four, as printed on the guia."""
        return " ".join(self.reference[i : i + 4] for i in range(0, len(self.reference), 4))


class PaymentEvent(Model):
    """One status change or note on a payment item (its history)."""

    __tablename__ = "payment_event"

    id: Mapped[int] = mapped_column(primary_key=True)
    item_id: Mapped[int] = mapped_column(
        ForeignKey("payment_item.id", ondelete="CASCADE"), index=True
    )
    at: Mapped[datetime] = mapped_column(default=utcnow)
    from_status: Mapped[str | None] = mapped_column(String(20))
    to_status: Mapped[str] = mapped_column(String(20))
    note: Mapped[str | None] = mapped_column(String(500))
    actor_id: Mapped[int | None] = mapped_column(ForeignKey("user_account.id"))

    item: Mapped[PaymentItem] = relationship(back_populates="events")


class Payment(Model):
    """Money received for an item. One per item: a second payment is a review flag, not a row."""

    __tablename__ = "payment"
    __table_args__ = (UniqueConstraint("method", "provider_reference"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    item_id: Mapped[int] = mapped_column(ForeignKey("payment_item.id"), unique=True)
    method: Mapped[str] = mapped_column(String(20))
    amount_cents: Mapped[int]
    currency: Mapped[str] = mapped_column(String(3), default="brl")
    # Stripe PaymentIntent id, or the bank / counter receipt number staff typed in.
    provider_reference: Mapped[str] = mapped_column(String(255))
    received_at: Mapped[datetime] = mapped_column(default=utcnow)
    # The day the money was received as staff stated it (counter) or the webhook saw it.
    received_on: Mapped[date]
    checkout_session_id: Mapped[int | None] = mapped_column(
        ForeignKey("stripe_checkout_session.id")
    )
    recorded_by_id: Mapped[int | None] = mapped_column(ForeignKey("user_account.id"))

    item: Mapped[PaymentItem] = relationship(back_populates="payment")
    recorded_by: Mapped[User | None] = relationship()

    @property
    def receipt_number(self) -> str:
        """The number printed on the comprovante: year of receipt and a sequence."""
        return f"{self.received_on:%Y}/{self.id:07d}"


class PriceOverride(Model):
    """The city's amount for one line of its price list (preço público) from a date on.

    Without any override the profile's shipped (example) amount applies.
    """

    __tablename__ = "price_override"
    __table_args__ = (UniqueConstraint("profile_key", "key", "effective_from"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    profile_key: Mapped[str] = mapped_column(String(40))
    key: Mapped[str] = mapped_column(String(30))  # a PriceKey: registration, card_copy, …
    amount_cents: Mapped[int]
    effective_from: Mapped[date]
    note: Mapped[str | None] = mapped_column(String(200))  # the decree or ordinance
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    created_by_id: Mapped[int | None] = mapped_column(ForeignKey("user_account.id"))

    created_by: Mapped[User | None] = relationship()


class ExemptionStatus(enum.StrEnum):
    PENDING = "pending"
    ACCEPTED = "accepted"
    REFUSED = "refused"
    CLOSED = "closed"  # the item was settled another way while the request waited


class ExemptionRequest(Model):
    """A request to waive an item under an exemption of the law (GRU 23, 82 §3; VV 12 §3-4)."""

    __tablename__ = "exemption_request"

    id: Mapped[int] = mapped_column(primary_key=True)
    item_id: Mapped[int] = mapped_column(ForeignKey("payment_item.id"), index=True)
    requester_id: Mapped[int] = mapped_column(ForeignKey("user_account.id"), index=True)
    code: Mapped[str] = mapped_column(String(60))  # profile.exemptions[].code
    label: Mapped[str] = mapped_column(String(200))
    article: Mapped[str] = mapped_column(String(60))
    statement: Mapped[str | None] = mapped_column(Text)
    # Proof uploaded by the citizen: private, visible to staff only (owner_id is left empty).
    proof_file_id: Mapped[int] = mapped_column(ForeignKey("stored_file.id"))
    status: Mapped[str] = mapped_column(String(20), default=ExemptionStatus.PENDING, index=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    decided_at: Mapped[datetime | None]
    decided_by_id: Mapped[int | None] = mapped_column(ForeignKey("user_account.id"))
    decision_reason: Mapped[str | None] = mapped_column(Text)

    item: Mapped[PaymentItem] = relationship(back_populates="exemption_requests")
    requester: Mapped[User] = relationship(foreign_keys=[requester_id])
    decided_by: Mapped[User | None] = relationship(foreign_keys=[decided_by_id])
    proof: Mapped[StoredFile] = relationship()


# Stripe's own words for a Checkout session, its payment and a refund, as staff read them.
STRIPE_STATUS_LABELS = {
    "open": _l("aberta"),
    "complete": _l("concluída"),
    "expired": _l("expirada"),
    "paid": _l("paga"),
    "unpaid": _l("não paga"),
    "no_payment_required": _l("sem pagamento"),
    "pending": _l("pendente"),
    "succeeded": _l("concluído"),
    "failed": _l("falhou"),
    "canceled": _l("cancelado"),
    "requires_action": _l("aguardando ação"),
    "recorded": _l("registrado no portal"),
}


def stripe_status_label(status: str | None) -> str:
    label = STRIPE_STATUS_LABELS.get(status or "")
    return str(label) if label is not None else (status or "")


class CheckoutSession(Model):
    """A Stripe Checkout session we opened for an item, updated from the webhook events."""

    __tablename__ = "stripe_checkout_session"

    id: Mapped[int] = mapped_column(primary_key=True)
    item_id: Mapped[int] = mapped_column(ForeignKey("payment_item.id"), index=True)
    stripe_session_id: Mapped[str] = mapped_column(String(255), unique=True)
    url: Mapped[str | None] = mapped_column(String(2000))
    amount_cents: Mapped[int]
    currency: Mapped[str] = mapped_column(String(3), default="brl")
    status: Mapped[str] = mapped_column(String(20), default="open")  # open, complete, expired
    payment_status: Mapped[str | None] = mapped_column(String(30))  # unpaid, paid, …
    payment_intent_id: Mapped[str | None] = mapped_column(String(255))
    expires_at: Mapped[datetime | None]
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    created_by_id: Mapped[int | None] = mapped_column(ForeignKey("user_account.id"))
    completed_at: Mapped[datetime | None]

    item: Mapped[PaymentItem] = relationship(back_populates="checkout_sessions")


class StripeWebhookEvent(Model):
    """Every Stripe event processed, once: the unique event id makes the webhook idempotent."""

    __tablename__ = "stripe_webhook_event"

    id: Mapped[int] = mapped_column(primary_key=True)
    event_id: Mapped[str] = mapped_column(String(255), unique=True)
    type: Mapped[str] = mapped_column(String(80))
    stripe_session_id: Mapped[str | None] = mapped_column(String(255), index=True)
    item_id: Mapped[int | None] = mapped_column(ForeignKey("payment_item.id"), index=True)
    livemode: Mapped[bool] = mapped_column(default=False)
    event_created_at: Mapped[datetime | None]
    received_at: Mapped[datetime] = mapped_column(default=utcnow)
    outcome: Mapped[str] = mapped_column(String(200), default="")


class Refund(Model):
    """Money given back for a paid item: through the Stripe API, or recorded (counter payments)."""

    __tablename__ = "payment_refund"

    id: Mapped[int] = mapped_column(primary_key=True)
    item_id: Mapped[int] = mapped_column(ForeignKey("payment_item.id"), index=True)
    amount_cents: Mapped[int]
    reason: Mapped[str] = mapped_column(String(500))
    method: Mapped[str] = mapped_column(String(20))  # PaymentMethod of the original payment
    stripe_refund_id: Mapped[str | None] = mapped_column(String(255), unique=True)
    status: Mapped[str] = mapped_column(String(30))  # Stripe's refund status, or "recorded"
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    created_by_id: Mapped[int | None] = mapped_column(ForeignKey("user_account.id"))

    item: Mapped[PaymentItem] = relationship(back_populates="refunds")
    created_by: Mapped[User | None] = relationship()


class ReviewCode(enum.StrEnum):
    AMOUNT_MISMATCH = "amount_mismatch"
    CURRENCY_MISMATCH = "currency_mismatch"
    ALREADY_SETTLED = "already_settled"  # money arrived for an item paid, exempt or cancelled
    SESSION_MISMATCH = "session_mismatch"  # the session's metadata names another item
    REFUND_FAILED = "refund_failed"
    REFUND_OUTSIDE = "refund_outside"  # a refund made in the Stripe dashboard we cannot match
    REFUND_DUE = "refund_due"  # paid, then its reason fell (a fine cancelled on appeal)


class PaymentReviewFlag(Model):
    """Something about an item's money that staff must check by hand (reconciliation view)."""

    __tablename__ = "payment_review_flag"

    id: Mapped[int] = mapped_column(primary_key=True)
    item_id: Mapped[int] = mapped_column(ForeignKey("payment_item.id"), index=True)
    code: Mapped[str] = mapped_column(String(40))
    message: Mapped[str] = mapped_column(String(500))
    detail: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    resolved_at: Mapped[datetime | None]
    resolved_by_id: Mapped[int | None] = mapped_column(ForeignKey("user_account.id"))
    resolution_note: Mapped[str | None] = mapped_column(String(500))

    item: Mapped[PaymentItem] = relationship(back_populates="review_flags")
    resolved_by: Mapped[User | None] = relationship()
