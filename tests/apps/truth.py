"""Expected verdicts of the studied parameters of a real application, each with its reason."""

from __future__ import annotations

from dataclasses import dataclass

from learner.judge.verdicts import VerdictCause
from samepage import LearnedSet, ParamVerdict, pattern_key
from samepage.learned import Verdict

__all__ = ["Expected", "carrying_listed", "neutral", "non_neutral", "studied"]


@dataclass(frozen=True, slots=True)
class Expected:
    """The verdict a parameter must get, and why the application makes it so.

    ``kept_for`` is the cause that keeps a parameter for want of evidence where the log
    cannot prove anything (``None``: the verdict must be decided by comparisons).
    """

    verdict: Verdict
    reason: str
    kept_for: VerdictCause | None = None


def neutral(reason: str) -> Expected:
    """Removing the parameter changes nothing a reader sees, because of ``reason``."""
    return Expected("neutral", reason)


def non_neutral(reason: str, kept_for: VerdictCause | None = None) -> Expected:
    """The parameter changes the page, because of ``reason``."""
    return Expected("non-neutral", reason, kept_for)


def carrying_listed(urls: list[str]) -> list[str]:
    """``urls`` with ``utm_source=newsletter`` on the first two URLs of each pattern.

    Links shared from a newsletter carry it; the blocklist drops it, so the learner
    spot-checks it on the pages where the log has it.
    """
    seen: dict[str, int] = {}
    out = []
    for url in urls:
        key = pattern_key(url)
        seen[key] = seen.get(key, 0) + 1
        out.append(
            url + ("&" if "?" in url else "?") + "utm_source=newsletter" if seen[key] <= 2 else url
        )
    return out


def studied(learned: LearnedSet, host: str) -> dict[str, dict[str, ParamVerdict]]:
    """pattern -> parameter -> verdict of every parameter the learner studied on ``host``."""
    domain = learned.domains.get(host)
    if domain is None:
        return {}
    return {pattern: dict(entry.params) for pattern, entry in domain.patterns.items()}
