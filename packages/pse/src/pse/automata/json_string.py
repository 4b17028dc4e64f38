"""From a code-point automaton to the automaton of its JSON string literals.

Each code point may be written raw (UTF-8; only when JSON allows it raw: at
least U+0020 and not ``"`` or ``\\``), as a short escape (``\\" \\\\ \\/ \\b \\f
\\n \\r \\t``), as ``\\uXXXX`` in either hex case, or, above U+FFFF, as a
surrogate pair of ``\\uXXXX`` escapes.  Unpaired surrogate escapes are
rejected: they decode to no Unicode scalar value.  The lowering is native
(``pse_core._core.lower_json_string``).
"""

from __future__ import annotations

from pse_core._core import lower_json_string as _native_lower

from .dfa import MAX_BYTE_STATES, ByteTable, CpDfa, checked_table


def lower_json_string(dfa: CpDfa, keyword: str) -> ByteTable:
    """Byte table of the JSON string literals (with quotes) of ``dfa``'s strings; start row 0."""
    return checked_table(_native_lower(dfa.trans, dfa.accepting, MAX_BYTE_STATES), keyword)
