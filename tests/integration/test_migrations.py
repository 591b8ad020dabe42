"""Migrations are the only way the schema is made: applied to an empty database they must build
exactly what the models describe."""

from __future__ import annotations

import os
import tempfile
import uuid

import psycopg
import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from flask_migrate import upgrade
from sqlalchemy import create_engine

from portal.config import database_url
from portal.extensions import db

PG_ADMIN = "postgresql://postgres@127.0.0.1:5432/postgres"


@pytest.fixture
def empty_database_url() -> str:
    """A brand-new empty database of the same kind the suite runs on."""
    url = os.environ["TEST_DATABASE_URL"]
    if url.startswith("postgresql"):
        name = f"{url.rsplit('/', 1)[1]}_mig_{uuid.uuid4().hex[:8]}"
        with psycopg.connect(PG_ADMIN, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        yield f"postgresql://postgres@127.0.0.1:5432/{name}"
        with psycopg.connect(PG_ADMIN, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    else:
        yield f"sqlite:///{tempfile.mkdtemp()}/migrations.db"


# SQLite cannot reflect the PostgreSQL-only full-text index, so alembic says it skips it there.
@pytest.mark.filterwarnings("ignore:autogenerate skipping metadata-specified expression-based")
def test_migrations_build_the_schema_the_models_describe(empty_database_url, make_app) -> None:
    # empty_database_url first: it is torn down (dropped) after the app has let go of it
    app = make_app(SQLALCHEMY_DATABASE_URI=database_url(empty_database_url))
    with app.app_context():
        upgrade()
        engine = create_engine(database_url(empty_database_url))
        with engine.connect() as conn:
            context = MigrationContext.configure(conn, opts={"compare_type": True})
            diff = compare_metadata(context, db.metadata)
        engine.dispose()
        db.engine.dispose()
    assert diff == [], f"Models and migrations disagree: {diff}"
