"""The native pattern compiler against Python's ``re`` on the corpus patterns.

Every ``pattern`` in ../shared/data (MaskBench, JSON-Schema-Test-Suite) is
compiled; where ``re`` reads the pattern the same way (no ``\\d \\w \\s \\b \\p``
classes, whose Unicode sets differ, no ``\\c``/``\\u{..}``/``(?<name>`` syntax
Python spells otherwise, no lookaheads), every string value found in the
corpus tests (about 200 of at most 16 characters), plus a few probes, must be accepted exactly when
``re.search`` finds a match. Strings with line terminators are left out
(``$`` and ``.`` treat them differently in the two dialects).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pse_core.errors import SchemaError

from pse.automata import pattern_dfa

DATA = Path(__file__).resolve().parents[3].parent / "shared" / "data"
SOURCES = [DATA / "maskbench" / "public.jsonl", DATA / "json-schema-test-suite" / "public.jsonl"]
PROBES = ["", "a", "A1", "abc", "123", "2024-01-31", "a-b_c", "é", "😀", " x ", "#ff00aa", "AB-12"]
SKIP = re.compile(r"\\[dDwWsSbBpPck]|\\u\{|\(\?<|\(\?[=!]|\\0")
LINE_BREAKS = re.compile("[\n\r\u2028\u2029]")


def _walk(obj: Any, patterns: set[str], strings: set[str]) -> None:
    if isinstance(obj, dict):
        for key, value in obj.items():
            if key == "pattern" and isinstance(value, str):
                patterns.add(value)
            _walk(value, patterns, strings)
    elif isinstance(obj, list):
        for value in obj:
            _walk(value, patterns, strings)
    elif isinstance(obj, str):
        strings.add(obj)


def _corpus() -> tuple[list[str], list[str]]:
    patterns: set[str] = set()
    strings: set[str] = set()
    for source in SOURCES:
        if source.is_file():
            for line in source.read_text(encoding="utf-8").split("\n"):
                if line.strip():
                    _walk(json.loads(line), patterns, strings)
    # Short strings: re backtracks exponentially on some corpus patterns.
    usable = sorted(s for s in strings if len(s) <= 16 and not LINE_BREAKS.search(s))
    return sorted(patterns), usable[:: max(1, len(usable) // 200)]


PATTERNS, STRINGS = _corpus() if DATA.is_dir() else ([], [])


def _comparable(pattern: str) -> re.Pattern[str] | None:
    if SKIP.search(pattern):
        return None
    try:
        return re.compile(pattern)
    except re.error:
        return None


def _cases() -> Iterator[str]:
    yield from (p for p in PATTERNS if _comparable(p) is not None)


@pytest.mark.skipif(not DATA.is_dir(), reason="../shared/data (the corpus) is absent")
def test_every_corpus_pattern_compiles_or_is_declined() -> None:
    compiled = declined = 0
    for pattern in PATTERNS:
        try:
            pattern_dfa(pattern)
            compiled += 1
        except SchemaError as exc:
            assert exc.code in ("unsupported-pattern", "automaton-too-large"), pattern
            declined += 1
    assert compiled > 100 and compiled > 10 * declined


@pytest.mark.skipif(not DATA.is_dir(), reason="../shared/data (the corpus) is absent")
@pytest.mark.parametrize("pattern", list(_cases()))
def test_verdicts_match_python_re(pattern: str) -> None:
    python = _comparable(pattern)
    assert python is not None
    try:
        dfa = pattern_dfa(pattern)
    except SchemaError as exc:
        assert exc.code == "automaton-too-large", pattern
        return
    for text in [*PROBES, *STRINGS]:
        assert dfa.accepts(text) == (python.search(text) is not None), (pattern, text)
