"""E-mail leaves after the commit: a rolled-back action sends nothing, a failing SMTP server
never undoes what the person did, failures are retried by `send-mail` and shown to admins."""

from __future__ import annotations

import smtplib
from datetime import timedelta

import pytest
from sqlalchemy import func, select

from portal.extensions import db
from portal.models import OutboxMessage
from portal.services import mail
from tests import factories


class FakeSMTP:
    sent: list[str] = []
    fail = False

    def __init__(self, host, port, timeout):  # type: ignore[no-untyped-def]
        pass

    def __enter__(self):  # type: ignore[no-untyped-def]
        return self

    def __exit__(self, *exc):  # type: ignore[no-untyped-def]
        return False

    def send_message(self, email):  # type: ignore[no-untyped-def]
        if FakeSMTP.fail:
            raise smtplib.SMTPServerDisconnected("connection lost")
        FakeSMTP.sent.append(email["To"])


@pytest.fixture
def smtp(app, monkeypatch):  # type: ignore[no-untyped-def]
    FakeSMTP.sent, FakeSMTP.fail = [], False
    monkeypatch.setattr(mail.smtplib, "SMTP", FakeSMTP)
    app.config.update(SMTP_HOST="smtp.example", SMTP_STARTTLS=False, SMTP_USER=None)
    return FakeSMTP


def test_a_rolled_back_action_sends_nothing(app, smtp) -> None:
    mail.send_email("a@example.com", "Assunto", "Texto")
    db.session.rollback()
    assert db.session.scalar(select(func.count()).select_from(OutboxMessage)) == 0
    assert mail.deliver(mail.due_messages()) == (0, 0)
    assert smtp.sent == []


def test_smtp_failure_keeps_the_action_and_is_retried(app, smtp) -> None:
    person = factories.user(full_name="Antes")
    mail.send_email(person.email, "Assunto", "Texto")
    person.full_name = "Depois"
    db.session.commit()  # the person's change is committed before any SMTP traffic
    smtp.fail = True
    assert mail.deliver(mail.due_messages()) == (0, 1)
    message = db.session.scalar(select(OutboxMessage))
    assert (
        message.sent_at is None
        and message.attempts == 1
        and "connection lost" in message.last_error
    )
    assert db.session.get(type(person), person.id).full_name == "Depois"
    assert mail.due_messages() == []  # waits a minute before the next try
    message.last_attempt_at -= timedelta(minutes=2)
    db.session.commit()
    smtp.fail = False
    assert mail.deliver(mail.due_messages()) == (1, 0)
    assert message.sent_at is not None and smtp.sent == [person.email]


def test_gives_up_after_the_last_attempt_and_shows_it_failed(app, smtp) -> None:
    message = mail.send_email("b@example.com", "Assunto", "Texto")
    message.attempts = mail.MAX_ATTEMPTS
    db.session.commit()
    assert message.failed
    assert mail.due_messages() == []


def test_send_mail_command(app, smtp) -> None:
    mail.send_email("c@example.com", "Assunto", "Texto")
    db.session.commit()
    result = app.test_cli_runner().invoke(args=["send-mail"])
    assert "enviadas 1, com falha 0" in result.output
    assert smtp.sent == ["c@example.com"]


def test_admins_see_failed_messages(app, client, auth, smtp) -> None:
    message = mail.send_email("d@example.com", "Aviso importante", "Texto")
    message.attempts, message.last_error = mail.MAX_ATTEMPTS, "SMTPServerDisconnected: x"
    db.session.commit()
    auth.login(roles=("admin",))
    html = client.get("/admin/emails?situacao=falhas").get_data(as_text=True)
    assert "Aviso importante" in html and "Falhou" in html
    auth.logout()
    auth.login(roles=("coordinator",))
    assert client.get("/admin/emails").status_code == 403
