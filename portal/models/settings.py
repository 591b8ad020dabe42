"""Values staff maintain over time: unit values (UFM, UFG, minimum wage) and municipal holidays."""

from __future__ import annotations

from datetime import date, datetime

from sqlalchemy import ForeignKey, String, UniqueConstraint, false
from sqlalchemy.orm import Mapped, mapped_column

from portal.extensions import Model
from portal.models.base import utcnow


class UnitValue(Model):
    """The value of a fiscal unit from a date on. A fee uses the value in force on its issue day."""

    __tablename__ = "unit_value"
    __table_args__ = (UniqueConstraint("unit", "effective_from"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    unit: Mapped[str] = mapped_column(String(10))
    value_cents: Mapped[int]
    effective_from: Mapped[date]
    note: Mapped[str | None] = mapped_column(String(200))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    created_by_id: Mapped[int | None] = mapped_column(ForeignKey("user_account.id"))


class MunicipalHoliday(Model):
    """A municipal holiday; national and state ones come from the holidays library."""

    __tablename__ = "municipal_holiday"

    id: Mapped[int] = mapped_column(primary_key=True)
    day: Mapped[date] = mapped_column(unique=True)
    name: Mapped[str] = mapped_column(String(120))
    # The same day and month every year (e.g. the city's anniversary): staff enter it once.
    # Expanded by portal.services.municipal_holidays, which every deadline reads.
    repeats_yearly: Mapped[bool] = mapped_column(default=False, server_default=false())


class OutboxMessage(Model):
    """Every e-mail the portal sends, written in the same transaction as the change that causes
    it and sent after the commit (``portal.services.mail``). Without SMTP it stays here and shows
    in the dev mailbox."""

    __tablename__ = "outbox_message"

    id: Mapped[int] = mapped_column(primary_key=True)
    to: Mapped[str] = mapped_column(String(254), index=True)
    subject: Mapped[str] = mapped_column(String(300))
    body: Mapped[str]
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    sent_at: Mapped[datetime | None] = mapped_column(index=True)
    attempts: Mapped[int] = mapped_column(default=0, server_default="0")
    last_attempt_at: Mapped[datetime | None]
    last_error: Mapped[str | None] = mapped_column(String(300))

    @property
    def failed(self) -> bool:
        """Given up on: every retry failed (staff see it on the outbox page)."""
        from portal.services.mail import MAX_ATTEMPTS

        return self.sent_at is None and self.attempts >= MAX_ATTEMPTS
