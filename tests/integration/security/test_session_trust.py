"""Issue 26, Medium 3 and 4, as an attacker would try them: a session is what the server says.

* A citizen signed in with a password alone is made agent + coordinator by an administrator: the
  same cookie must not open the staff area (it opened ``/admin/`` and ``/ccz/denuncias``). A role
  change ends every session of the person, and every request of a staff account checks that THIS
  session passed the second factor.
* Plain "Sair" ends the session server-side: the ``session`` and ``remember_token`` cookies copied
  before logout no longer open ``/minha-conta/``.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pyotp
import pytest
from flask import g
from flask.testing import FlaskClient

from portal.extensions import db
from portal.models import UserRole
from tests import factories


class FreshClient(FlaskClient):
    """Requests share the test's app context: drop Flask-Login's cached user before each one, so
    every request is judged by its own cookies (as a real browser's would be)."""

    def open(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        g.pop("_login_user", None)
        g.pop("login_session", None)
        return super().open(*args, **kwargs)


@pytest.fixture
def strict_app(make_app):  # type: ignore[no-untyped-def]
    """Second factor required, as in production."""
    app = make_app(STAFF_2FA_REQUIRED=True)
    app.test_client_class = FreshClient
    with app.app_context():
        yield app


@pytest.fixture
def fresh_client(app):  # type: ignore[no-untyped-def]
    app.test_client_class = FreshClient
    return app.test_client()


def _admin_client(app):  # type: ignore[no-untyped-def]
    admin, secret = factories.enrolled_staff(("admin",))
    client = app.test_client()
    step = factories.password_login(client, admin)
    assert step.headers["Location"].endswith("/conta/verificacao")
    done = client.post("/conta/verificacao", data={"code": pyotp.TOTP(secret).now()})
    assert done.status_code == 302 and "/conta/verificacao" not in done.headers["Location"]
    assert client.get("/admin/").status_code == 200
    return client


def _opens(client, path: str) -> bool:  # type: ignore[no-untyped-def]
    return client.get(path).status_code == 200


def test_a_role_grant_does_not_turn_a_password_session_into_a_staff_session(strict_app) -> None:
    citizen = factories.user()
    db.session.commit()
    victim_browser = strict_app.test_client()
    factories.password_login(victim_browser, citizen, remember=True)
    assert _opens(victim_browser, "/minha-conta/")
    session_cookie = victim_browser.get_cookie("session").value
    remember_cookie = victim_browser.get_cookie("remember_token").value

    admin = _admin_client(strict_app)
    granted = admin.post(
        f"/admin/usuarios/{citizen.id}",
        data={"role_citizen": "y", "role_agent": "y", "role_coordinator": "y", "active": "y"},
    )
    assert granted.status_code == 302
    db.session.refresh(citizen)
    assert citizen.has_role("agent") and citizen.has_role("coordinator")

    for path in ("/admin/", "/ccz/denuncias", "/minha-conta/"):
        response = victim_browser.get(path)
        assert response.status_code == 302 and "/conta/entrar" in response.headers["Location"]
    # Nor do copies of the cookies, the remember cookie included.
    copy = strict_app.test_client()
    copy.set_cookie("session", session_cookie)
    copy.set_cookie("remember_token", remember_cookie)
    assert not _opens(copy, "/admin/") and not _opens(copy, "/ccz/denuncias")
    remembered = strict_app.test_client()
    remembered.set_cookie("remember_token", remember_cookie)
    assert not _opens(remembered, "/minha-conta/")

    # Signing in again asks for the second factor (first time: enrolment) before the staff area.
    again = factories.password_login(victim_browser, citizen)
    assert again.headers["Location"].endswith("/conta/verificacao/cadastrar")
    assert not _opens(victim_browser, "/admin/")


def test_a_staff_account_is_refused_by_a_session_that_skipped_the_second_factor(
    strict_app,
) -> None:
    """Even when a role arrives by a path that does not end sessions (a database edit), every
    staff request checks that this session passed the second factor, not only the login view."""
    citizen = factories.user()
    db.session.commit()
    browser = strict_app.test_client()
    factories.password_login(browser, citizen)
    assert _opens(browser, "/minha-conta/")
    citizen.role_links.append(UserRole(role="coordinator"))  # no session-version bump
    db.session.commit()
    for path in ("/admin/", "/ccz/denuncias", "/minha-conta/"):
        assert not _opens(browser, path), path


def test_a_role_removal_ends_the_sessions_too(app, fresh_client) -> None:
    agent = factories.user(roles=("citizen", "agent"))
    admin = factories.user(roles=("admin",))
    db.session.commit()
    factories.password_login(fresh_client, agent)
    assert _opens(fresh_client, "/admin/")
    from portal.blueprints.admin.services import change_roles

    change_roles(agent, admin, {"citizen"}, active=True)
    db.session.commit()
    assert not _opens(fresh_client, "/minha-conta/")


def test_deactivating_an_account_ends_its_sessions(app, fresh_client) -> None:
    person = factories.user()
    admin = factories.user(roles=("admin",))
    db.session.commit()
    factories.password_login(fresh_client, person)
    from portal.blueprints.admin.services import change_roles

    change_roles(person, admin, {"citizen"}, active=False)
    db.session.commit()
    assert not _opens(fresh_client, "/minha-conta/")


def test_sair_ends_the_session_server_side_copied_cookies_stop_working(app, fresh_client) -> None:
    person = factories.user()
    db.session.commit()
    factories.password_login(fresh_client, person, remember=True)
    assert _opens(fresh_client, "/minha-conta/")
    session_cookie = fresh_client.get_cookie("session").value
    remember_cookie = fresh_client.get_cookie("remember_token").value
    assert fresh_client.post("/conta/sair").status_code == 302

    both = app.test_client()
    both.set_cookie("session", session_cookie)
    both.set_cookie("remember_token", remember_cookie)
    assert not _opens(both, "/minha-conta/")
    only_session = app.test_client()
    only_session.set_cookie("session", session_cookie)
    assert not _opens(only_session, "/minha-conta/")
    only_remember = app.test_client()
    only_remember.set_cookie("remember_token", remember_cookie)
    assert not _opens(only_remember, "/minha-conta/")


def test_sair_on_one_device_leaves_the_others_signed_in(app) -> None:
    """Plain "Sair" ends this sign-in only ("Sair de todos" is the one that ends them all)."""
    app.test_client_class = FreshClient
    person = factories.user()
    db.session.commit()
    phone, laptop = app.test_client(), app.test_client()
    factories.password_login(phone, person)
    factories.password_login(laptop, person)
    phone.post("/conta/sair")
    assert not _opens(phone, "/minha-conta/")
    assert _opens(laptop, "/minha-conta/")


def test_a_password_change_keeps_the_second_factor_of_this_session(strict_app) -> None:
    """The browser that changes its password is signed in again: a staff member keeps the
    second factor this session passed (and is not thrown out of the staff area)."""
    admin = _admin_client(strict_app)
    form = {
        "senha-current_password": factories.PASSWORD,
        "senha-password": "outra-senha-44",
        "senha-password_confirm": "outra-senha-44",
    }
    assert admin.post("/minha-conta/senha", data=form).status_code == 302
    assert _opens(admin, "/admin/")


def test_a_sign_in_older_than_the_remember_cookie_ends(app, fresh_client) -> None:
    """30 days is the longest a sign-in lasts ("Manter-me conectado" included)."""
    from sqlalchemy import select

    from portal.models import LoginSession

    person = factories.user()
    db.session.commit()
    factories.password_login(fresh_client, person, remember=True)
    row = db.session.scalars(select(LoginSession).where(LoginSession.user_id == person.id)).one()
    row.created_at = datetime.now(UTC) - timedelta(days=29)
    db.session.commit()
    assert _opens(fresh_client, "/minha-conta/")
    row.created_at = datetime.now(UTC) - timedelta(days=31)
    db.session.commit()
    assert not _opens(fresh_client, "/minha-conta/")


def test_ended_sign_ins_are_cleared_at_the_next_sign_in(app, fresh_client) -> None:
    from sqlalchemy import func, select

    from portal.models import LoginSession

    person = factories.user()
    db.session.commit()
    for _ in range(3):
        factories.password_login(fresh_client, person)
        fresh_client.post("/conta/sair")
    factories.password_login(fresh_client, person)
    count = select(func.count()).select_from(LoginSession)
    assert db.session.scalar(count.where(LoginSession.user_id == person.id)) == 1


def test_a_second_factor_reset_ends_the_persons_sessions(app, fresh_client) -> None:
    """An administrator resets the second factor of an agent who lost their phone: the sessions
    that phone held end too (it may have been stolen, signed in)."""
    agent = factories.user(roles=("citizen", "agent"))
    db.session.commit()
    factories.password_login(fresh_client, agent)
    assert _opens(fresh_client, "/minha-conta/")
    from portal.blueprints.admin.services import reset_second_factor

    reset_second_factor(agent)
    db.session.commit()
    assert not _opens(fresh_client, "/minha-conta/")
