"""The domains file: which sites to study, as learned-set keys and origins."""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from learner.errors import ConfigError
from learner.plan.addresses import AddressPolicy
from samepage import InvalidURL, host_and_port, host_suffixes, normalize_url

logger = logging.getLogger(__name__)

__all__ = ["Target", "parse_target", "read_targets"]

# A bare domain line: host name (letters, digits, "-", "_", non-ASCII), IPv4, or [IPv6],
# optionally :port. Anything else (mailto:a@host, !!!, a path) is refused, not guessed at.
_BARE = re.compile(r"(?:[^\s:/?#@\[\]!$&'()*+,;=%]+|\[[0-9A-Fa-f:.]+\])(?::[0-9]+)?")
# Hosts as normalised URLs carry them: LDH labels (and "_"), IPv4, or [IPv6].
_HOST = re.compile(r"[a-z0-9_](?:[a-z0-9_\-]*[a-z0-9_])?(?:\.[a-z0-9_](?:[a-z0-9_\-]*[a-z0-9_])?)*")


@dataclass(frozen=True, slots=True)
class Target:
    """One site to study.

    Attributes:
        key: the learned-set key, ``host`` or ``host:port`` for a non-default port.
        origin: ``scheme://host[:port]``, where discovery starts.
        host: the host name (lower case, IDNA).
        port: the port as written in normalised URLs ("" for the default).
    """

    key: str
    origin: str
    host: str
    port: str

    def covers(self, url: str) -> bool:
        """Whether a normalised URL belongs to this site: the host or a subdomain, same port."""
        try:
            host, port = host_and_port(url)
        except InvalidURL:
            return False
        return port == self.port and self.host in host_suffixes(host)


def parse_target(line: str, *, allow_private: bool = False) -> Target:
    """Read one line of a domains file: ``example.com`` (https) or an origin URL.

    The host is read as a browser reads it (``2852039166`` is ``169.254.169.254``), and
    checked by :class:`~learner.plan.addresses.AddressPolicy`: a link-local, metadata or
    unspecified address (or a metadata service's name) is refused; a private or loopback
    address only with ``allow_private`` (``--allow-private``). A name is checked again once
    resolved, by every request.

    Raises:
        ConfigError: when the line is neither a host name nor an http(s) origin, names
            port 0, or an address the learner may not reach.

    >>> parse_target("http://127.0.0.1:8080", allow_private=True)
    Target(key='127.0.0.1:8080', origin='http://127.0.0.1:8080', host='127.0.0.1', port='8080')
    >>> parse_target("Shop.Example").key
    'shop.example'
    """
    text = line.strip()
    name = repr(text if len(text) <= 100 else f"{text[:100]}...")
    if "://" not in text and not _BARE.fullmatch(text):
        raise ConfigError(f"domain {name}: expected a host name or an http(s) origin")
    url = text if "://" in text else f"https://{text}"
    try:
        normalized = normalize_url(url)
    except InvalidURL as exc:
        raise ConfigError(f"domain {name}: {exc.reason}") from None
    parts = urlsplit(normalized)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ConfigError(f"domain {name}: expected a host name or an http(s) origin")
    if parts.path not in ("", "/") or parts.query:
        raise ConfigError(f"domain {name}: give an origin, without a path or query")
    if "@" in parts.netloc:
        raise ConfigError(f"domain {name}: an origin has no user name or password")
    host, port = host_and_port(normalized)
    netloc = f"{host}:{port}" if port else host
    if not (_HOST.fullmatch(host) or host.startswith("[")):
        raise ConfigError(f"domain {name}: {host!r} is not a host name")
    if "%" in host:
        raise ConfigError(f"domain {name}: an IPv6 zone id cannot be studied")
    if not host.startswith("[") and max(len(label) for label in host.split(".")) > 63:
        raise ConfigError(f"domain {name}: a host name label has at most 63 characters")
    if port and not 0 < int(port) < 65536:
        raise ConfigError(f"domain {name}: the port must be a number from 1 to 65535")
    default_port = 443 if parts.scheme == "https" else 80
    refusal = AddressPolicy(allow_private).host_refusal(host, int(port or default_port))
    if refusal is not None:
        raise ConfigError(f"domain {name}: {refusal.reason()}")
    return Target(f"{host}:{port}" if port else host, f"{parts.scheme}://{netloc}", host, port)


def read_targets(path: str | Path, *, allow_private: bool = False) -> list[Target]:
    """Read a domains file: one domain or origin per line, ``#`` comments, blank lines skipped.

    Each line is read by :func:`parse_target` (``allow_private`` is passed on).

    Raises:
        ConfigError: when the file cannot be read, names nothing, or has a bad line
            (the message gives its line number).
    """
    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"domains file {path}: {exc}") from exc
    targets: dict[str, Target] = {}
    for number, raw in enumerate(lines, start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        try:
            target = parse_target(line, allow_private=allow_private)
        except ConfigError as exc:
            raise ConfigError(f"{path}:{number}: {exc}") from None
        targets.setdefault(target.key, target)
    if not targets:
        raise ConfigError(f"domains file {path}: no domains listed")
    return list(targets.values())
