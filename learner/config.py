"""Frozen settings of a learner run: rendering and the MIQPS method."""

from __future__ import annotations

import math
import os
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any

from learner.errors import ConfigError

__all__ = [
    "MAX_CONCURRENCY",
    "MAX_SAMPLES",
    "MAX_TOP_PATTERNS",
    "PAGES_PER_CORE",
    "LearnerConfig",
    "RenderSettings",
    "build_config",
    "default_concurrency",
    "read_config_file",
]


def _require(condition: bool, field: str, message: str) -> None:
    if not condition:
        raise ConfigError(message, field=field)


MAX_TOP_PATTERNS = 1000
"""The most patterns a domain is studied on (each holds up to 1000 URLs in a plan)."""
MAX_SAMPLES = 1000
"""The most sample URLs per parameter (a pattern keeps at most 1000 URLs to pick from)."""
MAX_CONCURRENCY = 64
"""The most pages open at once: each is a browser tab of 100-300 MB."""
PAGES_PER_CORE = 4
"""Pages open at once per CPU core by default: most of a render is waiting (on 2 cores, 8
pages kept both 95% busy where 4 left a fifth idle; ``benchmarks/bench_apps.py --unpaced``)."""
MEMORY_PER_PAGE = 512 << 20
"""Memory set aside per open page by default (a tab takes 100-300 MB, images more)."""


def default_concurrency(cores: int | None = None, memory_bytes: int | None = None) -> int:
    """Pages open at once by default: four per CPU core, at most one per 512 MB of memory.

    A page waiting out its quiet window uses no CPU and holds nothing of its host, so more
    pages than cores keep the machine busy; memory bounds them on a small machine.

    Args:
        cores: CPU cores to use (default: those this process may run on).
        memory_bytes: the machine's memory (default: read from the system; unknown means
            no bound from memory).
    """
    if cores is None:
        cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None
        cores = cores or os.cpu_count() or 1
    if memory_bytes is None:
        memory_bytes = _physical_memory()
    by_memory = memory_bytes // MEMORY_PER_PAGE if memory_bytes else MAX_CONCURRENCY
    return max(1, min(MAX_CONCURRENCY, PAGES_PER_CORE * cores, by_memory))


def _physical_memory() -> int:
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):
        return 0


_MAX_SECONDS = 86_400.0  # a day: longer is a typo, and Playwright takes milliseconds

ARCHIVE_WINDOW_S = 86400.0
"""The most seconds between the two archived captures of a sample: one day."""


def _check_types(settings: RenderSettings | LearnerConfig) -> None:
    """Check each field against its annotation, naming the field, before any comparison.

    ``int`` fields take integers only (not ``True``); ``float`` fields take integers or
    finite floats (``inf`` would hang a delay or crash a browser timeout).
    """
    for f in fields(settings):
        value = getattr(settings, f.name)
        if f.type == "int":
            ok = isinstance(value, int) and not isinstance(value, bool)
            _require(ok, f.name, f"expected an integer, got {value!r}")
        elif f.type == "float":
            ok = isinstance(value, (int, float)) and not isinstance(value, bool)
            _require(ok, f.name, f"expected a number, got {value!r}")
            _require(math.isfinite(value), f.name, f"must be a finite number, not {value!r}")
        elif f.type == "str":
            _require(isinstance(value, str), f.name, f"expected a string, got {value!r}")
        elif f.type == "bool":
            _require(isinstance(value, bool), f.name, f"expected true or false, got {value!r}")


@dataclass(frozen=True, slots=True)
class RenderSettings:
    """How every page is rendered, fixed so that two renders of one page can agree.

    Durations are float seconds (``*_s``).
    """

    viewport_width: int = 1280
    viewport_height: int = 800
    max_page_height: int = 6000
    locale: str = "en-US"
    timezone_id: str = "UTC"
    fixed_time: str = "2026-01-01T00:00:00Z"
    user_agent: str = (
        "samepage-learner/0.2 (+https://github.com/samepage/samepage; MIQPS parameter study)"
    )
    page_timeout_s: float = 20.0
    settle_max_shots: int = 6
    max_text_chars: int = 200_000
    network_idle_max_s: float = 5.0
    """Longest wait for in-flight requests alone before capturing, unsettled (long polls)."""
    quiet_window_s: float = 0.5
    """How long the DOM and the network must stay quiet before a page counts as ready."""
    timer_horizon_s: float = 3.0
    """One-shot timers due within this many seconds are waited for; later ones are not."""
    busy_limit_s: float = 4.0
    """A page whose main thread does not answer within this long is busy: the render fails."""
    max_renderer_mb: int = 2048
    """A page renderer using more resident memory than this is killed; the render fails."""

    def __post_init__(self) -> None:
        _check_types(self)
        _require(self.viewport_width >= 200, "viewport_width", "must be at least 200")
        _require(self.viewport_height >= 200, "viewport_height", "must be at least 200")
        _require(
            self.max_page_height >= self.viewport_height,
            "max_page_height",
            "must be at least viewport_height",
        )
        _require(0 < self.page_timeout_s <= _MAX_SECONDS, "page_timeout_s", "must be in (0, 86400]")
        _require(self.settle_max_shots >= 2, "settle_max_shots", "must be at least 2")
        _require(self.max_text_chars > 0, "max_text_chars", "must be positive")
        _require(
            0 < self.network_idle_max_s <= _MAX_SECONDS,
            "network_idle_max_s",
            "must be in (0, 86400]",
        )
        _require(0 < self.quiet_window_s <= 60, "quiet_window_s", "must be in (0, 60]")
        _require(0 <= self.timer_horizon_s <= 600, "timer_horizon_s", "must be in [0, 600]")
        _require(0 < self.busy_limit_s <= _MAX_SECONDS, "busy_limit_s", "must be in (0, 86400]")
        _require(self.max_renderer_mb >= 64, "max_renderer_mb", "must be at least 64")


@dataclass(frozen=True, slots=True)
class LearnerConfig:
    """The MIQPS method's knobs, the run's politeness and its budgets.

    Each default and the reason for it is documented in ``docs/learner.md``. Precedence:
    defaults < TOML file (``--config``) < command line.
    """

    top_patterns: int = MAX_TOP_PATTERNS
    cover: float = 0.95
    renders_per_domain: int = 3000
    samples: int = 8
    threshold: float = 0.0
    min_samples: int = 3
    min_contexts: int = 2
    min_share: float = 0.9
    give_up_after: int = 2
    joint_samples: int = 2
    default_values: int = 2
    aliases: bool = True
    """Study the other spellings of a page the observed URLs propose (``--no-aliases``)."""
    alias_renders: int = 100
    """Renders a domain's alias study may make, within ``renders_per_domain``."""
    concurrency: int = field(default_factory=default_concurrency)
    per_host: int = 1
    delay_s: float = 1.0
    jitter_s: float = 0.5
    retries: int = 2
    domain_timeout_s: float = 3600.0
    gate_max_flip_fraction: float = 0.05
    discover_max_pages: int = 30
    discover_max_urls: int = 2000
    evidence_budget_bytes: int = 50_000_000
    seed: int = 0
    allow_private: bool = False
    """Private and loopback addresses may be studied without a ``--resolve`` entry naming
    them (``learner.plan.addresses``); link-local and metadata addresses never are."""
    render: RenderSettings = field(default_factory=RenderSettings)

    def __post_init__(self) -> None:
        _check_types(self)
        _require(isinstance(self.render, RenderSettings), "render", "expected a table of settings")
        _require(
            1 <= self.top_patterns <= MAX_TOP_PATTERNS,
            "top_patterns",
            f"must be between 1 and {MAX_TOP_PATTERNS}",
        )
        _require(0.0 < self.cover <= 1.0, "cover", "must be in (0, 1]")
        _require(self.renders_per_domain >= 1, "renders_per_domain", "must be at least 1")
        _require(
            1 <= self.samples <= MAX_SAMPLES, "samples", f"must be between 1 and {MAX_SAMPLES}"
        )
        _require(0.0 <= self.threshold < 1.0, "threshold", "must be in [0, 1)")
        _require(
            1 <= self.min_samples <= self.samples,
            "min_samples",
            "must be between 1 and samples",
        )
        _require(self.min_contexts >= 1, "min_contexts", "must be at least 1")
        _require(0.0 < self.min_share <= 1.0, "min_share", "must be in (0, 1]")
        _require(self.give_up_after >= 1, "give_up_after", "must be at least 1")
        _require(self.joint_samples >= 1, "joint_samples", "must be at least 1")
        _require(self.default_values >= 0, "default_values", "must not be negative")
        _require(self.alias_renders >= 0, "alias_renders", "must not be negative")
        _require(
            1 <= self.concurrency <= MAX_CONCURRENCY,
            "concurrency",
            f"must be between 1 and {MAX_CONCURRENCY}",
        )
        _require(self.per_host >= 1, "per_host", "must be at least 1")
        _require(0 <= self.delay_s <= _MAX_SECONDS, "delay_s", "must be in [0, 86400]")
        _require(0 <= self.jitter_s <= _MAX_SECONDS, "jitter_s", "must be in [0, 86400]")
        _require(self.retries >= 0, "retries", "must not be negative")
        _require(self.domain_timeout_s > 0, "domain_timeout_s", "must be positive")
        _require(
            0.0 <= self.gate_max_flip_fraction <= 1.0,
            "gate_max_flip_fraction",
            "must be in [0, 1]",
        )
        _require(self.discover_max_pages >= 1, "discover_max_pages", "must be at least 1")
        _require(self.discover_max_urls >= 1, "discover_max_urls", "must be at least 1")
        _require(self.evidence_budget_bytes >= 0, "evidence_budget_bytes", "must not be negative")

    def method_settings(self) -> dict[str, Any]:
        """The settings that decide verdicts: recorded in the learned file and checkpoints."""
        return {
            "samples": self.samples,
            "threshold": self.threshold,
            "min_samples": self.min_samples,
            "min_contexts": self.min_contexts,
            "min_share": self.min_share,
            "give_up_after": self.give_up_after,
            "top_patterns": self.top_patterns,
            "cover": self.cover,
            "joint_samples": self.joint_samples,
            "default_values": self.default_values,
            "aliases": self.aliases,
            "alias_renders": self.alias_renders,
            "seed": self.seed,
        }

    def to_json(self) -> dict[str, Any]:
        """Every effective setting, for the run's outputs."""
        out = {f.name: getattr(self, f.name) for f in fields(self) if f.name != "render"}
        out["render"] = {f.name: getattr(self.render, f.name) for f in fields(self.render)}
        return out


def build_config(file_values: Mapping[str, Any], overrides: Mapping[str, Any]) -> LearnerConfig:
    """Build a config from a TOML file's values and command-line overrides (``None`` = unset).

    Raises:
        ConfigError: naming an unknown key or a bad value.
    """
    merged: dict[str, Any] = {}
    render: dict[str, Any] = {}
    known = {f.name for f in fields(LearnerConfig)} - {"render"}
    render_known = {f.name for f in fields(RenderSettings)}
    for source in (file_values, {k: v for k, v in overrides.items() if v is not None}):
        for key, value in source.items():
            if key == "render":
                if not isinstance(value, Mapping):
                    raise ConfigError("expected a table of settings", field="render")
                for rkey, rvalue in value.items():
                    if rkey not in render_known:
                        raise ConfigError("unknown setting", field=f"render.{rkey}")
                    render[rkey] = rvalue
            elif key in render_known:
                render[key] = value
            elif key in known:
                merged[key] = value
            else:
                raise ConfigError("unknown setting", field=key)
    try:
        return LearnerConfig(**merged, render=RenderSettings(**render))
    except TypeError as exc:
        raise ConfigError(str(exc)) from exc


def read_config_file(path: str) -> dict[str, Any]:
    """Read a TOML config file (its ``[learner]`` table, or the whole file).

    Raises:
        ConfigError: when the file cannot be read or parsed.
    """
    import tomllib

    try:
        with open(path, "rb") as handle:
            data = tomllib.load(handle)
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"config file {path}: {exc}") from exc
    table = data.get("learner", data)
    if not isinstance(table, dict):
        raise ConfigError(f"config file {path}: [learner] must be a table")
    return table
