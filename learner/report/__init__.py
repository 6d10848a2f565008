"""The HTML report of a run folder."""
