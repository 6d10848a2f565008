"""The format-1 validator: reads a parsed learned-set document, naming the first problem.

See ``docs/learned-format.md`` for the format it checks.
"""

from __future__ import annotations




