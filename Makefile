# Two commands matter: `make run` and `make test`. Everything else is what they call.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
FLASK := $(VENV)/bin/flask --app portal
PORT ?= 5000
STAMP := $(VENV)/.installed
TEST_STAMP := $(VENV)/.installed-test
VENDOR := portal/static/vendor/govbr-ds/core.min.css
MO := portal/translations/en/LC_MESSAGES/messages.mo

.PHONY: run test install install-test assets translations migrate seed lint bench clean

$(STAMP): pyproject.toml constraints.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -c constraints.txt -e .
	touch $@

$(TEST_STAMP): $(STAMP)
	$(PY) -m pip install -q -c constraints.txt -e '.[test]'
	touch $@

install: $(STAMP)
install-test: $(TEST_STAMP)

# gov.br Design System (served) and axe-core (browser tests), from the npm registry; not committed.
node_modules/.package-lock.json: package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error

$(VENDOR): node_modules/.package-lock.json
	mkdir -p portal/static/vendor/govbr-ds
	cp node_modules/@govbr-ds/core/dist/core.min.css node_modules/@govbr-ds/core/dist/core.min.js portal/static/vendor/govbr-ds/
	cp node_modules/@govbr-ds/core/LICENSE portal/static/vendor/govbr-ds/

assets: $(VENDOR)

$(MO): portal/translations/en/LC_MESSAGES/messages.po $(STAMP)
	$(VENV)/bin/pybabel compile -d portal/translations --statistics

translations: $(MO)

migrate: install
	mkdir -p instance
	$(FLASK) ensure-database
	$(FLASK) db upgrade

seed: migrate
	$(FLASK) seed-demo

run: install assets translations seed
	@echo "Portal em http://127.0.0.1:$(PORT)  (perfil: $${PORTAL_PROFILE:-guarulhos})"
	$(FLASK) run --host 127.0.0.1 --port $(PORT)

# The whole suite on SQLite, then on a fresh PostgreSQL database that is dropped afterwards.
test: install-test assets translations
	bash scripts/run_tests.sh

lint: install-test
	$(VENV)/bin/ruff check portal tests
	$(VENV)/bin/mypy portal

bench: install-test
	$(PY) bench/run.py

clean:
	rm -rf $(VENV) node_modules portal/static/vendor instance/portal.db

translations-update: install
	$(VENV)/bin/pybabel extract -F babel.cfg -k _l -o portal/translations/messages.pot portal
	$(VENV)/bin/pybabel update -i portal/translations/messages.pot -d portal/translations
