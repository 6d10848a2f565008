"""``samepage normalize`` and ``dedupe`` over web archives: CDXJ indexes and WARC files.

``normalize`` prints the key of every capture's URL, in the archive's order. ``dedupe``
groups the captures by key and says, per key, how many captures there are, how many
distinct payload digests they have (revisits count with the digest they repeat) and how
many have none: one digest over many spellings is the archive's own sign that they served
the same bytes. Malformed records are reported on stderr, one line each, and skipped; a
key or group that cannot be written in the output encoding is reported the same way.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import TextIO

from samepage._encoding import json_line
from samepage.archives import ARCHIVE_FORMATS, ArchiveFormat, Capture, archive_format, file_captures
from samepage.errors import InvalidURL
from samepage.normalizer import MIQPSNormalizer

__all__ = ["archive_input", "run_archive"]


def archive_input(
    input_format: str | None, files: Sequence[str], out: str | None
) -> ArchiveFormat | None:
    """The archive format of the input files, or ``None`` when they are not archives.

    Raises:
        ValueError: archives mixed with other files, read from stdin, or with ``--out``.
    """
    if input_format is not None:
        found = input_format if input_format in ARCHIVE_FORMATS else None
    else:
        kinds = {archive_format(name) for name in files or ["-"]}
        if len(kinds) > 1:
            if None in kinds:
                raise ValueError("mixed inputs: give archives and other files in separate runs")
            raise ValueError("mixed inputs: give CDXJ indexes and WARC files in separate runs")
        found = kinds.pop()
    if found is None:
        return None
    if not files or "-" in files:
        raise ValueError(f"{found} input is read from files, not stdin")
    if out is not None:
        raise ValueError("--out is for Parquet or CSV input; archives print to stdout")
    return "warc" if found == "warc" else "cdxj"


@dataclass(slots=True)
class _Group:
    captures: list[Capture] = field(default_factory=list)
    digests: set[str] = field(default_factory=set)
    undigested: int = 0

    def add(self, capture: Capture) -> None:
        self.captures.append(capture)
        if capture.digest is None:
            self.undigested += 1
        else:
            self.digests.add(capture.digest)

    def to_json(self, key: str) -> dict[str, object]:
        urls = list(dict.fromkeys(c.url for c in self.captures))
        return {
            "key": key,
            "count": len(self.captures),
            "digests": len(self.digests),
            "no_digest": self.undigested,
            "urls": urls,
            "captures": [c.to_json() for c in self.captures],
        }


class _Reader:
    """Streams the captures of the files with their keys; counts what went wrong."""

    def __init__(self, norm: MIQPSNormalizer, fmt: ArchiveFormat) -> None:
        self.norm = norm
        self.fmt = fmt
        self.problems = 0

    def problem(self, message: str) -> None:
        self.problems += 1
        print(f"samepage: {message}", file=sys.stderr)

    def keyed(self, files: Sequence[str]) -> Iterator[tuple[Capture, str]]:
        for name in files:
            try:
                for capture in file_captures(name, self.fmt, self.problem):
                    try:
                        yield capture, self.norm.normalize(capture.url)
                    except InvalidURL as exc:
                        self.problem(f"{capture.where}: {exc}")
            except OSError as exc:
                raise OSError(f"{name}: {exc.strerror or exc}") from None

    def write(self, out: TextIO, line: str, what: str) -> None:
        """Write one line; one the output encoding cannot hold is reported instead."""
        try:
            out.write(line)
        except UnicodeEncodeError as exc:
            self.problem(f"{what} cannot be written in the output encoding {exc.encoding!r}")


def run_archive(
    norm: MIQPSNormalizer, args: argparse.Namespace, fmt: ArchiveFormat, out: TextIO
) -> int:
    """Run ``normalize`` or ``dedupe`` over archive files; the exit status (0, or 1)."""
    reader = _Reader(norm, fmt)
    if args.command == "normalize":
        for capture, key in reader.keyed(args.files):
            reader.write(out, key + "\n", f"{capture.where}: the key")
        return 1 if reader.problems else 0
    groups: dict[str, _Group] = {}
    for capture, key in reader.keyed(args.files):
        groups.setdefault(key, _Group()).add(capture)
    for key, group in sorted(groups.items(), key=lambda item: -len(item[1].captures)):
        if args.format == "jsonl":
            line = json_line(group.to_json(key))
        else:
            first = group.captures[0].url
            line = f"{len(group.captures)}\t{len(group.digests)}\t{key}\t{first}\n"
        reader.write(out, line, f"the group of {key!r}")
    return 1 if reader.problems else 0
