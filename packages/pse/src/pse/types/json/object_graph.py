"""The object family's builder: the state graph of one object alternative.

The graph tracks which named properties were seen, so every named property
appears at most once, ``required``/``dependentRequired``/``not required`` are
checked before ``}``, and ``minProperties``/``maxProperties`` count pairs.

* ``ordered_properties=True`` (the default for generation): named properties
  in the order the schema lists them (any of them may be skipped unless
  required), then the other keys. Linear in the number of properties.
* ``ordered_properties=False``: any order JSON allows. The graph has one state
  per reachable set of seen properties. Above ``max_object_states`` the set
  moves into the stepper: a graph offering every pair at every position under
  the core's native key check (``pse_core._core.object_keys``: each named key
  once, the required and dependent ones before ``}``, no forbidden set, the
  counts; no Python per token). Where only some undeclared keys may appear
  (``propertyNames``, or ``patternProperties`` regions whose values match
  nothing: key languages the check does not read) it falls back on the schema
  order (which only rejects, never wrongly accepts) or, when the object has
  conditions on property sets, raises ``SchemaError``.

Keys that are not named go through key automata: not a named key, matching
(or not) each pattern of ``patternProperties``, satisfying ``propertyNames``.
An automaton cannot remember them, so where they count towards
``minProperties`` (at least 2) the graph also goes under the native key
check, which refuses a repeated one: ``json.loads`` keeps one of repeated
keys, and counting both would pass an object that has too few. (Elsewhere a
repeat only makes a count too high: ``maxProperties`` then refuses an object
that is valid, never passes one that is not.)
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar

from pse_core._core import StateMachine, Stepper, object_keys
from pse_core.errors import SchemaError

from pse.automata import pattern_dfa
from pse.automata.dfa import complement, product
from pse.types._values import children, is_machine
from pse.types.base.phrase import PhraseStateMachine
from pse.types.json.dead_ends import without_dead_ends
from pse.types.json.limits import MAX_EXPLICIT_ITEMS, MAX_PATTERN_REGIONS
from pse.types.json.machines import GraphStateMachine, NeverStateMachine
from pse.types.json.objects import obj_value
from pse.types.json.schema_ir import ObjAlt, ObjRule, StrAlt, Sub
from pse.types.json.string_set import (
    any_string_dfa,
    exclude_literals,
    lower_key,
    string_set_machine,
)
from pse.types.json.strings import accepts_text, str_alt_dfa
from pse.types.key_value import KeyValueStateMachine, KeyValueStepper
from pse.types.object import ObjectStepper

if TYPE_CHECKING:
    from pse_core._core import StateGraph

    from pse.automata.dfa import CpDfa
    from pse.types.json.compiler import Compiler


def _is_plain(name: str) -> bool:
    """Printable ASCII (U+0020..U+007E) without ``"``, ``\\`` or ``/``."""
    return (
        name.isascii()
        and name.isprintable()
        and '"' not in name
        and "\\" not in name
        and "/" not in name
    )


def name_machine(name: str) -> StateMachine:
    """The key literal of a named property."""
    if _is_plain(name):
        return PhraseStateMachine(f'"{name}"')
    return string_set_machine([name])


class KeyValueSchemaStepper(KeyValueStepper):
    """A position in a ``KeyValueSchemaStateMachine``."""

    __slots__ = ()


class PairStateMachine(KeyValueStateMachine):
    """``key ws ":" ws value`` from compiled machines (``KeyValueSchemaStateMachine``
    compiles them from a schema). The value is ``(key, value)``."""

    stepper_class: ClassVar[type[Stepper]] = KeyValueSchemaStepper

    def __init__(
        self,
        prop_name: str | None,
        key_machine: StateMachine,
        whitespace: StateMachine,
        value_machine: StateMachine,
        *,
        required: bool = True,
        colon: StateMachine | None = None,
    ) -> None:
        self.prop_name = prop_name
        self.required = required
        colon = PhraseStateMachine(":") if colon is None else colon
        super().__init__(
            [key_machine, whitespace, colon, whitespace, value_machine],
            is_optional=not required,
        )

    def stepper_value(self, stepper: Stepper) -> Any:
        """``(key, value)``, both parsed from JSON (``None`` until they start)."""
        kids = children(stepper)
        key = value = None
        if kids:
            try:
                key = json.loads(kids[0].get_raw_value())
            except ValueError:
                key = self.prop_name
        if len(kids) > 1 and is_machine(kids[-1].state_machine, self.state_machines[-1]):
            value = kids[-1].get_current_value()
        return (key, value)


def _string_dfa_of(comp: Compiler, sub: Sub, pointer: str) -> CpDfa | None:
    """The code-point DFA of the strings ``sub`` allows (``None``: no string at all)."""
    result: CpDfa | None = None
    for alt in comp.ctx.sub_ir(sub):
        if not isinstance(alt, StrAlt):
            continue
        try:
            dfa = str_alt_dfa(alt)
        except SchemaError as exc:
            raise comp.reraise(exc, "propertyNames", pointer) from exc
        # union(a, b) = not(not a and not b)
        result = (
            dfa
            if result is None
            else complement(product(complement(result), complement(dfa), keyword="propertyNames"))
        )
    return result


#: Undeclared keys listed one by one (as optional named properties) when their
#: language has at most this many words: each then appears at most once, as
#: JSON objects need, with no native check and no dead end.
MAX_LISTED_KEYS = 64


def finite_words(dfa: CpDfa, limit: int) -> list[str] | None:
    """The words of ``dfa`` when there are at most ``limit`` (else ``None``)."""
    live = [bool(a) for a in dfa.accepting]
    changed = True
    while changed:  # states from which a word ends
        changed = False
        for state, moves in enumerate(dfa.trans):
            if not live[state] and any(live[t] for _, _, t in moves):
                live[state] = changed = True
    words: list[str] = []
    path: set[int] = set()

    def walk(state: int, prefix: str) -> bool:
        if state in path or len(words) > limit:
            return False  # a loop through live states: infinitely many words
        path.add(state)
        if dfa.accepting[state]:
            words.append(prefix)
        for lo, hi, target in dfa.trans[state]:
            if not live[target]:
                continue
            if hi - lo >= limit:
                return False
            for cp in range(lo, hi + 1):
                if not walk(target, prefix + chr(cp)):
                    return False
        path.discard(state)
        return True

    if not live[0] or not walk(0, ""):
        return None
    return words if len(words) <= limit else None


class _Pieces:
    """The named pairs, the classes of other keys and the closing conditions of one object."""

    def __init__(self, comp: Compiler, alt: ObjAlt, pointer: str) -> None:
        self.comp = comp
        self.alt = alt
        ws = comp.ws_pair()
        names: list[str] = [k for k, _ in alt.props]
        extra_names = set(alt.required)
        for key, deps in alt.dependent:
            extra_names |= {key, *deps}
        for group in alt.forbid_all:
            extra_names |= group
        names += sorted(extra_names - set(names))
        self.names = names
        self.required = alt.required
        self.pairs: list[StateMachine | None] = []
        names_machine = None
        if alt.names:
            names_machine = comp.compile_sub(alt.names)
        self.impossible = False
        for name in names:
            try:
                sub = obj_value(alt, name)
            except SchemaError as exc:
                raise comp.reraise(exc, "patternProperties", pointer) from exc
            value = comp.compile_sub(sub)
            ok = not isinstance(value, NeverStateMachine)
            if ok and names_machine is not None:
                ok = accepts_text(names_machine, json.dumps(name))
            if not ok:
                self.pairs.append(None)
                if name in alt.required:
                    self.impossible = True
                continue
            self.pairs.append(
                PairStateMachine(
                    name,
                    key_machine=name_machine(name),
                    value_machine=value,
                    whitespace=ws,
                    colon=comp.phrase(":"),
                )
            )
        #: Whether undeclared keys may appear, when they are "any key not named"
        #: (or none): what the native key check reads; ``None`` otherwise (keys
        #: limited by ``propertyNames`` or by the pattern regions allowed).
        self.others: bool | None = None
        self.extras = self._extra_pairs(pointer)
        self.impossible = self.impossible or not self._counts_possible()

    def _counts_possible(self) -> bool:
        """Whether the keys every object needs (``required``, closed under
        ``dependentRequired``) can appear together (usable, no forbidden set,
        within ``maxProperties``) and enough keys can appear for
        ``minProperties``. The graphs' other dead ends are pruned; the native
        key check (``_checked``) has no graph to prune, hence this test."""
        alt = self.alt
        usable = {n for n, pair in zip(self.names, self.pairs, strict=True) if pair is not None}
        dependent = dict(alt.dependent)
        needed = set(alt.required)
        todo = list(needed)
        while todo:
            for name in dependent.get(todo.pop(), ()):
                if name not in needed:
                    needed.add(name)
                    todo.append(name)
        if not needed <= usable or any(group <= needed for group in alt.forbid_all):
            return False
        if alt.max_props is not None and len(needed) > alt.max_props:
            return False
        return bool(self.extras) or len(usable) >= alt.min_props

    def _extra_pairs(self, pointer: str) -> list[StateMachine]:
        comp, alt, ws = self.comp, self.alt, self.comp.ws_pair()
        base: Sub = frozenset()
        pattern_rules = [r for r in alt.rules if r.patterns]
        for rule in alt.rules:
            if not rule.patterns:
                base = base | rule.additional
        regions: list[tuple[CpDfa | None, Sub]] = []  # None: every string
        if not pattern_rules:
            regions.append((None, base))
        else:
            distinct = list(dict.fromkeys(p for r in pattern_rules for p, _ in r.patterns))
            if len(distinct) > MAX_PATTERN_REGIONS:
                comp.ctx.decline(
                    f"more than {MAX_PATTERN_REGIONS} patternProperties",
                    "patternProperties",
                    pointer,
                )
                distinct = distinct[:MAX_PATTERN_REGIONS]
            regions += self._pattern_regions(distinct, pattern_rules, base, pointer)
        names_dfa: CpDfa | None = None
        if alt.names:
            names_dfa = _string_dfa_of(comp, alt.names, pointer + "/propertyNames")
            if names_dfa is None:
                return []
        out: list[StateMachine] = []
        dropped = False  # a region whose values match nothing: its keys cannot appear
        for region, value_sub in regions:
            value = comp.compile_sub(value_sub)
            if isinstance(value, NeverStateMachine):
                dropped = True
                continue
            if region is None and names_dfa is None:
                key: StateMachine = string_set_machine(self.names, exclude=True)
            else:
                dfa = region if region is not None else any_string_dfa()
                if names_dfa is not None:
                    dfa = product(dfa, names_dfa, keyword="propertyNames")
                dfa = exclude_literals(dfa, self.names)
                if dfa.is_empty():
                    continue
                words = finite_words(dfa, MAX_LISTED_KEYS)
                if words is not None:  # a few keys: named, so each appears once
                    self.names += words
                    colon = comp.phrase(":")
                    self.pairs += [
                        PairStateMachine(w, name_machine(w), ws, value, colon=colon) for w in words
                    ]
                    continue
                try:
                    key = lower_key(dfa, "patternProperties")
                except SchemaError as exc:
                    raise comp.reraise(exc, "patternProperties", pointer) from exc
            colon = comp.phrase(":")
            out.append(PairStateMachine(None, key, ws, value, colon=colon))
        if not out:
            self.others = False  # no key that is not named may appear
        elif names_dfa is None and not dropped:
            self.others = True  # the regions left cover every key that is not named
        return out

    def _pattern_regions(
        self,
        patterns: list[str],
        rules: list[ObjRule],
        base: Sub,
        pointer: str,
    ) -> list[tuple[CpDfa | None, Sub]]:
        """The key regions cut by ``patterns`` (each subset matched, the others not)
        and the value schema of each: the matched patterns' schemas of every rule,
        or a rule's ``additional`` where none of its patterns matched."""
        dfas: list[CpDfa] = []
        for p in patterns:
            try:
                dfas.append(pattern_dfa(p, False, "patternProperties"))
            except SchemaError as exc:
                raise self.comp.reraise(exc, "patternProperties", pointer) from exc
        out: list[tuple[CpDfa | None, Sub]] = []
        for mask in range(1 << len(patterns)):
            dfa: CpDfa | None = None
            for i, d in enumerate(dfas):
                part = d if mask >> i & 1 else complement(d)
                dfa = part if dfa is None else product(dfa, part, keyword="patternProperties")
            assert dfa is not None
            if dfa.is_empty():
                continue
            matched = {p for i, p in enumerate(patterns) if mask >> i & 1}
            sub = base
            for rule in rules:
                hits = [psub for p, psub in rule.patterns if p in matched]
                for psub in hits:
                    sub = sub | psub
                if not hits:
                    sub = sub | rule.additional
            out.append((dfa, sub))
        return out


class _GraphBuilder:
    def __init__(self, comp: Compiler, pieces: _Pieces, ordered: bool, pointer: str) -> None:
        self.comp = comp
        self.p = pieces
        self.alt = pieces.alt
        self.ordered = ordered
        self.pointer = pointer
        self.graph: StateGraph = {}
        self.lb = comp.phrase("{")
        self.rb = comp.phrase("}")
        self.comma = comp.phrase(",")
        self.index = {name: i for i, name in enumerate(pieces.names)}
        self.required_idx = frozenset(self.index[n] for n in self.alt.required)
        self.last_required = max(self.required_idx, default=-1)
        mx, mn = self.alt.max_props, self.alt.min_props
        self.cap = mx if mx is not None else mn
        #: Whether ``build`` gave the graph under the native key check.
        self.keys_checked = False

    # ---- modes
    def build(self) -> StateGraph:
        linear_ok = not self.alt.forbid_all and not self.alt.dependent
        if not self.p.extras and self.cap is not None:
            self.cap = min(self.cap, len(self.p.names))  # only named keys to count
        elif self.cap is not None and self.cap > MAX_EXPLICIT_ITEMS:
            if self.p.others is not None:
                return self._checked()  # the native check counts the keys
            self.comp.ctx.decline(
                f"minProperties/maxProperties above {MAX_EXPLICIT_ITEMS} with keys "
                "the native check cannot list",
                "maxProperties" if self.alt.max_props is not None else "minProperties",
                self.pointer,
                code="too-complex",
            )
            self.cap = MAX_EXPLICIT_ITEMS
        if self.ordered and linear_ok:
            return self._bfs(linear=True)
        try:
            if self._subsets() >= self.comp.options.max_object_states:
                raise _TooMany  # known without enumerating them first
            return self._bfs(linear=False)
        except _TooMany:
            if self.p.others is not None:
                return self._checked()
            if not linear_ok:
                self.comp.ctx.decline(
                    "too many property combinations to track in any order",
                    "properties",
                    self.pointer,
                    code="too-complex",
                )
            self.comp.notes.append(f"{self.pointer or '#'}: properties in schema order")
            self.graph = {}
            return self._bfs(linear=True)

    def _checked(self) -> StateGraph:
        """Any order without a state per property set: every pair at every
        position, under the native check of the keys (see the module docstring)."""
        ws = self.comp.ws()
        pairs = [x for x in self.p.pairs if x is not None] + self.p.extras
        graph: StateGraph = {
            0: [(self.lb, 1)],
            1: [(ws, 2)],
            2: [*((x, 3) for x in pairs), (self.rb, "$")],
            3: [(ws, 4)],
            4: [(self.comma, 5), (self.rb, "$")] if pairs else [(self.rb, "$")],
            5: [(ws, 6)],
            6: [(x, 3) for x in pairs],
        }
        self.keys_checked = True
        return self.under_key_check(graph, others=bool(self.p.others))

    def under_key_check(self, graph: StateGraph, others: bool) -> StateGraph:
        """``graph`` under the native check of the keys (``others``: keys that are
        not named may appear, each once)."""
        dependent = dict(self.alt.dependent)
        checked = object_keys(
            GraphStateMachine(graph),
            names=self.p.names,
            usable=[x is not None for x in self.p.pairs],
            required=sorted(self.required_idx),
            dependent=[sorted(self.index[d] for d in dependent.get(n, ())) for n in self.p.names],
            forbidden=[sorted(self.index[n] for n in group) for group in self.alt.forbid_all],
            others=others,
            min_properties=self.alt.min_props,
            max_properties=self.alt.max_props,
        )
        # An external node cannot be a grammar's root: it stands inside a graph.
        return {0: [(checked, "$")]}

    def _subsets(self) -> int:
        """How many sets of named properties any-order mode reaches (each is at
        least one state): every set of at most maxProperties of them."""
        n = sum(1 for pair in self.p.pairs if pair is not None)
        mx = self.alt.max_props
        if mx is None or mx >= n:
            return 1 << n
        return sum(math.comb(n, i) for i in range(mx + 1))

    def _successors(self, key: Any) -> list[tuple[StateMachine, Any]]:
        """Any-order mode: the pairs that may follow the properties in ``key``."""
        out: list[tuple[StateMachine, Any]] = []
        seen, n, ext = key
        if not self._room(len(seen) + n):
            return out
        if not (self.ordered and ext):
            low = max(seen) if (self.ordered and seen) else -1
            for i, pair in enumerate(self.p.pairs):
                if pair is not None and i not in seen and i > low:
                    out.append((pair, (seen | {i}, n, ext)))
        n2 = min(n + 1, self.cap or 0)
        out += [(x, (seen, n2, True)) for x in self.p.extras]
        return out

    def _room(self, count: int) -> bool:
        mx = self.alt.max_props
        return mx is None or count + 1 <= mx

    def _close_ok(self, key: Any, linear: bool) -> bool:
        if linear:
            last, count, _ = key
            return bool(last >= self.last_required and count >= self.alt.min_props)
        seen, n, _ = key
        if not self.required_idx <= seen or len(seen) + n < self.alt.min_props:
            return False
        names = {self.p.names[i] for i in seen}
        if any(group <= names for group in self.alt.forbid_all):
            return False
        return all(deps <= names for k, deps in self.alt.dependent if k in names)

    def _bfs(self, linear: bool) -> StateGraph:
        """States ``P(key)`` (expecting a pair) with ``P+1..P+3`` after a pair,
        after its whitespace and after the comma.

        Linear mode keys are ``(last named index, count, extra keys seen)``.
        Instead of an edge from ``P`` to every later optional property (square
        in their number), ``P`` enters a chain: ``F(k)`` offers property ``k``
        or, when ``k`` is optional, an empty edge on to ``F(k + 1)``.
        """
        ws = self.comp.ws()
        limit = self.comp.options.max_object_states
        graph: StateGraph = {0: [(self.lb, 1)], 1: [(ws, 2)]}
        ids: dict[Any, int] = {}
        chain: dict[tuple[int, int], int] = {}
        todo: list[Any] = []
        counter = iter(range(3, 1 << 62))
        names = len(self.p.names)
        # reach[k]: a named pair can be taken from F(k) (not past a required one)
        reach = [False] * (names + 1)
        for k in range(names - 1, -1, -1):
            skip = k not in self.required_idx and reach[k + 1]
            reach[k] = self.p.pairs[k] is not None or skip

        def expect(key: Any) -> int:  # state id of P(key): expecting a pair
            sid = ids.get(key)
            if sid is None:
                if len(ids) >= limit and not linear:
                    raise _TooMany
                sid = ids[key] = next(counter)
                for _ in range(3):
                    next(counter)
                todo.append(key)
            return sid

        def from_k(k: int, count: int) -> int:  # state id of F(k), chain built on first use
            run: list[int] = []
            j = k
            while (j, count) not in chain:
                chain[(j, count)] = next(counter)
                run.append(j)
                if j in self.required_idx or not reach[j + 1]:
                    break
                j += 1
            for j in run:
                edges: list[tuple[StateMachine, Any]] = []
                pair = self.p.pairs[j]
                if pair is not None:
                    nxt = min(count + 1, self.cap or 0)
                    edges.append((pair, expect((j, nxt, False)) + 1))
                if j not in self.required_idx and reach[j + 1]:
                    edges.append((_EMPTY, chain[(j + 1, count)]))
                graph[chain[(j, count)]] = edges
            return chain[(k, count)]

        def successors(key: Any) -> list[tuple[StateMachine, Any]]:
            if not linear:
                return [(machine, expect(nxt) + 1) for machine, nxt in self._successors(key)]
            last, count, ext = key
            if not self._room(count):
                return []
            out: list[tuple[StateMachine, Any]] = []
            # Generation order puts extra keys last; in any-order mode (the
            # fallback when too many property sets) they may come anywhere.
            if not (ext and self.ordered) and reach[last + 1]:
                out.append((_EMPTY, from_k(last + 1, count)))
            if last >= self.last_required and self.p.extras:
                extra = expect((last, min(count + 1, self.cap or 0), True)) + 1
                out += [(x, extra) for x in self.p.extras]
            return out

        start = (-1, 0, False) if linear else (frozenset(), 0, False)
        first = successors(start)
        if self._close_ok(start, linear):
            first.append((self.rb, "$"))
        graph[2] = first
        while todo:
            key = todo.pop()
            p = ids[key]
            after, after_ws, after_comma = p + 1, p + 2, p + 3
            succ = successors(key)
            graph[after] = [(ws, after_ws)]
            edges: list[tuple[StateMachine, Any]] = []
            if self._close_ok(key, linear):
                edges.append((self.rb, "$"))
            if succ:
                edges.append((self.comma, after_comma))
                graph[after_comma] = [(ws, p)]
                graph[p] = succ
            graph[after_ws] = edges
        self.graph = graph
        return graph


#: The empty edge of the linear chain: matches "" (a graph whose start is its end).
_EMPTY = StateMachine({}, start_state=0, end_states=[0])


class _TooMany(Exception):
    pass


def object_count(
    comp: Compiler, alt: ObjAlt, value_count: Callable[[Sub], int | None]
) -> int | None:
    """At most how many distinct objects ``alt`` allows, when no key that is not
    named may appear and each named value has finitely many values
    (``value_count``); ``None`` otherwise. Counts, dependencies and forbidden
    sets only narrow it."""
    pieces = _Pieces(comp, alt, "")
    if pieces.impossible:
        return 0
    if pieces.extras:
        return None
    total = 1
    for name, pair in zip(pieces.names, pieces.pairs, strict=True):
        if pair is None:
            continue
        values = value_count(obj_value(alt, name))
        if values is None:
            return None
        total *= values + (0 if name in alt.required else 1)
    return total


def build_object_graph(comp: Compiler, alt: ObjAlt, pointer: str = "") -> StateGraph | None:
    """The state graph of one object alternative without its dead ends; ``None``
    when no object satisfies it."""
    pieces = _Pieces(comp, alt, pointer)
    if pieces.impossible:
        return None
    builder = _GraphBuilder(comp, pieces, comp.options.ordered_properties, pointer)
    built = builder.build()
    graph: StateGraph | None = built
    # Without counts or conditions on key sets, every state reaches the required
    # keys and then "}" (a required key with no value made the object impossible).
    if alt.min_props or alt.max_props is not None or alt.forbid_all or alt.dependent:
        graph = without_dead_ends(built)
    if graph is not None and pieces.extras and alt.min_props > 1 and not builder.keys_checked:
        # A key that is not named could repeat, and json.loads keeps one of them:
        # counted twice, it would let minProperties pass on fewer keys.
        graph = builder.under_key_check(graph, others=True)
    return graph


class ObjectSchemaStepper(ObjectStepper):
    """A position in an ``ObjectSchemaStateMachine``; the value is the ``dict`` read so far."""

    __slots__ = ()


class ObjectGraphStateMachine(GraphStateMachine):
    """A compiled object alternative (``ObjectSchemaStateMachine`` compiles one from
    a schema). The value is the ``dict`` once it is complete."""

    stepper_class: ClassVar[type[Stepper]] = ObjectSchemaStepper

    @staticmethod
    def from_alt(comp: Compiler, alt: ObjAlt) -> StateMachine:
        graph = build_object_graph(comp, alt)
        if graph is None:
            return NeverStateMachine()
        return ObjectGraphStateMachine(graph)

    def stepper_value(self, stepper: Stepper) -> Any:
        """The object as a ``dict`` once it is complete (``None`` before)."""
        raw = stepper.get_raw_value()
        try:
            return json.loads(raw)
        except ValueError:
            return None


__all__ = [
    "KeyValueSchemaStepper",
    "ObjectGraphStateMachine",
    "ObjectSchemaStepper",
    "PairStateMachine",
    "build_object_graph",
    "finite_words",
    "name_machine",
    "object_count",
]
