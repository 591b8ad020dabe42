"""Issue 8: a sign-up nobody confirms does not wait forever. ``flask purge-unconfirmed`` (daily,
docs/DEPLOY.md) deletes the accounts still waiting for activation (``activation_pending``) a week
after their last sign-up, when nothing is attached to them; the confirmation link itself lapses
after 3 days (``auth.services.CONFIRM_MAX_AGE``), so nobody can still be on the way in.

An account with anything attached (an animal an establishment or the counter registered under its
CPF, a payment, an adoption application, or any other record that points at it) stays, and the
command says why; the CCZ decides about it. Each deletion is audited by the account's id only,
never its name, CPF or e-mail (LGPD).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

import click
from flask.cli import with_appcontext
from sqlalchemy import ColumnElement, func, select

from portal.extensions import db
from portal.models import AdoptionApplication, Animal, PaymentItem, User
from portal.models.base import utcnow
from portal.services import audit

UNCONFIRMED_DAYS = 7
# Rows that belong to the account itself and go with it (the ORM deletes them).
_OWN_TABLES = {"user_role"}
# The operator's words for why an account stays (the audit row keeps the code).
_KEPT_BECAUSE = {
    "animal": "tem animal registrado",
    "payment": "tem cobrança",
    "application": "tem pedido de adoção",
}


@dataclass
class PurgeResult:
    """How many accounts were deleted, and the ids kept with the reason for each."""

    purged: int = 0
    kept: dict[int, str] = field(default_factory=dict)

    def kept_by_reason(self) -> Counter[str]:
        return Counter(self.kept.values())


def _references() -> list[tuple[str, ColumnElement[Any]]]:
    """Every column of another table that points at an account, the named ones first."""
    named: list[tuple[str, ColumnElement[Any]]] = [
        ("animal", Animal.__table__.c.owner_id),
        ("payment", PaymentItem.__table__.c.payer_id),
        ("application", AdoptionApplication.__table__.c.applicant_id),
    ]
    seen = {col for _, col in named}
    others: list[tuple[str, ColumnElement[Any]]] = [
        (f"other:{table.name}", fk.parent)
        for table in db.metadata.sorted_tables
        if table.name not in _OWN_TABLES
        for fk in table.foreign_keys
        if fk.column.table.name == User.__tablename__ and fk.parent not in seen
    ]
    return named + others


def attachment_of(user: User) -> str | None:
    """Why ``user`` must stay (``animal``, ``payment``, ``application``, ``other:<table>``), or
    None when nothing points at it."""
    for reason, column in _references():
        if db.session.scalar(select(column).where(column == user.id).limit(1)) is not None:
            return reason
    return None


def purge_unconfirmed(now: datetime, *, days: int = UNCONFIRMED_DAYS) -> PurgeResult:
    """Delete the sign-ups still unconfirmed more than ``days`` after their last sign-up (a new
    sign-up with the same CPF or e-mail restarts the wait) that have nothing attached; flush."""
    cutoff = now - timedelta(days=days)
    signed_up = func.coalesce(User.privacy_accepted_at, User.created_at)
    stale = db.session.scalars(
        select(User).where(User.activation_pending.is_(True), signed_up < cutoff).order_by(User.id)
    ).all()
    result = PurgeResult()
    for user in stale:
        reason = attachment_of(user)
        if reason is not None:
            result.kept[user.id] = reason
            continue
        since = user.privacy_accepted_at or user.created_at
        audit.record(
            "account.unconfirmed_purged",
            user,
            detail={"days_pending": (now - since).days},
        )
        db.session.delete(user)
        result.purged += 1
    db.session.flush()
    return result


@click.command("purge-unconfirmed")
@click.option("--days", default=UNCONFIRMED_DAYS, show_default=True, type=click.IntRange(min=4))
@with_appcontext
def purge_unconfirmed_command(days: int) -> None:
    """Delete sign-ups nobody confirmed within DAYS days and nothing is attached to (daily)."""
    result = purge_unconfirmed(utcnow(), days=days)
    db.session.commit()
    click.echo(f"Cadastros não confirmados excluídos: {result.purged}.")
    for user_id, reason in sorted(result.kept.items()):
        click.echo(f"Mantido: conta {user_id} ({_KEPT_BECAUSE.get(reason, reason)}).")
