"""Lowered tables of the ready-made grammars, shipped inside the package.

Reading ``python.lark`` with ``lark`` and turning its terminals into automata
takes about 170 ms; the tables it yields are what the native grammar is built
from (a few ms). The tables of each grammar in ``default_grammars`` are stored
next to it as ``NAME.tables.json``, so that the first import on a machine (or
one whose home is read-only, where the disk cache cannot be written) does not
pay for lowering. A file serves only the grammar text, start rule and lexer
hook it was made from (its ``key``); ``tests/pse/grammar/test_shipped_tables.py``
checks that each equals what lowering makes now. After changing a ``.lark``
file or the lowering code (``lark.py``, ``pse.automata``), write them again with
``python -m pse.types.grammar.write_tables``.
"""

from __future__ import annotations

import hashlib
import json
from functools import cache
from importlib.resources import files

FOLDER = "pse.types.grammar.default_grammars"
SUFFIX = ".tables.json"


def table_key(lark_grammar: str, start: str, lexer: str | None) -> str:
    """What a shipped file serves: a digest of the grammar text, start rule and lexer hook."""
    return hashlib.sha256(json.dumps([lark_grammar, start, lexer]).encode()).hexdigest()


@cache
def _index() -> dict[str, str]:
    """key -> text, for every shipped tables file (read once: a few hundred KB)."""
    found = {}
    for entry in files(FOLDER).iterdir():
        if entry.name.endswith(SUFFIX):
            text = entry.read_text(encoding="utf-8")
            found[json.loads(text)["key"]] = text
    return found


def shipped_text(lark_grammar: str, start: str, lexer: str | None) -> str | None:
    """The shipped tables (``lark.encode_tables`` text with a ``key``) of a grammar, if any."""
    return _index().get(table_key(lark_grammar, start, lexer))
