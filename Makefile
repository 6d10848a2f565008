# The two commands of the README. Each sets up what it needs first (scripts/setup.sh).
VENV ?= .venv
PY := $(VENV)/bin/python

.PHONY: setup demo test test-fast bench lint lint-check

setup:
	@scripts/setup.sh

demo: setup
	$(PY) -m learner demo

# In two steps, both always run: everything without an engine on one worker per core (the
# tests marked slow too: pure Python, they share the cores), then the engine tests (browser,
# Spark, Ray, the applications) on two workers, listing the 25 slowest (the suite's time budget
# is spent there). A test file goes whole to one worker, and the files that share a costly
# session fixture go together (tests/plugins/scheduling.py): the applications are served and
# crawled once, on one worker, while the other takes everything else. A crawl mostly waits (its
# pages' quiet windows, its host's turn: about 0.85 of a core for MediaWiki's), so two at once
# keep two cores busy within the suite's page limits (measured on two cores, in
# benchmarks/README.md "The test suite on two cores").
ENGINES := browser or spark or ray or apps
# Compiled modules and pytest's rewritten test modules are kept between runs even where the
# environment says not to write them (PYTHONDONTWRITEBYTECODE): each run would compile them
# again, about 4 s of every worker's start.
PYTEST := PYTHONDONTWRITEBYTECODE= $(PY) -m pytest

# Property tests search half their examples in `make test`, a quarter in `make test-fast`
# (tests/plugins/properties.py); `make test PROPERTY_SCALE=4` searches deeper.
PROPERTY_SCALE ?= 0.5

# ruff (lint and format) and mypy (strict) first: code that does not pass them does not get tested.
test: setup lint-check
	@status=0; \
	SAMEPAGE_PROPERTY_SCALE=$(PROPERTY_SCALE) $(PYTEST) -n auto -m "not ($(ENGINES))" || status=$$?; \
	$(PYTEST) -n 2 --dist loadfile -m "$(ENGINES)" --durations=25 || status=$$?; \
	exit $$status

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
	$(PY) -m ruff format --check samepage learner tests benchmarks
	$(PY) -m mypy
