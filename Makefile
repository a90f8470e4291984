# preuve — `make demo` and `make test` each set everything up in .venv, then run.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
BASE   := $(VENV)/.installed-base
DEV    := $(VENV)/.installed-dev
SRC    := src tests benchmarks

.PHONY: demo test check lint typecheck layers pytest bench reliability browser screenshot clean

demo: $(BASE)
	$(BIN)/preuve demo

test: $(DEV) browser check pytest

check: $(DEV) lint typecheck layers

lint: $(DEV)
	$(BIN)/ruff check $(SRC)
	$(BIN)/ruff format --check $(SRC)

typecheck: $(DEV)
	$(BIN)/mypy

layers: $(DEV)
	$(BIN)/lint-imports

pytest: $(DEV)
	$(BIN)/pytest -q

# The viewer's browser tests drive Debian's Chromium (no browser download); installed when missing.
browser:
	@[ -x /usr/bin/chromium ] || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
	  else \
	    echo "note: /usr/bin/chromium is missing (apt-get install chromium); browser tests will skip"; \
	  fi; }

# The bad-input, model-attack and fault matrix: inputs tried, faults injected, crashes, data lost.
reliability: $(DEV)
	$(BIN)/preuve reliability

screenshot: $(DEV) browser
	UPDATE_DOCS_SCREENSHOT=1 $(BIN)/pytest -q tests/web/test_browser.py

bench: $(DEV)
	$(BIN)/python -m benchmarks.quotes
	$(BIN)/python -m benchmarks.financebench
	$(BIN)/python benchmarks/concurrency.py
	$(BIN)/python benchmarks/digest.py
	$(BIN)/python -m benchmarks.contrast
	$(BIN)/python -m benchmarks.statements_heldout

$(BIN)/python:
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "preuve needs Python 3.11 or newer")'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(BASE): pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e '.[viewer]'
	@touch $@

# torch is pinned and installed first: an unpinned torch resolves to a multi-GB CUDA build.
$(DEV): pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet 'torch==2.13.0'
	$(BIN)/pip install --quiet -e '.[viewer,local,dev]'
	@touch $@ $(BASE)

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache
