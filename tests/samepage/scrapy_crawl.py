"""A real Scrapy crawl, run in its own process (the Twisted reactor stays out of pytest).

``python -m tests.samepage.scrapy_crawl SETTINGS_JSON START_URL...`` follows every link of
the start pages' site, with the given settings; the requests it made are read from the
server's log by the test.
"""

from __future__ import annotations

import json
import logging
import sys
from collections.abc import Iterator
from typing import Any

import scrapy
from scrapy.crawler import CrawlerProcess
from scrapy.http import Response


class LinkSpider(scrapy.Spider):
    name = "links"

    def __init__(self, starts: list[str], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.start_urls = starts

    def parse(self, response: Response) -> Iterator[scrapy.Request]:
        for href in response.css("a::attr(href)").getall():
            yield response.follow(href, callback=self.parse)


class _Errors(logging.Handler):
    """Counts the errors logged: a crawl that logged one fails."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.count = 0

    def emit(self, record: logging.LogRecord) -> None:
        self.count += 1
        print(f"crawl error: {record.getMessage()}", file=sys.stderr)


def main(argv: list[str]) -> int:
    settings = {
        "LOG_LEVEL": "ERROR",
        "ROBOTSTXT_OBEY": False,
        "TELNETCONSOLE_ENABLED": False,
        "CONCURRENT_REQUESTS": 1,
        "DOWNLOAD_DELAY": 0,
        **json.loads(argv[0]),
    }
    process = CrawlerProcess(settings)
    errors = _Errors()
    logging.getLogger().addHandler(errors)
    done = process.crawl(LinkSpider, starts=argv[1:])
    done.addErrback(lambda failure: errors.emit(logging.makeLogRecord({"msg": failure})))
    process.start()
    return 1 if errors.count else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
