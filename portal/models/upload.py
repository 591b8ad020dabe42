"""Stored uploads: photos and proof documents, always re-encoded before they are kept."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column

from portal.extensions import Model
from portal.models.base import utcnow


class StoredFile(Model):
    """One upload. ``variants`` maps a size name ("thumbnail", "medium", "large", "original")
    to a path relative to UPLOAD_DIR. ``public`` files (adoption photos, the animal photo on the
    public RGA page) are served to anyone; the rest only to their owner and staff."""

    __tablename__ = "stored_file"

    id: Mapped[int] = mapped_column(primary_key=True)
    token: Mapped[str] = mapped_column(String(32), unique=True)  # unguessable id used in URLs
    owner_id: Mapped[int | None] = mapped_column(ForeignKey("user_account.id"), index=True)
    purpose: Mapped[str] = mapped_column(String(40))  # animal_photo, listing_photo, proof_income…
    content_type: Mapped[str] = mapped_column(String(60))
    original_name: Mapped[str | None] = mapped_column(String(200))
    size_bytes: Mapped[int]
    variants: Mapped[dict[str, Any]] = mapped_column(JSON)
    public: Mapped[bool] = mapped_column(default=False)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
