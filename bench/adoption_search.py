"""Benchmark: the public adoption search with 100 000 listings (issue #5).

Seeds a scratch database (a temporary SQLite file, or a PostgreSQL database created for the run
and dropped afterwards), then times the queries behind ``/adocao`` and ``GET /api/v1/listings``:
the first page and a deep page (keyset cursor halfway through), with and without filters, plus the
result count and the neighbourhood suggestions. Speed targets live here, never in timed tests.

    .venv/bin/python bench/adoption_search.py                  # SQLite
    .venv/bin/python bench/adoption_search.py --postgres       # PostgreSQL at 127.0.0.1:5432
    .venv/bin/python bench/adoption_search.py --rows 20000     # a quicker run

Exit status 1 when a median is above its target.
"""

from __future__ import annotations

import argparse
import os
import random
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
DISTRICTS = ["Centro", "Vila Galvão", "Bonsucesso", "Pimentas", "Cumbica", "Taboão",
             "Jardim São João", "Vila Augusta", "Macedo", "Gopoúva", "Picanço", "Cocaia"]
# Median milliseconds allowed per query (a phone on 3G waits for much more than this).
TARGETS_MS = {"first page": 50, "deep page": 50, "first page, filtered": 60,
              "deep page, filtered": 60, "first page, oldest": 50, "count": 150,
              "count, filtered": 150, "districts": 150, "first page, words": 60,
              "count, words": 250}
COLOURS = ["Caramelo", "Preto", "Branco", "Tricolor", "Cinza", "Rajado", "Preto e branco"]
STORIES = ["", "Resgatado na chuva, muito dócil.", "Brincalhão e carinhoso.",
           "Convive bem com crianças.", "Idoso e tranquilo, gosta de colo."]


def seed(rows: int) -> None:
    from portal.models import (
        Listing,
        ListingPhoto,
        ListingState,
        Organization,
        OrganizationStatus,
        StoredFile,
    )
    from portal.models.adoption import listing_search_text
    from portal.services.identity import _fold

    rnd = random.Random(5)
    orgs = []
    for i in range(20):
        org = Organization(legal_name=f"ONG {i}", responsible_name="R",
                           status=OrganizationStatus.APPROVED)
        db.session.add(org)
        orgs.append(org)
    photo = StoredFile(token=uuid.uuid4().hex, purpose="listing_photo", content_type="image/jpeg",
                       size_bytes=1, variants={"thumbnail": "x.jpg"}, public=True)
    db.session.add(photo)
    db.session.flush()
    org_ids = [o.id for o in orgs] + [None] * 5
    start = datetime(2024, 1, 1, tzinfo=UTC)
    today = date.today()
    batch: list[dict] = []
    for n in range(rows):
        district = rnd.choice(DISTRICTS)
        colour, story = rnd.choice(COLOURS), rnd.choice(STORIES)
        published = start + timedelta(minutes=rnd.randrange(0, 60 * 24 * 700))
        state = ListingState.PUBLISHED if rnd.random() < 0.8 else rnd.choice(
            [ListingState.DRAFT, ListingState.ADOPTED, ListingState.WITHDRAWN])
        batch.append({
            "organization_id": rnd.choice(org_ids), "name": f"Animal {n}",
            "species": rnd.choice(["dog", "dog", "cat"]), "sex": rnd.choice(["male", "female"]),
            "birth_date": today - timedelta(days=rnd.randrange(60, 15 * 365)),
            "birth_date_estimated": True, "size": rnd.choice(["small", "medium", "large"]),
            "breed": "SRD", "color": colour, "good_with_children": rnd.random() < 0.5,
            "good_with_dogs": rnd.random() < 0.5, "good_with_cats": rnd.random() < 0.3,
            "vaccinated": True, "dewormed": True, "sterilized": rnd.random() < 0.7,
            "story": story, "district": district, "district_key": _fold(district), "state": state,
            "search_text": listing_search_text(f"Animal {n}", colour, "SRD", district, story),
            "published_at": published if state != ListingState.DRAFT else None,
        })
        if len(batch) == 5000:
            db.session.execute(insert(Listing), batch)
            batch = []
    if batch:
        db.session.execute(insert(Listing), batch)
    ids = db.session.scalars(select(Listing.id)).all()
    db.session.execute(insert(ListingPhoto), [{"listing_id": i, "stored_file_id": photo.id,
                                               "position": 0} for i in ids])
    db.session.commit()
    if db.engine.dialect.name == "postgresql":
        with db.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
            conn.exec_driver_sql("VACUUM ANALYZE")
    else:
        with db.engine.connect() as conn:
            conn.exec_driver_sql("ANALYZE")


def timed(label: str, fn, repeat: int) -> tuple[str, float]:  # type: ignore[no-untyped-def]
    fn()  # warm-up
    samples = []
    for _ in range(repeat):
        db.session.expire_all()
        t0 = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - t0) * 1000)
    return label, statistics.median(samples)


def run(rows: int, repeat: int) -> int:
    from portal.blueprints.adoption.search import (
        SearchFilters,
        encode_cursor,
        known_districts,
        search_listings,
    )
    from portal.models import Listing, ListingState

    t0 = time.perf_counter()
    seed(rows)
    print(f"Seeded {rows:,} listings in {time.perf_counter() - t0:.1f} s "
          f"({db.engine.dialect.name})")
    today = date.today()
    plain = SearchFilters()
    filtered = SearchFilters(species="dog", size="small", children=True)

    def deep_cursor(filters: SearchFilters) -> str:
        # The cursor a visitor would hold after paging halfway through the results.
        stmt = select(Listing).where(Listing.state == ListingState.PUBLISHED)
        if filters.species:
            stmt = stmt.where(Listing.species == filters.species, Listing.size == filters.size,
                              Listing.good_with_children.is_(True))
        total = len(db.session.scalars(stmt.with_only_columns(Listing.id)).all())
        middle = db.session.scalars(stmt.order_by(Listing.published_at.desc(), Listing.id.desc())
                                    .offset(total // 2).limit(1)).one()
        return encode_cursor(middle)

    deep_plain, deep_filtered = deep_cursor(plain), deep_cursor(filtered)
    results = [
        timed("first page", lambda: search_listings(plain, today), repeat),
        timed("deep page", lambda: search_listings(plain, today, cursor=deep_plain), repeat),
        timed("first page, filtered", lambda: search_listings(filtered, today), repeat),
        timed("deep page, filtered",
              lambda: search_listings(filtered, today, cursor=deep_filtered), repeat),
        timed("first page, oldest",
              lambda: search_listings(SearchFilters(sort="oldest"), today), repeat),
        timed("count", lambda: search_listings(plain, today, with_total=True), repeat),
        timed("count, filtered", lambda: search_listings(filtered, today, with_total=True),
              repeat),
        timed("districts", known_districts, repeat),
        # The free-text box: "gato preto" is the species filter plus a word to find.
        timed("first page, words",
              lambda: search_listings(SearchFilters(q="gato preto"), today), repeat),
        timed("count, words",
              lambda: search_listings(SearchFilters(q="gatos pretos"), today, with_total=True),
              repeat),
    ]
    failed = 0
    for label, ms in results:
        target = TARGETS_MS[label]
        ok = ms <= target
        failed += not ok
        print(f"  {label:<24} {ms:8.1f} ms   target {target:>4} ms   {'ok' if ok else 'SLOW'}")
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
                status = run(args.rows, args.repeat)
            db.session.remove()
            db.engine.dispose()
    finally:
        if scratch_pg:
            import psycopg

            with psycopg.connect(PG_ADMIN, autocommit=True) as conn:
                conn.execute(f'DROP DATABASE IF EXISTS "{scratch_pg}" WITH (FORCE)')
    return status


if __name__ == "__main__":
    sys.exit(main())
