"""Byte automata for JSON string literals whose decoded value is (not) in a finite set.

``string_set_machine(names)`` accepts exactly the JSON string literals (quotes
included) that decode to one of ``names``, written with any mix of raw
characters and escapes (``"a"``, ``"\\u0061"``). ``exclude=True`` accepts every
literal that decodes to something else: the keys of ``additionalProperties``.

Escaped surrogate pairs are accepted only where no name continues with a
character outside the Basic Multilingual Plane (otherwise they are refused,
which can only reject, never wrongly accept).
"""

from __future__ import annotations

from collections.abc import Iterable

from pse_core._core import StateMachine, literal_json_string
from pse_core._core import literal_dfa as native_literal_dfa

from pse.automata import charset as cs
from pse.automata.dfa import MAX_BYTE_STATES, CpDfa, complement, minimize, product, too_large
from pse.automata.json_string import lower_json_string
from pse.process_caches import process_cache

_SIMPLE_ESCAPES = {
    ord('"'): 0x22,
    ord("\\"): 0x5C,
    ord("/"): 0x2F,
    ord("b"): 0x08,
    ord("f"): 0x0C,
    ord("n"): 0x0A,
    ord("r"): 0x0D,
    ord("t"): 0x09,
}
_HEX = "0123456789abcdefABCDEF"
_DEAD = -1


class _Trie:
    __slots__ = ("children", "terminal", "utf8_pos")

    def __init__(self, utf8_pos: str) -> None:
        self.children: dict[int, _Trie] = {}
        self.terminal = False
        # Where inside a UTF-8 sequence this node sits ("free" = on a boundary).
        self.utf8_pos = utf8_pos

    def walk(self, data: bytes) -> _Trie | None:
        node: _Trie | None = self
        for b in data:
            if node is None:
                return None
            node = node.children.get(b)
        return node


def _after_lead(b: int) -> str:
    if 0xC2 <= b <= 0xDF:
        return "need1"
    if b == 0xE0:
        return "e0"
    if b == 0xED:
        return "ed"
    if 0xE1 <= b <= 0xEF:
        return "need2"
    if b == 0xF0:
        return "f0"
    if b == 0xF4:
        return "f4"
    if 0xF1 <= b <= 0xF3:
        return "need3"
    return "bad"


_CONT: dict[str, tuple[range, str]] = {
    "need1": (range(0x80, 0xC0), "free"),
    "need2": (range(0x80, 0xC0), "need1"),
    "need3": (range(0x80, 0xC0), "need2"),
    "e0": (range(0xA0, 0xC0), "need1"),
    "ed": (range(0x80, 0xA0), "need1"),
    "f0": (range(0x90, 0xC0), "need2"),
    "f4": (range(0x80, 0x90), "need2"),
}


def _next_pos(pos: str, b: int) -> str | None:
    """The UTF-8 position after byte ``b`` at position ``pos``; ``None`` if invalid."""
    if pos == "free":
        if b < 0x80:
            return "free" if b >= 0x20 and b not in (0x22, 0x5C) else None
        nxt = _after_lead(b)
        return None if nxt == "bad" else nxt
    allowed, nxt = _CONT[pos]
    return nxt if b in allowed else None


_POSITIONS = ("free", "need1", "need2", "need3", "e0", "ed", "f0", "f4")
_NEXT: dict[str, list[str | None]] = {p: [_next_pos(p, b) for b in range(256)] for p in _POSITIONS}


class _Builder:
    def __init__(self, names: Iterable[str], exclude: bool) -> None:
        self.exclude = exclude
        self.root = _Trie("free")
        self.non_bmp = False
        for name in names:
            node = self.root
            pos = "free"
            for b in name.encode("utf-8", "surrogatepass"):
                pos = "free" if pos == "free" and b < 0x80 else (_next_pos(pos, b) or "free")
                node = node.children.setdefault(b, _Trie(pos))
            node.terminal = True
            self.non_bmp = self.non_bmp or any(ord(c) > 0xFFFF for c in name)
        self.ids: dict[tuple[object, ...], int] = {}
        self.rows: list[list[int]] = []
        self.accepting: list[bool] = []
        self.todo: list[tuple[tuple[object, ...], int]] = []
        self._templates: dict[str, list[int]] = {}
        self._hex: dict[int, frozenset[str]] = {}

    def template(self, pos: str) -> list[int]:
        """The row of a literal that left the trie at UTF-8 position ``pos`` (copied per use)."""
        row = self._templates.get(pos)
        if row is None:
            row = [_DEAD] * 256
            if self.exclude:
                for b in range(256):
                    nxt = _NEXT[pos][b]
                    if nxt is not None:
                        row[b] = self.state(("free", nxt))
            self._templates[pos] = row
        return row

    # ----------------------------------------------------------------- states
    def state(self, key: tuple[object, ...]) -> int:
        if key[0] == "dead":
            return _DEAD
        if key[0] in ("free_after", "surr_done") and not self.exclude:
            return _DEAD
        sid = self.ids.get(key)
        if sid is None:
            sid = len(self.rows)
            self.ids[key] = sid
            self.rows.append([_DEAD] * 256)
            self.accepting.append(key[0] == "end")
            self.todo.append((key, sid))
        return sid

    def miss(self, pos: str = "free") -> tuple[object, ...]:
        """Where a literal goes once it left the trie (at UTF-8 position ``pos``)."""
        return ("free", pos) if self.exclude else ("dead",)

    def node_key(self, node: _Trie | None, pos: str = "free") -> tuple[object, ...]:
        return ("node", id(node), node) if node is not None else self.miss(pos)

    def build(self) -> tuple[list[list[int]], list[bool]]:
        self.state(("start",))
        while self.todo:
            key, sid = self.todo.pop()
            self.fill(key, self.rows[sid])
        return self.rows, self.accepting

    def fill(self, key: tuple[object, ...], row: list[int]) -> None:
        kind = key[0]
        if kind == "start":
            row[0x22] = self.state(self.node_key(self.root))
        elif kind == "free":
            pos = str(key[1])
            self.fill_free(pos, row)
        elif kind == "node":
            node = key[2]
            assert isinstance(node, _Trie)
            self.fill_node(node, row)
        elif kind == "esc":
            node = key[1]
            assert node is None or isinstance(node, _Trie)
            self.fill_escape(node, row)
        elif kind == "u":
            node, prefix = key[1], str(key[2])
            assert node is None or isinstance(node, _Trie)
            self.fill_hex(node, prefix, row)
        elif kind == "surr":
            self.fill_surrogate(int(str(key[1])), row)

    def fill_free(self, pos: str, row: list[int]) -> None:
        row[:] = self.template(pos)
        if pos == "free":
            row[0x22] = self.state(("end",))
            row[0x5C] = self.state(("esc", None))

    def fill_node(self, node: _Trie, row: list[int]) -> None:
        pos = node.utf8_pos
        row[:] = self.template(pos)
        for b, child in node.children.items():
            if _NEXT[pos][b] is not None:
                row[b] = self.state(self.node_key(child))
        if pos == "free":
            ends = node.terminal != self.exclude
            row[0x22] = self.state(("end",)) if ends else _DEAD
            row[0x5C] = self.state(("esc", node))

    def decoded(self, node: _Trie | None, cp: int) -> int:
        if node is None:
            return self.state(self.miss())
        return self.state(self.node_key(node.walk(chr(cp).encode("utf-8"))))

    def fill_escape(self, node: _Trie | None, row: list[int]) -> None:
        for b, cp in _SIMPLE_ESCAPES.items():
            row[b] = self.decoded(node, cp)
        row[ord("u")] = self.state(("u", node, ""))

    def relevant(self, node: _Trie | None, prefix: str) -> bool:
        """Whether some BMP character continuing ``node`` has a hex code starting ``prefix``."""
        if node is None:
            return False
        found = self._hex.get(id(node))
        if found is None:
            prefixes: set[str] = set()
            for b, child in node.children.items():
                for code in _codes_from(b, child):
                    text = f"{code:04x}"
                    prefixes.update(text[:i] for i in range(1, 4))
            found = self._hex[id(node)] = frozenset(prefixes)
        return prefix in found

    def fill_hex(self, node: _Trie | None, prefix: str, row: list[int]) -> None:
        for ch in _HEX:
            if "x" in prefix:  # coarse: no surrogate and no name can follow any more
                p = prefix + "x"
                row[ord(ch)] = (
                    self.state(("free", "free")) if len(p) == 4 else self.state(("u", None, p))
                )
                continue
            p = prefix + ch.lower()
            if len(p) == 4:
                cp = int(p, 16)
                if 0xD800 <= cp <= 0xDBFF:
                    ok = self.exclude and not self.non_bmp
                    row[ord(ch)] = self.state(("surr", 0)) if ok else _DEAD
                elif 0xDC00 <= cp <= 0xDFFF:
                    row[ord(ch)] = _DEAD
                else:
                    row[ord(ch)] = self.decoded(node, cp)
            elif self.relevant(node, p):
                row[ord(ch)] = self.state(("u", node, p))
            elif self.exclude:
                surrogate = p[0] == "d" and (len(p) == 1 or p[1] in "89abcdef")
                row[ord(ch)] = self.state(("u", None, p if surrogate else "x" * len(p)))

    def fill_surrogate(self, step: int, row: list[int]) -> None:
        # After a high surrogate escape: \ u d [c-f] h h
        expected = ["\\", "u", "dD", "cdefCDEF", _HEX, _HEX]
        for ch in expected[step]:
            row[ord(ch)] = (
                self.state(("surr", step + 1)) if step < 5 else self.state(("free", "free"))
            )


def _codes_from(first: int, node: _Trie) -> Iterable[int]:
    """Code points whose UTF-8 encoding starts with ``first`` and continues down ``node``."""
    stack: list[tuple[bytes, _Trie]] = [(bytes([first]), node)]
    while stack:
        data, n = stack.pop()
        if n.utf8_pos == "free":
            text = data.decode("utf-8", "ignore")
            if len(text) == 1 and ord(text) <= 0xFFFF:
                yield ord(text)
            continue
        for b, child in n.children.items():
            stack.append((data + bytes([b]), child))


def string_set_dfa(
    names: Iterable[str], *, exclude: bool = False
) -> tuple[list[list[int]], list[bool]]:
    """The transition table and accepting flags (state 0 is the start)."""
    builder = _Builder(names, exclude)
    rows, accepting = builder.build()
    return rows, accepting


def string_set_machine(names: Iterable[str], *, exclude: bool = False) -> StateMachine:
    """A JSON string literal decoding to one of ``names`` (or, ``exclude=True``, to none).

    Built natively in one call (``pse_core._core.literal_json_string``: the
    minimal code-point DFA of the names, complemented for ``exclude``, lowered
    to JSON string literals, which shares states, and the machine);
    ``string_set_dfa`` is the self-contained construction, kept as the
    reference the tests compare against.
    """
    return _cached(frozenset(names), exclude)


@process_cache(maxsize=1024)
def _cached(names: frozenset[str], exclude: bool) -> StateMachine:
    machine = literal_json_string(names, exclude, MAX_BYTE_STATES)
    if machine is None:
        raise too_large("enum")
    return machine


# ------------------------------------------------------ code-point automata


def literal_dfa(names: Iterable[str]) -> CpDfa:
    """The minimal code-point DFA accepting exactly ``names`` (built natively)."""
    trans, accepting = native_literal_dfa(list(names))
    return CpDfa(trans, accepting)


def any_string_dfa() -> CpDfa:
    return CpDfa([[(lo, hi, 0) for lo, hi in cs.ANY]], [True])


def exclude_literals(dfa: CpDfa, names: Iterable[str]) -> CpDfa:
    """``dfa`` minus the strings ``names``."""
    names = list(names)
    if not names:
        return dfa
    return product(dfa, complement(literal_dfa(names)), keyword="propertyNames")


def lower_key(dfa: CpDfa, keyword: str) -> StateMachine:
    """The JSON string literals (quotes included) of ``dfa``'s strings."""
    return lower_json_string(minimize(dfa), keyword).machine(0)


__all__ = [
    "any_string_dfa",
    "exclude_literals",
    "literal_dfa",
    "lower_key",
    "string_set_dfa",
    "string_set_machine",
]
