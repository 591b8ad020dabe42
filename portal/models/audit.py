"""Audit trail: who did or saw what, when. Staff views of personal data are written here."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column, relationship

from portal.extensions import Model
from portal.models.base import utcnow
from portal.models.user import User


class AuditEvent(Model):
    __tablename__ = "audit_event"

    id: Mapped[int] = mapped_column(primary_key=True)
    at: Mapped[datetime] = mapped_column(default=utcnow, index=True)
    actor_id: Mapped[int | None] = mapped_column(ForeignKey("user_account.id"), index=True)
    action: Mapped[str] = mapped_column(String(60), index=True)
    subject_type: Mapped[str | None] = mapped_column(String(40))
    subject_id: Mapped[str | None] = mapped_column(String(40))
    detail: Mapped[dict[str, Any] | None] = mapped_column(JSON)

    actor: Mapped[User | None] = relationship()
