# The two commands: `make eval` (an eval run that needs no API key) and `make test`.
# Each sets itself up on a fresh machine: a pinned uv, then every workspace package.
SHELL := /bin/bash
PYTHON ?= python3
UV_VERSION := 0.13.9
BOOT := .uv-bootstrap
UV := $(BOOT)/bin/uv
VENV := .venv
STAMP := $(VENV)/.synced
EVAL_SUITES ?= -s python -s basic
PYTEST_ARGS ?=

.PHONY: setup eval test lint bench mutate clean

$(UV):
	$(PYTHON) -m venv $(BOOT)
	$(BOOT)/bin/pip install --quiet --disable-pip-version-check uv==$(UV_VERSION)

$(STAMP): $(UV) pyproject.toml uv.lock core/pyproject.toml $(wildcard plugins/*/pyproject.toml) $(wildcard examples/*/pyproject.toml)
	$(UV) sync --all-packages --locked
	touch $@

setup: $(STAMP)

eval: setup
	$(VENV)/bin/garuda eval --agent oracle $(EVAL_SUITES)

test: setup
	$(VENV)/bin/pytest $(PYTEST_ARGS)

lint: setup
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy

bench: setup
	@for script in bench/*.py; do echo "== $$script"; $(VENV)/bin/python $$script || exit 1; done

# Mutation testing of the trust-critical modules (slow: not part of `make test`; see
# docs/testing.md). MUTATE_ARGS="--module verdict" runs one module.
MUTATE_ARGS ?=
mutate: setup
	$(VENV)/bin/python mutation/run.py $(MUTATE_ARGS)

clean:
	rm -rf $(VENV) $(BOOT)
