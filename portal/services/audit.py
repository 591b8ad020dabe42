"""Writing the audit trail."""

from __future__ import annotations

from typing import Any

from flask_login import current_user

from portal.extensions import db
from portal.models import AuditEvent


def record(
    action: str,
    subject: Any = None,
    *,
    detail: dict[str, Any] | None = None,
    actor_id: int | None = None,
) -> AuditEvent:
    """Append one audit event; the actor defaults to the signed-in user.

    ``subject`` is a model instance (its class name and id are kept) or None. Never put a CPF in
    ``detail``: the log is read by more people than the record.
    """
    if actor_id is None and current_user and current_user.is_authenticated:
        actor_id = current_user.id
    event = AuditEvent(
        action=action,
        actor_id=actor_id,
        subject_type=type(subject).__name__ if subject is not None else None,
        subject_id=str(subject.id) if subject is not None and hasattr(subject, "id") else None,
        detail=detail,
    )
    db.session.add(event)
    return event
