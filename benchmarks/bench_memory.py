"""Peak memory of ``samepage normalize``, ``samepage dedupe`` and ``crawl --urls`` on big text.

Run from the repository root::

    python -m benchmarks.bench_memory --size 1GB

1. A text log of about ``--size`` bytes is generated in a temporary folder (the URLs of
   :func:`benchmarks.bench_plan.generate_log`, each with a ``text`` parameter of about 50
   characters, so that a line is about 100 bytes), and removed at the end.
2. Each command runs in a child process (side by side: their times are those of a shared
   machine; their memory is their own) that reports its own peak resident memory
   (``getrusage``) and exit status; ``normalize`` and the log reading of ``crawl --urls``
   run under an address-space limit (``RLIMIT_AS``, ``--address-limit``), so a reader that
   held its input would fail with ``MemoryError`` instead of passing:

   - ``samepage normalize LOG > /dev/null``;
   - ``samepage dedupe --memory-limit LIMIT LOG > /dev/null`` (DuckDB: no address-space
     limit, since DuckDB reserves address space it does not use; its resident peak is
     reported);
   - the log reading of ``learner crawl --urls LOG`` (``learner.cli._read_urls``, the whole
     of what ``crawl`` does with the log before it studies a site) for a domains file naming
     one site on 127.0.0.1, which no line of the log belongs to.
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from benchmarks.bench_plan import generate_log

_CHILD = """
import resource, sys
limit = int(sys.argv[1])
if limit:
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
kind, args = sys.argv[2], sys.argv[3:]
if kind == "samepage":
    from samepage.cli import main
    status = main(args)
else:
    from learner.cli import _read_urls
    from learner.plan.targets import parse_target
    kept = _read_urls(args[0], [parse_target(args[1])])
    print(f"kept {len(kept)} lines", file=sys.stderr)
    status = 0
sys.stdout.flush()
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(f"peak {peak * 1024}", file=sys.stderr)
sys.exit(status)
"""

_UNITS = {"KB": 1 << 10, "MB": 1 << 20, "GB": 1 << 30}


def size_of(text: str) -> int:
    """``1GB``, ``300MB``, ``64KB`` or a number of bytes."""
    for unit, factor in _UNITS.items():
        if text.upper().endswith(unit):
            return int(float(text[: -len(unit)]) * factor)
    return int(text)


def generate(path: Path, size: int, seed: int = 0) -> int:
    """Write about ``size`` bytes of URLs, one a line; how many lines were written."""
    rng = random.Random(seed)
    words = [f"{rng.getrandbits(200):050x}"[:50] for _ in range(2000)]
    written = lines = 0
    with open(path, "w", encoding="utf-8") as out:
        batch: list[str] = []
        for url in generate_log(sys.maxsize, seed=seed):
            joiner = "&" if "?" in url else "?"
            batch.append(f"{url}{joiner}text={words[lines % len(words)]}\n")
            lines += 1
            if len(batch) == 10_000:
                chunk = "".join(batch)
                out.write(chunk)
                written += len(chunk)
                batch = []
                if written >= size:
                    break
    return lines


def measure(kind: str, args: list[str], address_limit: int) -> tuple[float, int, int, str]:
    """Run one command in a child: wall seconds, peak resident bytes, exit status, stderr."""
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-c", _CHILD, str(address_limit), kind, *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        check=False,
    )
    seconds = time.monotonic() - started
    lines = done.stderr.splitlines()
    peak = int(lines[-1].split()[-1]) if lines and lines[-1].startswith("peak ") else 0
    said = "; ".join(line for line in lines[:-1] if line)[-300:]
    return seconds, peak, done.returncode, said


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", default="1GB", help="bytes of input to generate")
    parser.add_argument("--input", help="a log to read instead of generating one (kept)")
    parser.add_argument("--memory-limit", default="256MB", help="dedupe's --memory-limit")
    parser.add_argument(
        "--address-limit", default="1GB", help="RLIMIT_AS of normalize and crawl --urls"
    )
    parser.add_argument(
        "--only", action="append", choices=_RUNS, help="run only these (default: all)"
    )
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-memory-") as temp:
        log = Path(args.input or Path(temp) / "urls.txt")
        started = time.monotonic()
        if args.input:
            with open(log, "rb") as handle:
                lines = sum(chunk.count(b"\n") for chunk in iter(lambda: handle.read(1 << 24), b""))
        else:
            lines = generate(log, size_of(args.size), args.seed)
        print(
            f"{'read' if args.input else 'generated'} {lines:,} lines, "
            f"{log.stat().st_size / 2**30:.2f} GiB, in {time.monotonic() - started:.0f}s"
        )
        _report(
            log, lines, args.only or list(_RUNS), args.memory_limit, size_of(args.address_limit)
        )


_RUNS = ("normalize", "dedupe", "crawl")


def _report(log: Path, lines: int, only: list[str], memory_limit: str, address_limit: int) -> None:
    """Run the chosen commands side by side (each in its own process) and print a table."""
    runs = {
        "normalize": ("normalize", "samepage", ["normalize", str(log)], address_limit),
        "dedupe": (
            f"dedupe --memory-limit {memory_limit}",
            "samepage",
            ["dedupe", "--memory-limit", memory_limit, str(log)],
            0,
        ),
        "crawl": (
            "crawl --urls (log reading)",
            "learner",
            [str(log), "http://127.0.0.1:9"],
            address_limit,
        ),
    }
    chosen = [runs[name] for name in only]
    with ThreadPoolExecutor(len(chosen)) as pool:
        results = list(pool.map(lambda run: measure(run[1], run[2], run[3]), chosen))
    print(f"{'command':<32} {'status':>6} {'seconds':>8} {'lines/s':>10} {'peak RSS':>10}  limit")
    for (name, _, _, limit), (seconds, peak, status, said) in zip(chosen, results, strict=True):
        shown = f"RLIMIT_AS {limit / 2**30:.2f} GiB" if limit else "none (DuckDB)"
        print(
            f"{name:<32} {status:>6} {seconds:>8.0f} {lines / seconds:>10,.0f} "
            f"{peak / 2**20:>7,.0f} MiB  {shown}"
        )
        if said:
            print(f"  stderr: {said}")


if __name__ == "__main__":
    main()
