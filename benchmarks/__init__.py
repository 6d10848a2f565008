"""Benchmarks for samepage: a labelled URL corpus and a side-by-side timing against peers."""
