# The two commands: `make run` (the site on its embedded default) and `make test` (the whole suite).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000
PYTEST_ARGS ?=
# mypy checks the whole project with 0 errors (docs/architecture.md, "Types"): the pure cores, the web
# edges (rules_web, online, tournaments), config, safety, the benchmarks and the scripts (tests/ is not
# checked yet).
TYPED := variants gameplay scoring rules_web online tournaments config safety bench scripts manage.py

.PHONY: run test install install-dev system-deps system-deps-test lint typecheck ci messages clean \
	compiled clean-compiled test-compiled

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed: $(BIN)/python pyproject.toml
	$(BIN)/pip install --quiet -e .
	touch $@

$(VENV)/.installed-dev: $(VENV)/.installed pyproject.toml
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $@

install: system-deps $(VENV)/.installed
install-dev: system-deps-test $(VENV)/.installed-dev

system-deps:
	bash scripts/system-deps.sh run

system-deps-test:
	bash scripts/system-deps.sh test

## make run: install, migrate, load the demo, make an admin if none, serve http://127.0.0.1:8000 (pages, API and
## WebSockets: daphne's ASGI runserver with the in-memory channel layer)
run: install
	$(BIN)/python scripts/build_compiled.py --check
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py load_demo
	$(BIN)/python manage.py ensure_admin
	$(BIN)/python manage.py runserver $(HOST):$(PORT)

## make test: install the development dependencies and run the whole suite (SQLite, in-process tasks)
test: install-dev
	$(BIN)/python -m pytest -n 2 $(PYTEST_ARGS)

## make lint: ruff, then the import contracts of pyproject.toml (the layers of docs/architecture.md)
lint: install-dev
	$(BIN)/ruff check .
	$(BIN)/lint-imports

## make typecheck: mypy on the whole project (TYPED), as CI runs it
typecheck: install-dev
	$(BIN)/mypy $(TYPED)

messages: install-dev
	$(BIN)/python manage.py makemessages -l zh_Hans --ignore=.venv --ignore=staticfiles
	$(BIN)/python manage.py compilemessages --ignore=.venv

## make compiled: compile the engine's hot modules with mypyc, in place (docs/engine.md, "Compiled build");
## without a C compiler it says so and leaves the pure Python. make clean-compiled goes back to pure Python.
compiled: install-dev
	$(BIN)/python scripts/build_compiled.py

clean-compiled:
	$(if $(wildcard $(BIN)/python),$(BIN)/python,$(PYTHON)) scripts/build_compiled.py --clean

## make test-compiled: the engine's tests on the compiled build (conftest.py leaves the compiled modules' doctests out)
test-compiled: compiled
	$(BIN)/python -m pytest -p no:xdist -q tests/gameplay tests/tournaments/test_trick_entry.py gameplay

ci:
	bash .ci/run

clean: clean-compiled
	rm -rf $(VENV) staticfiles
