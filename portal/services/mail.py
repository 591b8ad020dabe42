"""Outgoing e-mail: written to the outbox with the change that causes it, sent after the commit.

``send_email`` only adds an :class:`OutboxMessage` to the current transaction, so a rolled-back
action sends nothing and a failed SMTP server never rolls back what the person did. Delivery:

* development (``MAIL_SEND_INLINE``): right after the request that committed the message;
* production: ``flask --app portal send-mail``, run every minute by the deployment's scheduler
  (``docs/DEPLOY.md``). A failed send is retried on the next runs, up to ``MAX_ATTEMPTS``, with
  a growing pause; admins see sent and failed messages at ``/admin/emails``.

Without SMTP configured the message is written to the log and, in development, shown in the dev
mailbox (``/dev/caixa-de-email``).
"""

from __future__ import annotations

import smtplib
from collections.abc import Iterable
from datetime import timedelta
from email.message import EmailMessage

import click
from flask import Flask, current_app
from sqlalchemy import event, or_, select
from sqlalchemy.orm import Session

from portal.extensions import db
from portal.models import OutboxMessage
from portal.models.base import utcnow

MAX_ATTEMPTS = 6
_COMMITTED = "outbox_committed"  # ids of messages whose transaction committed, per session


def send_email(to: str, subject: str, body: str) -> OutboxMessage:
    """Queue one plain-text e-mail in the current transaction (sent after the commit)."""
    message = OutboxMessage(to=to, subject=subject, body=body)
    db.session.add(message)
    db.session.flush()
    db.session.info.setdefault("outbox_new", []).append(message.id)
    current_app.logger.info("E-mail queued (outbox %s) to=%s subject=%s", message.id, to, subject)
    return message


def _after_commit(session: Session) -> None:
    new = session.info.pop("outbox_new", [])
    if new:
        session.info.setdefault(_COMMITTED, []).extend(new)


def _after_rollback(session: Session, _previous: object) -> None:
    if not session.in_transaction():  # the whole transaction, not a savepoint, rolled back
        session.info.pop("outbox_new", None)


def _smtp_send(message: OutboxMessage) -> None:
    cfg = current_app.config
    email = EmailMessage()
    email["From"] = cfg["MAIL_FROM"]
    email["To"] = message.to
    email["Subject"] = message.subject
    email.set_content(message.body)
    with smtplib.SMTP(cfg["SMTP_HOST"], cfg["SMTP_PORT"], timeout=10) as smtp:
        if cfg.get("SMTP_STARTTLS"):
            smtp.starttls()
        if cfg.get("SMTP_USER"):
            smtp.login(cfg["SMTP_USER"], cfg["SMTP_PASSWORD"] or "")
        smtp.send_message(email)


def deliver(messages: Iterable[OutboxMessage]) -> tuple[int, int]:
    """Try to send each message once; record the outcome. Returns (sent, failed). Commits."""
    sent = failed = 0
    for message in messages:
        if message.sent_at is not None:
            continue
        if not current_app.config.get("SMTP_HOST"):
            current_app.logger.info(
                "E-mail (no SMTP configured) to=%s subject=%s", message.to, message.subject
            )
            continue
        message.attempts += 1
        message.last_attempt_at = utcnow()
        try:
            _smtp_send(message)
        except (OSError, smtplib.SMTPException) as err:
            message.last_error = f"{type(err).__name__}: {err}"[:300]
            current_app.logger.warning("SMTP delivery failed for outbox message %s", message.id)
            failed += 1
        else:
            message.sent_at = utcnow()
            message.last_error = None
            sent += 1
        db.session.commit()  # each outcome kept, whatever happens to the next one
    return sent, failed


def due_messages(limit: int = 200) -> list[OutboxMessage]:
    """Unsent messages whose next try is due: 1, 2, 4, 8… minutes after the last attempt."""
    now = utcnow()
    candidates = db.session.scalars(
        select(OutboxMessage)
        .where(
            OutboxMessage.sent_at.is_(None),
            OutboxMessage.attempts < MAX_ATTEMPTS,
            or_(OutboxMessage.last_attempt_at.is_(None), OutboxMessage.last_attempt_at < now),
        )
        .order_by(OutboxMessage.id)
        .limit(limit)
    )
    return [
        m
        for m in candidates
        if m.last_attempt_at is None
        or m.last_attempt_at + timedelta(minutes=2 ** max(m.attempts - 1, 0)) <= now
    ]


def deliver_committed() -> None:
    """Development: send what the request committed, right after it (``MAIL_SEND_INLINE``)."""
    ids = db.session.info.pop(_COMMITTED, [])
    if not ids or not current_app.config.get("MAIL_SEND_INLINE"):
        return
    deliver(db.session.scalars(select(OutboxMessage).where(OutboxMessage.id.in_(ids))))


@click.command("send-mail")
def send_mail_command() -> None:
    """Send the outbox's pending e-mails, retrying failed ones (run every minute)."""
    sent, failed = deliver(due_messages())
    click.echo(f"enviadas {sent}, com falha {failed}")


def init_mail(app: Flask) -> None:
    if not event.contains(Session, "after_commit", _after_commit):  # once per process
        event.listen(Session, "after_commit", _after_commit)
        event.listen(Session, "after_soft_rollback", _after_rollback)
    app.cli.add_command(send_mail_command)

    @app.after_request
    def send_after_commit(response):
        try:
            deliver_committed()
        except Exception:  # noqa: BLE001 - mail must never break the page that was served
            current_app.logger.exception("inline e-mail delivery failed")
        return response
