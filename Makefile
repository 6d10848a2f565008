# The two commands of the README. Each sets up what it needs first (scripts/setup.sh).
VENV ?= .venv
PY := $(VENV)/bin/python

.PHONY: setup demo test bench lint

setup:
	@scripts/setup.sh

demo: setup
	$(PY) -m learner demo

test: setup
	$(PY) -m pytest

bench: setup
	$(PY) -m pip install --quiet -e ".[bench]"
	$(PY) -m benchmarks.bench_normalize

lint: setup
	$(PY) -m pip install --quiet -e ".[dev]"
	$(PY) -m ruff check samepage learner tests benchmarks
	$(PY) -m mypy
