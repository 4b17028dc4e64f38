"""Code-point DFAs (minimisation, products, length counters) and byte tables.

A :class:`CpDfa` reads Unicode scalar values: each state has a sorted list of
disjoint ranges ``(lo, hi, target)``; state 0 is the start.  :class:`ByteTable`
is the 256-wide table that :class:`pse_core._core.DfaStateMachine` takes, built
natively (``pse_core._core.lower_utf8``; the UTF-8 lowering shares continuation
states by their signature).
"""

from __future__ import annotations

from array import array

from pse_core._core import DfaStateMachine, minimize_dfa
from pse_core._core import lower_utf8 as native_lower_utf8
from pse_core.errors import SchemaError

from . import charset as cs

MAX_BYTE_STATES = 20_000
#: The most states ``with_length``'s counter product may need ((cap + 1) x states).
MAX_LENGTH_STATES = 50_000

# A byte row with no moves (for callers that build rows themselves).
EMPTY_ROW = array("i", [-1]) * 256


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
    if (cap + 1) * len(dfa) > MAX_LENGTH_STATES:
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


class ByteTable:
    """Byte rows as :class:`pse_core._core.DfaStateMachine` takes them: packed
    native int32 rows of 256 targets (-1: no move), one accepting flag per row."""

    __slots__ = ("accepting", "packed")

    def __init__(self, packed: bytes, accepting: list[bool]) -> None:
        self.packed = packed
        self.accepting = accepting

    @property
    def rows(self) -> list[memoryview]:
        """One read-only view of 256 int32 per row."""
        view = memoryview(self.packed).cast("i")
        return [view[i * 256 : (i + 1) * 256] for i in range(len(self.accepting))]

    def machine(self, start: int = 0, *, optional: bool = False) -> DfaStateMachine:
        return DfaStateMachine(self.packed, self.accepting, start, is_optional=optional)


def lower_utf8(dfa: CpDfa, keyword: str) -> ByteTable:
    """The byte table reading the UTF-8 encoding of ``dfa``'s strings (row s: state s)."""
    return checked_table(native_lower_utf8(dfa.trans, dfa.accepting, MAX_BYTE_STATES), keyword)


def checked_table(built: tuple[bytes, list[bool]] | None, keyword: str) -> ByteTable:
    """``built`` as a ByteTable; ``None`` (past ``MAX_BYTE_STATES`` rows) as a SchemaError."""
    if built is None:
        raise too_large(keyword)
    return ByteTable(*built)


def too_large(keyword: str) -> SchemaError:
    """The error of an automaton past ``MAX_BYTE_STATES`` rows (or another size limit)."""
    return SchemaError(
        f"{keyword} is too large to compile", code="automaton-too-large", keyword=keyword
    )
