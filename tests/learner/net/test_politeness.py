"""robots.txt rules, per-host pacing and retries; time is fake, so nothing really sleeps."""

from __future__ import annotations

import asyncio
import functools
import itertools
import random
from collections.abc import Awaitable, Callable, Iterator

import pytest

from learner.demo.server import Request, Response, Site, SiteServer
from learner.errors import ConfigError, FetchError
from learner.net.fetch import FetchResult, PageFetcher, fetch
from learner.net.hosts import origin_of
from learner.net.limiter import HostLimiter
from learner.net.retries import RetryPolicy, parse_retry_after, polite_fetcher, with_retries
from learner.net.robots import RobotsPolicy
from learner.plan.targets import parse_target

UA = "samepage-learner/0.2 (+https://example.invalid)"


class FakeTime:
    """A clock that only moves when something sleeps; every sleep is recorded."""

    def __init__(self) -> None:
        self.now = 1000.0
        self.sleeps: list[float] = []

    def clock(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += seconds


def fetcher_for(server: SiteServer) -> PageFetcher:
    return functools.partial(fetch, resolve=server.resolve(), user_agent=UA, timeout_s=5.0)


# ---------------------------------------------------------------- HostLimiter


def limiter(fake: FakeTime, seed: int = 7, **options: float) -> HostLimiter:
    return HostLimiter(rng=random.Random(seed), sleep=fake.sleep, clock=fake.clock, **options)  # type: ignore[arg-type]


def jitters(seed: int, count: int, jitter_s: float = 0.5) -> list[float]:
    rng = random.Random(seed)
    return [rng.uniform(0.0, jitter_s) for _ in range(count)]


async def test_starts_are_spaced_by_delay_plus_seeded_jitter() -> None:
    fake = FakeTime()
    pacer = limiter(fake, delay_s=1.0, jitter_s=0.5)
    for _ in range(4):
        async with pacer.slot("shop.test"):
            pass
    expected = [1.0 + j for j in jitters(7, 3)]
    assert fake.sleeps == pytest.approx(expected)


async def test_hosts_do_not_wait_for_each_other() -> None:
    fake = FakeTime()
    pacer = limiter(fake)
    for host in ("a.test", "b.test", "c.test", "A.TEST"):
        async with pacer.slot(host):
            pass
    # Only the second a.test request (spelled A.TEST) waits.
    assert fake.sleeps == pytest.approx([1.0 + jitters(7, 1)[0]])


async def test_elapsed_time_counts_towards_the_delay() -> None:
    fake = FakeTime()
    pacer = limiter(fake, delay_s=2.0, jitter_s=0.0)
    async with pacer.slot("shop.test"):
        fake.now += 0.5  # the request itself took half a second
    async with pacer.slot("shop.test"):
        pass
    fake.now += 5.0
    async with pacer.slot("shop.test"):
        pass
    assert fake.sleeps == pytest.approx([1.5])


async def test_crawl_delay_raises_but_never_lowers_the_delay() -> None:
    fake = FakeTime()
    pacer = limiter(fake, delay_s=1.0, jitter_s=0.0)
    pacer.set_crawl_delay("slow.test", 4.0)
    pacer.set_crawl_delay("fast.test", 0.2)
    for host in ("slow.test", "slow.test", "fast.test", "fast.test"):
        async with pacer.slot(host):
            pass
    assert fake.sleeps == pytest.approx([4.0, 1.0])
    pacer.set_crawl_delay("slow.test", None)
    async with pacer.slot("slow.test"):
        pass
    async with pacer.slot("slow.test"):
        pass
    # The slot scheduled under the 4 s delay still stands (1 s of it has passed on fast.test);
    # after that the plain 1 s delay applies again.
    assert fake.sleeps[2:] == pytest.approx([3.0, 1.0])


@pytest.mark.parametrize(
    "spelling", ["Bücher.Example", "bücher.example.", "XN--BCHER-KVA.example."]
)
async def test_crawl_delay_holds_for_every_spelling_of_the_host(spelling: str) -> None:
    # The Crawl-delay is set on the target's host (IDNA, no trailing dot); requests name the
    # host as a URL spells it.
    fake = FakeTime()
    pacer = limiter(fake, delay_s=1.0, jitter_s=0.0)
    pacer.set_crawl_delay(parse_target("bücher.example").host, 6.0)
    for _ in range(2):
        async with pacer.slot(spelling):
            pass
    assert fake.sleeps == pytest.approx([6.0])


async def test_the_polite_fetcher_waits_the_crawl_delay_of_a_unicode_host() -> None:
    fake = FakeTime()
    pacer = limiter(fake, delay_s=1.0, jitter_s=0.0)
    pacer.set_crawl_delay("xn--bcher-kva.example", 6.0)
    asked: list[str] = []

    async def answer(url: str) -> FetchResult:
        asked.append(url)
        return FetchResult(url, url, 200)

    polite = polite_fetcher(answer, limiter=pacer, sleep=fake.sleep)
    await polite("http://Bücher.example./a")
    await polite("http://bücher.example/b")
    assert len(asked) == 2 and fake.sleeps == pytest.approx([6.0])


def test_every_spelling_of_a_host_has_one_origin_and_so_one_robots_txt() -> None:
    spellings = [
        "https://Bücher.Example./x",
        "https://bücher.example/",
        "https://xn--bcher-kva.example:443",
    ]
    assert {origin_of(url) for url in spellings} == {"https://xn--bcher-kva.example"}


async def test_retry_after_pushes_the_next_slot_back() -> None:
    fake = FakeTime()
    pacer = limiter(fake, delay_s=1.0, jitter_s=0.0)
    async with pacer.slot("shop.test"):
        pass
    pacer.note_retry_after("shop.test", 30.0)
    pacer.note_retry_after("shop.test", 5.0)  # a shorter one does not shorten the wait
    async with pacer.slot("shop.test"):
        pass
    assert fake.sleeps == pytest.approx([30.0])


@pytest.mark.parametrize("per_host, expected_peak", [(1, 1), (2, 2)])
async def test_concurrency_per_host_is_capped(per_host: int, expected_peak: int) -> None:
    fake = FakeTime()
    pacer = limiter(fake, delay_s=0.0, jitter_s=0.0, per_host=per_host)
    inside = 0
    peak = 0
    release = asyncio.Event()

    async def request() -> None:
        nonlocal inside, peak
        async with pacer.slot("shop.test"):
            inside += 1
            peak = max(peak, inside)
            await asyncio.wait_for(release.wait(), 5)
            inside -= 1

    tasks = [asyncio.create_task(request()) for _ in range(3)]
    for _ in range(10):  # let every task run as far as it can
        await asyncio.sleep(0)
    assert inside == expected_peak
    release.set()
    await asyncio.wait_for(asyncio.gather(*tasks), 5)
    assert peak == expected_peak and inside == 0


@pytest.mark.parametrize(
    "options, field",
    [
        ({"delay_s": -1.0}, "delay_s"),
        ({"jitter_s": -0.1}, "jitter_s"),
        ({"per_host": 0}, "per_host"),
    ],
)
def test_limiter_options_are_validated(options: dict[str, float], field: str) -> None:
    with pytest.raises(ConfigError, match=field):
        HostLimiter(rng=random.Random(1), **options)  # type: ignore[arg-type]


# ---------------------------------------------------------------- RobotsPolicy


def _robots_sites() -> list[Site]:
    def text(body: str, status: int = 200) -> Response:
        return Response(status, body, "text/plain")

    agents = Site("agents.test")
    agents.routes["/robots.txt"] = lambda r: text(
        "User-agent: *\nDisallow: /\n\n"
        "User-agent: samepage-learner\nDisallow: /cart\nCrawl-delay: 2.5\n"
        "Sitemap: http://agents.test/a.xml\nSitemap: http://agents.test/b.xml\n"
    )
    broken = Site("broken.test")
    broken.routes["/robots.txt"] = lambda r: text("oops", 503)
    limited = Site("limited.test")
    limited.routes["/robots.txt"] = lambda r: text("slow down", 429)
    gone = Site("gone.test")
    gone.routes["/robots.txt"] = lambda r: text("nothing here", 410)
    moved = Site("moved.test")
    moved.routes["/robots.txt"] = lambda r: Response(301, "", headers={"Location": "/real.txt"})
    moved.routes["/real.txt"] = lambda r: text("User-agent: *\nDisallow: /secret\n")
    counter = itertools.count()
    busy = Site("busy.test")

    def flaky(request: Request) -> Response:
        # The first request is told to come back in 4 s; later ones succeed.
        if next(counter) == 0:
            return Response(503, "busy", headers={"Retry-After": "4"})
        return Response(200, "ok")

    busy.routes["/page"] = flaky
    return [agents, broken, limited, gone, moved, busy]


@pytest.fixture(scope="module")
def robots_server() -> Iterator[SiteServer]:
    with SiteServer(_robots_sites()) as server:
        yield server


async def test_fixture_shop_rules(fixture_server: SiteServer) -> None:
    robots = RobotsPolicy(fetcher_for(fixture_server), UA)
    assert await robots.allowed("http://shop.test/product?id=1")
    assert not await robots.allowed("http://shop.test/private?account=1&token=x")
    assert not await robots.allowed("http://shop.test/private")
    assert await robots.allowed("http://shop.test/robots.txt")
    assert await robots.sitemaps("http://shop.test") == ["http://shop.test/sitemap.xml"]
    assert await robots.crawl_delay("http://shop.test") is None


async def test_missing_robots_allows_all(fixture_server: SiteServer) -> None:
    robots = RobotsPolicy(fetcher_for(fixture_server), UA)
    assert await robots.allowed("http://hostile.test/anything?x=1")
    assert await robots.sitemaps("http://hostile.test/") == []


async def test_group_of_our_product_token_wins(robots_server: SiteServer) -> None:
    robots = RobotsPolicy(fetcher_for(robots_server), UA)
    assert await robots.allowed("http://agents.test/product")
    assert not await robots.allowed("http://agents.test/cart?item=1")
    assert await robots.crawl_delay("http://agents.test") == 2.5
    assert await robots.sitemaps("http://agents.test") == [
        "http://agents.test/a.xml",
        "http://agents.test/b.xml",
    ]
    other = RobotsPolicy(fetcher_for(robots_server), "otherbot/1.0")
    assert not await other.allowed("http://agents.test/product")


@pytest.mark.parametrize(
    "host, allowed",
    [("broken.test", False), ("limited.test", False), ("gone.test", True)],
)
async def test_status_codes_follow_rfc_9309(
    robots_server: SiteServer, host: str, allowed: bool
) -> None:
    robots = RobotsPolicy(fetcher_for(robots_server), UA)
    assert await robots.allowed(f"http://{host}/page?x=1") is allowed


async def test_redirected_robots_is_followed(robots_server: SiteServer) -> None:
    robots = RobotsPolicy(fetcher_for(robots_server), UA)
    assert await robots.allowed("http://moved.test/open")
    assert not await robots.allowed("http://moved.test/secret/file")


async def test_unreachable_robots_disallows_all(unreachable_url: str) -> None:
    fetcher = functools.partial(
        fetch, resolve=None, user_agent=UA, timeout_s=2.0, allow_private=True
    )
    robots = RobotsPolicy(fetcher, UA)
    assert not await robots.allowed(unreachable_url + "page")


async def test_robots_fetched_once_per_origin(robots_server: SiteServer) -> None:
    robots = RobotsPolicy(fetcher_for(robots_server), UA)
    before = len(robots_server.requests_for("agents.test"))
    urls = [f"http://agents.test/p{i}" for i in range(6)]
    await asyncio.gather(*(robots.allowed(url) for url in urls), robots.crawl_delay(urls[0]))
    logged = robots_server.requests_for("agents.test")[before:]
    assert [r.path for r in logged] == ["/robots.txt"]


def test_origin_of_normalises() -> None:
    assert origin_of("https://Shop.Test:443/x") == "https://shop.test"
    assert origin_of("http://shop.test:8080/x?y=1") == "http://shop.test:8080"
    assert origin_of("http://[::1]:81/") == "http://[::1]:81"


# ---------------------------------------------------------------- retries


def result(status: int, **headers: str) -> FetchResult:
    return FetchResult("http://shop.test/x", "http://shop.test/x", status, headers)


def scripted(
    outcomes: list[FetchResult | FetchError],
) -> tuple[list[int], Callable[[], Awaitable[FetchResult]]]:
    calls: list[int] = []
    feed = iter(outcomes)

    async def attempt() -> FetchResult:
        calls.append(1)
        outcome = next(feed)
        if isinstance(outcome, FetchError):
            raise outcome
        return outcome

    return calls, attempt


async def test_transient_status_is_retried_with_exponential_backoff() -> None:
    fake = FakeTime()
    calls, attempt = scripted([result(503), result(503), result(200)])
    final = await with_retries(attempt, sleep=fake.sleep)
    assert final.status == 200 and len(calls) == 3
    assert fake.sleeps == [1.0, 2.0]


async def test_connection_errors_are_retried_then_raised() -> None:
    fake = FakeTime()
    error = FetchError("http://shop.test/x", "ConnectionRefusedError")
    calls, attempt = scripted([error, error, error])
    with pytest.raises(FetchError, match="ConnectionRefusedError"):
        await with_retries(attempt, sleep=fake.sleep)
    assert len(calls) == 3 and fake.sleeps == [1.0, 2.0]


async def test_retry_after_is_honoured_and_reported() -> None:
    fake = FakeTime()
    seen: list[float] = []
    _, attempt = scripted([result(429, **{"retry-after": "7"}), result(200)])
    final = await with_retries(attempt, sleep=fake.sleep, on_retry_after=seen.append)
    assert final.status == 200
    assert fake.sleeps == [7.0] and seen == [7.0]


async def test_too_long_retry_after_gives_up_at_once() -> None:
    fake = FakeTime()
    calls, attempt = scripted([result(503, **{"retry-after": "3600"}), result(200)])
    final = await with_retries(attempt, policy=RetryPolicy(max_delay_s=60), sleep=fake.sleep)
    assert final.status == 503 and len(calls) == 1 and fake.sleeps == []


async def test_last_transient_status_is_returned_and_others_are_not_retried() -> None:
    fake = FakeTime()
    calls, attempt = scripted([result(503), result(503)])
    final = await with_retries(attempt, policy=RetryPolicy(attempts=2), sleep=fake.sleep)
    assert final.status == 503 and fake.sleeps == [1.0]
    calls, attempt = scripted([result(500)])
    assert (await with_retries(attempt, sleep=fake.sleep)).status == 500
    assert len(calls) == 1


def test_retry_after_forms() -> None:
    assert parse_retry_after("120", now=0) == 120.0
    assert parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT", now=1445412470.0) == 10.0
    assert parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT", now=1445412490.0) == 0.0
    assert parse_retry_after("soon", now=0) is None
    assert parse_retry_after(None, now=0) is None


@pytest.mark.parametrize(
    "options, field",
    [
        ({"attempts": 0}, "attempts"),
        ({"base_delay_s": -1}, "base_delay_s"),
        ({"max_delay_s": 0.5}, "max_delay_s"),
    ],
)
def test_retry_policy_is_validated(options: dict[str, float], field: str) -> None:
    with pytest.raises(ConfigError, match=field):
        RetryPolicy(**options)  # type: ignore[arg-type]


async def test_polite_fetcher_paces_and_honours_retry_after(robots_server: SiteServer) -> None:
    fake = FakeTime()
    pacer = limiter(fake, delay_s=1.0, jitter_s=0.0)
    polite = polite_fetcher(fetcher_for(robots_server), limiter=pacer, sleep=fake.sleep)
    before = len(robots_server.requests_for("busy.test"))
    first = await polite("http://busy.test/page")
    second = await polite("http://busy.test/page?again=1")
    logged = [(r.path, r.query) for r in robots_server.requests_for("busy.test")[before:]]
    assert (first.status, second.status) == (200, 200)
    assert logged == [("/page", ""), ("/page", ""), ("/page", "again=1")]
    # Back-off waits the Retry-After (4 s); the slot then needs no further wait; the third
    # request waits the 1 s delay.
    assert fake.sleeps == [4.0, 1.0]


async def test_a_retry_after_beyond_the_budget_closes_the_host_without_stalling_it() -> None:
    # An hour's Retry-After used to push the host's next slot an hour back: every later
    # request of the domain slept until the domain's time limit.
    site = Site("closed.test")

    @site.route("/page")
    def page(request: Request) -> Response:
        return Response(429, "<h1>Go away</h1>", headers={"Retry-After": "3600"})

    fake = FakeTime()
    pacer = limiter(fake, delay_s=1.0, jitter_s=0.0)
    with SiteServer([site]) as server:
        polite = polite_fetcher(
            fetcher_for(server),
            limiter=pacer,
            policy=RetryPolicy(max_delay_s=60.0),
            sleep=fake.sleep,
        )
        first = await polite("http://closed.test/page")
        assert first.status == 429  # the retries end at once
        with pytest.raises(FetchError, match=r"asked for 3600 s more \(Retry-After\)") as caught:
            await polite("http://closed.test/page?next=1")
        assert not caught.value.transient
        assert [r.query for r in server.requests_for("closed.test")] == [""]  # never sent
    assert fake.sleeps == []  # nothing waited
    assert pacer.closed_for("closed.test") == pytest.approx(3600.0)
    assert pacer.closed_for("other.test") == 0.0
    async with pacer.slot("other.test"):
        pass
    assert fake.sleeps == []


async def test_a_retry_after_within_the_budget_still_holds_the_host_back() -> None:
    fake = FakeTime()
    pacer = limiter(fake, delay_s=0.0, jitter_s=0.0)
    pacer.note_retry_after("shop.test", 30.0, budget_s=60.0)
    assert pacer.closed_for("shop.test") == 0.0
    async with pacer.slot("shop.test"):
        pass
    assert fake.sleeps == [30.0]


async def test_a_page_waiting_to_start_holds_nothing_a_started_page_needs() -> None:
    # Two pages of one host share one browser page slot. The first lets go of its host
    # while it waits, then sends a late request: the second, queued for the host, must not
    # be holding the host's place while it waits for the slot (a circle of waits).
    fake = FakeTime()
    pacer = limiter(fake, delay_s=0.0, jitter_s=0.0, per_host=1)
    browser_pages = asyncio.Semaphore(1)
    order: list[str] = []

    async def page(name: str, late_request: bool) -> None:
        async with pacer.turn("shop.test") as turn, browser_pages:
            await turn.start()
            order.append(f"{name} loads")
            turn.pause()  # waiting out its quiet window
            for _ in range(5):
                await asyncio.sleep(0)
            if late_request:
                await turn.resume()
                order.append(f"{name} sends late")
                turn.pause()

    await asyncio.wait_for(asyncio.gather(page("first", True), page("second", False)), 5)
    assert order == ["first loads", "first sends late", "second loads"]


async def test_a_started_page_takes_a_freed_place_before_pages_not_started() -> None:
    fake = FakeTime()
    pacer = limiter(fake, delay_s=0.0, jitter_s=0.0, per_host=1)
    order: list[str] = []
    first_paused = asyncio.Event()
    first_done = asyncio.Event()

    async def first() -> None:
        async with pacer.turn("shop.test") as turn:
            await turn.start()
            turn.pause()
            first_paused.set()
            for _ in range(5):
                await asyncio.sleep(0)
            await turn.resume()  # queued behind the second page's hold
            order.append("first sends late")
            first_done.set()

    async def second() -> None:
        await first_paused.wait()
        async with pacer.turn("shop.test") as turn:
            await turn.start()
            order.append("second loads")
            for _ in range(5):
                await asyncio.sleep(0)
            turn.pause()
            await first_done.wait()

    async def third() -> None:
        await first_paused.wait()
        for _ in range(2):
            await asyncio.sleep(0)
        async with pacer.turn("shop.test") as turn:
            await turn.start()
            order.append("third loads")

    await asyncio.wait_for(asyncio.gather(first(), second(), third()), 5)
    assert order == ["second loads", "first sends late", "third loads"]
