"""Offline MIQPS learner: renders pages with and without each query parameter.

It writes the learned-set file that :class:`samepage.MIQPSNormalizer` loads.
"""

from __future__ import annotations

__all__: list[str] = []
