"""The report's HTML: one self-contained page, and the pieces its sections are built from.

Styles and the filter script are inline, and the page's Content-Security-Policy allows
exactly them (by digest) and local images: an opened report fetches nothing. Every function
here escapes the text it is given, except where a parameter is documented as HTML.
"""

from __future__ import annotations

import base64
import hashlib
import html
from collections.abc import Iterable

__all__ = ["badge", "code", "escape", "number", "page", "row", "table"]

STYLE = """
:root{color-scheme:light;--ink:#1b1b1b;--muted:#4a4a4a;--line:#c8c8c8;--link:#0a4fb8}
*{box-sizing:border-box}a{color:var(--link)}h4{font-size:1rem;margin:0 0 4px}
body{margin:0;font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--ink)}
body{background:#fff}main{max-width:1180px;margin:0 auto;padding:0 16px 48px}
header{background:#f2f4f7;border-bottom:1px solid var(--line);padding:12px 16px}
header h1{max-width:1180px;margin:0 auto;font-size:1.4rem}
h2{font-size:1.25rem;margin:28px 0 8px;border-bottom:2px solid var(--line)}
h3{font-size:1.1rem;margin:22px 0 6px}h5{font-size:.95rem;margin:10px 0 4px}
:focus-visible{outline:3px solid #0a4fb8;outline-offset:2px}
.skip{position:absolute;left:-999px}.skip:focus{left:8px;top:8px;background:#fff;padding:4px 8px}
table{border-collapse:collapse;margin:6px 0 12px}caption{text-align:left;font-weight:600}
th,td{border:1px solid var(--line);padding:4px 8px;text-align:left;vertical-align:top}
thead th{background:#f2f4f7}
code{font:13px/1.35 ui-monospace,Menlo,Consolas,monospace;overflow-wrap:anywhere}
dl.totals{display:grid;grid-template-columns:max-content 1fr;gap:2px 16px;margin:8px 0}
dl.totals dt{font-weight:600}dl.totals dd{margin:0}
.badge{display:inline-block;padding:0 8px;border-radius:10px;font-weight:600;border:1px solid}
.v-non-neutral,.v-changed,.v-kept,.v-apart{background:#fde8e8;color:#8a1212;border-color:#d99}
.v-neutral,.v-same,.v-default,.v-together{background:#e4f3e8;color:#155724;border-color:#8c8}
.v-unproven{background:#fff2cc;color:#5c4000;border-color:#d8b860}
.v-failed,.v-unknown{background:#eee;color:#333;border-color:#aaa}
fieldset{border:1px solid var(--line);margin:12px 0;padding:6px 12px}
fieldset label{margin-right:16px;cursor:pointer}
article.param{border:1px solid var(--line);border-radius:6px;padding:10px 12px;margin:10px 0}
.sample{border-top:1px solid var(--line);margin-top:8px}.shots{display:flex;flex-wrap:wrap;gap:12px}
figure{margin:0;width:324px}figcaption{font-size:.85rem;color:var(--muted)}
figure img{width:320px;max-width:100%;height:auto;border:2px solid var(--line)}
.missing{width:320px;padding:24px 8px;border:2px dashed var(--line);color:var(--muted)}
.facts{display:flex;flex-wrap:wrap;gap:0 24px}
.reason{color:var(--muted);margin:2px 0;overflow-wrap:anywhere}[hidden]{display:none!important}
"""

SCRIPT = """
(() => {
  const box = document.getElementById("filter");
  const status = document.getElementById("filter-status");
  const items = document.querySelectorAll("[data-verdict]");
  box.hidden = false;
  const update = () => {
    const shown = new Set([...box.querySelectorAll("input:checked")].map((i) => i.value));
    let rows = 0, total = 0;
    for (const item of items) {
      const on = shown.has(item.dataset.verdict);
      item.hidden = !on;
      if (item.tagName === "TR") { total += 1; rows += on ? 1 : 0; }
    }
    status.textContent = `Showing ${rows} of ${total} parameters.`;
  };
  box.addEventListener("change", update);
  update();
})();
"""


def escape(value: object) -> str:
    """``value`` as HTML text, quotes escaped too."""
    return html.escape(str(value), quote=True)


def _digest(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


def badge(kind: str) -> str:
    """A coloured label for a verdict or an outcome (``neutral``, ``changed``...)."""
    return f'<span class="badge v-{escape(kind)}">{escape(kind)}</span>'


def table(caption: str, heads: Iterable[str], rows: Iterable[str]) -> str:
    """A table whose first column heads its rows; ``caption`` is HTML, the rest is text."""
    cols = "".join(f'<th scope="col">{escape(h)}</th>' for h in heads)
    body = "".join(rows)
    head = f"<caption>{caption}</caption><thead><tr>{cols}</tr></thead>"
    return f"<table>{head}<tbody>{body}</tbody></table>"


def row(head: str, cells: Iterable[str], verdict: str | None = None) -> str:
    """A table row: ``head`` and ``cells`` are HTML already escaped."""
    tag = f'<tr data-verdict="{verdict}">' if verdict else "<tr>"
    return f'{tag}<th scope="row">{head}</th>' + "".join(f"<td>{c}</td>" for c in cells) + "</tr>"


def code(value: object) -> str:
    """``value`` as inline code."""
    return f"<code>{escape(value)}</code>"


def number(unit: str, value: object) -> str:
    """A measurement with its unit: ``share`` as a percentage, ``flag`` as yes or no."""
    if not isinstance(value, (int, float)):
        return "n/a"
    if unit == "flag":
        return "yes" if value else "no"
    if unit == "share":
        return f"{value:.1%}"
    shown = str(int(value)) if float(value).is_integer() else f"{value:.3g}"
    return f"{shown} {unit}"


def page(title: str, body: str) -> str:
    """The whole document around ``body`` (HTML), with its styles, script and policy."""
    policy = (
        f"default-src 'none'; img-src 'self' file:; style-src {_digest(STYLE)}; "
        f"script-src {_digest(SCRIPT)}; base-uri 'none'; form-action 'none'"
    )
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f'<meta http-equiv="Content-Security-Policy" content="{escape(policy)}">'
        '<meta name="referrer" content="no-referrer">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{escape(title)}</title><style>{STYLE}</style></head><body>"
        '<a class="skip" href="#overview">Skip to the overview</a>'
        f"<header><h1>{escape(title)}</h1></header><main>{body}</main>"
        f"<script>{SCRIPT}</script></body></html>\n"
    )
