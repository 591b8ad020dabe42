"""Outgoing e-mail. Every message is kept in the outbox; SMTP sends it when configured.

Without SMTP the message is written to the log and, in development, shown in the dev mailbox
(``/dev/caixa-de-email``).
"""

from __future__ import annotations

import smtplib
from email.message import EmailMessage

from flask import current_app

from portal.extensions import db
from portal.models import OutboxMessage
from portal.models.base import utcnow


def send_email(to: str, subject: str, body: str) -> OutboxMessage:
    """Queue and send one plain-text e-mail. SMTP failures are logged, never raised to the user."""
    message = OutboxMessage(to=to, subject=subject, body=body)
    db.session.add(message)
    db.session.flush()
    cfg = current_app.config
    if not cfg.get("SMTP_HOST"):
        current_app.logger.info("E-mail (no SMTP configured) to=%s subject=%s", to, subject)
        return message
    email = EmailMessage()
    email["From"] = cfg["MAIL_FROM"]
    email["To"] = to
    email["Subject"] = subject
    email.set_content(body)
    try:
        with smtplib.SMTP(cfg["SMTP_HOST"], cfg["SMTP_PORT"], timeout=10) as smtp:
            if cfg.get("SMTP_STARTTLS"):
                smtp.starttls()
            if cfg.get("SMTP_USER"):
                smtp.login(cfg["SMTP_USER"], cfg["SMTP_PASSWORD"] or "")
            smtp.send_message(email)
        message.sent_at = utcnow()
    except (OSError, smtplib.SMTPException):
        current_app.logger.exception("SMTP delivery failed for outbox message %s", message.id)
    return message
