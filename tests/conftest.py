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

Speed. One app per configuration and test process: ``make_app(**overrides)`` (and the ``app``
fixture, which is ``make_app()``) hands out the app built for those overrides the first time a test
asked for them (building one costs about a second: werkzeug compiles every URL rule). What a test
changes on it is undone when the test ends (``_Pristine``): its config, extensions (the profile),
registries (``portal.wiring``, staff queues, reminders), Jinja globals and filters and the app's own
attributes; an app whose routes or request hooks a test changed is dropped and built again. Each
test gets its own upload folder and fresh rate-limit storage, as a new app did. A second call with
the same overrides in one test, or overrides naming another database or upload folder, builds a
new app, used by that test only. TestingConfig hashes passwords with the cheapest argon2;
tests/integration/auth/test_password_cost.py keeps the real cost everywhere else.

Slow walks. Tests marked ``@pytest.mark.walker`` run once per ``make test``. The URL walkers of
tests/integration/security (policies, CPF masking, CSRF, IDOR) run in the SQLite run: what they
check does not depend on the database, and they take four to five times longer on PostgreSQL.
``@pytest.mark.walker(database="postgresql")`` marks the walks that send junk input (fuzz, the API
contract), which find what PostgreSQL refuses and SQLite stores (a text over its column's length,
an integer out of range), and the browser walks of every role's pages (axe-core, 360 px), which
cost the same on either database and balance the two runs.
``CCZ_RUN_WALKERS=1`` runs every walk on either database.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator

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


class _SharedBytecode(BytecodeCache):
    """Jinja's compiled templates, shared by the apps this process builds (one per configuration):
    each app's Jinja environment would compile every template it renders again (a base page costs
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


# The driver connections each app's engine has handed out and not taken back, so that a connection a
# test leaked can be closed on purpose instead of being garbage-collected open later, which psycopg
# reports as a ResourceWarning (an error here) in whatever test happens to run then.
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


def _engines_of(app: Flask) -> list[Engine]:
    with app.app_context():
        return list(db.engines.values())


def _release_leaked_connections(app: Flask) -> None:
    """A connection still checked out after a test (a thread or session that never let go) would
    stay out of the app's pool for good: close it and start the pool afresh, as a new app did."""
    for engine in _engines_of(app):
        checkedout = getattr(engine.pool, "checkedout", None)
        if checkedout is not None and checkedout():
            for leaked in _CHECKED_OUT.pop(id(engine), {}).values():
                leaked.close()  # type: ignore[attr-defined]
            _CHECKED_OUT[id(engine)] = {}
            engine.dispose()


def _dispose(app: Flask) -> None:
    for engine in _engines_of(app):
        _CHECKED_OUT.pop(id(engine), None)
        engine.dispose()


# The registries in app.extensions a test may add to: lists, or objects with dict and list fields.
_REGISTRIES = ("portal_wiring", "workspace_queues", "reminders", "api_client_gates")


class _Pristine:
    """What a test may change on a shared app, as it was when the app was built; ``restore`` puts it
    back and says whether the app is still as built (False: routes or request hooks changed, so the
    app must not serve another test)."""

    def __init__(self, app: Flask) -> None:
        self.app = app
        app.jinja_env  # noqa: B018  (built now, so that it is part of what is kept)
        self.attributes = dict(vars(app))
        self.config = dict(app.config)
        self.extensions = dict(app.extensions)
        self.registries: dict[tuple[str, str | None], dict | list] = {}
        for name in _REGISTRIES:
            registry = app.extensions.get(name)
            if isinstance(registry, dict | list):
                self.registries[(name, None)] = _copy(registry)
            elif registry is not None:
                for field, value in vars(registry).items():
                    if isinstance(value, dict | list):
                        self.registries[(name, field)] = _copy(value)
        self.globals = dict(app.jinja_env.globals)
        self.filters = dict(app.jinja_env.filters)
        self.shape = self._shape()

    def _shape(self) -> tuple:
        app = self.app
        hooks = (
            app.before_request_funcs,
            app.after_request_funcs,
            app.teardown_request_funcs,
            app.template_context_processors,
            app.url_value_preprocessors,
            app.url_default_functions,
        )
        errors = app.error_handler_spec
        return (
            len(list(app.url_map.iter_rules())),
            tuple(app.view_functions),
            tuple(app.blueprints),
            tuple(sorted((str(k), len(v)) for hook in hooks for k, v in hook.items())),
            len(app.teardown_appcontext_funcs),
            sorted(
                (str(s), str(c), len(h)) for s, codes in errors.items() for c, h in codes.items()
            ),
        )

    def restore(self) -> bool:
        app = self.app
        attributes = vars(app)
        for name in [n for n in attributes if n not in self.attributes]:
            del attributes[name]
        for name, value in self.attributes.items():
            if attributes.get(name) is not value:
                attributes[name] = value
        app.config.clear()
        app.config.update(self.config)
        app.extensions.clear()
        app.extensions.update(self.extensions)
        for (name, field), value in self.registries.items():
            registry = app.extensions[name]
            current = registry if field is None else getattr(registry, field)
            current.clear()
            if isinstance(current, dict):
                current.update(value)
            else:
                current.extend(value)
        for mapping, kept in (
            (app.jinja_env.globals, self.globals),
            (app.jinja_env.filters, self.filters),
        ):
            mapping.clear()
            mapping.update(kept)
        return self._shape() == self.shape


def _copy(value: dict | list) -> dict | list:
    return dict(value) if isinstance(value, dict) else list(value)


_APPS: OrderedDict[str, _Pristine] = OrderedDict()  # per configuration, most recently used last
# Each app keeps its own engine and pooled connections: a handful of configurations is kept, the
# least recently used beyond that is dropped (on PostgreSQL each kept engine holds a connection).
_MAX_APPS = 8
# Overrides that name another database or a folder of the test's own: a new app, for that test only.
_UNSHARED = frozenset({"SQLALCHEMY_DATABASE_URI", "UPLOAD_DIR"})
_MISSING = object()


def _config_key(overrides: dict[str, object]) -> str | None:
    """The cache key of a configuration: the overrides that differ from TestingConfig's value."""
    if _UNSHARED & overrides.keys():
        return None
    differing = {k: v for k, v in overrides.items() if getattr(TestingConfig, k, _MISSING) != v}
    return repr(sorted(differing.items()))


def _build(overrides: dict[str, object]) -> Flask:
    app = create_app(_config(**overrides))
    app.jinja_env.bytecode_cache = _TEMPLATE_BYTECODE
    for engine in _engines_of(app):
        _track_checkouts(engine)
    return app


def _shared_app(key: str, overrides: dict[str, object]) -> _Pristine:
    if key in _APPS:
        _APPS.move_to_end(key)
        return _APPS[key]
    _APPS[key] = kept = _Pristine(_build(overrides))
    while len(_APPS) > _MAX_APPS:
        _dispose(_APPS.popitem(last=False)[1].app)
    return kept


def _forget(kept: _Pristine) -> None:
    for key, value in list(_APPS.items()):
        if value is kept:
            del _APPS[key]
    _dispose(kept.app)


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
    app = _shared_app(_config_key({}) or "", {}).app
    with app.app_context():
        db.drop_all()
        db.create_all()
    yield
    with app.app_context():
        db.drop_all()
    while _APPS:
        _dispose(_APPS.popitem()[1].app)
    if own_database:
        _drop_worker_database(url)
    if os.environ.get("MUTANT_UNDER_TEST") and url.startswith("sqlite:///"):
        with contextlib.suppress(OSError):
            os.remove(url.removeprefix("sqlite:///"))


def _database_kind() -> str:
    url = os.environ["TEST_DATABASE_URL"]
    return "sqlite" if url.startswith("sqlite") else "postgresql"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """``walker`` tests (minutes each) run once per ``make test``: in the run of the database
    their marker names (``database=``, SQLite by default)."""
    if os.environ.get("CCZ_RUN_WALKERS") == "1":
        return
    here = _database_kind()
    for item in items:
        marker = item.get_closest_marker("walker")
        if marker is None:
            continue
        wanted = marker.kwargs.get("database", "sqlite")
        if wanted != here:
            item.add_marker(
                pytest.mark.skip(
                    reason=f"walker: walks every URL or role (slow), so it runs once, in the "
                    f"{wanted} run of scripts/run_tests.sh; CCZ_RUN_WALKERS=1 runs it here too"
                )
            )


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
def make_app(_schema: None, request: pytest.FixtureRequest) -> Iterator[Callable[..., Flask]]:
    """The app for some config overrides (e.g. another profile), shared with the other tests of
    this process that ask for the same overrides; what the test changes on it is undone at its end.
    What the test wrote is rolled back afterwards, or, for ``real_commits`` tests, every table is
    emptied."""
    global _rollback
    shared: list[_Pristine] = []
    own: list[Flask] = []
    rollback = None if _needs_real_commits(request) else _Rollback()
    _rollback = rollback
    uploads = tempfile.mkdtemp(prefix="ccz-uploads-")

    def build(**overrides: object) -> Flask:
        key = _config_key(overrides)
        kept = _shared_app(key, overrides) if key is not None else None
        if kept is None or kept in shared:  # a second app with the same config: a new one
            app = _build(overrides)
            own.append(app)
        else:
            shared.append(kept)
            app = kept.app
            app.config["UPLOAD_DIR"] = uploads
        limiter.init_app(app)  # fresh rate-limit storage for this app's config, as a new app had
        return app

    try:
        yield build
    finally:
        _rollback = None
        if rollback is not None:
            rollback.close()
        else:
            emptied: set[str] = set()
            for app in [kept.app for kept in shared] + own:
                url = str(app.config["SQLALCHEMY_DATABASE_URI"])
                if url not in emptied:
                    emptied.add(url)
                    with app.app_context():
                        _empty_tables()
        for kept in shared:
            if kept.restore():
                _release_leaked_connections(kept.app)
            else:
                _forget(kept)
        for app in own:
            _dispose(app)
        shutil.rmtree(uploads, ignore_errors=True)


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
