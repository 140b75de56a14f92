# Theresa Permits. `make help` lists the targets.
PYTHON ?= python3.11
VENV := .venv
PY := $(VENV)/bin/python
PIP := $(VENV)/bin/pip
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: help demo test test-all test-browser lint fmt docs bench migrate run clean

help:
	@echo "make demo          venv, install, migrate, demo data, serve on http://$(HOST):$(PORT)"
	@echo "make test          venv, install, the suite but the few multi-second tests (browser tests skip loudly without /usr/bin/chromium)"
	@echo "make test-all      the whole suite, the slow tests too (as CI runs it)"
	@echo "make test-browser  only the browser tests"
	@echo "make lint          ruff check and ruff format --check (as CI runs them)"
	@echo "make fmt           ruff format and the safe ruff fixes"
	@echo "make docs          the documentation site (MkDocs, strict: a broken link fails) in var/site/"
	@echo "make bench         the benchmarks (not part of make test): clause coverage, then 1k vs 100k permits on PostgreSQL"
	@echo "make clean         remove the venv and var/"

$(STAMP): requirements.txt
	@command -v $(PYTHON) >/dev/null || { echo "$(PYTHON) not found: install Python 3.11"; exit 1; }
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PIP) install --quiet --disable-pip-version-check -r requirements.txt
	touch $(STAMP)

migrate: $(STAMP)
	$(PY) manage.py migrate --noinput

# The demo's links (emails, petition links, PDFs, feeds) point at the server it starts: SITE_URL follows HOST and
# PORT unless it is set (`PORT=8001 make demo`).
demo: export SITE_URL ?= http://$(HOST):$(PORT)
demo: migrate
	$(PY) manage.py load_demo
	$(PY) manage.py runserver $(HOST):$(PORT)

# The suite split over the machine's cores (pytest-xdist): each worker its own test database and, in production mode,
# its own Redis database (theresa_permits/settings.py). TEST_WORKERS=0 runs it in one process.
TEST_WORKERS ?= auto
# The few tests marked slow (several seconds each: whole-demo walks, 4x-rows query checks, backups) are left to
# `make test-all` and CI, so that `make test` stays a few minutes on a 2-core laptop. TEST_MARKERS= runs them too.
TEST_MARKERS ?= not slow

test: $(STAMP)
	$(PY) -m pytest -n $(TEST_WORKERS) -m "$(TEST_MARKERS)" $(PYTEST_ARGS)

test-all: $(STAMP)
	$(PY) -m pytest -n $(TEST_WORKERS) $(PYTEST_ARGS)

test-browser: $(STAMP)
	$(PY) -m pytest tests/browser $(PYTEST_ARGS)

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

fmt: $(STAMP)
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

# NO_MKDOCS_2_WARNING: Material prints a banner about its successor on every build; the build's own warnings stay.
docs: $(STAMP)
	NO_MKDOCS_2_WARNING=1 $(VENV)/bin/mkdocs build --strict -d var/site

bench: $(STAMP)
	@command -v wrk >/dev/null || { [ "$$(id -u)" = 0 ] && { apt-get install -y -qq wrk || \
		{ apt-get update -qq && apt-get install -y -qq wrk; }; } >/dev/null 2>&1; } || \
		echo "wrk is not installed (apt-get install wrk): the load test uses Python threads instead"
	$(PY) bench/clause_coverage.py
	$(PY) bench/run.py

clean:
	rm -rf $(VENV) var
