#!/usr/bin/env bash
# Run the suite on SQLite, then on PostgreSQL in a database created for this run and dropped after.
# PostgreSQL is started when it is not running; if it still cannot be reached the run fails.
#
#   LINT=1          first run ruff check, ruff format --check and mypy, and stop if they fail
#                   (the default; `make test LINT=0` skips it)
#   TEST_WORKERS=N  pytest-xdist workers per database (default 2, one per core here; 0 = no xdist).
#                   Each worker has its own database: tests/conftest.py derives <db>_gw0, <db>_gw1
#                   (created and dropped by the workers; drop_db below sweeps any left behind).
#                   Work stealing: each worker starts on half the tests and an idle one takes
#                   pending tests from the other, so a few minute-long browser tests (the axe-core
#                   walk of every role's pages) do not leave one worker running alone at the end.
set -uo pipefail
cd "$(dirname "$0")/.."
PY=.venv/bin/python
LINT=${LINT:-1}
TEST_WORKERS=${TEST_WORKERS:-2}
XDIST=()
# The slowest tests of each run, so a run that grows past the 15-minute target says where to look.
DURATIONS=(--durations=15 --durations-min=5)
if [ "$TEST_WORKERS" != 0 ]; then XDIST=(-n "$TEST_WORKERS" --dist worksteal); fi
PG_ADMIN_URL=${PG_ADMIN_URL:-postgresql://postgres@127.0.0.1:5432/postgres}

ensure_chromium() {
  if [ ! -x /usr/bin/chromium ]; then
    echo "== Installing Debian's chromium for the browser tests"
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium) >/dev/null \
      || { echo "Could not install chromium (needed by tests/browser)"; exit 1; }
  fi
}

pg_ready() { pg_isready -h 127.0.0.1 -p 5432 -q 2>/dev/null || $PY - <<'PYEOF'
import sys, psycopg
try:
    psycopg.connect("postgresql://postgres@127.0.0.1:5432/postgres", connect_timeout=3).close()
except Exception:
    sys.exit(1)
PYEOF
}

ensure_postgres() {
  if ! pg_ready; then
    echo "== PostgreSQL is not running; starting it"
    pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n1)" main start || true
    for _ in $(seq 1 20); do pg_ready && return 0; sleep 1; done
    echo "FATAL: PostgreSQL at 127.0.0.1:5432 is unreachable; the PostgreSQL run cannot be skipped."
    exit 1
  fi
}

# What `make test` builds first, checked here too so that running this script directly (e.g. on a
# few paths) tests the real pages: the gov.br DS CSS (browser tests) and the English catalogue.
ensure_built() {
  if [ ! -f portal/static/vendor/govbr-ds/govbr-critical.css ]; then
    make -s assets || { echo "FATAL: could not build the gov.br DS assets (make assets)"; exit 1; }
  fi
  .venv/bin/pybabel -q compile -d portal/translations || { echo "FATAL: pybabel compile failed"; exit 1; }
}

lint() {
  echo "== Lint: ruff check, ruff format --check, mypy"
  .venv/bin/ruff check portal tests && .venv/bin/ruff format --check portal tests \
    && .venv/bin/mypy portal || { echo "FATAL: lint failed (LINT=0 skips it)"; exit 1; }
}

if [ "$LINT" = 1 ]; then lint; fi
ensure_chromium
ensure_built
status=0

took() { echo "== $1 took $(( (SECONDS - $2) / 60 )) min $(( (SECONDS - $2) % 60 )) s"; }

echo "== Test suite on SQLite (with the URL walkers; the other @walker walks run on PostgreSQL)"
start=$SECONDS
TEST_DATABASE_URL="sqlite:///$(mktemp -d)/ccz_test.db" $PY -m pytest "${XDIST[@]}" "${DURATIONS[@]}" "$@" || status=1
took SQLite "$start"

ensure_postgres
DB="ccz_test_$$_$(date +%s)"
$PY - "$DB" <<'PYEOF'
import sys, psycopg
with psycopg.connect("postgresql://postgres@127.0.0.1:5432/postgres", autocommit=True) as c:
    c.execute(f'CREATE DATABASE "{sys.argv[1]}"')
PYEOF
drop_db() {
  $PY - "$DB" <<'PYEOF'
import sys, psycopg
with psycopg.connect("postgresql://postgres@127.0.0.1:5432/postgres", autocommit=True) as c:
    c.execute(f'DROP DATABASE IF EXISTS "{sys.argv[1]}" WITH (FORCE)')
    for (name,) in c.execute("SELECT datname FROM pg_database WHERE datname LIKE %s",
                             (sys.argv[1] + "_%",)).fetchall():
        c.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
PYEOF
}
trap drop_db EXIT

echo "== Test suite on PostgreSQL (database $DB)"
start=$SECONDS
TEST_DATABASE_URL="postgresql://postgres@127.0.0.1:5432/$DB" $PY -m pytest "${XDIST[@]}" "${DURATIONS[@]}" "$@" \
  || status=1
took PostgreSQL "$start"
exit $status
