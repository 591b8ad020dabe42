"""Two reports at the same instant never get the same protocol (the per-year counter is row-locked
like the RGA counter). Only PostgreSQL runs writers in parallel, so only there is there a race."""

from __future__ import annotations

import os
import threading

import pytest

from portal.blueprints.reports import services as svc
from portal.extensions import db
from portal.models import ReportCounter

pytestmark = [
    pytest.mark.skipif(
        not os.environ.get("TEST_DATABASE_URL", "").startswith("postgres"),
        reason="needs PostgreSQL: SQLite serialises all writers, so there is no race to test",
    ),
    pytest.mark.real_commits,
]


def test_concurrent_protocols_never_repeat(app) -> None:
    today = svc.local_today()
    barrier = threading.Barrier(10)
    results: list[list[str]] = [[] for _ in range(10)]
    errors: list[BaseException] = []

    def run(i: int) -> None:
        try:
            barrier.wait(timeout=30)
            with app.app_context():
                for _ in range(5):
                    results[i].append(svc.issue_protocol(today))
                    db.session.commit()
        except BaseException as exc:  # noqa: BLE001 - reported by the assertion below
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(10)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not errors, errors
    protocols = [p for batch in results for p in batch]
    assert len(set(protocols)) == 50
    assert sorted(int(p.rsplit("-", 1)[1]) for p in protocols) == list(range(1, 51))
    counter = db.session.get(ReportCounter, today.year)
    db.session.refresh(counter)
    assert counter.last_value == 50
