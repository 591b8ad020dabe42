"""Command-line tasks staff run."""

from sqlalchemy import select

from portal.extensions import db
from portal.models import UnitValue, User


def test_create_user_with_several_roles(app) -> None:
    result = app.test_cli_runner().invoke(
        args=[
            "create-user",
            "--email",
            "chefe@ccz.example",
            "--name",
            "Chefe",
            "--password",
            "x1y2z3w4",
            "--role",
            "admin",
            "--role",
            "coordinator",
        ]
    )
    assert result.exit_code == 0, result.output
    user = db.session.scalar(select(User).where(User.email == "chefe@ccz.example"))
    assert user.roles == {"admin", "coordinator"}


def test_seed_demo_is_idempotent(app) -> None:
    runner = app.test_cli_runner()
    first = runner.invoke(args=["seed-demo"])
    assert first.exit_code == 0, first.output
    users = db.session.scalars(select(User)).all()
    values = db.session.scalars(select(UnitValue)).all()
    second = runner.invoke(args=["seed-demo"])
    assert second.exit_code == 0, second.output
    assert len(db.session.scalars(select(User)).all()) == len(users)
    assert len(db.session.scalars(select(UnitValue)).all()) == len(values)
    assert "admin@demo.ccz" in second.output


def test_ensure_database_creates_a_missing_postgresql_database() -> None:
    import os
    import uuid

    import psycopg
    import pytest

    from portal import create_app
    from portal.config import TestingConfig, database_url

    if not os.environ["TEST_DATABASE_URL"].startswith("postgresql"):
        pytest.skip("PostgreSQL only: SQLite files are created on first connection")
    name = f"ccz_ensure_{uuid.uuid4().hex[:8]}"
    config = TestingConfig()
    config.SQLALCHEMY_DATABASE_URI = database_url(f"postgresql://postgres@127.0.0.1:5432/{name}")
    app = create_app(config)
    try:
        result = app.test_cli_runner().invoke(args=["ensure-database"])
        assert result.exit_code == 0, result.output
        with psycopg.connect("postgresql://postgres@127.0.0.1:5432/postgres", autocommit=True) as c:
            assert c.execute("SELECT 1 FROM pg_database WHERE datname=%s", (name,)).fetchone()
    finally:
        with psycopg.connect("postgresql://postgres@127.0.0.1:5432/postgres", autocommit=True) as c:
            c.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def test_seed_demo_refuses_to_run_in_production(make_app) -> None:
    """Issue 26, Low 11: the demo accounts (admin@demo.ccz included) share a published password."""
    production = make_app(PRODUCTION=True)
    with production.app_context():
        result = production.test_cli_runner().invoke(args=["seed-demo"])
        assert result.exit_code != 0
        assert "não roda em produção" in result.output
        assert db.session.scalar(select(User).where(User.email == "admin@demo.ccz")) is None
