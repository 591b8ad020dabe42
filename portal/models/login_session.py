"""One row per sign-in: what makes a session cookie (and its remember cookie) valid server-side.

The cookie carries a random token (inside Flask-Login's user id, see ``User.get_id``); only its
SHA-256 is stored. "Sair" ends the row, so a copy of the cookies taken before stops working; a
role change or "Sair de todos" ends every row of the person. ``second_factor_at`` says whether
THIS sign-in passed the authenticator code: a staff account is let in only by such a session."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column

from portal.extensions import Model
from portal.models.base import utcnow


class LoginSession(Model):
    __tablename__ = "login_session"

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(
        ForeignKey("user_account.id", ondelete="CASCADE"), index=True
    )
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    second_factor_at: Mapped[datetime | None]
    ended_at: Mapped[datetime | None]
