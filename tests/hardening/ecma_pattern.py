"""ECMA-262 ``pattern`` semantics for the jsonschema checker.

JSON Schema's patterns are ECMA-262 regular expressions, and the engine
compiles them so. jsonschema runs them through Python's ``re``, which differs
on plain-looking patterns: ``\\w``/``\\d`` match non-ASCII letters and digits,
``\\s`` misses U+FEFF and takes U+001C-U+001F and U+0085, ``.`` matches
``\\r``, U+2028 and U+2029, ``$`` also matches before a final newline, and
``[]``/``[^]`` mean something else. :func:`ecma_schema` rewrites a schema's
patterns into Python patterns with ECMA-262's meaning (Unicode mode, no
flags), so that the promise checker judges what the specification says.
"""

from __future__ import annotations

import re
from typing import Any

#: ECMA-262 WhiteSpace and LineTerminator, as ``re`` class members.
_SPACE = r"\t\n\x0b\x0c\r \xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
_CLASSES = {"d": "0-9", "w": "A-Za-z0-9_", "s": _SPACE}
_OUTSIDE = {**{k: f"[{v}]" for k, v in _CLASSES.items()}}
_OUTSIDE.update({k.upper(): f"[^{v}]" for k, v in _CLASSES.items()})
_ANY_BUT_LINE_END = r"[^\n\r\u2028\u2029]"
_BRACED = re.compile(r"\\u\{([0-9A-Fa-f]+)\}")
#: Keywords whose values are data, not schemas: never rewritten.
_DATA = frozenset({"const", "enum", "default", "examples"})


class Untranslatable(ValueError):
    """A construct whose ECMA-262 meaning this translation does not write out."""


def python_pattern(pattern: str) -> str:
    """``pattern`` (ECMA-262, Unicode mode) as a Python ``re`` pattern of the same language."""
    pattern = _BRACED.sub(lambda m: f"\\U{int(m.group(1), 16):08x}", pattern)
    out: list[str] = []
    i, n = 0, len(pattern)
    while i < n:
        c = pattern[i]
        if c == "\\" and i + 1 < n:
            nxt = pattern[i + 1]
            if nxt in "bB":
                raise Untranslatable("word boundaries")
            if nxt == "k" and pattern.startswith("<", i + 2):  # \k<name>
                end = pattern.index(">", i)
                out.append(f"(?P={pattern[i + 3 : end]})")
                i = end + 1
                continue
            out.append(_OUTSIDE.get(nxt, c + nxt))
            i += 2
        elif c == ".":
            out.append(_ANY_BUT_LINE_END)
            i += 1
        elif c == "$":
            out.append(r"\Z")
            i += 1
        elif c == "(" and pattern.startswith("(?<", i) and pattern[i + 3 : i + 4] not in ("=", "!"):
            out.append("(?P<")
            i += 3
        elif c == "[":
            i = _char_class(pattern, i, out)
        else:
            out.append(c)
            i += 1
    return "".join(out)


def _char_class(pattern: str, i: int, out: list[str]) -> int:
    """Translate the class opening at ``pattern[i]``; returns the index after it."""
    i += 1
    negated = pattern.startswith("^", i)
    i += negated
    if pattern.startswith("]", i):  # ECMA: [] matches nothing, [^] any character
        out.append(r"[\s\S]" if negated else "(?!)")
        return i + 1
    members: list[str] = []
    while i < len(pattern) and pattern[i] != "]":
        c = pattern[i]
        if c == "\\" and i + 1 < len(pattern):
            nxt = pattern[i + 1]
            if nxt in "DWS":
                raise Untranslatable(f"\\{nxt} inside a class")
            members.append(_CLASSES.get(nxt, "\\b" if nxt == "b" else c + nxt))
            i += 2
        else:
            members.append("\\[" if c == "[" else c)
            i += 1
    if i >= len(pattern):
        raise Untranslatable("unterminated class")
    out.append("[" + ("^" if negated else "") + "".join(members) + "]")
    return i + 1


def ecma_schema(schema: Any) -> Any:
    """``schema`` with every ``pattern`` and ``patternProperties`` key translated
    (:func:`python_pattern`); a pattern it cannot translate is left as written."""
    if isinstance(schema, list):
        return [ecma_schema(s) for s in schema]
    if not isinstance(schema, dict):
        return schema
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key in _DATA:
            out[key] = value
        elif key == "pattern" and isinstance(value, str):
            out[key] = _translated(value)
        elif key == "patternProperties" and isinstance(value, dict):
            out[key] = {_translated(k): ecma_schema(v) for k, v in value.items()}
        else:
            out[key] = ecma_schema(value)
    return out


def _translated(pattern: str) -> str:
    try:
        translated = python_pattern(pattern)
        re.compile(translated)
    except (Untranslatable, ValueError):
        return pattern
    return translated
