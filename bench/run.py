"""Run the portal's benchmarks (``make bench``) and print their results.

The benchmarks are the query-speed scripts of this folder, each seeding a scratch database of its
own (a temporary SQLite file, or a PostgreSQL database created and dropped by the script) and
comparing the median of each query with its target:

- ``adoption_search.py``: the public adoption search with 100 000 listings (issue 5);
- ``workspace_queues.py``: the staff queues with 100 000 rows (issue 10).

Not run here, since they take hours or need a set-up of their own: ``mutation.py`` (``make
mutation``: mutmut over the law modules, many hours) and ``lighthouse.py`` (``make lighthouse``:
the built assets, Lighthouse from npm and chromium).

    .venv/bin/python bench/run.py                      # every benchmark, on SQLite
    .venv/bin/python bench/run.py --postgres           # on SQLite, then on PostgreSQL
    .venv/bin/python bench/run.py --rows 20000 --repeat 5 --only workspace_queues   # quicker

Each benchmark runs in its own process (its own app and database); their output is shown as it
comes, then one line per run. Exit status 1 when a benchmark failed or a median missed its target.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
BENCHMARKS = ("adoption_search", "workspace_queues")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--postgres", action="store_true", help="also run on PostgreSQL")
    parser.add_argument("--rows", type=int, help="rows to seed (each script's default: 100 000)")
    parser.add_argument("--repeat", type=int, help="timed repetitions of each query")
    parser.add_argument("--only", action="append", choices=BENCHMARKS, help="run only this one")
    args = parser.parse_args(argv)

    passed_on = [[]] + ([["--postgres"]] if args.postgres else [])
    extra = []
    if args.rows is not None:
        extra += ["--rows", str(args.rows)]
    if args.repeat is not None:
        extra += ["--repeat", str(args.repeat)]
    results = []
    for name in args.only or BENCHMARKS:
        for database in passed_on:
            where = "PostgreSQL" if database else "SQLite"
            print(f"== {name} on {where}", flush=True)
            start = time.monotonic()
            status = subprocess.call([sys.executable, str(HERE / f"{name}.py"), *database, *extra])
            results.append((name, where, status, time.monotonic() - start))
    print("\n== Benchmarks")
    for name, where, status, seconds in results:
        verdict = "ok" if status == 0 else "SLOW or failed"
        print(f"  {name:<18} {where:<11} {verdict:<15} ({seconds:.0f} s)")
    return 0 if all(status == 0 for _n, _w, status, _s in results) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
