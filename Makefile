# One command each: `make test` sets up and runs the whole suite; `make lint`, `make format`.
VENV ?= .venv
PY := $(VENV)/bin/python
export LANGGRAPH_CLI_NO_ANALYTICS := 1
export LANGGRAPH_NO_VERSION_CHECK := 1
export LANGSMITH_TRACING := false

.PHONY: setup test test-fast lint format dev clean

setup: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml
	test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e ".[dev]"
	touch $@

test: setup lint
	$(PY) -m pytest

test-fast: setup
	$(PY) -m pytest -m "not server"

lint: setup
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	mkdir -p .typecheck && ln -sfn .. .typecheck/adaptive_rag
	MYPYPATH=.typecheck $(PY) -m mypy -p adaptive_rag

format: setup
	$(PY) -m ruff format .
	$(PY) -m ruff check --fix .

dev: setup
	$(VENV)/bin/langgraph dev --no-browser --no-reload

clean:
	rm -rf .pytest_cache .mypy_cache .ruff_cache .typecheck .langgraph_api build *.egg-info
