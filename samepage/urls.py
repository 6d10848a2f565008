"""URL helpers for tools built on samepage (the learner, adapters, scripts).

They are the functions the normalizer itself uses, so a tool that groups, samples or keys
URLs with them agrees with :func:`samepage.normalize_url` by construction.

>>> from samepage.urls import pattern_key, path_template, query_params, url_host
>>> pattern_key("https://shop.example/p?id=1&utm_source=x&color=red")
'color&id'
>>> path_template("/items/42")
'/items/{id}'
>>> query_params("https://shop.example/p?b=2&a=1&b=3")
[('b', '2'), ('a', '1'), ('b', '3')]
>>> url_host("https://WWW.Example.com:443/p")
'www.example.com'
"""

from __future__ import annotations

from samepage._encoding import escape_undecodable
from samepage._hosts import host_suffixes, lookup_host
from samepage._query import query_params
from samepage._url import host_and_port, normalize_host, url_host
from samepage.learned import pattern_names
from samepage.normalizer import pattern_key
from samepage.templates import path_template

__all__ = [
    "escape_undecodable",
    "host_and_port",
    "host_suffixes",
    "lookup_host",
    "normalize_host",
    "path_template",
    "pattern_key",
    "pattern_names",
    "query_params",
    "url_host",
]
