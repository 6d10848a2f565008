"""The demo run: the bundled sites served on loopback and learned, in folders of its own.

The demo never touches what a user's crawl made: it clears only a run folder an earlier demo
made, and refuses to overwrite a learned set that names other hosts.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

from learner.config import LearnerConfig
from learner.demo.server import SiteServer
from learner.demo.sites import DEMO_HOSTS, demo_sites, demo_urls
from learner.errors import ConfigError
from learner.plan.targets import parse_target
from learner.run.crawl import CrawlResult, crawl
from learner.run.progress import Progress
from samepage import LearnedFormatError, load_learned

__all__ = ["MARKER", "claim_folders", "learn_demo"]

MARKER = ".samepage-demo"
"""The file that marks a run folder as the demo's, free for the next demo to clear."""


def claim_folders(cache: Path, out: Path) -> None:
    """Make ``cache`` an empty demo run folder, after checking both paths are the demo's.

    Raises:
        ConfigError: ``cache`` holds something a demo did not make, or ``out`` is a learned
            set a crawl wrote.
    """
    if cache.exists() and not _made_by_a_demo(cache) and any(cache.iterdir()):
        raise ConfigError(f"--cache {cache}: not a folder an earlier demo made; not clearing it")
    if out.exists() and _written_by_a_crawl(out):
        raise ConfigError(f"--out {out}: a crawl wrote this learned set; the demo keeps it")
    shutil.rmtree(cache, ignore_errors=True)
    cache.mkdir(parents=True)
    (cache / MARKER).write_text(
        "made by python -m learner demo; the next demo may clear this folder\n"
    )


async def learn_demo(
    cache: Path, out: Path, *, browser: str | None, progress: Progress
) -> tuple[CrawlResult, list[str]]:
    """Serve the demo sites and learn them; the result and the observed URLs it learned from."""
    # The demo site is ours and on loopback: no politeness delay is owed to it.
    config = LearnerConfig(samples=4, min_samples=3, delay_s=0.0, jitter_s=0.0)
    targets = [parse_target(f"http://{host}") for host in DEMO_HOSTS]
    urls = demo_urls()
    with SiteServer(demo_sites()) as server:
        print(
            f"demo: serving {', '.join(DEMO_HOSTS)} on {server.address}; "
            f"learning {len(urls)} observed URLs",
            file=sys.stderr,
        )
        result = await crawl(
            targets,
            config=config,
            out=out,
            cache=cache,
            observed=urls,
            resolve=server.resolve(),
            browser=browser,
            progress=progress,
        )
    return result, urls


def _made_by_a_demo(folder: Path) -> bool:
    """Whether a demo made ``folder``: its marker, or (older demos) a run of the demo hosts."""
    if (folder / MARKER).exists():
        return True
    try:
        targets = json.loads((folder / "run.json").read_text(encoding="utf-8"))["targets"]
    except (OSError, ValueError, KeyError, TypeError, RecursionError):
        return False
    return isinstance(targets, list) and bool(targets) and set(targets) <= set(DEMO_HOSTS)


def _written_by_a_crawl(path: Path) -> bool:
    """Whether a learned set names hosts other than the demo's (so a crawl wrote it)."""
    try:
        learned = load_learned(path)
    except (LearnedFormatError, OSError):
        return True  # not ours to overwrite either
    return not set(learned.domains) <= set(DEMO_HOSTS)
