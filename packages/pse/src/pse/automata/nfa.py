"""Thompson NFAs over code points, and their subset construction into DFAs.

Edges carry character sets; epsilon edges may carry an assertion: ``^`` is
passable only before the first character, ``$`` only if nothing follows (the
configuration is marked *ended* and may take no further character).
"""

from __future__ import annotations

from bisect import bisect_right

from pse_core.errors import SchemaError

from .charset import CharSet
from .dfa import CpDfa
from .regex_parser import Alt, Assert, Chars, Look, Node, Repeat, Seq

MAX_NFA_STATES = 50_000
MAX_DFA_STATES = 4_000


def too_large(what: str, keyword: str = "pattern") -> SchemaError:
    return SchemaError(
        f"{what} is too large to compile", code="automaton-too-large", keyword=keyword
    )


class Nfa:
    """A Thompson NFA: numbered states, character edges and epsilon edges."""

    def __init__(self) -> None:
        self.chars: list[list[tuple[CharSet, int]]] = []
        self.eps: list[list[tuple[str, int]]] = []  # ("", t) plain, ("^"|"$", t) assertion

    def state(self) -> int:
        if len(self.chars) >= MAX_NFA_STATES:
            raise too_large("pattern")
        self.chars.append([])
        self.eps.append([])
        return len(self.chars) - 1

    def build(self, node: Node) -> tuple[int, int]:
        """Add a fragment for ``node``; returns its (entry, exit) states."""
        if isinstance(node, Chars):
            s, e = self.state(), self.state()
            if node.chars:
                self.chars[s].append((node.chars, e))
            return s, e
        if isinstance(node, Assert):
            s, e = self.state(), self.state()
            self.eps[s].append((node.kind, e))
            return s, e
        if isinstance(node, Seq):
            s = e = self.state()
            for item in node.items:
                a, b = self.build(item)
                self.eps[e].append(("", a))
                e = b
            return s, e
        if isinstance(node, Look):
            raise SchemaError(
                "lookahead is supported only right after a leading ^",
                code="unsupported-pattern",
                keyword="pattern",
            )
        if isinstance(node, Alt):
            s, e = self.state(), self.state()
            for option in node.options:
                a, b = self.build(option)
                self.eps[s].append(("", a))
                self.eps[b].append(("", e))
            return s, e
        return self.repeat(node)

    def repeat(self, node: Repeat) -> tuple[int, int]:
        s = e = self.state()
        for _ in range(node.min):
            a, b = self.build(node.item)
            self.eps[e].append(("", a))
            e = b
        if node.max is None:
            a, b = self.build(node.item)
            loop = self.state()
            self.eps[e].append(("", loop))
            self.eps[loop].append(("", a))
            self.eps[b].append(("", loop))
            return s, loop
        end = self.state()
        for _ in range(node.max - node.min):
            self.eps[e].append(("", end))
            a, b = self.build(node.item)
            self.eps[e].append(("", a))
            e = b
        self.eps[e].append(("", end))
        return s, end


def _closure(
    nfa: Nfa, seeds: list[tuple[int, bool]], at_start: bool
) -> frozenset[tuple[int, bool]]:
    seen = set(seeds)
    stack = list(seeds)
    while stack:
        s, ended = stack.pop()
        for kind, t in nfa.eps[s]:
            if kind == "^" and not at_start:
                continue
            cfg = (t, ended or kind == "$")
            if cfg not in seen:
                seen.add(cfg)
                stack.append(cfg)
    return frozenset(seen)


def determinize(nfa: Nfa, start: int, accept: int, keyword: str = "pattern") -> CpDfa:
    """Subset construction over the atoms of the NFA's character sets."""
    # Atoms: elementary intervals between all range boundaries, grouped by the
    # character sets that contain them.
    sets: dict[CharSet, int] = {}
    for edges in nfa.chars:
        for chars, _ in edges:
            sets.setdefault(chars, len(sets))
    bounds = sorted({b for chars in sets for lo, hi in chars for b in (lo, hi + 1)})
    members: list[list[int]] = [[] for _ in bounds]
    for chars, sid in sets.items():
        for lo, hi in chars:
            for k in range(_index(bounds, lo), len(bounds)):
                if bounds[k] > hi:
                    break
                members[k].append(sid)
    atom_of_sig: dict[tuple[int, ...], int] = {}
    atom_ranges: list[list[tuple[int, int]]] = []
    set_atoms: list[list[int]] = [[] for _ in sets]
    for k in range(len(bounds) - 1):
        if not members[k]:
            continue
        sig = tuple(members[k])
        aid = atom_of_sig.get(sig)
        if aid is None:
            aid = atom_of_sig[sig] = len(atom_ranges)
            atom_ranges.append([])
            for sid in sig:
                set_atoms[sid].append(aid)
        atom_ranges[aid].append((bounds[k], bounds[k + 1] - 1))
    edge_atoms = [[(set_atoms[sets[chars]], t) for chars, t in edges] for edges in nfa.chars]

    first = _closure(nfa, [(start, False)], at_start=True)
    ids: dict[frozenset[tuple[int, bool]], int] = {first: 0}
    order = [first]
    trans: list[list[tuple[int, int, int]]] = []
    accepting: list[bool] = []
    i = 0
    while i < len(order):
        current = order[i]
        i += 1
        moves: dict[int, set[int]] = {}
        for s, ended in current:
            if ended:
                continue
            for atoms, t in edge_atoms[s]:
                for a in atoms:
                    moves.setdefault(a, set()).add(t)
        by_target: dict[frozenset[int], list[int]] = {}
        for a, target_set in moves.items():
            by_target.setdefault(frozenset(target_set), []).append(a)
        row: list[tuple[int, int, int]] = []
        for targets, atom_ids in by_target.items():
            nxt = _closure(nfa, [(t, False) for t in targets], at_start=False)
            tid = ids.get(nxt)
            if tid is None:
                if len(order) >= MAX_DFA_STATES:
                    raise too_large(keyword, keyword)
                tid = ids[nxt] = len(order)
                order.append(nxt)
            for a in atom_ids:
                row.extend((lo, hi, tid) for lo, hi in atom_ranges[a])
        row.sort()
        trans.append(row)
        accepting.append(any(s == accept for s, _ in current))
    return CpDfa(trans, accepting)


def _index(bounds: list[int], value: int) -> int:
    return bisect_right(bounds, value) - 1


def compile_regex(node: Node, keyword: str = "pattern") -> CpDfa:
    """A (not yet minimal) code-point DFA for the full-string language of ``node``."""
    nfa = Nfa()
    start, accept = nfa.build(node)
    return determinize(nfa, start, accept, keyword)
