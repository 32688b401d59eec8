# One command each: `make demo` sets up and answers questions over the sample knowledge base with
# the embedded model; `make test` sets up and runs lint and every test tier (what CI runs).
VENV ?= .venv
PY := $(VENV)/bin/python
export LANGGRAPH_CLI_NO_ANALYTICS := 1
export LANGGRAPH_NO_VERSION_CHECK := 1
export LANGSMITH_TRACING := false

.PHONY: setup demo test test-fast test-local lint format dev clean

setup: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml
	test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e ".[local,postgres,dev]"
	touch $@

demo: setup
	$(VENV)/bin/adaptive-rag demo

test: setup lint
	$(PY) -m pytest -m "not local_model and not browser"
	$(PY) -m pytest -m browser
	$(PY) -m pytest -m local_model

test-fast: setup
	$(PY) -m pytest -m "not server and not local_model and not browser"

test-local: setup
	$(PY) -m pytest -m local_model

lint: setup
	$(PY) -m ruff check .
	$(VENV)/bin/lint-imports --no-cache
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
