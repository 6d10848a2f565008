"""The learner on a Ray cluster (needs Ray)."""
