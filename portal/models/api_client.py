"""API clients: accredited establishments and NGOs integrating with the portal by bearer token."""

from __future__ import annotations

import enum
from datetime import datetime

from sqlalchemy import ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column, relationship

from portal.extensions import Model
from portal.models.base import utcnow
from portal.models.user import User


class ApiClientKind(enum.StrEnum):
    ESTABLISHMENT = "establishment"
    NGO = "ngo"
    OPEN311 = "open311"  # a city app filing maus-tratos reports (GeoReport v2)


class ApiClient(Model):
    """One integrating organisation. Only the SHA-256 of its token is stored."""

    __tablename__ = "api_client"

    id: Mapped[int] = mapped_column(primary_key=True)
    kind: Mapped[str] = mapped_column(String(20))
    name: Mapped[str] = mapped_column(String(200))
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    token_prefix: Mapped[str] = mapped_column(String(8))  # shown to staff to tell tokens apart
    active: Mapped[bool] = mapped_column(default=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    last_used_at: Mapped[datetime | None]
    # The account that acts for this client in the web UI (the clinic's or NGO's user), if any.
    user_id: Mapped[int | None] = mapped_column(ForeignKey("user_account.id"), index=True)

    # user_account also points here (created_by_api_client_id): name the join column
    user: Mapped[User | None] = relationship(foreign_keys=[user_id])
