"""Issue 8, security 3: sessions end when they should and last when asked to.

A per-user session version travels in the session and the remember cookie; it is bumped by
"Sair de todos os dispositivos", a password change and a password reset. Logout deletes the
remember cookie; "Manter-me conectado" survives a browser restart; e-mail and password changes
ask for the current password and tell the old address. Staff land in the CCZ area (first-time
user item 1)."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from email.utils import parsedate_to_datetime

import pytest
from flask import g
from flask.testing import FlaskClient
from sqlalchemy import select

from portal.extensions import db
from portal.models import OutboxMessage
from tests import factories


class FreshClient(FlaskClient):
    """The ``app`` fixture keeps one app context, so ``g`` (and Flask-Login's cached user in it)
    outlives a request: drop it, so every request loads its user from its own cookies."""

    def open(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        g.pop("_login_user", None)
        return super().open(*args, **kwargs)


@pytest.fixture(autouse=True)
def _fresh_clients(app):  # type: ignore[no-untyped-def]
    app.test_client_class = FreshClient


@pytest.fixture
def client(app, _fresh_clients):  # type: ignore[no-untyped-def]
    return app.test_client()


def _cookie(response, name: str) -> str | None:  # type: ignore[no-untyped-def]
    for header in response.headers.getlist("Set-Cookie"):
        if header.startswith(name + "="):
            return header
    return None


def _signed_in(client) -> bool:  # type: ignore[no-untyped-def]
    return client.get("/minha-conta/").status_code == 200


def _mails(to: str) -> list[OutboxMessage]:
    return list(
        db.session.scalars(
            select(OutboxMessage).where(OutboxMessage.to == to).order_by(OutboxMessage.id)
        )
    )


def test_a_session_cookie_captured_before_a_password_reset_stops_working(app, client) -> None:
    person = factories.user()
    db.session.commit()
    factories.password_login(client, person)
    captured = client.get_cookie("session").value
    client.post("/conta/senha/esqueci", data={"email": person.email})
    link = re.search(r"http://localhost(/\S+)", _mails(person.email)[-1].body).group(1)
    other = app.test_client()
    assert (
        other.post(
            link, data={"password": "nova-senha-77", "password_confirm": "nova-senha-77"}
        ).status_code
        == 302
    )
    thief = app.test_client()
    thief.set_cookie("session", captured)
    assert not _signed_in(thief)
    # nor can it change the e-mail any more
    thief.post("/minha-conta/", data={"email": "ladrao@example.com"})
    db.session.refresh(person)
    assert person.email != "ladrao@example.com"


def test_sign_out_of_every_device_ends_other_sessions_and_remember_cookies(app) -> None:
    person = factories.user()
    db.session.commit()
    phone, laptop = app.test_client(), app.test_client()
    remembered = factories.password_login(laptop, person, remember=True)
    remember_value = _cookie(remembered, "remember_token").split(";")[0].split("=", 1)[1]
    factories.password_login(phone, person)
    assert "Sair de todos os dispositivos" in phone.get("/minha-conta/").get_data(as_text=True)
    assert phone.post("/conta/sair-de-todos").status_code == 302
    assert not _signed_in(phone) and not _signed_in(laptop)
    restarted = app.test_client()
    restarted.set_cookie("remember_token", remember_value)
    assert not _signed_in(restarted)


def test_logout_deletes_the_remember_cookie(client) -> None:
    person = factories.user()
    db.session.commit()
    factories.password_login(client, person, remember=True)
    response = client.post("/conta/sair")
    deleted = _cookie(response, "remember_token")
    assert deleted is not None and ("Max-Age=0" in deleted or "1970" in deleted)
    assert not _signed_in(client)


def test_remember_me_survives_a_browser_restart_for_about_a_month(app, client) -> None:
    person = factories.user()
    db.session.commit()
    cookie = _cookie(factories.password_login(client, person, remember=True), "remember_token")
    expires = parsedate_to_datetime(re.search(r"Expires=([^;]+)", cookie).group(1))
    assert expires - datetime.now(UTC) < timedelta(days=31)
    browser = app.test_client()  # a new browser: no session cookie, only the remember cookie
    browser.set_cookie("remember_token", cookie.split(";")[0].split("=", 1)[1])
    assert _signed_in(browser)
    assert _signed_in(browser)  # and still on the next page (it was logged out here before)


def test_session_protection_ignores_a_client_supplied_x_forwarded_for(app, client) -> None:
    person = factories.user()
    db.session.commit()
    client.post(
        "/conta/entrar",
        data={"email": person.email, "password": factories.PASSWORD},
        environ_base={"REMOTE_ADDR": "10.0.0.1"},
    )
    stolen = client.get_cookie("session").value
    thief = app.test_client()
    thief.set_cookie("session", stolen)
    # The thief's real address differs; claiming the victim's in X-Forwarded-For must not help.
    page = thief.get(
        "/minha-conta/",
        environ_base={"REMOTE_ADDR": "10.9.9.9"},
        headers={"X-Forwarded-For": "10.0.0.1"},
    )
    assert page.status_code == 302


def test_password_change_asks_the_current_one_keeps_this_session_and_ends_others(app) -> None:
    person = factories.user()
    db.session.commit()
    here, elsewhere = app.test_client(), app.test_client()
    factories.password_login(here, person)
    factories.password_login(elsewhere, person)
    form = {
        "senha-current_password": "errada-123",
        "senha-password": "outra-senha-44",
        "senha-password_confirm": "outra-senha-44",
    }
    wrong = here.post("/minha-conta/senha", data=form)
    assert "Senha atual incorreta" in wrong.get_data(as_text=True)
    form["senha-current_password"] = factories.PASSWORD
    assert here.post("/minha-conta/senha", data=form).status_code == 302
    assert _signed_in(here) and not _signed_in(elsewhere)
    assert "Sua senha foi alterada" in [m.subject for m in _mails(person.email)]


def test_email_change_needs_the_current_password_and_tells_the_old_address(client, auth) -> None:
    person = auth.login()
    old = person.email
    form = {
        "email": "novo@example.com",
        "cep": "07010-000",
        "street": "Rua Um",
        "number": "1",
        "district": "Centro",
        "city": "Guarulhos",
        "state": "SP",
        "housing_type": "house",
    }
    refused = client.post("/minha-conta/", data=form)
    assert "informe sua senha atual" in refused.get_data(as_text=True)
    db.session.refresh(person)
    assert person.email == old
    assert (
        client.post(
            "/minha-conta/", data={**form, "current_password": factories.PASSWORD}
        ).status_code
        == 302
    )
    db.session.refresh(person)
    assert person.email == "novo@example.com" and person.email_confirmed_at is None
    notice = _mails(old)[-1]
    assert "foi trocado" in notice.body and "novo@example.com" not in notice.body


def test_staff_land_in_the_ccz_area_after_login(client) -> None:
    for role in ("agent", "vet", "coordinator", "admin"):
        person = factories.user(roles=(role,))
        db.session.commit()
        response = client.post(
            "/conta/entrar", data={"email": person.email, "password": factories.PASSWORD}
        )
        assert response.headers["Location"] == "/admin/", role
        client.post("/conta/sair")
    agent = factories.user(roles=("agent",))
    citizen = factories.user()
    db.session.commit()
    kept = client.post(
        "/conta/entrar",
        query_string={"next": "/animais/"},
        data={"email": agent.email, "password": factories.PASSWORD},
    )
    assert kept.headers["Location"] == "/animais/"
    client.post("/conta/sair")
    home = client.post(
        "/conta/entrar", data={"email": citizen.email, "password": factories.PASSWORD}
    )
    assert home.headers["Location"] == "/"
