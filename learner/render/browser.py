"""Finding a Chromium to drive, and the command-line flags it is launched with.

The learner prefers, in order: an explicit ``--browser`` path, ``$SAMEPAGE_BROWSER``, the
system's Chromium headless shell (Debian's ``chromium-headless-shell``), a system Chromium
on ``PATH``, and finally the Chromium that ``python -m playwright install chromium`` put in
Playwright's own cache.

The headless shell is the old headless Chromium that Playwright itself launches for
headless pages: no browser user interface behind the page. Measured side by side on the
suite's pages (``benchmarks/bench_differential.py``), it renders in about half the time of
the full ``chromium`` in headless mode, with the same outcomes against a plain browser.
"""

from __future__ import annotations

import json
import logging
import os
import platform
import shutil
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from learner.errors import BrowserNotFound
from learner.net.resolve import parse_resolve

logger = logging.getLogger(__name__)

__all__ = [
    "CHROMIUM_ARGS",
    "ENV_BROWSER",
    "BrowserChoice",
    "find_browser",
    "launch_args",
    "resolver_rules",
]

ENV_BROWSER = "SAMEPAGE_BROWSER"
"""Environment variable naming the Chromium executable to use."""

_SYSTEM_CANDIDATES = (
    "/usr/bin/chromium-headless-shell",
    "chromium-headless-shell",
    "/usr/bin/chromium",
    "chromium",
    "chromium-browser",
    "google-chrome",
)
"""System browsers, in the order they are preferred: the headless shell first."""


def _is_root() -> bool:
    getuid = getattr(os, "geteuid", None)
    return bool(getuid is not None and getuid() == 0)


# Chromium refuses to start its sandbox as root, so the sandbox is dropped only then.
# Measured on Chromium 156 (headless, software rendering): 3 renders x 2 launches of a page
# with text, gradients, canvas, SVG, shadows and blur gave byte-identical PNGs with or
# without --font-render-hinting=none, --disable-gpu and --disable-lcd-text. Hinting is kept
# because it follows the host's fontconfig, which differs between machines; Playwright
# itself adds --hide-scrollbars and --mute-audio in headless mode. Every connection of a page
# goes through its render's gate (learner.render.guard, a SOCKS proxy); WebRTC is kept to it
# too, so a page sends no UDP of its own.
# Without partial raster, a part of the page drawn again (a field restyled, a label changed
# and changed back) is drawn with its whole tile, as at first: the pixels of a still page do
# not depend on what was redrawn before the screenshot. With it, the edge of a rounded box
# beside a redrawn field came out one shade apart (Datasette's filter form and MediaWiki's
# search box, after Playwright's screenshot restyled every field to hide carets).
CHROMIUM_ARGS: tuple[str, ...] = (
    *(("--no-sandbox",) if _is_root() else ()),
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
    "--font-render-hinting=none",
    "--disable-partial-raster",
    "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
)
"""Flags every learner browser is launched with (besides Playwright's own)."""


@dataclass(frozen=True, slots=True)
class BrowserChoice:
    """The browser the learner will launch.

    ``executable`` is ``None`` when Playwright's own bundled Chromium is used (Playwright
    finds it itself); ``source`` says where the choice came from: ``"--browser"``,
    ``"SAMEPAGE_BROWSER"``, ``"playwright"`` or ``"system"``.
    """

    executable: str | None
    source: str


def find_browser(override: str | None = None) -> BrowserChoice:
    """Choose the Chromium to drive.

    Args:
        override: an explicit path (the ``--browser`` option); it must exist and be
            executable, there is no fallback when it is wrong.

    Raises:
        BrowserNotFound: the override or ``$SAMEPAGE_BROWSER`` is not an executable file, or
            no Chromium is installed; the message gives the command that installs one.

    >>> find_browser("/nonexistent/chrome")
    Traceback (most recent call last):
    ...
    learner.errors.BrowserNotFound: --browser: /nonexistent/chrome is not an executable file
    """
    if override is not None:
        return BrowserChoice(_executable(override, "--browser"), "--browser")
    from_env = os.environ.get(ENV_BROWSER)
    if from_env:
        return BrowserChoice(_executable(from_env, ENV_BROWSER), ENV_BROWSER)
    for candidate in _SYSTEM_CANDIDATES:
        found = shutil.which(candidate)
        if found is not None:
            logger.debug("using system Chromium %s", found)
            return BrowserChoice(found, "system")
    bundled = _playwright_chromium()
    if bundled is not None:
        return bundled
    raise BrowserNotFound(
        f"no Chromium found (looked at --browser, ${ENV_BROWSER}, "
        f"{', '.join(_SYSTEM_CANDIDATES)} on PATH and Playwright's browsers in "
        f"{_registry_directory()}); install one with: {install_command()}"
    )


def install_command() -> str:
    """Return the one command that installs a Chromium the learner can use here.

    Debian ships the headless shell the learner prefers; Ubuntu only its ``chromium``.
    """
    ids = _os_release_id() if sys.platform.startswith("linux") else set()
    if "ubuntu" in ids:
        return "apt-get install -y chromium"
    if "debian" in ids:
        return "apt-get install -y chromium-headless-shell"
    return f"{Path(sys.executable).name} -m playwright install chromium"


def _os_release_id() -> set[str]:
    try:
        text = Path("/etc/os-release").read_text(encoding="utf-8")
    except OSError:
        return set()
    ids: set[str] = set()
    for line in text.splitlines():
        key, _, value = line.partition("=")
        if key in ("ID", "ID_LIKE"):
            ids.update(value.strip().strip('"').lower().split())
    return ids


def _executable(path: str, source: str) -> str:
    resolved = shutil.which(path) if os.sep not in path else path
    if resolved is None or not os.path.isfile(resolved) or not os.access(resolved, os.X_OK):
        raise BrowserNotFound(f"{source}: {path} is not an executable file")
    return resolved


def _registry_directory() -> Path:
    # Mirrors playwright-core's registry: $PLAYWRIGHT_BROWSERS_PATH ("0" = inside the
    # package), else the per-user cache directory.
    configured = os.environ.get("PLAYWRIGHT_BROWSERS_PATH")
    if configured == "0":
        return _playwright_package() / ".local-browsers"
    if configured:
        return Path(configured).expanduser().resolve()
    home = Path.home()
    if sys.platform == "darwin":
        cache = home / "Library" / "Caches"
    elif sys.platform == "win32":
        cache = Path(os.environ.get("LOCALAPPDATA") or home / "AppData" / "Local")
    else:
        cache = Path(os.environ.get("XDG_CACHE_HOME") or home / ".cache")
    return cache / "ms-playwright"


def _playwright_package() -> Path:
    import playwright

    return Path(playwright.__file__).parent / "driver" / "package"


def _platform_dirs() -> tuple[tuple[str, ...], tuple[str, ...]] | None:
    """Give the executable paths inside Playwright's Chromium and headless-shell folders."""
    machine = platform.machine().lower()
    arm = machine in ("arm64", "aarch64")
    if sys.platform.startswith("linux"):
        suffix = "linux-arm64" if arm else "linux64"
        return (
            (f"chrome-{suffix}", "chrome"),
            (f"chrome-headless-shell-{suffix}", "chrome-headless-shell"),
        )
    if sys.platform == "darwin":
        suffix = "mac-arm64" if arm else "mac-x64"
        app = ("Google Chrome for Testing.app", "Contents", "MacOS", "Google Chrome for Testing")
        return (
            (f"chrome-{suffix}", *app),
            (f"chrome-headless-shell-{suffix}", "chrome-headless-shell"),
        )
    if sys.platform == "win32":
        return (
            ("chrome-win64", "chrome.exe"),
            ("chrome-headless-shell-win64", "chrome-headless-shell.exe"),
        )
    return None


def _playwright_chromium() -> BrowserChoice | None:
    """Playwright's own Chromium if ``playwright install`` put it where Playwright looks."""
    try:
        manifest = json.loads((_playwright_package() / "browsers.json").read_text("utf-8"))
        revisions = {b["name"]: str(b["revision"]) for b in manifest["browsers"]}
    except (ImportError, OSError, ValueError, KeyError, TypeError):
        return None
    layout = _platform_dirs()
    if layout is None:
        return None
    full, shell = layout
    registry = _registry_directory()
    # Headless launches use the headless shell when it is there; that is Playwright's default.
    shell_dir = registry / f"chromium_headless_shell-{revisions.get('chromium-headless-shell')}"
    if os.access(shell_dir.joinpath(*shell), os.X_OK):
        logger.debug("using Playwright's headless shell in %s", shell_dir)
        return BrowserChoice(None, "playwright")
    chrome = (registry / f"chromium-{revisions.get('chromium')}").joinpath(*full)
    if os.access(chrome, os.X_OK):
        logger.debug("using Playwright's Chromium %s", chrome)
        return BrowserChoice(str(chrome), "playwright")
    return None


def resolver_rules(resolve: Mapping[str, str]) -> str:
    """Build the value of Chromium's ``--host-resolver-rules`` from ``--resolve`` entries.

    Args:
        resolve: host name to ``ADDRESS:PORT``, read by :func:`learner.net.resolve.parse_resolve`
            exactly as the plain fetcher reads it.

    Raises:
        ConfigError: an entry is not a host name mapped to an address with a port.

    >>> resolver_rules({"shop.test": "127.0.0.1:8123", "blog.test": "[::1]:80"})
    'MAP shop.test 127.0.0.1:8123, MAP blog.test [::1]:80'
    >>> resolver_rules({"shop.test": "127.0.0.1"})
    Traceback (most recent call last):
    ...
    learner.errors.ConfigError: resolve: shop.test=127.0.0.1: the address needs a port (ADDR:PORT)
    """
    rules = []
    for host, (address, port) in parse_resolve(resolve).items():
        shown = f"[{address}]" if ":" in address else address
        rules.append(f"MAP {host} {shown}:{port}")
    return ", ".join(rules)


def launch_args(resolve: Mapping[str, str] | None = None) -> list[str]:
    """The command-line flags a learner browser is launched with, host mapping included.

    :data:`CHROMIUM_ARGS`, and ``--host-resolver-rules`` when ``resolve`` maps any host
    (see :func:`resolver_rules`).

    >>> launch_args({"shop.test": "127.0.0.1:8123"})[-1]
    '--host-resolver-rules=MAP shop.test 127.0.0.1:8123'
    """
    rules = resolver_rules(resolve or {})
    return [*CHROMIUM_ARGS, *([f"--host-resolver-rules={rules}"] if rules else [])]


def _main() -> int:
    """Print the Chromium the learner would use; exit 1 (with the install hint) if none."""
    try:
        choice = find_browser()
    except BrowserNotFound as exc:
        print(exc)
        return 1
    print(f"{choice.executable or 'playwright-bundled'} ({choice.source})")
    return 0


if __name__ == "__main__":
    raise SystemExit(_main())
