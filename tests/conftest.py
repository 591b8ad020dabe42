"""Shared fixtures: one app and schema per test session, every table emptied after each test.

TEST_DATABASE_URL picks the database (scripts/run_tests.sh sets a SQLite file, then PostgreSQL);
by default a SQLite file in a temporary folder.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator

import pytest

if not os.environ.get("TEST_DATABASE_URL"):
    os.environ["TEST_DATABASE_URL"] = f"sqlite:///{tempfile.mkdtemp()}/ccz_test.db"

from flask import Flask  # noqa: E402
from flask.testing import FlaskClient  # noqa: E402
from sqlalchemy import delete  # noqa: E402

from portal import create_app  # noqa: E402
from portal.config import TestingConfig  # noqa: E402
from portal.extensions import db, limiter  # noqa: E402

from tests import factories  # noqa: E402


def _config(**overrides: object) -> TestingConfig:
    cfg = TestingConfig()
    cfg.UPLOAD_DIR = tempfile.mkdtemp(prefix="ccz-uploads-")  # type: ignore[attr-defined]
    for key, value in overrides.items():
        setattr(cfg, key, value)
    return cfg


@pytest.fixture(scope="session")
def _schema() -> Iterator[None]:
    app = create_app(_config())
    with app.app_context():
        db.drop_all()
        db.create_all()
    yield
    with app.app_context():
        db.drop_all()
        db.engine.dispose()


def _empty_tables() -> None:
    db.session.rollback()
    for table in reversed(db.metadata.sorted_tables):
        db.session.execute(delete(table))
    db.session.commit()


@pytest.fixture
def make_app(_schema: None) -> Iterator:
    """Build an app with config overrides (e.g. another profile); tables are emptied afterwards."""
    made: list[Flask] = []

    def build(**overrides: object) -> Flask:
        app = create_app(_config(**overrides))
        made.append(app)
        return app

    yield build
    for app in made:
        with app.app_context():
            _empty_tables()
            db.engine.dispose()


@pytest.fixture
def app(make_app) -> Iterator[Flask]:
    application = make_app()
    with application.app_context():
        limiter.reset()
        yield application


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


class AuthActions:
    """Log in as a given user, or as a freshly made user with some roles."""

    def __init__(self, client: FlaskClient) -> None:
        self._client = client

    def login(self, user=None, *, roles: tuple[str, ...] = ("citizen",), password: str = factories.PASSWORD):  # type: ignore[no-untyped-def]
        if user is None:
            user = factories.user(roles=roles)
            db.session.commit()
        response = self._client.post("/conta/entrar", data={"email": user.email, "password": password})
        assert response.status_code == 302, response.get_data(as_text=True)[:500]
        return user

    def logout(self) -> None:
        with self._client.session_transaction() as session:
            session.clear()
        # Requests in a test share the test's app context, so Flask-Login's cached user (g) would
        # outlive the cleared session and the next login would be skipped as "already signed in".
        from flask import g

        g.pop("_login_user", None)


@pytest.fixture
def auth(client: FlaskClient) -> AuthActions:
    return AuthActions(client)
