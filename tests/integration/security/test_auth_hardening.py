"""Sign-in hardening: no open redirect through ``next=`` or the referrer, a fresh session at login
(session fixation), no account enumeration through messages or timing, and rate limits on the
forms that can be abused (login, reset, sign-up, the finder's message, transfer by CPF)."""

from __future__ import annotations

import pytest
from flask import g
from sqlalchemy import select

from portal.blueprints.auth import services as auth_services
from portal.extensions import db, limiter
from portal.models import Animal, User
from tests import factories

BAD_NEXT = [
    "//evil.example",
    "/\\evil.example",
    "\\\\evil.example",
    "https://evil.example/",
    "/\t/evil.example",
    "/\n/evil.example",
    "javascript:alert(1)",
    "http:/evil.example",
    "/%5Cevil.example",
    "\\/evil.example",
    " //evil.example",
]


@pytest.mark.parametrize("target", BAD_NEXT)
def test_login_next_never_leaves_the_site(client, target):
    person = factories.user()
    db.session.commit()
    response = client.post(
        "/conta/entrar",
        query_string={"next": target},
        data={"email": person.email, "password": factories.PASSWORD},
    )
    assert response.status_code == 302
    location = response.headers["Location"]
    assert location.startswith("/") and not location.startswith("//")
    assert "\\" not in location and not any(ord(ch) < 33 for ch in location)


def test_login_next_keeps_a_local_path(client):
    person = factories.user()
    db.session.commit()
    response = client.post(
        "/conta/entrar",
        query_string={"next": "/animais/?x=1"},
        data={"email": person.email, "password": factories.PASSWORD},
    )
    assert response.headers["Location"] == "/animais/?x=1"


@pytest.mark.parametrize(
    "referrer",
    ["http://localhost//evil.example", "http://localhost/\\evil.example", "https://evil.example/x"],
)
def test_contrast_and_language_toggles_never_redirect_off_site(client, referrer):
    for url in ("/contraste", "/idioma/en"):
        response = client.get(url, headers={"Referer": referrer})
        assert response.status_code == 302
        assert "evil" not in response.headers["Location"]


def test_login_starts_a_fresh_session(client):
    person = factories.user()
    db.session.commit()
    with client.session_transaction() as session:
        session["planted"] = "by-an-attacker"
        session["_csrf_token"] = "known-token"
        session["lang"] = "en"
    client.post("/conta/entrar", data={"email": person.email, "password": factories.PASSWORD})
    with client.session_transaction() as session:
        assert "planted" not in session
        assert session.get("_csrf_token") != "known-token"
        assert session.get("lang") == "en"
        # "<id>:<session version>:<sign-in token>" (issue 8: the version signs out old sessions;
        # issue 26: the token's row ends at logout)
        user_id, version, token = session.get("_user_id").split(":")
        assert (user_id, version) == (str(person.id), str(person.session_version))
        assert len(token) >= 40


def test_logout_clears_the_whole_session(client, auth):
    auth.login()
    with client.session_transaction() as session:
        session["animal_draft"] = {"user_id": 1}
    client.post("/conta/sair")
    with client.session_transaction() as session:
        assert "animal_draft" not in session and "_user_id" not in session


def test_reset_request_says_the_same_for_known_and_unknown_emails(client):
    person = factories.user()
    db.session.commit()
    known = client.post("/conta/senha/esqueci", data={"email": person.email}, follow_redirects=True)
    unknown = client.post(
        "/conta/senha/esqueci", data={"email": "ninguem@example.com"}, follow_redirects=True
    )
    assert known.status_code == unknown.status_code == 200
    assert known.get_data(as_text=True) == unknown.get_data(as_text=True)


def test_login_says_the_same_for_unknown_email_and_wrong_password(client):
    person = factories.user()
    db.session.commit()
    wrong = client.post("/conta/entrar", data={"email": person.email, "password": "x" * 12})
    unknown = client.post(
        "/conta/entrar", data={"email": "ninguem@example.com", "password": "x" * 12}
    )
    assert "E-mail ou senha incorretos." in wrong.get_data(as_text=True)
    assert "E-mail ou senha incorretos." in unknown.get_data(as_text=True)


def test_login_with_unknown_email_spends_a_password_check(app, monkeypatch):
    """No timing oracle: argon2 runs whether or not the e-mail has an account."""
    calls = []
    real = auth_services._hasher

    class Counting:
        def __getattr__(self, name):  # type: ignore[no-untyped-def]
            return getattr(real, name)

        def verify(self, hashed, password):  # type: ignore[no-untyped-def]
            calls.append(hashed)
            return real.verify(hashed, password)

    monkeypatch.setattr(auth_services, "_hasher", Counting())
    assert auth_services.authenticate("ninguem@example.com", "qualquer-coisa") is None
    unclaimed = factories.user(password_hash=None)
    db.session.commit()
    assert auth_services.authenticate(unclaimed.email, "qualquer-coisa") is None
    assert len(calls) == 2


def _hammer(client, url, data, times):  # type: ignore[no-untyped-def]
    codes = []
    for _ in range(times):
        g.pop("_login_user", None)
        codes.append(client.post(url, data=data).status_code)
    return codes


def test_login_is_rate_limited(client):
    codes = _hammer(client, "/conta/entrar", {"email": "a@example.com", "password": "x"}, 11)
    assert codes[-1] == 429 and 429 not in codes[:10]


def test_password_reset_request_is_rate_limited(client):
    codes = _hammer(client, "/conta/senha/esqueci", {"email": "a@example.com"}, 6)
    assert codes[-1] == 429 and 429 not in codes[:5]


def test_sign_up_is_rate_limited(client):
    codes = _hammer(client, "/conta/cadastro", {"cpf": "1"}, 21)
    assert codes[-1] == 429 and 429 not in codes[:20]


def test_finder_form_and_transfer_by_cpf_are_rate_limited(app, client, auth):
    result = app.test_cli_runner().invoke(args=["seed-demo"])
    assert result.exit_code == 0
    owner = db.session.scalar(select(User).where(User.email == "cidada@demo.ccz"))
    rga = db.session.scalars(select(Animal.rga).where(Animal.owner_id == owner.id)).first()
    finder = _hammer(client, f"/rga/{rga}", {"message": "Achei"}, 6)
    assert finder[-1] == 429 and 429 not in finder[:5]
    auth.login(owner, password="demo12345")
    transfer = _hammer(client, f"/animais/{rga}/transferir", {"cpf": factories.make_cpf(4242)}, 21)
    assert transfer[-1] == 429 and 429 not in transfer[:20]
    limiter.reset()
