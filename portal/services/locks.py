"""Database locks and writes that differ between PostgreSQL and SQLite, in one place.

The law services count before they write (the animals at a residence, an owner's registrations of
the last minutes); two requests at the same instant would both count the old number. ``hold`` makes
the second one wait until the first one's transaction ends, so it counts what the first one wrote.
"""

from __future__ import annotations

import hashlib
from typing import Any

from sqlalchemy import false, func, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from portal.extensions import db


def _dialect() -> str:
    return db.session.get_bind().dialect.name


def lock_id(key: str) -> int:
    """A stable signed 64-bit number for ``key`` (PostgreSQL advisory locks take a bigint)."""
    return int.from_bytes(hashlib.blake2b(key.encode(), digest_size=8).digest(), "big", signed=True)


def hold(key: str) -> None:
    """Wait until no other transaction holds ``key``, then hold it until this transaction ends.

    PostgreSQL: a transaction-scoped advisory lock on the key, so only transactions about the same
    thing (the same residence, the same owner) wait for each other. SQLite has a single writer: a
    write that changes nothing takes the database's write lock, which serialises every writer
    (with ``pysqlite``'s deferred transactions the reads before it held no snapshot, so the reads
    after it see what the previous writer committed).
    """
    if _dialect() == "postgresql":
        db.session.execute(select(func.pg_advisory_xact_lock(lock_id(key))))
        return
    from portal.models import User

    db.session.execute(
        update(User).where(false()).values(id=User.id).execution_options(synchronize_session=False)
    )


def insert_if_absent(model: Any, **values: Any) -> None:
    """``INSERT ... ON CONFLICT DO NOTHING`` in the dialect of the session (a concurrent insert of
    the same key waits for the other one, then does nothing)."""
    insert = pg_insert if _dialect() == "postgresql" else sqlite_insert
    db.session.execute(insert(model).values(**values).on_conflict_do_nothing())
