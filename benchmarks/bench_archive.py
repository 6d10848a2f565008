"""Measure the renders ``learner crawl --archive`` saves, and check it decides as rendering does.

Run from the repository root (needs Chromium, see ``docs/learner.md``)::

    python -m benchmarks.bench_archive --hosts shop.test,news.test

Everything runs in one process against the multi-site test fixture, served on 127.0.0.1:

1. **The archive.** Every observed URL of the hosts, and every such URL without one of its
   parameters (what the learner's samples compare), is fetched once with the plain fetcher,
   redirects not followed, as an archive crawler would; each answer becomes a CDXJ line with
   its status, media type and the SHA-1 payload digest of its body, one second apart
   (``tests.archive_fixtures.live_index``). ``--coverage F`` keeps that share of the lines
   (seeded), as a real archive holds some pages and not others.
2. **Two runs.** The learner (``learner.run.crawl.crawl``, the test suite's settings, no
   politeness delay) studies the hosts without ``--archive``, then with the index. The
   table gives renders, samples taken from the archive, and whether the two learned sets
   agree on every verdict (they must: a difference is printed parameter by parameter); the
   account says why the archive did not decide the other samples.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import random
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from learner.demo.server import SiteServer
from learner.judge.archive import load_archive
from learner.plan.sampling import without_param
from learner.plan.targets import parse_target
from learner.render.browser import find_browser
from learner.run.crawl import CrawlResult, crawl
from samepage import LearnedSet, MIQPSNormalizer
from samepage.urls import pattern_names
from tests.archive_fixtures import live_index
from tests.site.fixture import fixture_sites, observed_urls
from tests.site.learner_settings import SUITE_CONFIG


def archive_urls(hosts: Sequence[str], observed: Sequence[str]) -> list[str]:
    """The hosts' observed URLs and each without one of its parameters, in first-seen order."""
    norm = MIQPSNormalizer()
    found: dict[str, None] = {}
    for url in observed:
        if url.split("/")[2] not in hosts:
            continue
        found[url] = None
        try:
            names = pattern_names(norm.pattern_key(url))
        except ValueError:
            continue
        for name in names:
            found[without_param(url, name)] = None
    return list(found)


async def write_index(
    urls: Sequence[str], resolve: dict[str, str], path: Path, coverage: float
) -> tuple[int, int]:
    """Fetch ``urls`` into a CDXJ index at ``path``; (lines kept, URLs fetched)."""
    await live_index(path, urls, resolve)
    lines = path.read_text(encoding="utf-8").splitlines()
    kept = [line for line in lines if random.Random(line).random() < coverage]
    path.write_text("\n".join(kept) + "\n", encoding="utf-8")
    return len(kept), len(urls)


def verdicts(learned: LearnedSet) -> dict[tuple[str, str, str], str]:
    """Every parameter verdict of a learned set, with its learned default values."""
    out = {}
    for host, entry in learned.domains.items():
        for pattern, found in entry.patterns.items():
            for name, v in found.params.items():
                out[(host, pattern, name)] = f"{v.verdict} {sorted(v.defaults)}"
    return out


async def run(args: argparse.Namespace) -> int:
    hosts = [h.strip() for h in args.hosts.split(",") if h.strip()]
    config = dataclasses.replace(SUITE_CONFIG, samples=args.samples)
    choice = find_browser()
    targets = [parse_target(f"http://{host}") for host in hosts]
    results: dict[str, tuple[CrawlResult, float]] = {}
    with SiteServer(fixture_sites()) as server, tempfile.TemporaryDirectory() as tmp:
        folder = Path(args.folder or tmp)
        folder.mkdir(parents=True, exist_ok=True)
        index = folder / "index.cdxj"
        urls = archive_urls(hosts, observed_urls())
        lines, fetched = await write_index(urls, server.resolve(), index, args.coverage)
        for name, archive in (("rendered", None), ("archive", load_archive([str(index)]))):
            started = time.perf_counter()
            result = await crawl(
                targets,
                config=config,
                out=folder / name / "learned.json",
                cache=folder / name / "run",
                observed=observed_urls(),
                resolve=server.resolve(),
                browser=choice.executable,
                archive=archive,
            )
            results[name] = (result, time.perf_counter() - started)
    print(f"index: {lines} captures of {fetched} URLs (coverage {args.coverage:g})")
    print("| run | renders | samples from the archive | comparisons rendered | seconds |")
    print("|---|---:|---:|---:|---:|")
    for name, (result, seconds) in results.items():
        stats = result.stats
        print(
            f"| {name} | {stats['renders']} | {stats['archive_samples']} | "
            f"{stats['comparisons']} | {seconds:.1f} |"
        )
    plain, archived = (verdicts(results[n][0].learned) for n in ("rendered", "archive"))
    differ = sorted(k for k in plain.keys() | archived.keys() if plain.get(k) != archived.get(k))
    saved = results["rendered"][0].stats["renders"] - results["archive"][0].stats["renders"]
    print(f"renders saved: {saved}; verdicts that differ: {len(differ)} of {len(plain)}")
    account = results["archive"][0].stats
    why = ", ".join(f"{n} {reason}" for reason, n in account["archive_refused"].items())
    doubts = ", ".join(f"{n} {doubt}" for doubt, n in account["archive_doubts"].items())
    print(f"not decided by the archive: {why or 'none'} (not static: {doubts or 'none'})")
    for key in differ:
        print(f"  {'/'.join(key)}: rendered {plain.get(key)}, archive {archived.get(key)}")
    return 1 if differ else 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--hosts", default="shop.test,news.test")
    parser.add_argument("--samples", type=int, default=SUITE_CONFIG.samples)
    parser.add_argument("--coverage", type=float, default=1.0)
    parser.add_argument("--folder", help="keep the index and both run folders here")
    return asyncio.run(run(parser.parse_args(argv)))


if __name__ == "__main__":
    sys.exit(main())
