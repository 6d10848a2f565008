"""One application's crawl by this checkout's learner and another's, alternating, side by side.

Run from the repository root (the other checkout needs the same set-up; a git worktree of an
older commit shares this one's environment)::

    git worktree add ../samepage-before <commit>
    python -m benchmarks.bench_side_by_side --baseline ../samepage-before --app mediawiki

Each round crawls the application (served afresh from its seed, ``tests/apps``) once with
each checkout, in a child process whose imports are that checkout's, with the test suite's
settings (``tests/apps/registry.py``: two pages open at once, no politeness delay). Rounds
alternate which goes first, so both meet the same machine. Per run: the crawl's wall time,
the seconds its renders took added up, their ratio (the pages under way on average), the
renders and the parameters decided; at the end, whether every run published the same
verdicts and aliases, and the wall-time ratio of the medians.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

_CHILD = """
import asyncio, json, sys, tempfile, time
from pathlib import Path
from learner.plan.targets import parse_target
from learner.run.crawl import crawl
from tests.apps.registry import APPS, APPS_CONFIG

app = APPS[sys.argv[1]]
folder = Path(sys.argv[2])
with app.serve(folder / "app") as server:
    started = time.monotonic()
    asyncio.run(crawl([parse_target(f"http://{app.host}")], config=APPS_CONFIG,
        out=folder / "learned.json", cache=folder / "run", observed=app.observed_urls(),
        resolve=server.resolve(), browser=None))
    print(json.dumps({"wall": time.monotonic() - started}))
"""


def _crawl(tree: Path, app: str) -> dict[str, Any]:
    """One crawl of ``app`` by the learner of ``tree``: its times, counts and published set."""
    folder = Path(tempfile.mkdtemp(prefix="side-by-side-"))
    env = dict(os.environ, PYTHONPATH=str(tree))
    done = subprocess.run(
        [sys.executable, "-c", _CHILD, app, str(folder)],
        cwd=tree,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    wall = json.loads(done.stdout.strip().splitlines()[-1])["wall"]
    stats = json.loads((folder / "run" / "stats.json").read_text(encoding="utf-8"))
    learned = json.loads((folder / "learned.json").read_text(encoding="utf-8"))
    published = {
        host: {
            "patterns": {
                key: {name: verdict["verdict"] for name, verdict in entry["params"].items()}
                for key, entry in domain.get("patterns", {}).items()
            },
            "aliases": sorted((a["from"], a["to"]) for a in domain.get("aliases", [])),
        }
        for host, domain in learned["domains"].items()
    }
    return {
        "wall": wall,
        "render_s": stats["render_seconds"],
        "in_flight": stats["render_seconds"] / stats["seconds"] if stats["seconds"] else 0.0,
        "renders": stats["renders"],
        "decided": stats["decided"],
        "published": published,
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.bench_side_by_side",
        description=__doc__.splitlines()[0] if __doc__ else None,
    )
    parser.add_argument("--baseline", type=Path, required=True, help="the other checkout")
    parser.add_argument("--app", default="mediawiki", help="the application (tests/apps)")
    parser.add_argument("--rounds", type=int, default=2, help="crawls by each checkout")
    args = parser.parse_args(argv)
    trees = {"this": Path.cwd(), "baseline": args.baseline.resolve()}
    runs: dict[str, list[dict[str, Any]]] = {name: [] for name in trees}
    print("| round | learner | wall (s) | render s | pages under way | renders | decided |")
    print("|---:|---|---:|---:|---:|---:|---:|")
    for round_ in range(args.rounds):
        order = list(trees) if round_ % 2 == 0 else list(reversed(trees))
        for name in order:
            run = _crawl(trees[name], args.app)
            runs[name].append(run)
            print(
                f"| {round_ + 1} | {name} | {run['wall']:.1f} | {run['render_s']:.1f} "
                f"| {run['in_flight']:.2f} | {run['renders']} | {run['decided']} |",
                flush=True,
            )
    published = [run["published"] for name in trees for run in runs[name]]
    same = all(p == published[0] for p in published)
    ratio = statistics.median(r["wall"] for r in runs["this"]) / statistics.median(
        r["wall"] for r in runs["baseline"]
    )
    print(f"\nsame verdicts and aliases in every run: {same}")
    print(f"wall time, this / baseline (medians): {ratio:.2f}")
    return 0 if same else 1


if __name__ == "__main__":
    raise SystemExit(main())
