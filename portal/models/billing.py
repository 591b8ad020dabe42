"""Payment items: everything a person may have to pay, with its status history.

Issue #4 (fees and payments) owns the behaviour; other domains only create items through
``portal.blueprints.billing.services.create_payment_item``.
"""

from __future__ import annotations

import enum
from datetime import datetime
from typing import Any

from sqlalchemy import JSON, ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column, relationship

from portal.extensions import db
from portal.models.base import utcnow
from portal.models.user import User


class PaymentStatus(enum.StrEnum):
    PENDING = "pending"
    PROCESSING = "processing"
    PAID = "paid"
    FAILED = "failed"
    EXEMPT = "exempt"
    REFUNDED = "refunded"
    CANCELLED = "cancelled"


class PaymentItem(db.Model):
    __tablename__ = "payment_item"

    id: Mapped[int] = mapped_column(primary_key=True)
    kind: Mapped[str] = mapped_column(String(40), index=True)  # registration, card_copy, …
    description: Mapped[str] = mapped_column(String(300))
    amount_cents: Mapped[int]
    currency: Mapped[str] = mapped_column(String(3), default="brl")
    status: Mapped[str] = mapped_column(String(20), default=PaymentStatus.PENDING, index=True)
    # Itemised lines with their articles, from the fee service: [{"label", "amount_cents", "article"}]
    breakdown: Mapped[list[dict[str, Any]] | None] = mapped_column(JSON)
    payer_id: Mapped[int | None] = mapped_column(ForeignKey("user_account.id"), index=True)
    # What the item pays for, e.g. ("animal", 12): kept generic so every domain can charge.
    subject_type: Mapped[str | None] = mapped_column(String(40))
    subject_id: Mapped[int | None]
    api_client_id: Mapped[int | None] = mapped_column(ForeignKey("api_client.id"), index=True)
    # Guia (counter slip) reference: printed on the slip, searched by staff.
    reference: Mapped[str] = mapped_column(String(20), unique=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    paid_at: Mapped[datetime | None]

    payer: Mapped[User | None] = relationship()
    events: Mapped[list[PaymentEvent]] = relationship(
        back_populates="item", cascade="all, delete-orphan", order_by="PaymentEvent.id")


class PaymentEvent(db.Model):
    """One status change or note on a payment item (its history)."""

    __tablename__ = "payment_event"

    id: Mapped[int] = mapped_column(primary_key=True)
    item_id: Mapped[int] = mapped_column(ForeignKey("payment_item.id", ondelete="CASCADE"), index=True)
    at: Mapped[datetime] = mapped_column(default=utcnow)
    from_status: Mapped[str | None] = mapped_column(String(20))
    to_status: Mapped[str] = mapped_column(String(20))
    note: Mapped[str | None] = mapped_column(String(500))
    actor_id: Mapped[int | None] = mapped_column(ForeignKey("user_account.id"))

    item: Mapped[PaymentItem] = relationship(back_populates="events")
