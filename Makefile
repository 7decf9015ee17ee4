# The README's two commands: `make demo` (the main job) and `make test` (the test suite).
# Each creates .venv on first use and installs what it needs. `make docs` builds the site;
# `make test-fast` is the edit loop's subset of the suite.
# pip runs without -q: a first install downloads torch and takes minutes, and its progress
# shows that it is working.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP_DEV := $(VENV)/.dev-installed
STAMP_TRAIN := $(VENV)/.train-installed
STAMP_BENCH := $(VENV)/.bench-installed
STAMP_DOCS := $(VENV)/.docs-installed
# TextArena (noir_env.textarena, tests/textarena): its pins fit the main venv's
STAMP_TEXTARENA := $(VENV)/.textarena-installed
# OpenSpiel (and Shimmy) in the main venv: open-spiel 2.0.2 and shimmy 2.0.1 pin nothing the main
# venv's packages conflict with
STAMP_OPENSPIEL := $(VENV)/.openspiel-installed
# Minari (train.dataset, tests/train/test_dataset.py) in the main venv: 0.5.4 keeps its numpy,
# gymnasium
STAMP_DATASET := $(VENV)/.dataset-installed
# Ray RLlib in a venv of its own: ray[rllib] 2.60 pins gymnasium==1.2.2, and the main venv
# keeps the newest gymnasium, so `make test` checks both (tests/rllib runs here)
VENV_RLLIB := .venv-rllib
BIN_RLLIB := $(VENV_RLLIB)/bin
STAMP_RLLIB := $(VENV_RLLIB)/.rllib-installed

.PHONY: demo test test-fast docs lint bench bench-rllib rllib clean

# tools/heartbeat.sh: a line every 8 s while pip works silently (unpacking torch, ray)
HEARTBEAT := sh tools/heartbeat.sh

$(BIN)/python:
	$(HEARTBEAT) $(PY) -m venv $(VENV)
	$(HEARTBEAT) $(BIN)/pip install -q --upgrade pip

$(STAMP_DEV): pyproject.toml | $(BIN)/python
	$(HEARTBEAT) $(BIN)/pip install -e ".[dev]"
	touch $@

$(STAMP_BENCH): pyproject.toml | $(BIN)/python
	$(HEARTBEAT) $(BIN)/pip install -e ".[dev,bench]"
	touch $@

$(STAMP_TRAIN): pyproject.toml | $(BIN)/python
	$(HEARTBEAT) $(BIN)/pip install -e ".[dev,train]"
	touch $@

$(STAMP_TEXTARENA): pyproject.toml | $(BIN)/python
	$(HEARTBEAT) $(BIN)/pip install -e ".[dev,train,textarena]"
	touch $@

$(BIN_RLLIB)/python:
	$(HEARTBEAT) $(PY) -m venv $(VENV_RLLIB)
	$(HEARTBEAT) $(BIN_RLLIB)/pip install -q --upgrade pip

$(STAMP_RLLIB): pyproject.toml | $(BIN_RLLIB)/python
	$(HEARTBEAT) $(BIN_RLLIB)/pip install -e ".[dev,train,rllib]"
	touch $@

# the RLlib venv alone (python -m train.rllib_ppo runs in it: .venv-rllib/bin/python)
rllib: $(STAMP_RLLIB)

$(STAMP_OPENSPIEL): pyproject.toml | $(BIN)/python
	$(HEARTBEAT) $(BIN)/pip install -e ".[openspiel]"
	touch $@

$(STAMP_DATASET): pyproject.toml | $(BIN)/python
	$(HEARTBEAT) $(BIN)/pip install -e ".[dataset]"
	touch $@

$(STAMP_DOCS): pyproject.toml | $(BIN)/python
	$(HEARTBEAT) $(BIN)/pip install -e ".[docs]"
	touch $@

demo: $(STAMP_TRAIN)
	$(BIN)/python -m train.demo

# lint first (`make lint`: a style or type error fails at once), then the suite, then once the
# position fuzz with bounds-checked kernels (a subprocess that compiles every kernel again
# with NUMBA_BOUNDSCHECK=1; tests/core/test_fuzz_positions.py); the docs extra lets
# tests/docs/test_docs_site.py build the site with --strict, as `make docs` does;
# then the RLlib tests in their own venv (gymnasium 1.2.2; about 2.5 minutes on 2 busy cores).
# TextArena and OpenSpiel are installed into the main venv: tests/textarena and tests/openspiel
# run with the suite (NOIR_REQUIRE_OPENSPIEL: they fail rather than skip if pyspiel is
# missing), and so does Minari for tests/train/test_dataset.py (NOIR_REQUIRE_MINARI).
# The replay viewer's tests open its pages in headless Chromium (tests/train/test_replay.py),
# and the browser game's tests drive its page there through Playwright (tests/train/web; the
# dev extra's playwright, pointed at Debian's chromium: Playwright's own browser download is
# not used): Debian's chromium is installed when missing, and NOIR_REQUIRE_BROWSER=1 makes a
# missing browser a failure here, where a bare pytest elsewhere skips those tests
test: lint $(STAMP_TRAIN) $(STAMP_TEXTARENA) $(STAMP_DOCS) $(STAMP_OPENSPIEL) $(STAMP_DATASET) $(STAMP_RLLIB)
	command -v chromium >/dev/null || (apt-get update && apt-get install -y chromium)
	NOIR_REQUIRE_BROWSER=1 NOIR_REQUIRE_OPENSPIEL=1 NOIR_REQUIRE_MINARI=1 $(BIN)/python -m pytest
	$(BIN)/python -m pytest -m boundscheck
	$(BIN_RLLIB)/python -m pytest tests/rllib

# The edit loop's subset: lint, then the rules scenarios, the cores and the game protocol
# (NOIR, District Noir, the toy game), the AEC and vector envs, determinism, invariants,
# hidden information, the heuristics and the text views; not the training runs (marked
# `slow` where they share a file with these), the CLIs, RLlib, OpenSpiel, TextArena, the
# browser, the notebooks, the docs site, the benches or the boundscheck run. A minute or two
# on 2 cores once the numba cache is warm (the first run compiles for minutes).
FAST_TESTS := tests/rules tests/race tests/district tests/engine tests/core/test_core_api.py \
	tests/core/test_serialize.py tests/core/test_determinism.py tests/core/test_invariants.py \
	tests/core/test_hidden_info.py tests/core/test_information.py tests/core/test_belief.py \
	tests/agents/test_heuristic.py tests/envs/test_aec.py tests/envs/test_vector.py \
	tests/views/test_text.py tests/train/test_play.py
test-fast: lint $(STAMP_TRAIN)
	$(BIN)/python -m pytest -m "not slow and not boundscheck" $(FAST_TESTS)

# the documentation site into site/; any warning (a broken link, a missing page) fails it.
# NO_MKDOCS_2_WARNING: mkdocs-material's banner about its successor, not about these docs
docs: $(STAMP_DOCS)
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict

# ruff, then mypy over noir_env, agents and train ([tool.mypy] in pyproject.toml). mypy reads
# the train extra's own type hints (torch, stable-baselines3, matplotlib, openskill), so lint
# installs it; the other extras' packages have none and read as Any, installed or not
lint: $(STAMP_TRAIN)
	$(BIN)/ruff check . && $(BIN)/ruff format --check . && $(BIN)/mypy

bench: $(STAMP_BENCH) $(STAMP_TRAIN) $(STAMP_OPENSPIEL) $(STAMP_RLLIB)
	$(BIN)/python bench/core.py
	$(BIN)/python bench/aec.py
	$(BIN)/python bench/vector.py
	$(BIN)/python bench/district.py
	$(BIN)/python bench/heuristic.py
	$(BIN)/python bench/tournament.py
	$(BIN)/python bench/training.py
	$(BIN)/python bench/openspiel.py
	$(BIN_RLLIB)/python bench/rllib.py

bench-rllib: $(STAMP_RLLIB)
	$(BIN_RLLIB)/python bench/rllib.py

clean:
	rm -rf $(VENV) $(VENV_RLLIB) .pytest_cache .ruff_cache .mypy_cache .hypothesis site
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
