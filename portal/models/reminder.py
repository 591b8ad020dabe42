"""Reminders the daily job sent, and the courtesy reminders a person turned off.

A :class:`ReminderDelivery` row per (reminder, occurrence) is what makes the job safe to run twice
a day: the unique constraint refuses a second delivery of the same occurrence, even from two runs
at once."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import ForeignKey, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from portal.extensions import Model
from portal.models.base import utcnow


class ReminderDelivery(Model):
    __tablename__ = "reminder_delivery"
    __table_args__ = (UniqueConstraint("reminder_key", "occurrence_key"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    reminder_key: Mapped[str] = mapped_column(String(60))
    # What the reminder is about, e.g. "vaccination:12:2027-03-01": one message per occurrence.
    occurrence_key: Mapped[str] = mapped_column(String(200))
    user_id: Mapped[int | None] = mapped_column(
        ForeignKey("user_account.id", ondelete="SET NULL"), index=True
    )
    outbox_message_id: Mapped[int | None] = mapped_column(ForeignKey("outbox_message.id"))
    sent_at: Mapped[datetime] = mapped_column(default=utcnow)


class ReminderOptOut(Model):
    """A courtesy reminder a person does not want. Legal notices cannot be turned off."""

    __tablename__ = "reminder_opt_out"
    __table_args__ = (UniqueConstraint("user_id", "reminder_key"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(
        ForeignKey("user_account.id", ondelete="CASCADE"), index=True
    )
    reminder_key: Mapped[str] = mapped_column(String(60))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
