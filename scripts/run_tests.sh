#!/usr/bin/env bash
# Run the suite on SQLite and on PostgreSQL (in a database created for this run and dropped after),
# both at once by default. PostgreSQL is started when it is not running; if it still cannot be
# reached the run fails.
#
#   LINT=1          first run ruff check, ruff format --check and mypy, and stop if they fail
#                   (the default; `make test LINT=0` skips it)
#   TEST_PARALLEL=0 run SQLite first, then PostgreSQL, streaming the output (default 1: at once)
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

took() { echo "== $1 took $(( ($3 - $2) / 60 )) min $(( ($3 - $2) % 60 )) s"; }

# Both databases at once (TEST_PARALLEL=1, the default): each run is a pytest with TEST_WORKERS
# workers, its output kept in a file and printed whole when the run ends. About two thirds of the
# time goes to the browser tests, which mostly wait (Python, Playwright's driver, chromium and the
# live server hand each step to one another) and use under half of the two cores; the other run's
# tests fill that idle time. TEST_PARALLEL=0 runs SQLite, then PostgreSQL, streaming their output.
TEST_PARALLEL=${TEST_PARALLEL:-1}
LOGS=$(mktemp -d)

run_suite() {  # name, database URL, pytest arguments...
  local name=$1 url=$2 begin=$SECONDS rc=0
  shift 2
  if [ "$TEST_PARALLEL" = 1 ]; then
    TEST_DATABASE_URL="$url" $PY -m pytest "${XDIST[@]}" "${DURATIONS[@]}" "$@" >"$LOGS/$name.log" 2>&1 || rc=1
    echo "== Test suite on $name"
    cat "$LOGS/$name.log"
  else
    echo "== Test suite on $name"
    TEST_DATABASE_URL="$url" $PY -m pytest "${XDIST[@]}" "${DURATIONS[@]}" "$@" || rc=1
  fi
  took "$name" "$begin" "$SECONDS"
  return $rc
}

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
  rm -rf "$LOGS"
}
trap drop_db EXIT

SQLITE_URL="sqlite:///$(mktemp -d)/ccz_test.db"
PG_URL="postgresql://postgres@127.0.0.1:5432/$DB"
if [ "$TEST_PARALLEL" = 1 ]; then
  echo "== Test suites on SQLite (with the URL walkers) and on PostgreSQL (database $DB, with the" \
       "other @walker walks) at once; each prints its output when it ends"
  run_suite SQLite "$SQLITE_URL" "$@" &
  sqlite_pid=$!
  run_suite PostgreSQL "$PG_URL" "$@" &
  pg_pid=$!
  wait "$sqlite_pid" || status=1
  wait "$pg_pid" || status=1
else
  run_suite SQLite "$SQLITE_URL" "$@" || status=1
  run_suite PostgreSQL "$PG_URL" "$@" || status=1
fi
exit $status
