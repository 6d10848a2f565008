# The two commands of the README. Each sets up what it needs first (scripts/setup.sh).
VENV ?= .venv
PY := $(VENV)/bin/python

.PHONY: setup demo test test-fast test-engines-parallel bench lint lint-check

setup:
	@scripts/setup.sh

demo: setup
	$(PY) -m learner demo

# In two steps, both always run: everything without an engine on one worker per core (the
# tests marked slow too: pure Python, they share the cores), then the engine tests (browser,
# Spark, Ray, the applications) one at a time, listing the 25 slowest (the suite's time budget
# is spent there): the crawls assert exact verdicts, and two of them at once on two cores push
# pages past the suite's short page limits (a sample that fails is kept, and the verdict
# differs). `make test-engines-parallel` runs the engine and slow tests on one worker per
# core, each file whole on one worker.
ENGINES := browser or spark or ray or apps
# Compiled modules and pytest's rewritten test modules are kept between runs even where the
# environment says not to write them (PYTHONDONTWRITEBYTECODE): each run would compile them
# again, about 4 s of every worker's start.
PYTEST := PYTHONDONTWRITEBYTECODE= $(PY) -m pytest

# Property tests search half their examples in `make test`, a quarter in `make test-fast`
# (tests/plugins/properties.py); `make test PROPERTY_SCALE=4` searches deeper.
PROPERTY_SCALE ?= 0.5

# ruff and mypy (strict) first: code that does not pass them does not get tested.
test: setup lint-check
	@status=0; \
	SAMEPAGE_PROPERTY_SCALE=$(PROPERTY_SCALE) $(PYTEST) -n auto -m "not ($(ENGINES))" || status=$$?; \
	$(PYTEST) -m "$(ENGINES)" --durations=25 || status=$$?; \
	exit $$status

test-engines-parallel: setup
	$(PYTEST) -n auto --dist loadfile -m "$(ENGINES) or slow"

# Everything that starts no browser, JVM, Ray or real application, nothing marked slow: the inner
# loop, with a quarter of the property tests' examples.
test-fast: setup
	SAMEPAGE_PROPERTY_SCALE=0.25 $(PYTEST) -n auto -m "not ($(ENGINES) or slow)"

bench: setup
	$(PY) -m pip install --quiet -e ".[bench]"
	$(PY) -m benchmarks.bench_normalize

lint: setup lint-check

lint-check:
	$(PY) -m ruff check samepage learner tests benchmarks
	$(PY) -m mypy
