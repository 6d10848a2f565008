"""The crawl's progress line: what it counts, and how fast it renders."""

from __future__ import annotations

import io
import time

from learner.run.progress import Progress


def test_the_line_shows_pages_per_second_and_the_pages_rendering_at_once() -> None:
    progress = Progress(enabled=False, started=time.monotonic() - 10, renders=25, rendering=3)
    progress.domains_total, progress.patterns_total, progress.patterns_done = 2, 8, 4
    line = progress.line()
    assert "renders 25 (2.50/s, 3 rendering)" in line
    assert line.startswith("domains 0/2  patterns 4/8") and " eta 10s" in line


def test_a_cluster_driver_that_cannot_see_the_pages_rendering_shows_the_rate_alone() -> None:
    progress = Progress(enabled=False, started=time.monotonic() - 4, renders=2)
    assert "renders 2 (0.50/s)  failures 0" in progress.line()


def test_a_status_line_is_written_when_its_interval_has_passed_not_before() -> None:
    stream = io.StringIO()
    progress = Progress(stream=stream, interval_s=3600.0, rendering=1)
    progress.update(force=True)
    progress.renders = 1
    progress.update()
    assert stream.getvalue().count("progress: ") == 1 and "1 rendering" in stream.getvalue()
