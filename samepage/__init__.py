"""samepage answers one question: are these two URLs the same page.

Normalise URLs into deduplication keys: tracking parameters stripped, scheme, host, port,
path and fragment canonicalised, and the parameters that identify content kept.

>>> from samepage import normalize_url
>>> normalize_url("https://www.youtube.com/watch?v=abc123&utm_source=share&fbclid=x")
'https://www.youtube.com/watch?v=abc123'
"""

from __future__ import annotations

# The "x as x" names stay importable from here as before, but are not the library's API (not
# in __all__): the URL helpers' documented home is samepage.urls, the file writers' samepage.files.
from samepage._files import atomic_file as atomic_file
from samepage._files import discard_stdout as discard_stdout
from samepage._files import refuse_overwrite as refuse_overwrite
from samepage._files import write_text_atomic as write_text_atomic
from samepage.aliases import HostAlias, PathAlias, match_alias
from samepage.errors import InvalidURL, LearnedFormatError, SamepageError
from samepage.learned import (
    DefaultValue,
    DomainEntry,
    JointDefaults,
    LearnedSet,
    ListedKeep,
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
from samepage.urls import escape_undecodable as escape_undecodable
from samepage.urls import host_and_port as host_and_port
from samepage.urls import host_suffixes as host_suffixes
from samepage.urls import lookup_host as lookup_host
from samepage.urls import normalize_host as normalize_host
from samepage.urls import query_params as query_params
from samepage.urls import url_host as url_host

__version__ = "0.2.0"

__all__ = [
    "DefaultValue",
    "DomainEntry",
    "Explanation",
    "HostAlias",
    "InvalidURL",
    "JointDefaults",
    "LearnedFormatError",
    "LearnedSet",
    "ListedKeep",
    "MIQPSNormalizer",
    "ParamDecision",
    "ParamVerdict",
    "PathAlias",
    "PatternConflict",
    "PatternEntry",
    "Rewrite",
    "Rule",
    "RuleSet",
    "SamepageError",
    "TemplateScope",
    "__version__",
    "dump_learned",
    "load_learned",
    "match_alias",
    "normalize_many",
    "normalize_url",
    "path_template",
    "pattern_key",
    "same_page",
]
