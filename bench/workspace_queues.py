"""Benchmark: the staff workspace's queues with 100 000 rows (issue 10).

Seeds a scratch database (a temporary SQLite file, or a PostgreSQL database created for the run and
dropped afterwards) with 100 000 second-copy requests (the ``rga-segundas-vias`` queue, a third of
them past their deadline) and times what staff do: the Painel's card (count, oldest, overdue), the
first page, a deep page (keyset cursor halfway), the overdue filter and the CSV of every row.

    .venv/bin/python bench/workspace_queues.py              # SQLite
    .venv/bin/python bench/workspace_queues.py --postgres   # PostgreSQL at 127.0.0.1:5432

Exit status 1 when a median is above its target.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
import uuid
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sqlalchemy import insert, select  # noqa: E402

from portal import create_app  # noqa: E402
from portal.config import TestingConfig, database_url  # noqa: E402
from portal.extensions import db  # noqa: E402

PG_ADMIN = "postgresql://postgres@127.0.0.1:5432/postgres"
TARGETS_MS = {"card (count, oldest, overdue)": 150, "first page": 50, "deep page": 50,
              "first page, overdue only": 80,
              # streamed: the first rows reach the browser at once; this is the last one
              "csv, every row": 20000}


def seed(rows: int) -> None:
    from portal.blueprints.animals.services import issue_rga  # noqa: F401  (real numbers)
    from portal.models import Animal, DocumentCopyRequest, User

    owner = User(full_name="Bench", cpf="52998224725", email="bench@example.com")
    db.session.add(owner)
    db.session.flush()
    animals = []
    for n in range(200):
        animals.append({"rga": f"C-2026-{n:06d}-0", "species": "dog", "name": f"Cão {n}",
                        "sex": "male", "birth_date": date(2024, 1, 1),
                        "registered_on": date(2025, 1, 1), "owner_id": owner.id,
                        "residence_key": "x", "status": "active"})
    db.session.execute(insert(Animal), animals)
    ids = db.session.scalars(select(Animal.id)).all()
    today = date.today()
    now = datetime.now(UTC)
    batch: list[dict] = []
    for n in range(rows):
        age = n % 90  # 0..89 days: a third past GRU 19's 45 days… and some more
        requested = today - timedelta(days=age)
        batch.append({"animal_id": ids[n % len(ids)], "kind": "card", "requested_on": requested,
                      "requested_at": now - timedelta(days=age, minutes=n % 1440),
                      "valid_until": requested + timedelta(days=45), "status": "requested"})
        if len(batch) == 5000:
            db.session.execute(insert(DocumentCopyRequest), batch)
            batch = []
    if batch:
        db.session.execute(insert(DocumentCopyRequest), batch)
    db.session.commit()
    with db.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
        conn.exec_driver_sql("VACUUM ANALYZE" if db.engine.dialect.name == "postgresql"
                             else "ANALYZE")


def timed(label: str, fn, repeat: int) -> tuple[str, float]:  # type: ignore[no-untyped-def]
    fn()
    samples = []
    for _ in range(repeat):
        db.session.expire_all()
        t0 = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - t0) * 1000)
    return label, statistics.median(samples)


def run(rows: int, repeat: int) -> int:
    from portal.workspace import all_rows, encode_cursor, page, registry, stats

    t0 = time.perf_counter()
    seed(rows)
    print(f"Seeded {rows:,} queue rows in {time.perf_counter() - t0:.1f} s "
          f"({db.engine.dialect.name})")
    queue = registry().get("rga-segundas-vias")
    assert queue is not None
    middle = db.session.scalars(queue.rows().order_by(queue.order, queue.entity.id)
                                .offset(rows // 2).limit(1)).one()
    deep = {"apos": encode_cursor(queue, middle)}

    def csv_rows() -> None:
        for row in all_rows(queue, {}):
            [c.value(row) for c in queue.columns]  # what the CSV writes per row

    results = [
        timed("card (count, oldest, overdue)", lambda: stats(queue), repeat),
        timed("first page", lambda: page(queue, {}), repeat),
        timed("deep page", lambda: page(queue, deep), repeat),
        timed("first page, overdue only", lambda: page(queue, {"atrasados": "1"}), repeat),
        timed("csv, every row", csv_rows, 1),
    ]
    failed = 0
    for label, ms in results:
        target = TARGETS_MS[label]
        ok = ms <= target
        failed += not ok
        print(f"  {label:<32} {ms:9.1f} ms   target {target:>5} ms   {'ok' if ok else 'SLOW'}")
    return 1 if failed else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--postgres", action="store_true")
    args = parser.parse_args()
    scratch_pg = None
    if args.postgres:
        import psycopg

        scratch_pg = f"ccz_bench_{uuid.uuid4().hex[:8]}"
        with psycopg.connect(PG_ADMIN, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{scratch_pg}"')
        url = f"postgresql://postgres@127.0.0.1:5432/{scratch_pg}"
    else:
        url = f"sqlite:///{tempfile.mkdtemp(prefix='ccz-bench-')}/bench.db"
    config = TestingConfig()
    config.SQLALCHEMY_DATABASE_URI = database_url(url)
    config.UPLOAD_DIR = tempfile.mkdtemp(prefix="ccz-bench-uploads-")  # type: ignore[attr-defined]
    os.environ.setdefault("PORTAL_ENV", "testing")
    app = create_app(config)
    try:
        with app.app_context():
            db.create_all()
            with app.test_request_context():
                return run(args.rows, args.repeat)
    finally:
        with app.app_context():
            db.session.remove()
            db.engine.dispose()
        if scratch_pg:
            import psycopg

            with psycopg.connect(PG_ADMIN, autocommit=True) as conn:
                conn.execute(f'DROP DATABASE IF EXISTS "{scratch_pg}" WITH (FORCE)')


if __name__ == "__main__":
    raise SystemExit(main())
