#!/usr/bin/env bash
# Run the suite on SQLite, then on PostgreSQL in a database created for this run and dropped after.
# PostgreSQL is started when it is not running; if it still cannot be reached the run fails.
set -uo pipefail
cd "$(dirname "$0")/.."
PY=.venv/bin/python
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
  if [ ! -f portal/static/vendor/govbr-ds/core.min.css ]; then
    make -s assets || { echo "FATAL: could not build the gov.br DS assets (make assets)"; exit 1; }
  fi
  .venv/bin/pybabel -q compile -d portal/translations || { echo "FATAL: pybabel compile failed"; exit 1; }
}

ensure_chromium
ensure_built
status=0

echo "== Test suite on SQLite"
TEST_DATABASE_URL="sqlite:///$(mktemp -d)/ccz_test.db" $PY -m pytest "$@" || status=1

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
TEST_DATABASE_URL="postgresql://postgres@127.0.0.1:5432/$DB" $PY -m pytest "$@" || status=1
exit $status
