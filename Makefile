# vendorhub: `make run` starts the whole product, `make test` runs every check. Both set up .venv first.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(CURDIR)/$(VENV)/bin
export PATH := $(BIN):$(PATH)
# Development defaults; production sets its own environment and never runs make.
export DJANGO_DEBUG ?= true
export HUB_SANDBOX_ENABLED ?= true
# One port moves the whole development setup: web listens on it and the sandbox's hub and vendor URLs
# point at it (`make run PORT=8100`).
export PORT ?= 8000

.PHONY: run test test-fast lint docs docs-screens messages setup bench .env

$(VENV)/.runtime: requirements.txt constraints.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet -r requirements.txt -c constraints.txt
	touch $@

$(VENV)/.dev: $(VENV)/.runtime requirements-dev.txt requirements-sandbox.txt
	$(BIN)/pip install --quiet -r requirements-dev.txt -c constraints.txt
	touch $@

## messages: compile the Korean (and any other) translations
messages: $(VENV)/.runtime
	$(BIN)/python manage.py compilemessages --ignore=.venv --ignore=var --verbosity=0

## .env: this checkout's development settings (git-ignored, rewritten by every setup): the port and the
## services when given, so that `.venv/bin/python manage.py ...` run by hand works as `make run` does
.env:
	printf '%s\n' '# Written by make setup (and make run): the development settings manage.py reads here.' \
	  '# Rewritten at every setup; a variable of the environment wins over this file.' \
	  DJANGO_DEBUG=$(DJANGO_DEBUG) HUB_SANDBOX_ENABLED=$(HUB_SANDBOX_ENABLED) \
	  PORT=$(PORT) LOCAL_ORIGIN=http://127.0.0.1:$(PORT) \
	  $(foreach name,DATABASE_URL CELERY_BROKER_URL CACHE_URL,$(if $($(name)),'$(name)=$($(name))')) > $@

## setup: install, translations, migrations and the demo data, and .env
setup: $(VENV)/.runtime messages .env
	mkdir -p var
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py seed_demo $(SEED_DEMO_OPTIONS)

## run: web on http://127.0.0.1:$(PORT), Celery workers and beat, the sandbox as hub; Ctrl-C stops all (the
## workers finish their task first: config.dev_processes)
# honcho gives each process its own PORT (web PORT, worker PORT+100, ...): every URL derived from the
# port (both sandbox hubs, the vendor URL, SITE_URL) comes from LOCAL_ORIGIN, fixed here once for all three.
# honcho is a development tool (requirements-dev.txt): production starts Procfile's processes its own way.
# The login (password, recovery codes) waits for Procfile.dev's `login`, which shows it once web answers:
# last, not buried under the workers' start-up (a target's variable reaches the setup it runs).
run: SEED_DEMO_OPTIONS = --keep-login
run: $(VENV)/.dev setup var/docs-site/index.html
	LOCAL_ORIGIN=http://127.0.0.1:$(PORT) exec $(BIN)/python -m config.dev_processes --procfile Procfile.dev start --port $(PORT)

## lint: ruff's checks and formatting, the import contracts of .importlinter (imports run one way), mypy's
## types across the product (pyproject.toml, [tool.mypy]), the complexity gate (no product function above
## 15: tests/complexity.py) and the docs site's strict build
lint: $(VENV)/.dev docs
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports --no-cache
	$(BIN)/mypy
	$(BIN)/python -m tests.complexity

## docs: the documentation site (docs/, mkdocs.yml) into var/docs-site; a broken link or a missing page fails
# (Material's notice of its end of life, printed at every build, is not ours to act on.)
docs: $(VENV)/.dev
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --quiet

# `make run` serves the site at /docs/: built once when missing (`make docs` rebuilds it).
var/docs-site/index.html: | $(VENV)/.dev
	$(MAKE) --no-print-directory docs

# pytest on every core (pytest-xdist; each worker has its own test database and Redis databases:
# tests/settings.py; the tests of one xdist_group run on one worker), naming the 20 slowest tests at the end.
# PYTEST_ARGS="-n 0" runs in one process.
PYTEST := $(BIN)/pytest -n auto --dist loadgroup --durations=20

## test: lint, then every test (PostgreSQL and Redis when DATABASE_URL and CELERY_BROKER_URL are set), then the
## lines the tests ran per app (coverage, kept in .coverage only)
test: $(VENV)/.dev messages lint
	$(PYTEST) --cov --cov-report= $(PYTEST_ARGS)
	$(BIN)/python -m tests.coverage_by_app

## test-fast: the edit loop: the tests without the slow kinds (browser, subprocess, schemathesis, journey:
## pytest --fast, tests/conftest.py), no lint and no coverage
test-fast: $(VENV)/.dev messages
	$(PYTEST) --fast $(PYTEST_ARGS)

## bench: the sync, rates-and-availability, booking and settlement benchmarks on a fresh database (SQLite under var/bench/, or DATABASE_URL's server); prints figures
bench: $(VENV)/.dev messages
	$(BIN)/python -m bench.sync
	$(BIN)/python -m bench.ari
	$(BIN)/python -m bench.ari_history
	$(BIN)/python -m bench.bookings
	$(BIN)/python -m bench.settlement

## docs-screens: the staff guide's screenshots of the real screens, in English and Korean at 1366 px
## (docs/assets/screens/{en,ko}/*.png): the demo on a temporary SQLite database, the sandbox as hub, chromium
## driven by Playwright (tools/docs_screens.py; CHROMIUM_PATH when it is not /usr/bin/chromium)
docs-screens: $(VENV)/.dev messages
	$(BIN)/python -m tools.docs_screens
