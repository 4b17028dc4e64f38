"""``format: regex``: ECMA-262 pattern syntax (Unicode mode), judged as the string grows.

The check is native (``pse_core``: ``nodes/ecma_regex.cc``), so no Python runs
per token: a recursive-descent reader of the ECMA-262 ``Pattern`` grammar with
the ``u`` flag (the strict grammar: no Annex B leniency, so lone ``]``, ``{``
and ``}`` and identity escapes of ordinary letters are errors): alternatives,
groups (capturing, named ``(?<name>``, non-capturing, lookahead, lookbehind),
quantifiers (``*``, ``+``, ``?``, ``{n}``, ``{n,}``, ``{n,m}`` with ``n <= m``,
lazy ``?``; not on lookarounds or other assertions), character classes with
ordered ranges, and the escapes (``\\d\\D\\s\\S\\w\\W``, ``\\b\\B``, control
escapes, ``\\cX``, ``\\0``, ``\\xHH``, ``\\uHHHH``, ``\\u{H...}``,
``\\p{...}``/``\\P{...}``, decimal back-references no larger than the number
of groups, ``\\k<name>`` naming a group; group names unique, of ASCII letters,
digits, ``_`` and ``$``: a non-ASCII group name is refused).

The reader tells an error apart from running out of text: a prefix that ends
inside a construct can always be completed (close the group or class, finish
the escape or quantifier, add the group a reference names), so a prefix is
viable exactly when the reader meets no error before its end. With
``maxLength`` a prefix is kept only while a short completion (a closer, a
digit, a letter, or nothing) still fits.
"""

from __future__ import annotations

from pse_core._core import (
    StateMachine,
    StringStateMachine,
    checked_string,
    ecma_regex_valid,
    ecma_regex_viable,
)

from pse.types.json.checked_string import in_graph

FORMAT = "regex"


def valid(text: str) -> bool:
    """Whether ``text`` is an ECMA-262 pattern (Unicode mode)."""
    return ecma_regex_valid(text)


def viable(text: str) -> bool:
    """Whether some completion of ``text`` is a valid pattern."""
    return ecma_regex_viable(text)


def regex_machine(min_length: int = 0, max_length: int | None = None) -> StateMachine:
    """A JSON string holding a pattern, inside a native graph (an external node
    cannot be a grammar's root)."""
    string = StringStateMachine(min_length=min_length, max_length=max_length)
    return in_graph(checked_string(string, FORMAT, min_length, max_length))


__all__ = ["FORMAT", "regex_machine", "valid", "viable"]
