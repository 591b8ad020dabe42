# Two commands matter: `make run` and `make test`. Everything else is what they call.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
FLASK := $(VENV)/bin/flask --app portal
PORT ?= 5000
STAMP := $(VENV)/.installed
TEST_STAMP := $(VENV)/.installed-test
VENDOR := portal/static/vendor/govbr-ds/govbr-critical.css
MO := portal/translations/en/LC_MESSAGES/messages.mo

.PHONY: run test install install-test assets translations migrate seed lint bench lighthouse mutation clean

$(STAMP): pyproject.toml constraints.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -c constraints.txt -e .
	touch $@

$(TEST_STAMP): $(STAMP)
	$(PY) -m pip install -q -c constraints.txt -e '.[test,dev]'
	touch $@

install: $(STAMP)
install-test: $(TEST_STAMP)

# gov.br Design System (served) and axe-core (browser tests), from the npm registry; not committed.
node_modules/.package-lock.json: package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error

# Only the DS rules the portal uses (issue 15): PurgeCSS over the templates, Python and scripts
# writes govbr-critical.css (public pages and page frame, in <head>) and govbr-rest.css (end of
# <body>); rebuilt when a template, a Python file or a script changes.
GOVBR_CONTENT := $(shell find portal \( -name '*.html' -o -name '*.py' -o -name '*.js' \) -not -path '*/vendor/*' 2>/dev/null)
$(VENDOR): node_modules/.package-lock.json scripts/build-css.mjs $(GOVBR_CONTENT)
	mkdir -p portal/static/vendor/govbr-ds
	node scripts/build-css.mjs
	cp node_modules/@govbr-ds/core/LICENSE portal/static/vendor/govbr-ds/

# Leaflet for the report maps (issue 12): served from our own static files, never a CDN.
LEAFLET := portal/static/vendor/leaflet/leaflet.js
$(LEAFLET): node_modules/.package-lock.json
	mkdir -p portal/static/vendor/leaflet
	cp -R node_modules/leaflet/dist/leaflet.js node_modules/leaflet/dist/leaflet.css node_modules/leaflet/dist/images portal/static/vendor/leaflet/
	cp node_modules/leaflet/LICENSE portal/static/vendor/leaflet/

assets: $(VENDOR) $(LEAFLET)

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

# The whole suite on SQLite and on a fresh PostgreSQL database that is dropped afterwards, both at
# once (TEST_PARALLEL=0: one after the other), each on TEST_WORKERS pytest-xdist workers (default
# 2), ending with its wall time. It runs `lint` first
# (ruff check, ruff format --check, mypy) and stops if it fails; LINT=0 skips it.
ifeq ($(origin LINT),default)  # GNU make predefines LINT=lint
LINT := 1
endif
TEST_WORKERS ?= 2
test: install-test assets translations
	@start=$$(date +%s); LINT=$(LINT) TEST_WORKERS=$(TEST_WORKERS) bash scripts/run_tests.sh; \
	status=$$?; took=$$(( $$(date +%s) - start )); \
	echo "make test: $$(( took / 60 )) min $$(( took % 60 )) s"; exit $$status

lint: install-test
	$(VENV)/bin/ruff check portal tests
	$(VENV)/bin/ruff format --check portal tests
	$(VENV)/bin/mypy portal

bench: install-test
	$(PY) bench/run.py

# Mutation testing of the law services (issue 16): mutmut, one mutant at a time, one module at a time, over
# the modules in pyproject's [tool.mutmut] only_mutate; the table goes to bench/results/mutation.md.
# Many hours (about 12 000 mutants at 15-140 a minute): not part of `make test`.
# `make mutation MODULES=dates` runs one module;
# `.venv/bin/python bench/mutation.py --report-only` rewrites the table from bench/results/mutation/.
mutation: install-test
	$(PY) bench/mutation.py $(MODULES)

# Lighthouse (npm devDependency, Debian chromium) over the public pages in production
# configuration; the scores go to bench/results/lighthouse.md.
lighthouse: install assets translations
	$(PY) bench/lighthouse.py

clean:
	rm -rf $(VENV) node_modules portal/static/vendor instance/portal.db

translations-update: install
	$(VENV)/bin/pybabel extract -F babel.cfg -k _l -o portal/translations/messages.pot portal
	$(VENV)/bin/pybabel update -i portal/translations/messages.pot -d portal/translations
