"""The inputs every batch path is checked on, and what normalize_url makes of them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from benchmarks.corpus import generate
from samepage import InvalidURL, MIQPSNormalizer

# Learned verdicts that change keys of the URLs below: on shop.example sessionid is neutral
# in the pattern color&id&sessionid; on simple.example only page_id is content; on
# scoped.example sort is neutral on rows (/items/{id}) only, and the shared evidence of
# rows drops view=grid from patterns the file does not hold; on wiki.example aliases make
# /w/index.php?title=T and www.wiki.example one page with /wiki/T on wiki.example.
LEARNED: dict[str, Any] = {
    "format": "samepage.learned",
    "version": 2,
    "domains": {
        "wiki.example": {
            "patterns": {},
            "aliases": [
                {"host": "www.wiki.example", "to_host": "wiki.example"},
                {"from": "/w/index.php?title={title}", "to": "/wiki/{title}"},
            ],
        },
        "shop.example": {
            "patterns": {
                "color&id&sessionid": {
                    "urls": 10,
                    "params": {
                        "color": {"verdict": "non-neutral", "tested": 5, "changed": 5},
                        "id": {"verdict": "non-neutral", "tested": 5, "changed": 5},
                        "sessionid": {"verdict": "neutral", "tested": 8, "changed": 0},
                    },
                }
            }
        },
        "simple.example": {
            "patterns": {
                "page_id&view": {
                    "urls": 3,
                    "params": {
                        "page_id": {"verdict": "non-neutral", "tested": 5, "changed": 5},
                        "view": {"verdict": "neutral", "tested": 5, "changed": 0},
                    },
                }
            }
        },
        "scoped.example": {
            "patterns": {
                "sort": {
                    "urls": 6,
                    "params": {"sort": {"verdict": "non-neutral", "tested": 3, "changed": 3}},
                    "templates": {
                        "/items/{id}": {
                            "urls": 3,
                            "params": {"sort": {"verdict": "neutral", "tested": 3}},
                        }
                    },
                }
            },
            "shared": {
                "/items/{id}": {
                    "urls": 9,
                    "params": {
                        "view": {
                            "verdict": "non-neutral",
                            "tested": 3,
                            "changed": 3,
                            "defaults": {"grid": {"tested": 3}},
                            "patterns": ["view"],
                        }
                    },
                }
            },
        },
    },
}

# Two spellings of one page of wiki.example (its learned aliases), the key of both last.
ALIASED = [
    "https://www.wiki.example/w/index.php?title=T&utm_source=x",
    "https://wiki.example/wiki/T",
]

_EDGES: list[str | None] = [
    None,
    "",
    "not a url",
    "https://",
    "http://[::1",
    "mailto:someone@example.com",
    "javascript:alert(1)",
    "HTTPS://Bücher.Example:443/a/./b/../c/?utm_source=x&q=1#top",
    "https://shop.example/p?sessionid=abc&id=7&color=red&utm_medium=mail",
    "https://shop.example/p?id=7&color=red&sessionid=zzz",
    "https://shop.example/p?id=7&sessionid=abc",
    "https://www.simple.example/x?view=grid&page_id=42&fbclid=1",
    "https://simple.example/x?page_id=42&view=list",
    "https://scoped.example/items?sort=new",
    "https://scoped.example/items/42?sort=new",
    "https://scoped.example/items/42?view=grid&color=red",
    "https://scoped.example/items/42?view=list&color=red",
    *ALIASED,
    "https://wiki.example/w/index.php?title=U",
    None,
    'https://example.com/a,b?x="quoted"&y=1',
    "https://example.com/\u00e9t\u00e9?q=caf\u00e9",
]


def urls() -> list[str | None]:
    """Edge cases, learned hosts and a slice of the benchmark corpus, nulls included."""
    return _EDGES + [item.url for item in generate(300, seed=7)] + _EDGES


def expected(values: list[str | None], learned: bool) -> list[str | None]:
    """What a loop over ``normalize`` gives: the key, or None for None and for bad URLs."""
    norm = MIQPSNormalizer(learned=LEARNED) if learned else MIQPSNormalizer()
    out: list[str | None] = []
    for url in values:
        try:
            out.append(None if url is None else norm.normalize(url))
        except InvalidURL:
            out.append(None)
    return out


def write_learned(folder: Path) -> Path:
    """The learned set as a file in ``folder``."""
    path = folder / "learned.json"
    path.write_text(json.dumps(LEARNED), encoding="utf-8")
    return path
