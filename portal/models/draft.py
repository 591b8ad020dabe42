"""Form drafts kept on the server: what a person typed and uploaded in a long or stepped form,
so that nothing is lost between steps, after a refusal, or when they come back later.

* :class:`FormDraft` – one draft per person, form and key (``kind`` names the form, e.g.
  ``"licence_request"``; ``key`` tells apart drafts of the same form, e.g. a renewal of licence 7).
  A form open to anonymous people (a maus-tratos report) keys the draft to the browser's session
  instead (``session_key``, a random token kept in the signed session cookie; ``owner_id`` empty).
  ``data`` holds the typed values as the form posted them (name -> text or list of texts) and
  ``step`` the last step reached.
* :class:`DraftFile` – an upload held by a draft under a ``slot`` (the input's name). The file is
  already validated and stored (:class:`~portal.models.upload.StoredFile`, private to its owner);
  the form that uses the draft takes it over when it is finally sent.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, ForeignKey, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from portal.extensions import Model
from portal.models.base import utcnow
from portal.models.upload import StoredFile


class FormDraft(Model):
    __tablename__ = "form_draft"
    __table_args__ = (
        UniqueConstraint("owner_id", "kind", "key"),
        UniqueConstraint("session_key", "kind", "key"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    # exactly one of the two: the signed-in person, or an anonymous browser's session token
    owner_id: Mapped[int | None] = mapped_column(
        ForeignKey("user_account.id", ondelete="CASCADE"), index=True
    )
    session_key: Mapped[str | None] = mapped_column(String(64), index=True)
    kind: Mapped[str] = mapped_column(String(40))
    key: Mapped[str] = mapped_column(String(40), default="")
    data: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    step: Mapped[str | None] = mapped_column(String(40))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)

    files: Mapped[list[DraftFile]] = relationship(
        back_populates="draft", cascade="all, delete-orphan", order_by="DraftFile.id"
    )


class DraftFile(Model):
    __tablename__ = "draft_file"

    id: Mapped[int] = mapped_column(primary_key=True)
    draft_id: Mapped[int] = mapped_column(
        ForeignKey("form_draft.id", ondelete="CASCADE"), index=True
    )
    slot: Mapped[str] = mapped_column(String(80))
    stored_file_id: Mapped[int] = mapped_column(ForeignKey("stored_file.id"))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    draft: Mapped[FormDraft] = relationship(back_populates="files")
    stored_file: Mapped[StoredFile] = relationship()
