"""Seeded words for the generated content of the applications."""

from __future__ import annotations

import random

__all__ = ["WORDS", "sentence"]

# fmt: off
WORDS = (
    "river", "glass", "winter", "orchard", "signal", "harbour", "lantern", "meadow",
    "copper", "atlas", "ember", "falcon", "quarry", "thistle", "velvet", "willow",
)
# fmt: on


def sentence(rng: random.Random, words: int) -> str:
    """``words`` words drawn by ``rng``."""
    return " ".join(rng.choice(WORDS) for _ in range(words))
