"""The run's stats read for the report: a value that should be an object, the domains listed."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from learner.run.folder import RunFolder


def _dict(value: object) -> Mapping[str, Any]:
    return value if isinstance(value, dict) else {}


def _domain_keys(run: RunFolder) -> list[str]:
    return sorted({*run.learned.domains, *_dict(run.stats.get("domains"))})
