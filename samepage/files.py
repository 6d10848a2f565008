"""File writers for tools built on samepage (the learner, scripts).

They are the writers samepage's own commands use: a file is replaced whole or not at all
(readers never see half of one), keeps the mode of the file it replaces, and is never
written over one of a command's inputs.

>>> import tempfile
>>> from pathlib import Path
>>> from samepage.files import write_text_atomic
>>> folder = Path(tempfile.mkdtemp())
>>> write_text_atomic(folder / "keys.txt", "one key").read_text(encoding="utf-8")
'one key'
"""

from __future__ import annotations

from samepage._files import atomic_file, discard_stdout, refuse_overwrite, write_text_atomic

__all__ = ["atomic_file", "discard_stdout", "refuse_overwrite", "write_text_atomic"]
