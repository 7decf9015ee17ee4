# The README's two commands: `make demo` (the main job) and `make test` (the test suite).
# Each creates .venv on first use and installs what it needs. `make docs` builds the site.
# pip runs without -q: a first install downloads torch and takes minutes, and its progress
# shows that it is working.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP_DEV := $(VENV)/.dev-installed
STAMP_TRAIN := $(VENV)/.train-installed
STAMP_BENCH := $(VENV)/.bench-installed
STAMP_DOCS := $(VENV)/.docs-installed

.PHONY: demo test docs lint bench clean

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip

$(STAMP_DEV): pyproject.toml | $(BIN)/python
	$(BIN)/pip install -e ".[dev]"
	touch $@

$(STAMP_BENCH): pyproject.toml | $(BIN)/python
	$(BIN)/pip install -e ".[dev,bench]"
	touch $@

$(STAMP_TRAIN): pyproject.toml | $(BIN)/python
	$(BIN)/pip install -e ".[dev,train]"
	touch $@

$(STAMP_DOCS): pyproject.toml | $(BIN)/python
	$(BIN)/pip install -e ".[docs]"
	touch $@

demo: $(STAMP_TRAIN)
	$(BIN)/python -m train.demo

# the suite, then once the position fuzz with bounds-checked kernels (a subprocess that
# compiles every kernel again with NUMBA_BOUNDSCHECK=1; tests/test_fuzz_positions.py); the
# docs extra lets tests/test_docs_site.py build the site with --strict, as `make docs` does
test: $(STAMP_TRAIN) $(STAMP_DOCS)
	$(BIN)/python -m pytest
	$(BIN)/python -m pytest -m boundscheck

# the documentation site into site/; any warning (a broken link, a missing page) fails it.
# NO_MKDOCS_2_WARNING: mkdocs-material's banner about its successor, not about these docs
docs: $(STAMP_DOCS)
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict

lint: $(STAMP_DEV)
	$(BIN)/ruff check . && $(BIN)/ruff format --check .

bench: $(STAMP_BENCH) $(STAMP_TRAIN)
	$(BIN)/python bench/core.py
	$(BIN)/python bench/aec.py
	$(BIN)/python bench/vector.py
	$(BIN)/python bench/district.py
	$(BIN)/python bench/heuristic.py
	$(BIN)/python bench/tournament.py
	$(BIN)/python bench/training.py

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis site
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
