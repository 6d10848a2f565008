"""The result types of :meth:`samepage.MIQPSNormalizer.explain`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from samepage._rewrite import Rewrite

__all__ = ["Explanation", "ParamDecision"]


@dataclass(frozen=True, slots=True)
class ParamDecision:
    """Why one query parameter was kept or dropped."""

    name: str
    value: str
    kept: bool
    layer: str
    rule: str
    source: str

    def to_json(self) -> dict[str, Any]:
        """This decision as a JSON-ready dict."""
        return {
            "name": self.name,
            "value": self.value,
            "kept": self.kept,
            "layer": self.layer,
            "rule": self.rule,
            "source": self.source,
        }


@dataclass(frozen=True, slots=True)
class Explanation:
    """The decision trace of one URL: every parameter's decision and the result."""

    url: str
    result: str
    pattern: str | None
    learned_domain: str | None
    params: tuple[ParamDecision, ...]
    rewrites: tuple[Rewrite, ...] = ()  # redirect unwraps, aliases, path session ids, in order

    def to_json(self) -> dict[str, Any]:
        """This explanation as a JSON-ready dict."""
        return {
            "url": self.url,
            "result": self.result,
            "pattern": self.pattern,
            "learned_domain": self.learned_domain,
            "rewrites": [r.to_json() for r in self.rewrites],
            "params": [p.to_json() for p in self.params],
        }
