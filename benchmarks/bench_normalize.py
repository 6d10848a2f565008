"""Time ``samepage.normalize_url`` against peer normalizers and score how well each dedupes.

Run from the repository root (the peers come from ``pip install -e '.[bench]'``)::

    python -m benchmarks.bench_normalize --n 20000 --repeat 5

Everything runs in one process: the corpus is built once, each tool normalizes it once cold
(the "first pass", which also fills any per-host cache, as a user's first batch would), then
``--repeat`` timed rounds go round-robin across the tools, starting from a different tool each
round so that no tool always runs first. The garbage collector is off during each timed pass.
A first pass cannot be repeated, so the tools take its URLs in turns of ``--first-chunk``
URLs (each tool still meets every URL once, in order): a burst of other work on the machine
then slows every tool alike instead of the one whose pass it fell on.

Rounds repeat the same URLs, so a cache keyed on a whole URL or query piece hits from the
second round on. The "unseen" column therefore times ``--repeat`` more passes (interleaved
the same way, best pass shown) over URLs no tool has seen, from the same sites: the steady
state of a long-running crawler, where hosts repeat and URLs do not.

A missing peer is reported and skipped, so the script runs with samepage alone.

``--rules PATH`` adds a second samepage row that uses the rules file at PATH (another
version of ``samepage/data/rules.json``, such as the one before a change), so that two rule
sets are timed side by side in the same rounds. ``--clock cpu`` times with the process's CPU
time (``time.process_time_ns``) instead of the wall clock, for a machine that other work
loads.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import statistics
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from urllib.parse import urlsplit, urlunsplit

from benchmarks.corpus import LabelledURL, generate

Normalize = Callable[[str], object]
SAMEPAGE = "samepage.normalize_url"
FLOOR = "urlsplit+urlunsplit (floor)"


@dataclass(frozen=True, slots=True)
class Tool:
    """A named one-argument normalizer."""

    name: str
    normalize: Normalize


@dataclass(slots=True)
class Quality:
    """How one tool's keys group the labelled corpus."""

    keys: int = 0
    merged_pairs: int = 0  # same-page pairs given one key
    pages_collapsed: int = 0  # pages with 2+ spellings whose spellings all got one key
    false_pairs: int = 0  # different-page pairs given one key
    false_keys: int = 0  # keys shared by 2+ pages
    errors: int = 0
    false_examples: list[tuple[str, list[LabelledURL]]] = field(default_factory=list)
    missed_examples: list[tuple[str, list[tuple[str, str]]]] = field(default_factory=list)
    error_examples: list[tuple[str, str]] = field(default_factory=list)
    false_by_kind: Counter[str] = field(default_factory=Counter)


def _floor(url: str) -> str:
    return urlunsplit(urlsplit(url))


def load_tools(rules: str | None = None) -> tuple[list[Tool], list[str]]:
    """Return the tools that import, samepage first and the floor last, and the missing ones.

    With ``rules`` (a rules file), samepage with those rules comes second.
    """
    tools: list[Tool] = []
    missing: list[str] = []
    try:
        import samepage

        tools.append(Tool(SAMEPAGE, samepage.normalize_url))
        if rules is not None:
            with open(rules, encoding="utf-8") as handle:
                other = samepage.RuleSet.from_json(json.load(handle))
            tools.append(
                Tool(f"samepage, rules of {rules}", samepage.MIQPSNormalizer(rules=other).normalize)
            )
    except ImportError as exc:
        missing.append(f"{SAMEPAGE} ({exc})")
    try:
        from w3lib.url import canonicalize_url

        tools.append(Tool("w3lib.url.canonicalize_url", canonicalize_url))
    except ImportError as exc:
        missing.append(f"w3lib ({exc})")
    try:
        from url_normalize import url_normalize

        tools.append(Tool("url_normalize.url_normalize", url_normalize))

        # url-normalize's own tracking filter, off by default.
        def url_normalize_filtered(url: str) -> str | None:
            result = url_normalize(url, filter_params=True)
            return None if result is None else str(result)

        tools.append(Tool("url_normalize(filter_params=True)", url_normalize_filtered))
    except ImportError as exc:
        missing.append(f"url-normalize ({exc})")
    try:
        from courlan import normalize_url as courlan_normalize

        tools.append(Tool("courlan.normalize_url", courlan_normalize))
    except ImportError as exc:
        missing.append(f"courlan ({exc})")
    tools.append(Tool(FLOOR, _floor))
    return tools, missing


# The clock every pass is timed with: the wall clock, or the process's CPU time (--clock cpu).
_CLOCK: list[Callable[[], int]] = [time.perf_counter_ns]


def _run(normalize: Normalize, urls: Sequence[str]) -> int:
    """Normalize every URL once; return the elapsed nanoseconds, with gc off."""
    clock = _CLOCK[0]
    gc.collect()
    gc.disable()
    try:
        start = clock()
        for url in urls:
            # Not contextlib.suppress: its enter/exit would be timed too. score() counts errors.
            try:  # noqa: SIM105
                normalize(url)
            except Exception:
                pass
        return clock() - start
    finally:
        gc.enable()


def first_passes(tools: Sequence[Tool], urls: Sequence[str], chunk: int) -> dict[str, int]:
    """Each tool's first, cold pass over ``urls``, the tools taking ``chunk`` URLs in turn.

    Every chunk starts one tool later than the one before, as the rounds do.
    """
    first = {tool.name: 0 for tool in tools}
    for index, start in enumerate(range(0, len(urls), chunk)):
        part = urls[start : start + chunk]
        for i in range(len(tools)):
            tool = tools[(index + i) % len(tools)]
            first[tool.name] += _run(tool.normalize, part)
    return first


def time_tools(tools: Sequence[Tool], batches: Sequence[Sequence[str]]) -> dict[str, list[int]]:
    """Time one interleaved round per batch; each round starts one tool later than the last."""
    rounds: dict[str, list[int]] = {tool.name: [] for tool in tools}
    for r, urls in enumerate(batches):
        for i in range(len(tools)):
            tool = tools[(r + i) % len(tools)]
            rounds[tool.name].append(_run(tool.normalize, urls))
    return rounds


def unseen_batches(corpus: Sequence[LabelledURL], seed: int, count: int) -> list[list[str]]:
    """Return ``count`` batches of ``len(corpus)`` URLs from the same sites, none in ``corpus``.

    The same seed draws the same site names; its first URLs repeat ``corpus`` and are skipped.
    """
    n = len(corpus)
    seen = {item.url for item in corpus}
    fresh = [item.url for item in generate(n * (count + 1), seed=seed) if item.url not in seen]
    return [fresh[i * n : (i + 1) * n] for i in range(count) if len(fresh) >= (i + 1) * n]


def _pairs(count: int) -> int:
    return count * (count - 1) // 2


def score(normalize: Normalize, corpus: Sequence[LabelledURL], examples: int = 3) -> Quality:
    """Group the corpus by the tool's output and compare the groups with the page labels.

    >>> corpus = [LabelledURL("http://a/?x=1", "a1", "t"), LabelledURL("http://a/?x=2", "a2", "t")]
    >>> q = score(lambda u: u.partition("?")[0], corpus)
    >>> q.keys, q.false_pairs, q.false_keys
    (1, 1, 1)
    """
    quality = Quality()
    by_key: dict[str, list[LabelledURL]] = defaultdict(list)
    keys_of_page: dict[str, dict[str, str]] = defaultdict(dict)
    for item in corpus:
        try:
            key = str(normalize(item.url))
        except Exception as exc:
            quality.errors += 1
            if len(quality.error_examples) < examples:
                quality.error_examples.append((item.url, f"{type(exc).__name__}: {exc}"))
            continue
        by_key[key].append(item)
        keys_of_page[item.page][item.url] = key
    quality.keys = len(by_key)
    for key, items in by_key.items():
        pages = Counter(item.page for item in items)
        same = sum(_pairs(c) for c in pages.values())
        quality.merged_pairs += same
        if len(pages) > 1:
            quality.false_keys += 1
            quality.false_pairs += _pairs(len(items)) - same
            quality.false_by_kind[items[0].kind] += 1
            if len(quality.false_examples) < examples:
                quality.false_examples.append((key, items))
    for page, spellings in keys_of_page.items():
        if len(spellings) < 2:
            continue
        if len(set(spellings.values())) == 1:
            quality.pages_collapsed += 1
        elif len(quality.missed_examples) < examples:
            quality.missed_examples.append((page, sorted(spellings.items())))
    return quality


def _machine() -> str:
    model = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as cpuinfo:
            for line in cpuinfo:
                if line.startswith("model name"):
                    model = line.partition(":")[2].strip()
                    break
    except OSError:
        pass
    return f"{model}, {os.cpu_count()} cores, Python {platform.python_version()}"


def _ours(name: str) -> bool:
    """Whether a row is samepage (with any rules) or the floor, not a peer."""
    return name.startswith("samepage") or name == FLOOR


def compile_times(rules: str | None, repeat: int = 5) -> str:
    """The best time to read the built-in rules, and to compile them (and ``rules``) whole.

    The built-in rules on first use are what a first pass pays: the file read and checked,
    each platform group left for the first URL of its hosts. ``RuleSet.from_json`` compiles
    every group of a document at once (the ``--rules`` set is read that way).
    """
    from importlib import resources

    import samepage
    from samepage.rules import default_rules

    texts = {"built-in": resources.files("samepage").joinpath("data/rules.json").read_text()}
    if rules is not None:
        with open(rules, encoding="utf-8") as handle:
            texts[rules] = handle.read()
    clock = _CLOCK[0]

    def best(compile_once: Callable[[], object]) -> str:
        times = []
        for _ in range(repeat):
            start = clock()
            compile_once()
            times.append(clock() - start)
        return f"{min(times) / 1e6:.1f} ms"

    def whole(text: str) -> Callable[[], object]:
        return lambda: samepage.RuleSet.from_json(json.loads(text))

    parts = [f"built-in on first use {best(default_rules.__wrapped__)}"]
    parts += [f"{label} whole {best(whole(text))}" for label, text in texts.items()]
    return f"Rules (JSON text to RuleSet, best of {repeat}): " + ", ".join(parts) + "."


def render(
    corpus: Sequence[LabelledURL],
    first: dict[str, int],
    rounds: dict[str, list[int]],
    unseen: dict[str, list[int]],
    quality: dict[str, Quality],
) -> str:
    """Return the Markdown report: a header, the table, and samepage against the floor."""
    n = len(corpus)
    pages = Counter(item.page for item in corpus)
    multi = sum(1 for c in pages.values() if c > 1)
    total_pairs = sum(_pairs(c) for c in pages.values())
    best = {name: min(times) / n / 1000 for name, times in rounds.items()}
    median = {name: statistics.median(times) / n / 1000 for name, times in rounds.items()}
    fresh = {name: min(times) / n / 1000 for name, times in unseen.items() if times}
    base = best.get(SAMEPAGE)
    lines = [
        f"Corpus: {n} URLs, {len(pages)} pages ({multi} with 2+ spellings), "
        f"{total_pairs} same-page pairs. Rounds: {len(next(iter(rounds.values())))}. "
        f"Machine: {_machine()}.",
        "",
        "| tool | µs/URL best | µs/URL median | first pass | unseen | x samepage | keys "
        "| same-page pairs merged | pages collapsed | FALSE-MERGE pairs | false-merge keys "
        "| errors |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for name in rounds:
        q = quality[name]
        ratio = f"{best[name] / base:.2f}" if base else "n/a"
        unseen_us = f"{fresh[name]:.2f}" if name in fresh else "n/a"
        merged = (
            f"{q.merged_pairs} ({100 * q.merged_pairs / total_pairs:.1f}%)" if total_pairs else "0"
        )
        lines.append(
            f"| {name} | {best[name]:.2f} | {median[name]:.2f} | {first[name] / n / 1000:.2f} "
            f"| {unseen_us} | {ratio} | {q.keys} | {merged} | {q.pages_collapsed}/{multi} "
            f"| {q.false_pairs} | {q.false_keys} | {q.errors} |"
        )
    if base and FLOOR in best:
        peers = [best[t] for t in best if not _ours(t)]
        lines.append("")
        lines.append(
            f"samepage / floor: {base / best[FLOOR]:.2f}x the urlsplit+urlunsplit time (best)."
        )
        if peers:
            lines.append(f"fastest peer / samepage: {min(peers) / base:.2f}x (best).")
        if SAMEPAGE in fresh and FLOOR in fresh:
            peers_fresh = [fresh[t] for t in fresh if not _ours(t)]
            line = f"On unseen URLs: samepage / floor {fresh[SAMEPAGE] / fresh[FLOOR]:.2f}x"
            if peers_fresh:
                line += f", fastest peer / samepage {min(peers_fresh) / fresh[SAMEPAGE]:.2f}x"
            lines.append(line + ".")
    return "\n".join(lines)


def render_examples(quality: dict[str, Quality]) -> str:
    """Return each tool's false merges by page kind, and a few examples of each failure."""
    lines = ["", "False-merge keys by page kind:"]
    for name, q in quality.items():
        kinds = ", ".join(f"{kind} {count}" for kind, count in q.false_by_kind.most_common())
        lines.append(f"- {name}: {kinds or 'none'}")
    for name, q in quality.items():
        lines.append(f"\n### {name}")
        for key, items in q.false_examples:
            lines.append(f"FALSE MERGE -> {key}")
            lines.extend(f"    {item.url}   [page {item.page}]" for item in items[:4])
        for page, spellings in q.missed_examples:
            lines.append(f"missed merge of {page}")
            lines.extend(f"    {url} -> {key}" for url, key in spellings[:4])
        for url, error in q.error_examples:
            lines.append(f"ERROR {url}: {error}")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """Build the corpus, time and score every available tool, print the Markdown report."""
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.bench_normalize",
        description=__doc__.splitlines()[0] if __doc__ else None,
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    parser.add_argument("--n", type=int, default=20000, help="corpus size (URLs)")
    parser.add_argument("--repeat", type=int, default=5, help="timed rounds per tool")
    parser.add_argument("--seed", type=int, default=0, help="corpus seed")
    parser.add_argument("--examples", type=int, default=0, help="print N examples of each failure")
    parser.add_argument(
        "--rules", metavar="PATH", help="also time samepage with the rules file at PATH"
    )
    parser.add_argument(
        "--clock", choices=("wall", "cpu"), default="wall", help="time with this clock"
    )
    parser.add_argument(
        "--first-chunk",
        type=int,
        default=1000,
        metavar="N",
        help="the tools take the first pass's URLs in turns of N (0: each tool's whole pass "
        "in one go)",
    )
    args = parser.parse_args(argv)
    _CLOCK[0] = time.process_time_ns if args.clock == "cpu" else time.perf_counter_ns

    corpus = generate(args.n, seed=args.seed)
    urls = [item.url for item in corpus]
    tools, missing = load_tools(args.rules)
    for name in missing:
        print(f"skipped, not installed: {name}", file=sys.stderr)
    # The first pass of each tool is the cold one, as in a fresh process; it is also the warm-up.
    first = first_passes(
        tools, urls, max(1, args.first_chunk if args.first_chunk > 0 else len(urls))
    )
    quality = {tool.name: score(tool.normalize, corpus, args.examples) for tool in tools}
    rounds = time_tools(tools, [urls] * args.repeat)
    unseen = time_tools(tools, unseen_batches(corpus, args.seed, args.repeat))
    print(render(corpus, first, rounds, unseen, quality))
    print(f"Clock: {args.clock}.")
    print(compile_times(args.rules))
    if args.examples:
        print(render_examples(quality))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
