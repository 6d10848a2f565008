"""samepage answers one question: are these two URLs the same page.

Normalise URLs into deduplication keys: tracking parameters stripped, scheme, host, port,
path and fragment canonicalised, and the parameters that identify content kept.

>>> from samepage import normalize_url
>>> normalize_url("https://www.youtube.com/watch?v=abc123&utm_source=share&fbclid=x")
'https://www.youtube.com/watch?v=abc123'
"""

from __future__ import annotations

from samepage._encoding import escape_undecodable
from samepage._files import atomic_file, discard_stdout, refuse_overwrite, write_text_atomic
from samepage._hosts import host_suffixes, lookup_host
from samepage._query import query_params
from samepage._url import host_and_port, normalize_host, url_host
from samepage.errors import InvalidURL, LearnedFormatError, SamepageError
from samepage.learned import (
    DefaultValue,
    DomainEntry,
    JointDefaults,
    LearnedSet,
    ParamVerdict,
    PatternConflict,
    PatternEntry,
    TemplateScope,
    dump_learned,
    load_learned,
)
from samepage.normalizer import (
    Explanation,
    MIQPSNormalizer,
    ParamDecision,
    Rewrite,
    normalize_many,
    normalize_url,
    pattern_key,
    same_page,
)
from samepage.rules import Rule, RuleSet
from samepage.templates import path_template

__version__ = "0.2.0"

__all__ = [
    "DefaultValue",
    "DomainEntry",
    "Explanation",
    "InvalidURL",
    "JointDefaults",
    "LearnedFormatError",
    "LearnedSet",
    "MIQPSNormalizer",
    "ParamDecision",
    "ParamVerdict",
    "PatternConflict",
    "PatternEntry",
    "Rewrite",
    "Rule",
    "RuleSet",
    "SamepageError",
    "TemplateScope",
    "__version__",
    "atomic_file",
    "discard_stdout",
    "dump_learned",
    "escape_undecodable",
    "host_and_port",
    "host_suffixes",
    "load_learned",
    "lookup_host",
    "normalize_host",
    "normalize_many",
    "normalize_url",
    "path_template",
    "pattern_key",
    "query_params",
    "refuse_overwrite",
    "same_page",
    "url_host",
    "write_text_atomic",
]
