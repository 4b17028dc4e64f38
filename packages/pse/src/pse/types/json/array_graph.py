"""The array family's builder: the state graph of one array alternative.

Plain arrays are a chain of ``prefixItems`` followed by a loop of ``items``
bounded by ``minItems``/``maxItems``. ``contains`` (with ``minContains``, and
``maxContains`` when the contained schema can be negated) and ``uniqueItems``
over a small finite item domain use an explicit graph whose states count items,
matches, and the values used so far. States from which the array cannot be
closed are pruned (``dead_ends.py``): an array alternative that the counts make
empty compiles to ``NeverStateMachine``.
"""

from __future__ import annotations

import json
import math
from dataclasses import replace
from decimal import Decimal, localcontext
from fractions import Fraction
from typing import TYPE_CHECKING, Any, ClassVar

from pse_core._core import StateMachine, Stepper
from pse_core.errors import SchemaError

from pse.types.array import ArrayStepper
from pse.types.base.chain import ChainStateMachine
from pse.types.base.loop import LoopStateMachine
from pse.types.json.algebra import alt_empty
from pse.types.json.dead_ends import without_dead_ends
from pse.types.json.limits import MAX_EXPLICIT_ITEMS, MAX_UNIQUE_CHECK_DOMAIN, MAX_UNIQUE_DOMAIN
from pse.types.json.machines import GraphStateMachine, NeverStateMachine
from pse.types.json.numbers import num_accepts
from pse.types.json.object_graph import finite_words, object_count
from pse.types.json.schema_ir import Alt, ArrAlt, BoolAlt, NullAlt, NumAlt, ObjAlt, StrAlt, Sub
from pse.types.json.strings import accepts_text, allowed_literals, str_alt_dfa

if TYPE_CHECKING:
    from pse_core._core import StateGraph

    from pse.types.json.compiler import Compiler


def _domain(comp: Compiler, sub: Sub, limit: int = MAX_UNIQUE_DOMAIN) -> list[Alt] | None:
    """The item values of ``sub`` one by one (each once, in JSON equality), when
    finitely many, at most ``limit`` numbers and at most ``limit`` others (else
    ``None``)."""
    values: dict[tuple[str, Any], Alt] = {}
    for alt in comp.ctx.sub_ir(sub):
        if alt_empty(comp.ctx, alt):
            continue
        if isinstance(alt, NullAlt):
            values["null", None] = alt
        elif isinstance(alt, BoolAlt):
            values.update({("bool", v): BoolAlt(frozenset({v})) for v in sorted(alt.values)})
        elif isinstance(alt, StrAlt) and (words := _strings(comp, alt, 2 * limit)) is not None:
            for v in words:
                values["str", v] = StrAlt(literals=frozenset({v}))
        elif isinstance(alt, NumAlt) and (points := _points(alt, limit)) is not None:
            values.update({("num", p): _at(alt, p) for p in points})
        else:
            return None
        if len(values) > 2 * limit:
            return None
    return list(values.values())


def unique_check_domain(comp: Compiler, sub: Sub) -> list[tuple[str, int]] | None:
    """The item values of ``sub`` as the native uniqueness check takes them, when
    finitely many (at most ``MAX_UNIQUE_CHECK_DOMAIN`` numbers and as many
    others): each value's JSON text and, for a number, the exponents its
    automaton writes it with (bit ``e + 4``); else ``None``."""
    domain = _domain(comp, sub, MAX_UNIQUE_CHECK_DOMAIN)
    if domain is None:
        return None
    numbers = [
        (alt, _exponent_mask(comp, alt))
        for alt in comp.ctx.sub_ir(sub)
        if isinstance(alt, NumAlt) and not alt_empty(comp.ctx, alt)
    ]
    out: list[tuple[str, int]] = []
    for value in domain:
        mask = 0
        if isinstance(value, NumAlt):
            for alt, exponents in numbers:
                if value.lo is not None and num_accepts(alt, value.lo):
                    mask |= exponents
        out.append((_text(value), mask))
    return out


def unique_check_machines(
    comp: Compiler, sub: Sub
) -> tuple[list[StateMachine], list[StateMachine]]:
    """The machines of the numbers and of the strings of ``sub`` for the native
    uniqueness check, which reads an item's beginning in them to tell whether a
    value no earlier item has is still beyond it: for each type, every
    alternative's machine when all of them are machines it can read (automata,
    and for strings length-bounded strings; a graph of such, as ``hostname``
    is), else none (every beginning of that type then counts as reaching new
    values)."""
    numbers: list[StateMachine] | None = []
    strings: list[StateMachine] | None = []
    for alt in comp.ctx.sub_ir(sub):
        if not isinstance(alt, NumAlt | StrAlt) or alt_empty(comp.ctx, alt):
            continue
        parts = _readable(comp.compile_alts([alt]), "dfa" if isinstance(alt, NumAlt) else "string")
        if isinstance(alt, NumAlt):
            numbers = None if numbers is None or parts is None else numbers + parts
        else:
            strings = None if strings is None or parts is None else strings + parts
    return numbers or [], strings or []


def _readable(machine: StateMachine, also: str) -> list[StateMachine] | None:
    """``machine`` as machines the uniqueness check reads (kind ``dfa`` or
    ``also``): itself, or the parts of a graph of such from its start to its
    end; ``None`` otherwise."""
    if machine.kind in ("dfa", also):
        return [machine]
    if machine.kind != "graph":
        return None
    edges = machine.get_edges(machine.start_state)
    ends = set(machine.end_states)
    if not edges or any(t not in ends or m.kind not in ("dfa", also) for m, t in edges):
        return None
    if any(machine.get_edges(end) for end in ends):
        return None
    return [m for m, _ in edges]


def _exponent_mask(comp: Compiler, alt: NumAlt) -> int:
    """The exponents ``-4..4`` that the number automaton of ``alt`` writes its
    values with (bit ``e + 4``; numbers.py leaves some out, and the same for
    every value), probed on one nonzero value of it."""
    points = _points(alt, MAX_UNIQUE_CHECK_DOMAIN) or []
    value = next((p for p in points if p != 0), None)
    if value is None:
        return 0
    machine = comp.compile_alts([alt])
    mask = 0
    for e in range(-4, 5):
        if accepts_text(machine, f"{format(value.scaleb(-e), 'f')}e{e}"):
            mask |= 1 << (e + 4)
    return mask


def _strings(comp: Compiler, alt: StrAlt, limit: int) -> list[str] | None:
    """The strings of ``alt`` one by one: its literals, or the words of its
    automaton when at most ``limit`` (``maxLength: 0``, ``^(a|b)$``)."""
    if alt.literals is not None:
        return allowed_literals(comp, alt)
    try:
        return finite_words(str_alt_dfa(alt), limit)
    except SchemaError:  # an automaton too large or not supported: not listed
        return None


def _multiples(alt: NumAlt) -> tuple[Fraction, int, int] | None:
    """A step every number of ``alt`` is a multiple of (1 for integers) and the
    range ``first..last`` of its multiples within the bounds, the one with the
    fewest; ``None`` when there is no step or no finite bounds."""
    steps = [Fraction(m) for m in alt.multiples] + ([Fraction(1)] if alt.integer else [])
    if alt.lo is None or alt.hi is None or not steps:
        return None
    lo, hi = Fraction(alt.lo), Fraction(alt.hi)
    ranges = [(s, math.ceil(lo / s), math.floor(hi / s)) for s in steps]
    return min(ranges, key=lambda r: r[2] - r[1])


def number_count(alt: NumAlt) -> int | None:
    """At most how many numbers ``alt`` allows (``None``: unboundedly many)."""
    if alt.lo is not None and alt.lo == alt.hi:
        return 1
    multiples = _multiples(alt)
    return None if multiples is None else max(0, multiples[2] - multiples[1] + 1)


def _points(alt: NumAlt, limit: int) -> list[Decimal] | None:
    """The numbers of ``alt`` one by one, when at most ``limit``."""
    if alt.lo is not None and alt.lo == alt.hi:
        return [alt.lo] if num_accepts(alt, alt.lo) else []
    multiples = _multiples(alt)
    if multiples is None or multiples[2] - multiples[1] >= limit:
        return None
    step, first, last = multiples
    out: list[Decimal] = []
    for n in range(first, last + 1):
        num = n * step.numerator
        with localcontext() as exact:  # a multiple of a decimal step is a finite decimal
            exact.prec = 4 * (len(str(num)) + len(str(step.denominator)))
            value = Decimal(num) / Decimal(step.denominator)
        if num_accepts(alt, value):
            out.append(value)
    return out


def _at(alt: NumAlt, value: Decimal) -> NumAlt:
    return replace(alt, lo=value, hi=value, lo_excl=False, hi_excl=False)


def domain_size(comp: Compiler, sub: Sub, depth: int = 0) -> int | None:
    """At most how many distinct values ``sub`` allows (``None``: unboundedly many
    or not known): ``_domain``'s values, else a count that does not list them
    (arrays and objects of finitely many values included)."""
    domain = _domain(comp, sub, MAX_UNIQUE_CHECK_DOMAIN)
    if domain is not None:
        return len(domain)
    if depth > _COUNT_DEPTH:
        return None
    total = 0
    for alt in comp.ctx.sub_ir(sub):
        if alt_empty(comp.ctx, alt):
            continue
        if isinstance(alt, NullAlt):
            n: int | None = 1
        elif isinstance(alt, BoolAlt):
            n = len(alt.values)
        elif isinstance(alt, StrAlt) and alt.literals is not None:
            n = len(alt.literals)
        elif isinstance(alt, NumAlt):
            n = number_count(alt)
        elif isinstance(alt, ArrAlt):
            n = _array_count(comp, alt, depth + 1)
        elif isinstance(alt, ObjAlt):
            n = object_count(comp, alt, lambda s: domain_size(comp, s, depth + 1))
        else:
            return None
        if n is None:
            return None
        total += n
    return total


#: Nesting that ``domain_size`` looks through (recursive schemas stop there).
_COUNT_DEPTH = 8


def _array_count(comp: Compiler, alt: ArrAlt, depth: int) -> int | None:
    """At most how many arrays ``alt`` allows: the item counts multiplied over
    each length (distinct items only under ``uniqueItems``); ``contains`` only
    narrows it. ``None`` when unbounded or more than 64 lengths."""
    if alt.max_items is None or alt.max_items - alt.min_items > 64:
        return None
    sizes = [domain_size(comp, p, depth) for p in alt.prefix[: alt.max_items]]
    item = domain_size(comp, alt.items, depth) if alt.max_items > len(sizes) else 0
    if item is None or None in sizes:
        return None
    if alt.unique and not sizes:
        return sum(math.perm(item, n) for n in range(alt.min_items, alt.max_items + 1))
    total, product = 0, 1
    for n in range(alt.max_items + 1):
        if n >= alt.min_items:
            total += product
        product *= sizes[n] if n < len(sizes) else item  # type: ignore[operator]
    return total


def _text(value: Alt) -> str:
    """The JSON text of a one-value alternative of ``_domain``."""
    if isinstance(value, NullAlt):
        return "null"
    if isinstance(value, BoolAlt):
        return "true" if True in value.values else "false"
    if isinstance(value, StrAlt):
        assert value.literals is not None
        (literal,) = value.literals
        return json.dumps(literal)
    assert isinstance(value, NumAlt) and value.lo is not None
    return str(value.lo)


class _Explicit:
    """Graph with states (items so far, contains matches, values used)."""

    def __init__(self, comp: Compiler, alt: ArrAlt, pointer: str) -> None:
        self.comp = comp
        self.alt = alt
        self.pointer = pointer
        self.max = alt.max_items
        p = len(alt.prefix)
        self.cap = self.max if self.max is not None else max(p, alt.min_items)
        if self.cap > MAX_EXPLICIT_ITEMS:
            comp.ctx.decline(
                f"contains/uniqueItems with more than {MAX_EXPLICIT_ITEMS} counted items",
                "maxItems",
                pointer,
                code="too-complex",
            )
            self.cap = MAX_EXPLICIT_ITEMS
        self.domain: list[StateMachine] | None = None
        values: list[Alt] = []
        if alt.unique and (self.max is None or self.max > 1):
            dom = _domain(comp, alt.items) if not alt.prefix else None
            if dom is None or len(dom) > MAX_UNIQUE_DOMAIN:
                comp.ctx.decline(
                    "uniqueItems is enforced only for small finite item sets",
                    "uniqueItems",
                    pointer,
                )
            else:
                values = dom
                self.domain = [comp.compile_alts([v]) for v in dom]
                if self.max is None or self.max > len(dom):
                    self.max = len(dom)
                    self.cap = min(self.cap, len(dom))
        self.contains: tuple[Sub, Sub | None, int, int | None] | None = None
        if alt.contains:
            if len(alt.contains) > 1:
                comp.ctx.decline("several contains on one array", "contains", pointer)
            sub, cmin, cmax = alt.contains[0]
            if max(cmin, cmax or 0) > MAX_EXPLICIT_ITEMS:
                comp.ctx.decline(
                    f"minContains/maxContains above {MAX_EXPLICIT_ITEMS}",
                    "maxContains" if (cmax or 0) > MAX_EXPLICIT_ITEMS else "minContains",
                    pointer,
                    code="too-complex",
                )
                cmin, cmax = min(cmin, MAX_EXPLICIT_ITEMS), None
            if cmax is not None or cmin > 0:
                neg: Sub | None = None
                if cmax is not None and self.domain is None:
                    node = comp.ctx.synthetic("not", {}, pointer + "/contains", inner=sub)
                    neg = frozenset({node})
                    comp.ctx.sub_ir(neg)  # declines when the schema cannot be negated
                self.contains = (sub, neg, cmin, cmax)
        #: Per domain value, whether it counts for ``contains``.
        self.matches: list[bool] = []
        if values and self.contains is not None:
            contained = comp.compile_sub(self.contains[0])
            self.matches = [accepts_text(contained, _text(v)) for v in values]

    def classes(
        self, i: int, c: int, used: frozenset[int]
    ) -> list[tuple[StateMachine, int, frozenset[int]]]:
        comp, alt = self.comp, self.alt
        pos: Sub = alt.prefix[i] if i < len(alt.prefix) else alt.items
        out: list[tuple[StateMachine, int, frozenset[int]]] = []
        if self.contains is None:
            if self.domain is None:
                return [(comp.compile_sub(pos), c, used)]
            return [(m, c, used | {k}) for k, m in enumerate(self.domain) if k not in used]
        sub, neg, cmin, cmax = self.contains
        bound = cmax if cmax is not None else cmin
        room = cmax is None or c + 1 <= cmax  # for one more contained item
        if self.domain is not None:
            for k, machine in enumerate(self.domain):
                if k not in used and not self.matches[k]:
                    out.append((machine, c, used | {k}))
                elif k not in used and room:
                    out.append((machine, min(c + 1, bound), used | {k}))
            return out
        if room:
            out.append((comp.compile_sub(pos | sub), min(c + 1, bound), used))
        other = pos | neg if neg is not None else pos
        out.append((comp.compile_sub(other), c, used))
        return [o for o in out if not isinstance(o[0], NeverStateMachine)]

    def close_ok(self, i: int, c: int) -> bool:
        cmin = self.contains[2] if self.contains else 0
        return i >= self.alt.min_items and c >= cmin

    def build(self) -> StateGraph:
        ws = self.comp.ws()
        lb, rb, comma = self.comp.phrase("["), self.comp.phrase("]"), self.comp.phrase(",")
        graph: StateGraph = {0: [(lb, 1)], 1: [(ws, 2)]}
        ids: dict[tuple[int, int, frozenset[int]], int] = {}
        todo: list[tuple[int, int, frozenset[int]]] = []

        def after(key: tuple[int, int, frozenset[int]]) -> int:
            sid = ids.get(key)
            if sid is None:
                sid = ids[key] = 3 + 4 * len(ids)
                todo.append(key)
            return sid + 1

        def succ(key: tuple[int, int, frozenset[int]]) -> list[tuple[StateMachine, int]]:
            i, c, used = key
            if self.max is not None and i >= self.max:
                return []
            ni = min(i + 1, self.cap)
            return [(m, after((ni, c2, u2))) for m, c2, u2 in self.classes(i, c, used)]

        start = (0, 0, frozenset[int]())
        graph[2] = succ(start) + ([(rb, "$")] if self.close_ok(0, 0) else [])
        while todo:
            key = todo.pop()
            p = ids[key]
            nxt = succ(key)
            graph[p + 1] = [(ws, p + 2)]
            edges: list[tuple[StateMachine, Any]] = []
            if self.close_ok(key[0], key[1]):
                edges.append((rb, "$"))
            if nxt:
                edges.append((comma, p + 3))
                graph[p + 3] = [(ws, p)]
                graph[p] = list(nxt)
            graph[p + 2] = edges
        return graph


def _simple(comp: Compiler, alt: ArrAlt) -> StateGraph:
    ws = comp.ws()
    lb, rb, comma = comp.phrase("["), comp.phrase("]"), comp.phrase(",")
    prefix = [comp.compile_sub(p) for p in alt.prefix]
    max_items = alt.max_items
    for i, m in enumerate(prefix):
        if isinstance(m, NeverStateMachine):
            max_items = i if max_items is None else min(max_items, i)
            prefix = prefix[:i]
            break
    items = comp.compile_sub(alt.items)
    p = len(prefix)
    tail_max = None if max_items is None else max_items - p
    has_tail = not isinstance(items, NeverStateMachine) and (tail_max is None or tail_max > 0)
    if max_items is not None:
        p = min(p, max_items)
    graph: StateGraph = {0: [(lb, 1)], 1: [(ws, 2)]}
    tail_state = 4 * p + 10

    def expect(i: int) -> int:  # state expecting item i (i < p) or the tail
        return 2 if i == 0 else 3 + 4 * (i - 1) + 3

    for i in range(p + 1):
        e = expect(i)
        edges: list[tuple[StateMachine, Any]] = []
        if i < p:
            edges.append((prefix[i], 3 + 4 * i))
        elif has_tail:
            edges.append((_tail(comp, items, alt.min_items - p, tail_max), tail_state))
        if i == 0 and alt.min_items == 0:
            edges.append((rb, "$"))
        graph[e] = edges
        if i < p:
            a = 3 + 4 * i  # after item i: i + 1 items
            n = i + 1
            graph[a] = [(ws, a + 1)]
            close: list[tuple[StateMachine, Any]] = []
            if n >= alt.min_items:
                close.append((rb, "$"))
            if n < p or has_tail:
                close.append((comma, a + 2))
                graph[a + 2] = [(ws, expect(n))]
            graph[a + 1] = close
    if has_tail:
        graph[tail_state] = [(ws, tail_state + 1)]
        graph[tail_state + 1] = [(rb, "$")]
    return graph


def _tail(comp: Compiler, items: StateMachine, at_least: int, at_most: int | None) -> StateMachine:
    ws = comp.ws()
    separator = ChainStateMachine([ws, comp.phrase(","), ws])
    return LoopStateMachine(
        items,
        min_loop_count=max(1, at_least),
        max_loop_count=-1 if at_most is None else at_most,
        separator=separator,
    )


def build_array_graph(comp: Compiler, alt: ArrAlt, pointer: str = "") -> StateGraph | None:
    """The state graph of one array alternative without its dead ends; ``None``
    when no array satisfies it."""
    explicit = (alt.unique and (alt.max_items is None or alt.max_items > 1)) or any(
        cmin > 0 or cmax is not None for _, cmin, cmax in alt.contains
    )
    if explicit:
        return without_dead_ends(_Explicit(comp, alt, pointer).build())
    graph = _simple(comp, alt)
    # Without minItems every state may close the array: nothing to prune.
    return without_dead_ends(graph) if alt.min_items else graph


class ArraySchemaStepper(ArrayStepper):
    """A position in an ``ArraySchemaStateMachine``; the value is the ``list`` read so far."""

    __slots__ = ()


class ArrayGraphStateMachine(GraphStateMachine):
    """A compiled array alternative (``ArraySchemaStateMachine`` compiles one from a
    schema). The value is the ``list`` (parsed from the text once complete)."""

    stepper_class: ClassVar[type[Stepper]] = ArraySchemaStepper

    @staticmethod
    def from_alt(comp: Compiler, alt: ArrAlt) -> StateMachine:
        graph = build_array_graph(comp, alt)
        if graph is None:
            return NeverStateMachine()
        return ArrayGraphStateMachine(graph)

    def stepper_value(self, stepper: Stepper) -> Any:
        """The list once complete (``None`` before)."""
        try:
            return json.loads(stepper.get_raw_value())
        except ValueError:
            return None


__all__ = [
    "MAX_UNIQUE_DOMAIN",
    "ArrayGraphStateMachine",
    "ArraySchemaStepper",
    "build_array_graph",
]
