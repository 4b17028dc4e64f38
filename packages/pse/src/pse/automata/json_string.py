"""From a code-point automaton to the automaton of its JSON string literals.

Each code point may be written raw (UTF-8; only when JSON allows it raw: at
least U+0020 and not ``"`` or ``\\``), as a short escape (``\\" \\\\ \\/ \\b \\f
\\n \\r \\t``), as ``\\uXXXX`` in either hex case, or, above U+FFFF, as a
surrogate pair of ``\\uXXXX`` escapes.  Unpaired surrogate escapes are
rejected: they decode to no Unicode scalar value.
"""

from __future__ import annotations

from .dfa import ByteTable, CpDfa, Ranges, split

_SHORT_ESCAPES = {
    ord('"'): 0x22,
    ord("\\"): 0x5C,
    ord("/"): 0x2F,
    ord("b"): 0x08,
    ord("f"): 0x0C,
    ord("n"): 0x0A,
    ord("r"): 0x0D,
    ord("t"): 0x09,
}
_HEX_BYTES: list[tuple[int, ...]] = [
    (ord(c),) if c.isdigit() else (ord(c), ord(c.upper())) for c in "0123456789abcdef"
]


def _clip(ranges: Ranges, lo: int, hi: int) -> Ranges:
    return tuple((max(a, lo), min(b, hi), t) for a, b, t in ranges if a <= hi and b >= lo)


def _lookup(ranges: Ranges, cp: int) -> int:
    for lo, hi, t in ranges:
        if lo <= cp <= hi:
            return t
    return -1


class _JsonLowering:
    def __init__(self, dfa: CpDfa, keyword: str) -> None:
        self.table = ByteTable(keyword)
        self.dfa = dfa

    def build(self) -> ByteTable:
        table = self.table
        start = table.new()
        final = table.new(accepting=True)
        n = len(self.dfa.trans)
        main = [table.new() for _ in range(n)]
        table.rows[start][0x22] = main[0]
        for s in range(n):
            ranges: Ranges = tuple((lo, hi, main[t]) for lo, hi, t in self.dfa.trans[s])
            raw = tuple(piece for lo, hi, t in ranges for piece in _without_specials(lo, hi, t))
            table.utf8(main[s], raw)
            cells = table.rows[main[s]]
            if self.dfa.accepting[s]:
                cells[0x22] = final
            if ranges:
                cells[0x5C] = self._escape(ranges)
        return table

    def _escape(self, ranges: Ranges) -> int:
        key = ("esc", ranges)
        sid = self.table.memo.get(key)
        if sid is not None:
            return sid
        # Actions over the 16-bit \\u value: BMP targets, and for high
        # surrogates the state that reads the low half of the pair.
        actions: list[tuple[int, int, int]] = list(_clip(ranges, 0, 0xFFFF))
        astral = tuple(
            (lo - 0x10000, hi - 0x10000, t) for lo, hi, t in _clip(ranges, 0x10000, 0x10FFFF)
        )
        for h0, h1, sub in split(astral, 0x400):
            low = self._low_surrogate(sub)
            actions.append((0xD800 + h0, 0xD800 + h1, low))
        actions.sort()
        hex_state = self._hex(tuple(actions), 4) if actions else -1
        sid = self.table.memo[key] = self.table.new()
        cells = self.table.rows[sid]
        for byte, cp in _SHORT_ESCAPES.items():
            cells[byte] = _lookup(ranges, cp)
        cells[ord("u")] = hex_state
        return sid

    def _low_surrogate(self, sub: Ranges) -> int:
        """Reads ``\\uDC00``..``\\uDFFF`` and moves per ``sub`` (offsets 0..0x3FF)."""
        key = ("low", sub)
        sid = self.table.memo.get(key)
        if sid is not None:
            return sid
        shifted = tuple((lo + 0xDC00, hi + 0xDC00, t) for lo, hi, t in sub)
        digits = self._hex(shifted, 4)
        sid = self.table.memo[key] = self.table.new()
        u = self.table.new()
        self.table.rows[sid][0x5C] = u
        self.table.rows[u][ord("u")] = digits
        return sid

    def _hex(self, ranges: Ranges, level: int) -> int:
        """State reading ``level`` hex digits, then moving per ``ranges``."""
        key = ("hex", level, ranges)
        sid = self.table.memo.get(key)
        if sid is not None:
            return sid
        width = 16 ** (level - 1)
        children = [
            (b0, b1, sub[0][2] if level == 1 else self._hex(sub, level - 1))
            for b0, b1, sub in split(ranges, width)
        ]
        sid = self.table.memo[key] = self.table.new()
        cells = self.table.rows[sid]
        for b0, b1, child in children:
            for digit in range(b0, b1 + 1):
                for byte in _HEX_BYTES[digit]:
                    cells[byte] = child
        return sid


def _without_specials(lo: int, hi: int, t: int) -> list[tuple[int, int, int]]:
    """The part of ``lo..hi`` that JSON allows raw (not < 0x20, '"' or '\\\\')."""
    out: list[tuple[int, int, int]] = []
    for a, b in ((0x20, 0x21), (0x23, 0x5B), (0x5D, 0x10FFFF)):
        x, y = max(lo, a), min(hi, b)
        if x <= y:
            out.append((x, y, t))
    return out


def lower_json_string(dfa: CpDfa, keyword: str) -> ByteTable:
    """Byte table of the JSON string literals (with quotes) of ``dfa``'s strings; start row 0."""
    return _JsonLowering(dfa, keyword).build()
