"""Lighthouse over the public pages, the way a citizen's cheap phone sees them (issue 15).

Starts the portal in production configuration (gunicorn, ``PORTAL_ENV=production``, a throwaway
SQLite database with the demo data) on a free loopback port, runs Lighthouse from the npm registry
(``node_modules/.bin/lighthouse``, a devDependency) with Debian's chromium and its default mobile
profile (simulated slow 4G, 4x CPU slowdown) over home, adoption search, a listing, ``/rga/<n>``,
sign-up and rules, and writes the four category scores with FCP and LCP per page to
``bench/results/lighthouse.md``.

    make lighthouse                     # or: .venv/bin/python bench/lighthouse.py [--runs 3]

Targets: performance >= 95 and LCP <= 2.0 s on every page; accessibility, best practices, SEO 100.
This is a benchmark, not a timed test: numbers move a little between runs on a shared machine, so
``--runs N`` keeps each page's median run (by performance score).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import secrets
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
VENV_BIN = ROOT / ".venv" / "bin"
LIGHTHOUSE = ROOT / "node_modules" / ".bin" / "lighthouse"
CHROMIUM = "/usr/bin/chromium"
RESULTS = ROOT / "bench" / "results" / "lighthouse.md"
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
HISTORY = "## Earlier runs"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def prepare_database(env: dict[str, str]) -> None:
    """Tables from the models (create_all, like the tests: the bench measures pages, and a model
    column whose migration is not generated yet must not stop it), then the demo data."""
    create_all = ("from portal import create_app; from portal.extensions import db; "
                  "app = create_app(); app.app_context().push(); db.create_all()")
    subprocess.run([str(VENV_BIN / "python"), "-c", create_all], cwd=ROOT, env=env, check=True)
    subprocess.run([str(VENV_BIN / "flask"), "--app", "portal", "seed-demo"], cwd=ROOT, env=env,
                   check=True, stdout=subprocess.DEVNULL)


def wait_until_up(url: str, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url + "/healthz", timeout=2):
                return
        except OSError:
            time.sleep(0.3)
    raise SystemExit(f"the portal did not answer on {url}")


def public_pages(url: str, db_file: Path) -> dict[str, str]:
    """The six pages of the issue; the listing and the RGA are the first ones of the demo data."""
    with urllib.request.urlopen(url + "/adocao", timeout=10) as response:
        listing = re.search(r'href="(/adocao/animal/\d+)"', response.read().decode())
    with sqlite3.connect(db_file) as conn:
        rga = conn.execute("SELECT rga FROM animal ORDER BY id LIMIT 1").fetchone()
    pages = {"home": "/", "adoption search": "/adocao"}
    if listing:
        pages["listing"] = listing.group(1)
    if rga:
        pages["/rga/<n>"] = f"/rga/{rga[0]}"
    pages.update({"sign-up": "/conta/cadastro", "rules": "/regras"})
    return pages


def run_lighthouse(url: str, out: Path) -> dict:
    subprocess.run(
        [str(LIGHTHOUSE), url, "--quiet", "--output=json", f"--output-path={out}",
         "--only-categories=" + ",".join(CATEGORIES), "--locale=en",
         "--chrome-flags=--headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage"],
        cwd=ROOT, env={**os.environ, "CHROME_PATH": CHROMIUM}, check=True,
    )
    report = json.loads(out.read_text())
    audits = report["audits"]
    return {
        **{c: round(100 * (report["categories"][c]["score"] or 0)) for c in CATEGORIES},
        "fcp": audits["first-contentful-paint"]["numericValue"] / 1000,
        "lcp": audits["largest-contentful-paint"]["numericValue"] / 1000,
        "failed": [a["id"] for c in CATEGORIES[1:]
                   for ref in report["categories"][c]["auditRefs"]
                   if ref["weight"] and (a := audits[ref["id"]])["score"] not in (None, 1)],
        "version": report["lighthouseVersion"],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=1, help="runs per page (median kept)")
    parser.add_argument("--output", type=Path, default=RESULTS)
    args = parser.parse_args()
    if not LIGHTHOUSE.exists():
        raise SystemExit("node_modules/.bin/lighthouse is missing: run `make assets` first")

    with tempfile.TemporaryDirectory(prefix="ccz-lighthouse-") as tmp:
        db_file = Path(tmp) / "portal.db"
        port = free_port()
        url = f"http://127.0.0.1:{port}"
        env = {**os.environ, "PORTAL_ENV": "production", "PORTAL_PROFILE": "guarulhos",
               "SECRET_KEY": secrets.token_hex(32), "DATABASE_URL": f"sqlite:///{db_file}",
               "UPLOAD_DIR": str(Path(tmp) / "uploads"), "RATELIMIT_STORAGE_URI": "memory://",
               "RATELIMIT_ALLOW_MEMORY": "1",
               "PUBLIC_BASE_URL": url}
        prepare_database(env)
        server_log = open(Path(tmp) / "server.log", "wb")  # noqa: SIM115 (closed with the server)
        server = subprocess.Popen(
            [str(VENV_BIN / "gunicorn"), "-w", "2", "-b", f"127.0.0.1:{port}", "wsgi:app"],
            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=server_log)
        try:
            wait_until_up(url)
            rows = []
            for name, path in public_pages(url, db_file).items():
                runs = [run_lighthouse(url + path, Path(tmp) / f"lh-{len(rows)}-{i}.json")
                        for i in range(args.runs)]
                runs.sort(key=lambda r: r["performance"])
                best = runs[len(runs) // 2]
                if args.runs > 1:
                    best["lcp"] = statistics.median(r["lcp"] for r in runs)
                    best["fcp"] = statistics.median(r["fcp"] for r in runs)
                rows.append((name, path, best))
                print(f"{name:18} perf {best['performance']:3} a11y {best['accessibility']:3} "
                      f"bp {best['best-practices']:3} seo {best['seo']:3} "
                      f"FCP {best['fcp']:.2f}s LCP {best['lcp']:.2f}s {' '.join(best['failed'])}",
                      flush=True)
        except subprocess.CalledProcessError:
            server_log.flush()
            print((Path(tmp) / "server.log").read_text(errors="replace")[-4000:], file=sys.stderr)
            raise
        finally:
            server.terminate()
            server.wait(timeout=10)
            server_log.close()

    write_table(args.output, rows, args.runs)
    print(f"written to {args.output}")
    ok = all(r["performance"] >= 95 and r["lcp"] <= 2.0 and
             min(r["accessibility"], r["best-practices"], r["seo"]) == 100 for _n, _p, r in rows)
    sys.exit(0 if ok else 1)


def write_table(output: Path, rows: list, runs: int) -> None:
    version = rows[0][2]["version"] if rows else "?"
    lines = [
        "# Lighthouse: public pages (mobile profile)",
        "",
        f"Run {datetime.now(UTC):%Y-%m-%d %H:%M} UTC by `make lighthouse` (bench/lighthouse.py): "
        f"Lighthouse {version}, Debian chromium headless, default mobile profile (simulated slow "
        f"4G, 4x CPU slowdown), portal in production configuration (gunicorn, compression on) "
        f"with the demo data; {runs} run(s) per page{', median kept' if runs > 1 else ''}.",
        "Targets: performance >= 95 and LCP <= 2.0 s; accessibility, best practices, SEO 100.",
        "",
        "| Page | Path | Performance | Accessibility | Best practices | SEO | FCP | LCP |",
        "|---|---|---:|---:|---:|---:|---:|---:|",
    ]
    for name, path, r in rows:
        path = re.sub(r"/rga/.*", "/rga/<n>", re.sub(r"/animal/\d+", "/animal/<id>", path))
        lines.append(f"| {name} | `{path}` | {r['performance']} | {r['accessibility']} | "
                     f"{r['best-practices']} | {r['seo']} | {r['fcp']:.1f} s | {r['lcp']:.1f} s |")
    # Notes kept by hand under "## Earlier runs" (e.g. the numbers before issue 15) stay.
    previous = output.read_text(encoding="utf-8") if output.exists() else ""
    if HISTORY in previous:
        lines += ["", previous[previous.index(HISTORY):].rstrip("\n")]
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
