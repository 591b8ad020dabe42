"""Staff accounts: a second factor at every login (enrolled at the first), sessions that end
after 30 minutes idle, and the password asked again before sensitive actions."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pyotp
import pytest
from flask import g

from portal.extensions import db
from portal.services import twofactor
from tests import factories


@pytest.fixture
def strict_app(make_app):  # type: ignore[no-untyped-def]
    app = make_app(STAFF_2FA_REQUIRED=True, STAFF_IDLE_MINUTES=30)
    with app.app_context():
        yield app


def _password_step(client, user):  # type: ignore[no-untyped-def]
    return client.post("/conta/entrar", data={"email": user.email, "password": factories.PASSWORD})


def test_first_staff_login_enrols_then_signs_in(strict_app) -> None:
    client = strict_app.test_client()
    agent = factories.user(roles=("agent",))
    db.session.commit()
    response = _password_step(client, agent)
    assert response.headers["Location"].endswith("/conta/verificacao/cadastrar")
    assert client.get("/admin/").status_code == 302  # not signed in yet
    page = client.get("/conta/verificacao/cadastrar").get_data(as_text=True)
    secret = re.search(r'class="portal-secret">([A-Z2-7]+)<', page).group(1)
    assert "<svg" in page  # the QR code, inline
    response = client.post("/conta/verificacao/cadastrar", data={"code": pyotp.TOTP(secret).now()})
    assert "/conta/verificacao/codigos" in response.headers["Location"]
    codes_page = client.get(response.headers["Location"]).get_data(as_text=True)
    assert len(re.findall(r"<code>[0-9A-F]{4}-[0-9A-F]{4}</code>", codes_page)) == 10
    g.pop("_login_user", None)
    assert client.get("/admin/").status_code == 200


def test_enrolled_staff_needs_a_code_and_a_wrong_code_fails(strict_app) -> None:
    client = strict_app.test_client()
    vet = factories.user(roles=("vet",))
    record = twofactor.start_enrolment(vet)
    twofactor.confirm_enrolment(
        vet, pyotp.TOTP(record.secret).at(datetime.now(UTC) - timedelta(seconds=30))
    )
    db.session.commit()
    response = _password_step(client, vet)
    assert response.headers["Location"].endswith("/conta/verificacao")
    bad = client.post("/conta/verificacao", data={"code": "123456"})
    assert bad.status_code == 200 and "Código inválido" in bad.get_data(as_text=True)
    g.pop("_login_user", None)
    assert client.get("/admin/").status_code == 302
    ok = client.post("/conta/verificacao", data={"code": pyotp.TOTP(record.secret).now()})
    assert ok.status_code == 302
    g.pop("_login_user", None)
    assert client.get("/admin/").status_code == 200


def test_the_second_step_cannot_be_reached_without_the_password(strict_app) -> None:
    client = strict_app.test_client()
    assert client.get("/conta/verificacao").status_code == 403
    assert client.post("/conta/verificacao", data={"code": "123456"}).status_code == 403


def test_citizens_sign_in_with_the_password_alone(strict_app) -> None:
    client = strict_app.test_client()
    citizen = factories.user()
    db.session.commit()
    response = _password_step(client, citizen)
    assert "/conta/verificacao" not in response.headers["Location"]


def test_staff_session_ends_after_30_minutes_idle(make_app) -> None:
    app = make_app(STAFF_IDLE_MINUTES=30)  # password-only sign-in: the idle rule is the point
    with app.app_context():
        client = app.test_client()
        coordinator = factories.user(roles=("coordinator",))
        db.session.commit()
        assert _password_step(client, coordinator).status_code == 302
        with client.session_transaction() as session:
            session["seen_at"] = (datetime.now(UTC) - timedelta(minutes=29)).isoformat()
        assert client.get("/admin/").status_code == 200
        with client.session_transaction() as session:
            session["seen_at"] = (datetime.now(UTC) - timedelta(minutes=31)).isoformat()
        g.pop("_login_user", None)
        response = client.get("/admin/")
        assert response.status_code == 302 and "/conta/entrar" in response.headers["Location"]
        g.pop("_login_user", None)
        assert client.get("/admin/").status_code == 302  # and it stays signed out


def test_role_change_asks_for_the_password_after_15_minutes(app, client, auth) -> None:
    admin = auth.login(roles=("admin",))
    person = factories.user()
    db.session.commit()
    assert client.get(f"/admin/usuarios/{person.id}").status_code == 200
    with client.session_transaction() as session:
        session["password_at"] = (datetime.now(UTC) - timedelta(minutes=16)).isoformat()
    response = client.get(f"/admin/usuarios/{person.id}")
    assert response.status_code == 302 and "/conta/confirmar-senha" in response.headers["Location"]
    response = client.post(f"/admin/usuarios/{person.id}", data={"role_agent": "y", "active": "y"})
    assert "/conta/confirmar-senha" in response.headers["Location"]
    assert not person.has_role("agent")
    wrong = client.post("/conta/confirmar-senha", data={"password": "errada"})
    assert "Senha incorreta" in wrong.get_data(as_text=True)
    ok = client.post(
        f"/conta/confirmar-senha?next=/admin/usuarios/{person.id}",
        data={"password": factories.PASSWORD},
    )
    assert ok.headers["Location"].endswith(f"/admin/usuarios/{person.id}")
    assert admin.has_role("admin")


def test_admin_resets_a_second_factor_audited(app, client, auth) -> None:
    from sqlalchemy import select

    from portal.models import AuditEvent

    auth.login(roles=("admin",))
    agent = factories.user(roles=("agent",))
    record = twofactor.start_enrolment(agent)
    twofactor.confirm_enrolment(agent, pyotp.TOTP(record.secret).now())
    db.session.commit()
    client.post(f"/admin/usuarios/{agent.id}/verificacao/redefinir")
    assert not twofactor.is_enrolled(agent)
    assert (
        db.session.scalar(
            select(AuditEvent).where(AuditEvent.action == "admin.second_factor_reset")
        )
        is not None
    )
