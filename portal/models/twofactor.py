"""Staff two-factor authentication: a TOTP secret per person and single-use recovery codes."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column

from portal.extensions import Model
from portal.models.base import utcnow


class TotpSecret(Model):
    """The shared secret of a person's authenticator app; ``confirmed_at`` is set once the person
    typed a valid code from it (enrolment done)."""

    __tablename__ = "totp_secret"

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(
        ForeignKey("user_account.id", ondelete="CASCADE"), unique=True
    )
    secret: Mapped[str] = mapped_column(String(64))
    confirmed_at: Mapped[datetime | None]
    last_used_step: Mapped[int | None]  # a code is accepted once (no replay within its window)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class RecoveryCode(Model):
    """A one-time code for when the phone is lost; only its hash is kept."""

    __tablename__ = "recovery_code"

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(
        ForeignKey("user_account.id", ondelete="CASCADE"), index=True
    )
    code_hash: Mapped[str] = mapped_column(String(64))
    used_at: Mapped[datetime | None]
