"""Choosing a Chromium, launch flags and resolver rules."""

from __future__ import annotations

import json
import os
import stat
import sys
from pathlib import Path

import pytest

from learner.errors import BrowserNotFound, ConfigError
from learner.render import browser
from learner.render.browser import (
    CHROMIUM_ARGS,
    BrowserChoice,
    find_browser,
    launch_args,
    resolver_rules,
)
from tests.plugins.engines import engine


def _fake_executable(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("#!/bin/sh\n")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


@pytest.fixture
def no_browsers(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """Nothing on PATH, no $SAMEPAGE_BROWSER, an empty Playwright cache; returns the cache."""
    monkeypatch.delenv("SAMEPAGE_BROWSER", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path / "bin"))
    monkeypatch.setenv("PLAYWRIGHT_BROWSERS_PATH", str(tmp_path / "ms-playwright"))
    candidates = ("chromium-headless-shell", "chromium", "google-chrome")
    monkeypatch.setattr(browser, "_SYSTEM_CANDIDATES", candidates)
    return tmp_path / "ms-playwright"


def test_override_wins_and_must_be_executable(no_browsers: Path, tmp_path: Path) -> None:
    exe = _fake_executable(tmp_path / "my" / "chrome")
    assert find_browser(str(exe)) == BrowserChoice(str(exe), "--browser")
    plain = tmp_path / "not-executable"
    plain.write_text("")
    with pytest.raises(BrowserNotFound, match=f"--browser: {plain} is not an executable file"):
        find_browser(str(plain))


def test_environment_variable_comes_next(
    no_browsers: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    exe = _fake_executable(tmp_path / "env" / "chrome")
    monkeypatch.setenv("SAMEPAGE_BROWSER", str(exe))
    assert find_browser() == BrowserChoice(str(exe), "SAMEPAGE_BROWSER")
    monkeypatch.setenv("SAMEPAGE_BROWSER", str(tmp_path / "gone"))
    with pytest.raises(BrowserNotFound, match=r"SAMEPAGE_BROWSER: .*gone is not an executable"):
        find_browser()


def test_playwrights_own_chromium_is_the_last_resort(no_browsers: Path, tmp_path: Path) -> None:
    engine("playwright")
    layout = browser._platform_dirs()
    assert layout is not None
    full, shell = layout
    manifest = browser._playwright_package() / "browsers.json"
    revisions = {b["name"]: b["revision"] for b in json.loads(manifest.read_text())["browsers"]}
    chrome = _fake_executable(no_browsers.joinpath(f"chromium-{revisions['chromium']}", *full))
    assert find_browser() == BrowserChoice(str(chrome), "playwright")
    shell_dir = f"chromium_headless_shell-{revisions['chromium-headless-shell']}"
    _fake_executable(no_browsers.joinpath(shell_dir, *shell))
    # With the headless shell installed, Playwright picks its own executable.
    assert find_browser() == BrowserChoice(None, "playwright")
    # A system Chromium comes before it.
    system = _fake_executable(tmp_path / "bin" / "chromium")
    assert find_browser() == BrowserChoice(str(system), "system")


def test_system_chromium_on_path(no_browsers: Path, tmp_path: Path) -> None:
    exe = _fake_executable(tmp_path / "bin" / "google-chrome")
    assert find_browser() == BrowserChoice(str(exe), "system")


def test_the_headless_shell_is_preferred_to_the_full_chromium(
    no_browsers: Path, tmp_path: Path
) -> None:
    _fake_executable(tmp_path / "bin" / "chromium")
    shell = _fake_executable(tmp_path / "bin" / "chromium-headless-shell")
    assert find_browser() == BrowserChoice(str(shell), "system")


def test_nothing_found_says_how_to_install(no_browsers: Path) -> None:
    with pytest.raises(BrowserNotFound) as caught:
        find_browser()
    assert str(caught.value).endswith(f"install one with: {browser.install_command()}")
    assert browser.install_command() in (
        "apt-get install -y chromium-headless-shell",
        "apt-get install -y chromium",
        f"{Path(sys.executable).name} -m playwright install chromium",
    )


def test_launch_flags() -> None:
    assert ("--no-sandbox" in CHROMIUM_ARGS) == (os.geteuid() == 0)
    for flag in (
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-quic",
        "--disable-partial-raster",
    ):
        assert flag in CHROMIUM_ARGS
    assert launch_args() == launch_args({}) == list(CHROMIUM_ARGS)
    mapped = launch_args({"shop.test": "127.0.0.1:8123"})
    assert mapped == [*CHROMIUM_ARGS, "--host-resolver-rules=MAP shop.test 127.0.0.1:8123"]


@pytest.mark.parametrize(
    "resolve, expected",
    [
        ({}, ""),
        ({"shop.test": "127.0.0.1:8123"}, "MAP shop.test 127.0.0.1:8123"),
        (
            {"Shop.Test": "127.0.0.1:80", "*.cdn.test": "[::1]:8080"},
            "MAP shop.test 127.0.0.1:80, MAP *.cdn.test [::1]:8080",
        ),
        ({"blog.test": "staging.internal:443"}, "MAP blog.test staging.internal:443"),
    ],
)
def test_resolver_rules(resolve: dict[str, str], expected: str) -> None:
    assert resolver_rules(resolve) == expected


@pytest.mark.parametrize(
    "resolve, message",
    [
        ({"shop.test": "127.0.0.1"}, "shop.test=127.0.0.1: the address needs a port"),
        ({"shop.test": "127.0.0.1:0"}, "shop.test=127.0.0.1:0: the port must be a number"),
        ({"shop.test": "127.0.0.1:http"}, "port must be a number from 1 to 65535"),
        ({"shop.test": "::1:80"}, r"shop.test=::1:80: not an IP address or host name \(write IPv6"),
        ({"shop.test": "[::g]:80"}, "not an IPv6 address"),
        ({"shop test": "127.0.0.1:80"}, "shop test=127.0.0.1:80: not a host name"),
        ({"shop.test,MAP *": "127.0.0.1:80"}, "not a host name"),
        ({"shop.test": "1.2.3.4:80, MAP * 5.6.7.8:80"}, "not an IP address or host name"),
    ],
)
def test_resolver_rules_name_the_bad_entry(resolve: dict[str, str], message: str) -> None:
    with pytest.raises(ConfigError, match=f"^resolve: .*{message}"):
        resolver_rules(resolve)
