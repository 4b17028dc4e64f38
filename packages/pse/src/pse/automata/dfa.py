"""Code-point DFAs (minimisation, products, length counters) and byte tables.

A :class:`CpDfa` reads Unicode scalar values: each state has a sorted list of
disjoint ranges ``(lo, hi, target)``; state 0 is the start.  :class:`ByteTable`
is the 256-wide table that :class:`pse_core._core.DfaStateMachine` takes; the
UTF-8 lowering shares continuation states by their (relative) signature, so
"any three-byte character, then state T" is one chain however often it occurs.
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence

from pse_core._core import DfaStateMachine, minimize_dfa
from pse_core.errors import SchemaError

from . import charset as cs

Ranges = tuple[tuple[int, int, int], ...]

MAX_BYTE_STATES = 20_000

# A byte row with no moves; rows are int32 arrays so that a table reaches the
# native DfaStateMachine as one packed buffer, not a list of Python ints.
EMPTY_ROW = array("i", [-1]) * 256


def dfa_machine(
    rows: Sequence[array[int]], accepting: Sequence[bool], start: int = 0, *, optional: bool = False
) -> DfaStateMachine:
    """The native machine of byte ``rows`` (int32 arrays of 256 targets, -1: no move)."""
    packed = b"".join(row.tobytes() for row in rows)
    return DfaStateMachine(packed, list(accepting), start, is_optional=optional)


class CpDfa:
    """A deterministic automaton over code points (start state 0)."""

    __slots__ = ("accepting", "trans")

    def __init__(self, trans: list[list[tuple[int, int, int]]], accepting: list[bool]) -> None:
        self.trans = trans
        self.accepting = accepting

    def __len__(self) -> int:
        return len(self.trans)

    def accepts(self, text: str) -> bool:
        """Run the automaton on ``text`` (for tests)."""
        s = 0
        for ch in text:
            cp = ord(ch)
            for lo, hi, t in self.trans[s]:
                if lo <= cp <= hi:
                    s = t
                    break
            else:
                return False
        return self.accepting[s]

    def is_empty(self) -> bool:
        return not any(self.accepting)


def minimize(dfa: CpDfa) -> CpDfa:
    """Drop useless states and merge equivalent ones (natively, Moore refinement)."""
    trans, accepting = minimize_dfa(dfa.trans, dfa.accepting)
    return CpDfa(trans, accepting)


def product(a: CpDfa, b: CpDfa, *, keyword: str = "pattern", limit: int = 20_000) -> CpDfa:
    """The intersection of two languages (reachable pairs only)."""
    ids = {(0, 0): 0}
    order = [(0, 0)]
    trans: list[list[tuple[int, int, int]]] = []
    accepting: list[bool] = []
    i = 0
    while i < len(order):
        p, q = order[i]
        i += 1
        row: list[tuple[int, int, int]] = []
        ra, rb = a.trans[p], b.trans[q]
        x = y = 0
        while x < len(ra) and y < len(rb):
            lo = max(ra[x][0], rb[y][0])
            hi = min(ra[x][1], rb[y][1])
            if lo <= hi:
                key = (ra[x][2], rb[y][2])
                tid = ids.get(key)
                if tid is None:
                    if len(order) >= limit:
                        raise SchemaError(
                            f"{keyword} is too large to compile",
                            code="automaton-too-large",
                            keyword=keyword,
                        )
                    tid = ids[key] = len(order)
                    order.append(key)
                row.append((lo, hi, tid))
            if ra[x][1] < rb[y][1]:
                x += 1
            else:
                y += 1
        trans.append(row)
        accepting.append(a.accepting[p] and b.accepting[q])
    return minimize(CpDfa(trans, accepting))


def complement(dfa: CpDfa) -> CpDfa:
    """The strings (of Unicode scalar values) ``dfa`` rejects."""
    sink = len(dfa.trans)
    rows: list[list[tuple[int, int, int]]] = []
    for row in dfa.trans:
        covered = cs.normalize((lo, hi) for lo, hi, _ in row)
        gaps = cs.difference(cs.ANY, covered)
        rows.append(sorted(list(row) + [(lo, hi, sink) for lo, hi in gaps]))
    rows.append([(lo, hi, sink) for lo, hi in cs.ANY])
    accepting = [not a for a in dfa.accepting] + [True]
    return CpDfa(rows, accepting)


def with_length(dfa: CpDfa, min_length: int, max_length: int | None, keyword: str) -> CpDfa:
    """Restrict to strings of ``min_length..max_length`` code points (counter product)."""
    if min_length <= 0 and max_length is None:
        return dfa
    cap = max_length if max_length is not None else min_length
    if (cap + 1) * len(dfa) > 50_000:
        raise SchemaError(
            f"{keyword} is too large to compile", code="automaton-too-large", keyword=keyword
        )
    ids = {(0, 0): 0}
    order = [(0, 0)]
    trans: list[list[tuple[int, int, int]]] = []
    accepting: list[bool] = []
    i = 0
    while i < len(order):
        s, n = order[i]
        i += 1
        row: list[tuple[int, int, int]] = []
        m = n + 1
        if max_length is None:
            m = min(m, cap)
        if m <= cap:
            for lo, hi, t in dfa.trans[s]:
                key = (t, m)
                tid = ids.get(key)
                if tid is None:
                    tid = ids[key] = len(order)
                    order.append(key)
                row.append((lo, hi, tid))
        trans.append(row)
        accepting.append(dfa.accepting[s] and n >= min_length)
    return minimize(CpDfa(trans, accepting))


def split(ranges: Ranges, width: int) -> list[tuple[int, int, Ranges]]:
    """Cut sorted relative ``ranges`` into blocks of ``width`` values.

    Returns ``(first_block, last_block, sub_ranges)`` runs in order;
    ``sub_ranges`` is relative to each block's start (runs of full blocks with
    one target share one entry).
    """
    out: list[tuple[int, int, Ranges]] = []
    cur_i = -1
    cur: list[tuple[int, int, int]] = []

    def flush() -> None:
        nonlocal cur
        if cur:
            out.append((cur_i, cur_i, tuple(cur)))
            cur = []

    def push(i: int, lo: int, hi: int, t: int) -> None:
        nonlocal cur_i
        if i != cur_i:
            flush()
            cur_i = i
        cur.append((lo, hi, t))

    for lo, hi, t in ranges:
        i0, i1 = lo // width, hi // width
        if i0 == i1:
            push(i0, lo - i0 * width, hi - i0 * width, t)
            continue
        full_lo = i0
        if lo % width:
            push(i0, lo - i0 * width, width - 1, t)
            full_lo = i0 + 1
        full_hi = i1 if (hi + 1) % width == 0 else i1 - 1
        if full_lo <= full_hi:
            flush()
            cur_i = -1
            out.append((full_lo, full_hi, ((0, width - 1, t),)))
        if full_hi < i1:
            push(i1, 0, hi - i1 * width, t)
    flush()
    return out


class ByteTable:
    """Rows of 256 targets (-1: no move) under construction."""

    def __init__(self, keyword: str) -> None:
        self.rows: list[array[int]] = []
        self.accepting: list[bool] = []
        self.memo: dict[object, int] = {}
        self.keyword = keyword

    def new(self, accepting: bool = False) -> int:
        if len(self.rows) >= MAX_BYTE_STATES:
            raise SchemaError(
                f"{self.keyword} is too large to compile",
                code="automaton-too-large",
                keyword=self.keyword,
            )
        self.rows.append(array("i", EMPTY_ROW))
        self.accepting.append(accepting)
        return len(self.rows) - 1

    def utf8(self, row: int, ranges: Sequence[tuple[int, int, int]]) -> None:
        """Add moves from ``row``: the UTF-8 encoding of each code point range to its target."""
        cells = self.rows[row]
        multi: list[tuple[int, int, int]] = []
        for lo, hi, t in ranges:
            if lo <= 0x7F:
                top = min(hi, 0x7F)
                cells[lo : top + 1] = array("i", [t]) * (top - lo + 1)
                if hi > 0x7F:
                    multi.append((0x80, hi, t))
            else:
                multi.append((lo, hi, t))
        if not multi:
            return
        for first, last, lead, conts in (
            (0x80, 0x7FF, 0xC0, 1),
            (0x800, 0xFFFF, 0xE0, 2),
            (0x10000, 0x10FFFF, 0xF0, 3),
        ):
            part = tuple(
                (max(lo, first), min(hi, last), t)
                for lo, hi, t in multi
                if lo <= last and hi >= first
            )
            if not part:
                continue
            width = 1 << (6 * conts)
            for b0, b1, sub in split(part, width):
                child = self._cont(sub, conts)
                cells[lead + b0 : lead + b1 + 1] = array("i", [child]) * (b1 - b0 + 1)

    def _cont(self, ranges: Ranges, conts: int) -> int:
        """State reading ``conts`` continuation bytes, then moving per ``ranges``."""
        key = ("u8", conts, ranges)
        sid = self.memo.get(key)
        if sid is not None:
            return sid
        sid = self.memo[key] = self.new()
        width = 1 << (6 * (conts - 1))
        cells = self.rows[sid]
        for b0, b1, sub in split(ranges, width):
            child = sub[0][2] if conts == 1 else self._cont(sub, conts - 1)
            cells[0x80 + b0 : 0x80 + b1 + 1] = array("i", [child]) * (b1 - b0 + 1)
        return sid

    def machine(self, start: int = 0, *, optional: bool = False) -> DfaStateMachine:
        return dfa_machine(self.rows, self.accepting, start, optional=optional)


def lower_utf8(dfa: CpDfa, keyword: str) -> ByteTable:
    """The byte table reading the UTF-8 encoding of ``dfa``'s strings (start row 0)."""
    table = ByteTable(keyword)
    for acc in dfa.accepting:
        table.new(acc)
    for s, row in enumerate(dfa.trans):
        table.utf8(s, row)
    return table
