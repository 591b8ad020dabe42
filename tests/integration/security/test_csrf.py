"""CSRF: with protection on, a POST without a token to any web route gives 400 and changes nothing.

The CSRF error handler re-runs the view so the form comes back with what was typed; this walker
proves that re-run never saves anything, whoever is signed in (a user holding every role and a
member of the demo NGO, and the demo citizen who owns the objects).
"""

from __future__ import annotations

import re

import pytest
from flask import g
from sqlalchemy import event, select
from werkzeug.routing import IntegerConverter

from portal.extensions import db, limiter
from portal.models import Organization, OrganizationMember, User
from tests import factories
from tests.factories import build_world

EXEMPT = {"payments.stripe_webhook"}
TOKEN_RE = re.compile(r'name="csrf_token" type="hidden" value="([^"]+)"')
IGNORED_TABLES = {"audit_event"}  # a re-rendered page may record that staff viewed data


class _WriteWatcher:
    """Records every INSERT/UPDATE/DELETE the app sends to the database (except the audit log).

    Watching statements is as strict as comparing every table before and after each request, and
    cheap enough to run for every POST route on PostgreSQL.
    """

    def __init__(self) -> None:
        self.writes: list[str] = []

    def __call__(self, conn, cursor, statement, parameters, context, executemany):  # type: ignore[no-untyped-def]
        verb = statement.lstrip().split(None, 1)[0].upper() if statement.strip() else ""
        if verb in {"INSERT", "UPDATE", "DELETE"} and not any(
            t in statement for t in IGNORED_TABLES
        ):
            self.writes.append(statement.split("\n", 1)[0][:80])


def _login(client, user):  # type: ignore[no-untyped-def]
    # Requests share the test's app context: drop the other client's cached user and token.
    g.pop("_login_user", None)
    g.pop("csrf_token", None)
    page = client.get("/conta/entrar").get_data(as_text=True)
    token = TOKEN_RE.search(page).group(1)
    response = client.post(
        "/conta/entrar", data={"email": user.email, "password": user._pw, "csrf_token": token}
    )
    assert response.status_code == 302


def _post_urls(app, world):  # type: ignore[no-untyped-def]
    for rule in app.url_map.iter_rules():
        if (
            "POST" not in (rule.methods or ())
            or rule.rule.startswith("/api/")
            or rule.endpoint in EXEMPT
        ):
            continue
        kwargs = {}
        for arg in rule.arguments:
            conv = isinstance(rule._converters.get(arg), IntegerConverter)
            kwargs[arg] = 1 if conv else (world.rgas[0] if arg in ("rga", "number") else "endereco")
        yield rule.endpoint, rule.build(kwargs, append_unknown=False)[1]


@pytest.fixture
def csrf_app(make_app):  # type: ignore[no-untyped-def]
    application = make_app(WTF_CSRF_ENABLED=True)
    with application.app_context():
        limiter.reset()
        yield application


@pytest.mark.walker  # every URL: once, in the SQLite run (tests/conftest.py)
def test_post_without_csrf_token_is_400_and_changes_nothing(csrf_app):
    world = build_world(csrf_app)
    boss = factories.user(roles=("citizen", "ngo", "agent", "vet", "coordinator", "admin"))
    org = db.session.scalars(select(Organization)).first()
    db.session.add(OrganizationMember(organization_id=org.id, user_id=boss.id))
    db.session.commit()
    boss._pw = factories.PASSWORD
    victim = db.session.get(User, world.victim.id)
    victim._pw = "demo12345"
    failures = []
    watcher = _WriteWatcher()
    event.listen(db.engine, "before_cursor_execute", watcher)
    try:
        _walk(csrf_app, world, boss, victim, watcher, failures)
    finally:
        event.remove(db.engine, "before_cursor_execute", watcher)
    assert not failures, "\n".join(map(str, failures))


def _walk(csrf_app, world, boss, victim, watcher, failures):  # type: ignore[no-untyped-def]
    for person in (boss, victim):
        client = csrf_app.test_client()
        g.pop("_login_user", None)
        _login(client, person)
        posted: set[str] = set()  # a route without an id is posted once, not once per id
        for id_ in world.ids:
            for endpoint, url in _post_urls(csrf_app, world):
                url = re.sub(r"/1(/|$|\.)", rf"/{id_}\1", url) if id_ > 1 else url
                if url in posted:
                    continue
                posted.add(url)
                g.pop("_login_user", None)
                limiter.reset()
                watcher.writes.clear()
                response = client.post(
                    url, data={"name": "x", "confirm": "y", "cpf": world.victim_cpf}
                )
                if response.status_code not in (400, 403, 404) or watcher.writes:
                    failures.append(
                        (person.email, endpoint, url, response.status_code, watcher.writes[:3])
                    )
