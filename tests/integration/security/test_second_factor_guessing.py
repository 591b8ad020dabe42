"""Issue 26, Low 10: authenticator codes are guessed per account, not only per address.

Whoever holds a staff member's password can start the second step from many addresses; each
address's own limit never trips. Wrong codes are counted per account too: after 5 in 15 minutes
the account's second step is refused (even with the right code) and the person is told by e-mail,
once."""

from __future__ import annotations

import pyotp
import pytest
from flask import g
from sqlalchemy import select

from portal.extensions import db, limiter
from portal.models import AuditEvent, OutboxMessage
from tests import factories


@pytest.fixture
def strict_app(make_app):  # type: ignore[no-untyped-def]
    app = make_app(STAFF_2FA_REQUIRED=True)
    with app.app_context():
        limiter.reset()
        yield app


def _attempt(app, person, code: str, n: int):  # type: ignore[no-untyped-def]
    """The password step and one code, from the n-th address (a new browser each time)."""
    g.pop("_login_user", None)
    client = app.test_client()
    env = {"REMOTE_ADDR": f"10.1.0.{n}"}
    step = client.post(
        "/conta/entrar",
        data={"email": person.email, "password": factories.PASSWORD},
        environ_base=env,
    )
    assert step.headers["Location"].endswith("/conta/verificacao")
    return client.post("/conta/verificacao", data={"code": code}, environ_base=env)


def _alerts(person) -> list[OutboxMessage]:  # type: ignore[no-untyped-def]
    return list(
        db.session.scalars(
            select(OutboxMessage).where(
                OutboxMessage.to == person.email,
                OutboxMessage.subject == "Tentativas de entrar na sua conta do CCZ",
            )
        )
    )


def test_wrong_codes_from_many_addresses_lock_the_account_and_mail_the_person(strict_app):
    agent, secret = factories.enrolled_staff(("agent",))
    for n in range(5):
        wrong = _attempt(strict_app, agent, "000000", n)
        assert wrong.status_code == 200 and "Código inválido" in wrong.get_data(as_text=True)
    assert _alerts(agent) == []
    locked = _attempt(strict_app, agent, pyotp.TOTP(secret).now(), 5)
    assert locked.status_code == 429  # even the right code waits
    assert "Muitas tentativas" in locked.get_data(as_text=True)
    _attempt(strict_app, agent, "111111", 6)
    alerts = _alerts(agent)
    assert len(alerts) == 1  # told once, not at every refused guess
    assert "errou várias vezes o código" in alerts[0].body
    assert "/conta/senha/esqueci" in alerts[0].body
    assert db.session.scalar(
        select(AuditEvent).where(AuditEvent.action == "auth.second_factor_locked")
    )


def test_right_codes_do_not_count_against_the_account(strict_app):
    vet, secret = factories.enrolled_staff(("vet",))
    for n in range(4):
        assert _attempt(strict_app, vet, "000000", n).status_code == 200
    ok = _attempt(strict_app, vet, pyotp.TOTP(secret).now(), 4)
    assert ok.status_code == 302  # the fifth request, but only the fourth wrong code
    assert _alerts(vet) == []
