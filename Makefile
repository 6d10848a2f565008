# The two commands of the README. Each sets up what it needs first (scripts/setup.sh).
VENV ?= .venv
PY := $(VENV)/bin/python

.PHONY: setup demo test test-fast bench lint

setup:
	@scripts/setup.sh

demo: setup
	$(PY) -m learner demo

test: setup
	$(PY) -m pytest

# Everything that starts no browser, JVM, Ray or real application, nothing marked slow: the inner loop.
test-fast: setup
	$(PY) -m pytest -n auto -m "not browser and not spark and not ray and not apps and not slow"

bench: setup
	$(PY) -m pip install --quiet -e ".[bench]"
	$(PY) -m benchmarks.bench_normalize

lint: setup
	$(PY) -m pip install --quiet -e ".[dev]"
	$(PY) -m ruff check samepage learner tests benchmarks
	$(PY) -m mypy
