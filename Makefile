# Set-up and common jobs. `make run` and `make test` work on a fresh clone (Python >= 3.10).
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PIP := $(PY) -m pip
STAMP := $(VENV)/.installed

.PHONY: run train test test-integration test-slow install bench differential clean browser install-ray test-ray test-python test-mindeps

# make run: train a PPO agent on a short budget, then an arena table (docs/training.md).
# Scale it: make run STEPS=3000000 GAMES=1000
STEPS ?= 500000
GAMES ?= 200

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PIP) install --upgrade pip
	# torch first, pinned to the local CPU build, so stable-baselines3 does not pull CUDA wheels
	$(PIP) install torch==2.13.0
	$(PIP) install -e '.[all,dev]'
	# compile every numba kernel now (engines, interfaces, bots; about 1-2 minutes of CPU), into the
	# numba cache beside the sources, so the first step of `make run`, the tests or your own code loads them
	$(VENV)/bin/spacemission warmup
	touch $(STAMP)

install: $(STAMP)

# `make test` and test-ray's env tests run in TEST_WORKERS processes (pytest-xdist): 2 halves their
# time on a 2-core machine (CI's); TEST_WORKERS=auto takes one per core, 0 runs them in one process
TEST_WORKERS ?= 2

# A second virtualenv for Ray/RLlib, which pins its own Gymnasium (ray[rllib] 2.60: ==1.2.2):
# the Ray tests and the core env tests run there, the main suite in .venv with the newest one.
VENV_RAY := .venv-ray
PY_RAY := $(VENV_RAY)/bin/python
STAMP_RAY := $(VENV_RAY)/.installed

$(STAMP_RAY): pyproject.toml
	$(PYTHON) -m venv $(VENV_RAY)
	$(PY_RAY) -m pip install --upgrade pip
	$(PY_RAY) -m pip install torch==2.13.0
	# of the dev tools only pytest (and xdist): this virtualenv runs tests, not the type check,
	# notebooks or browser
	$(PY_RAY) -m pip install -e '.[ray,cli]' pytest pytest-xdist
	touch $(STAMP_RAY)

install-ray: $(STAMP_RAY)

# the tests marked ray (a two-node cluster among them; one process), then the env's interface tests
# (every Gymnasium/PettingZoo/SB3 surface; the engine and rules tests do not touch Gymnasium) under
# RLlib's Gymnasium, in TEST_WORKERS processes (a .venv-ray made before xdist joined it gets it here)
test-ray: $(STAMP_RAY)
	$(PY_RAY) -m pytest -q -m 'ray and not slow'
	$(PY_RAY) -c 'import xdist' 2>/dev/null || $(PY_RAY) -m pip install -q pytest-xdist
	$(PY_RAY) -m pytest -q -n $(TEST_WORKERS) tests/env --ignore=tests/env/engine --ignore=tests/env/rules

run: $(STAMP)
	$(PY) -m spacemission_training.quickstart --steps $(STEPS) --games $(GAMES)

# make train ARGS="--steps 3000000 --seed 1": spacemission train with any options
train: $(STAMP)
	$(PY) -m spacemission_training.train_ppo $(ARGS)

test: $(STAMP)
	$(PY) -m pytest -q -n $(TEST_WORKERS)

# the integration set (pytest -m integration, opt-in like the slow set; CI runs it after make test):
# the distributions built and installed in fresh virtualenvs (the core install from the package
# index), mypy on the packages and the docs' examples, the notebooks executed, and `spacemission
# train` stopped by Ctrl-C/SIGTERM and resumed in subprocesses (about 3 minutes in two processes)
test-integration: $(STAMP)
	$(PY) -m pytest -q -n $(TEST_WORKERS) -m 'integration and not slow'

# Debian's chromium for the browser test of `spacemission serve` (Playwright drives it; its own
# browser download is not used). Without it that test is skipped with the reason.
browser:
	@test -x /usr/bin/chromium || (apt-get update && apt-get install -y chromium)

test-slow: $(STAMP)
	$(PY) -m pytest -q -m slow

# make test-python PYTHON=python3.10: the tests that need no torch (tests/env, tests/agents,
# tests/cli and the requires-python check) under another Python, in a virtualenv of its own under
# build/ (numba's cache beside it); the sb3, torch and ray tests skip. docs/python_versions.md
PY_OTHER = build/venv-py$(shell $(PYTHON) -c 'import sys; print("%d.%d" % sys.version_info[:2])')
test-python:
	test -x $(PY_OTHER)/bin/python || $(PYTHON) -m venv $(PY_OTHER)
	$(PY_OTHER)/bin/python -m pip install -q -e '.[cli,web]' pytest httpx2
	NUMBA_CACHE_DIR=$(PY_OTHER)/numba-cache $(PY_OTHER)/bin/python -m pytest -q -p no:cacheprovider \
		tests/env tests/agents tests/cli tests/test_python_versions.py

# make test-mindeps: the torch-free tests against the oldest releases pyproject.toml allows
# (build/venv-mindeps; docs/dependencies.md)
test-mindeps:
	python3 tools/test_mindeps.py

bench: $(STAMP)
	$(PY) benchmarks/engine_speed.py
	$(PY) benchmarks/env_speed.py

# 100,000 games in lock-step in both engines (about 20 minutes), then 5,000 full-length ones
differential: $(STAMP)
	$(PY) benchmarks/differential.py --games 100000 --max-rounds 2,3,4,6
	$(PY) benchmarks/differential.py --games 5000 --max-rounds 100 --player kind --chunk 250

clean:
	rm -rf $(VENV) $(VENV_RAY) build *.egg-info
