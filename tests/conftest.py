"""Shared fixtures: one app and schema per test process; each test undone by a rollback.

Isolation. A test's database work runs on one connection inside an outer transaction that is rolled
back when the test ends. The session joins it through SAVEPOINTs (SQLAlchemy's
``join_transaction_mode="create_savepoint"``): ``db.session.commit()`` releases a savepoint and the
next transaction opens a new one, so code under test commits as usual and nothing outlives the
test. Every app a test builds with ``make_app`` on the same database shares that connection.

Tests whose work must be committed for real, because another connection has to see it (a live
server thread, threads of their own), are marked ``@pytest.mark.real_commits``; tests using the
browser's ``live_server`` are marked automatically. They commit for real and every table is emptied
afterwards. Touching the database from another thread in a rollback test fails with a message
saying to add the marker.

Databases. TEST_DATABASE_URL picks the database (scripts/run_tests.sh sets a SQLite file, then a
PostgreSQL database); by default a SQLite file in a temporary folder. Under pytest-xdist each worker
works on its own: ``<file>_gw0.db`` for SQLite, ``<database>_gw0`` for PostgreSQL (created when the
worker starts, dropped when it ends). Rate-limit counters live in each process's memory and every
app gets its own upload folder, so workers never share those either.

Speed. Each test gets a new app (its config may differ, and tests change config and registries),
but what only depends on the code is built once per process and shared by every app: werkzeug's
URL builders, Jinja's compiled templates (checked against the template's source) and the engine
of the test database (its pooled connections). TestingConfig hashes passwords with the cheapest
argon2; tests/integration/auth/test_password_cost.py keeps the real cost everywhere else.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
import threading
from collections.abc import Iterator

import pytest

WORKER = os.environ.get("PYTEST_XDIST_WORKER", "")  # "gw0", "gw1"... under pytest-xdist


def _worker_database_url(url: str, worker: str) -> str:
    """This worker's database: ``ccz_test.db`` becomes ``ccz_test_gw0.db``, ``ccz`` ``ccz_gw0``."""
    if not worker or url in ("sqlite://", "sqlite:///:memory:"):
        return url
    if url.startswith("sqlite:"):
        root, ext = os.path.splitext(url)
        return f"{root}_{worker}{ext}"
    head, _, name = url.rpartition("/")
    name, sep, query = name.partition("?")
    return f"{head}/{name}_{worker}{sep}{query}"


os.environ["TEST_DATABASE_URL"] = _worker_database_url(
    os.environ.get("TEST_DATABASE_URL") or f"sqlite:///{tempfile.mkdtemp()}/ccz_test.db", WORKER
)

from flask import Flask  # noqa: E402
from flask.testing import FlaskClient  # noqa: E402
from flask_sqlalchemy.session import Session  # noqa: E402
from jinja2.bccache import Bucket, BytecodeCache  # noqa: E402
from sqlalchemy import delete, event, make_url  # noqa: E402
from sqlalchemy.engine import Connection, Engine, RootTransaction  # noqa: E402

from portal import create_app  # noqa: E402
from portal.config import TestingConfig  # noqa: E402
from portal.extensions import db, limiter  # noqa: E402
from tests import factories  # noqa: E402


class _Rollback:
    """The connections a rollback test's sessions share (one per database), each inside an outer
    transaction that ``close`` rolls back."""

    def __init__(self) -> None:
        self.thread = threading.get_ident()
        self.connections: dict[str, tuple[Connection, RootTransaction]] = {}

    def connection_for(self, engine: Engine) -> Connection:
        if threading.get_ident() != self.thread:
            raise RuntimeError(
                "This test uses the database from another thread, which cannot see the test's "
                "uncommitted transaction: mark it @pytest.mark.real_commits (tests/conftest.py)."
            )
        key = engine.url.render_as_string(hide_password=False)
        if key not in self.connections:
            conn = engine.connect()
            if engine.dialect.name == "sqlite":
                # pysqlite only BEGINs before a write, so a SAVEPOINT would open (and its RELEASE
                # commit) the real transaction: take over with an explicit BEGIN (SQLAlchemy's
                # documented pysqlite recipe).
                conn.connection.driver_connection.isolation_level = None  # type: ignore[union-attr]
                transaction = conn.begin()
                conn.exec_driver_sql("BEGIN")
            else:
                transaction = conn.begin()
            self.connections[key] = (conn, transaction)
        return self.connections[key][0]

    def close(self) -> None:
        for conn, transaction in self.connections.values():
            transaction.rollback()
            if conn.dialect.name == "sqlite":
                conn.connection.driver_connection.isolation_level = ""  # type: ignore[union-attr]
            conn.close()
        self.connections.clear()


_rollback: _Rollback | None = None  # set while a rollback test runs


class _TestSession(Session):
    """Flask-SQLAlchemy's session, bound to the test's connection while a rollback test runs."""

    def get_bind(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        bind = super().get_bind(*args, **kwargs)
        if _rollback is None or not isinstance(bind, Engine):
            return bind
        return _rollback.connection_for(bind)


# Every session db.session makes from now on: the class above, joining an outer transaction with a
# SAVEPOINT (which only matters when it is bound to a Connection, i.e. in rollback tests).
db.session.session_factory.class_ = _TestSession
db.session.session_factory.configure(join_transaction_mode="create_savepoint")


def _reuse_url_builders() -> None:
    """Every test builds a new app, and werkzeug compiles two Python functions per URL rule for
    url_for (about 70% of ``create_app``'s time). The code depends only on the rule's text, its
    defaults and their converters, so compile it once per process and bind it to each new rule."""
    from werkzeug.routing import Rule

    compile_builder = Rule._compile_builder
    compiled: dict[tuple, object] = {}

    def cached(self: Rule, append_unknown: bool = True):  # type: ignore[no-untyped-def]
        defaults = self.defaults or {}
        key = (
            self.rule,
            self.merge_slashes,
            tuple(self._trace),
            append_unknown,
            tuple(
                (k, type(self._converters.get(k)).__qualname__, repr(v))
                for k, v in defaults.items()
            ),
        )
        if key not in compiled:
            compiled[key] = compile_builder(self, append_unknown)
        return compiled[key]

    Rule._compile_builder = cached  # type: ignore[method-assign]


_reuse_url_builders()


class _SharedBytecode(BytecodeCache):
    """Jinja's compiled templates, kept for every app this process builds. Each test's new app has
    its own Jinja environment, which compiled every template it rendered again (a base page costs
    tens of milliseconds). Entries are keyed by template name and checked against the source's
    checksum, so an edited template is compiled again."""

    def __init__(self) -> None:
        self.store: dict[str, bytes] = {}

    def load_bytecode(self, bucket: Bucket) -> None:
        if bucket.key in self.store:
            bucket.bytecode_from_string(self.store[bucket.key])

    def dump_bytecode(self, bucket: Bucket) -> None:
        self.store[bucket.key] = bucket.bytecode_to_string()


_TEMPLATE_BYTECODE = _SharedBytecode()


_ENGINES: dict[str, Engine] = {}  # the test database's engine, one per process
_make_engine = db._make_engine


def _shared_engine(bind_key: str | None, options: dict, app: Flask) -> Engine:
    """Every app built on the test database with the same engine options gets one engine, so a
    test reuses pooled connections (a new engine opens new connections, and on PostgreSQL each
    first connection runs the dialect's start-up queries). Other databases get their own engine,
    disposed with the app as before."""
    url = make_url(options["url"]).render_as_string(hide_password=False)
    if url != make_url(TestingConfig.SQLALCHEMY_DATABASE_URI).render_as_string(hide_password=False):
        return _make_engine(bind_key, options, app)
    key = repr(sorted((k, repr(v)) for k, v in options.items()))
    if key not in _ENGINES:
        _ENGINES[key] = engine = _make_engine(bind_key, options, app)
        _track_checkouts(engine)
    return _ENGINES[key]


# The driver connections each shared engine has handed out and not taken back, so that a connection
# a test leaked can be closed on purpose instead of being garbage-collected open later, which
# psycopg reports as a ResourceWarning (an error here) in whatever test happens to run then.
_CHECKED_OUT: dict[int, dict[int, object]] = {}


def _track_checkouts(engine: Engine) -> None:
    out = _CHECKED_OUT.setdefault(id(engine), {})

    @event.listens_for(engine, "checkout")
    def _checkout(dbapi_connection, record, proxy):  # type: ignore[no-untyped-def]
        out[id(dbapi_connection)] = dbapi_connection

    @event.listens_for(engine, "checkin")
    def _checkin(dbapi_connection, record):  # type: ignore[no-untyped-def]
        if dbapi_connection is not None:
            out.pop(id(dbapi_connection), None)


db._make_engine = _shared_engine  # type: ignore[method-assign]


def _drop_leaking_engines() -> None:
    """A connection still checked out after a test (a thread or session that never let go) would
    stay out of the shared pool for good: start that engine afresh, as a new app used to."""
    for key, engine in list(_ENGINES.items()):
        checkedout = getattr(engine.pool, "checkedout", None)
        if checkedout is not None and checkedout():
            for leaked in _CHECKED_OUT.pop(id(engine), {}).values():
                leaked.close()  # type: ignore[attr-defined]
            engine.dispose()
            del _ENGINES[key]


def _admin_url(url: str) -> str:
    return (
        make_url(url)
        .set(drivername="postgresql", database="postgres")
        .render_as_string(hide_password=False)
    )


def _create_worker_database(url: str) -> None:
    """Under xdist on PostgreSQL: this worker's database, made fresh for the run."""
    import psycopg

    name = make_url(url).database
    with psycopg.connect(_admin_url(url), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


def _drop_worker_database(url: str) -> None:
    import psycopg

    name = make_url(url).database
    with psycopg.connect(_admin_url(url), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _config(**overrides: object) -> TestingConfig:
    cfg = TestingConfig()
    cfg.UPLOAD_DIR = tempfile.mkdtemp(prefix="ccz-uploads-")  # type: ignore[attr-defined]
    for key, value in overrides.items():
        setattr(cfg, key, value)
    return cfg


def _own_sqlite_file_per_mutant() -> None:
    """Under mutmut, each mutant's tests run in a process forked from one parent, which fixed the
    test database at import: give each a SQLite file of its own, so that mutmut may run several
    at once without one mutant's tests locking or dropping another's tables."""
    url = os.environ["TEST_DATABASE_URL"]
    if not os.environ.get("MUTANT_UNDER_TEST") or not url.startswith("sqlite:///"):
        return
    root, ext = os.path.splitext(url)
    own = f"{root.split('_mutant')[0]}_mutant{os.getpid()}{ext}"
    os.environ["TEST_DATABASE_URL"] = own
    TestingConfig.SQLALCHEMY_DATABASE_URI = own


@pytest.fixture(scope="session")
def _schema() -> Iterator[None]:
    _own_sqlite_file_per_mutant()
    url = os.environ["TEST_DATABASE_URL"]
    own_database = bool(WORKER) and url.startswith("postgres")
    if own_database:
        _create_worker_database(url)
    app = create_app(_config())
    with app.app_context():
        db.drop_all()
        db.create_all()
    yield
    with app.app_context():
        db.drop_all()
    for engine in _ENGINES.values():
        engine.dispose()
    _ENGINES.clear()
    if own_database:
        _drop_worker_database(url)
    if os.environ.get("MUTANT_UNDER_TEST") and url.startswith("sqlite:///"):
        with contextlib.suppress(OSError):
            os.remove(url.removeprefix("sqlite:///"))


def _empty_tables() -> None:
    db.session.rollback()
    for table in reversed(db.metadata.sorted_tables):
        db.session.execute(delete(table))
    db.session.commit()


def _needs_real_commits(request: pytest.FixtureRequest) -> bool:
    return (
        request.node.get_closest_marker("real_commits") is not None
        or "live_server" in request.fixturenames
    )


@pytest.fixture
def make_app(_schema: None, request: pytest.FixtureRequest) -> Iterator:
    """Build an app with config overrides (e.g. another profile). What the test wrote is rolled
    back afterwards, or, for ``real_commits`` tests, every table is emptied."""
    global _rollback
    made: list[Flask] = []
    rollback = None if _needs_real_commits(request) else _Rollback()
    _rollback = rollback

    def build(**overrides: object) -> Flask:
        app = create_app(_config(**overrides))
        app.jinja_env.bytecode_cache = _TEMPLATE_BYTECODE
        made.append(app)
        return app

    try:
        yield build
    finally:
        _rollback = None
        if rollback is not None:
            rollback.close()
        for app in made:
            with app.app_context():
                if rollback is None:
                    _empty_tables()
                if db.engine not in _ENGINES.values():
                    db.engine.dispose()
        _drop_leaking_engines()


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

    def login(
        self,
        user=None,
        *,
        roles: tuple[str, ...] = ("citizen",),
        password: str = factories.PASSWORD,
    ):  # type: ignore[no-untyped-def]
        if user is None:
            user = factories.user(roles=roles)
            db.session.commit()
        response = self._client.post(
            "/conta/entrar", data={"email": user.email, "password": password}
        )
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


@pytest.fixture
def coordinator(app: Flask):  # type: ignore[no-untyped-def]
    """A CCZ coordinator (the maus-tratos tests, in reports/ and security/, sign in as her)."""
    person = factories.user(roles=("coordinator",), full_name="Coordenadora Clara")
    db.session.commit()
    return person


@pytest.fixture
def agent(app: Flask):  # type: ignore[no-untyped-def]
    """A CCZ agent (a domain may declare its own ``agent`` fixture, which wins)."""
    person = factories.user(roles=("agent",), full_name="Agente Armando Fiscal")
    db.session.commit()
    return person
