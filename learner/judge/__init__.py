"""Judging renders: fingerprints and comparisons, sample decisions, verdicts, defaults."""
