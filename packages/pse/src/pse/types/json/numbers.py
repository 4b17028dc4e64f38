"""The numbers family: ``minimum``, ``maximum``, ``exclusiveMinimum``,
``exclusiveMaximum``, ``multipleOf`` (and ``type: integer``).

Owns the decimal arithmetic, the intersection and negation of ``NumAlt`` and
the builder of number machines (``pse.automata.number_machine``).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import replace
from decimal import Decimal
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from pse_core._core import StateMachine
from pse_core.errors import SchemaError

from pse.automata import number_machine, pattern_dfa
from pse.automata.dfa import lower_utf8, product
from pse.automata.numbers import number_dfa
from pse.types.json.machines import NeverStateMachine
from pse.types.json.schema_ir import Alt, Node, NumAlt
from pse.types.number import NumberStateMachine

if TYPE_CHECKING:
    from pse.automata.dfa import CpDfa
    from pse.types.json.compiler import Compiler

KEYWORDS = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf")
_KEYWORD_SET = frozenset(KEYWORDS)
_ANY_NUMBER = NumAlt()


# ------------------------------------------------------------------- maths


def to_decimal(value: Any, keyword: str, pointer: str) -> Decimal:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise SchemaError(
            f"{keyword} must be a number, got {value!r}",
            code="invalid-schema",
            keyword=keyword,
            pointer=pointer,
        )
    if isinstance(value, float) and not math.isfinite(value):
        raise SchemaError(f"{keyword} must be finite", keyword=keyword, pointer=pointer)
    return Decimal(value) if isinstance(value, int) else Decimal(repr(value))


def decimal_lcm(values: Iterable[Decimal]) -> Decimal:
    result: Fraction | None = None
    for v in values:
        f = Fraction(v)
        if result is None:
            result = f
            continue
        num = math.lcm(result.numerator * f.denominator, f.numerator * result.denominator)
        result = Fraction(num, result.denominator * f.denominator)
    assert result is not None
    return Decimal(result.numerator) / Decimal(result.denominator)


def modulus(a: NumAlt) -> Decimal | None:
    """What every value of ``a`` is a multiple of (``integer``: 1), or ``None``."""
    if not a.integer and not a.multiples:
        return None
    return decimal_lcm((*a.multiples, Decimal(1)) if a.integer else a.multiples)


def num_accepts(a: NumAlt, v: Decimal) -> bool:
    if a.lo is not None and (v < a.lo or (a.lo_excl and v == a.lo)):
        return False
    if a.hi is not None and (v > a.hi or (a.hi_excl and v == a.hi)):
        return False
    if a.integer and v != v.to_integral_value():
        return False
    return all(v % m == 0 for m in a.multiples) and all(v % m != 0 for m in a.excluded)


def num_empty(a: NumAlt) -> bool:
    if a.lo is not None and a.hi is not None:
        if a.lo > a.hi or (a.lo == a.hi and (a.lo_excl or a.hi_excl)):
            return True
        if a.lo == a.hi:
            return not num_accepts(a, a.lo)
        if a.integer:
            lo = math.floor(a.lo) + 1 if a.lo_excl or a.lo != math.floor(a.lo) else int(a.lo)
            hi = math.ceil(a.hi) - 1 if a.hi_excl or a.hi != math.ceil(a.hi) else int(a.hi)
            if lo > hi:
                return True
    return False


# ----------------------------------------------------------------- algebra


def _max_lo(a: NumAlt, b: NumAlt) -> tuple[Decimal | None, bool]:
    if a.lo is None:
        return b.lo, b.lo_excl
    if b.lo is None or a.lo > b.lo:
        return a.lo, a.lo_excl
    if b.lo > a.lo:
        return b.lo, b.lo_excl
    return a.lo, a.lo_excl or b.lo_excl


def _min_hi(a: NumAlt, b: NumAlt) -> tuple[Decimal | None, bool]:
    if a.hi is None:
        return b.hi, b.hi_excl
    if b.hi is None or a.hi < b.hi:
        return a.hi, a.hi_excl
    if b.hi < a.hi:
        return b.hi, b.hi_excl
    return a.hi, a.hi_excl or b.hi_excl


def intersect_num(a: NumAlt, b: NumAlt) -> NumAlt | None:
    lo, lo_excl = _max_lo(a, b)
    hi, hi_excl = _min_hi(a, b)
    multiples = tuple(dict.fromkeys(a.multiples + b.multiples))
    excluded = tuple(dict.fromkeys(a.excluded + b.excluded))
    n = NumAlt(a.integer or b.integer, lo, lo_excl, hi, hi_excl, multiples, excluded)
    m = modulus(n)
    if m is not None and any(m % x == 0 for x in excluded):
        return None  # every allowed multiple is an excluded one
    return None if num_empty(n) else n


def negate_num(alt: NumAlt) -> list[Alt]:
    """The numbers ``alt`` rejects: outside the bounds, or inside and not a multiple."""
    inside: list[Alt] = []
    if alt.lo is not None:
        inside.append(NumAlt(hi=alt.lo, hi_excl=not alt.lo_excl))
    if alt.hi is not None:
        inside.append(NumAlt(lo=alt.hi, lo_excl=not alt.hi_excl))
    within = replace(alt, integer=False, multiples=(), excluded=())
    m = modulus(alt)
    if m is not None:
        inside.append(replace(within, excluded=(m,)))
    inside += [replace(within, multiples=(x,)) for x in alt.excluded]
    return inside


# ---------------------------------------------------------------- keywords


def _ptr(node: Node, keyword: str) -> str:
    return f"{node.pointer}/{keyword}"


def number_keywords(node: Node, schema: dict[str, Any], draft4: bool = False) -> NumAlt | None:
    """The numeric constraint of one schema object (``None``: none; an empty
    alternative when the bounds contradict each other). A boolean
    ``exclusiveMinimum``/``exclusiveMaximum`` modifies ``minimum``/``maximum``
    in draft 4 only; later drafts take a number there."""
    if _KEYWORD_SET.isdisjoint(schema):
        return None
    for keyword in ("exclusiveMinimum", "exclusiveMaximum"):
        if isinstance(schema.get(keyword), bool) and not draft4:
            raise SchemaError(
                f"{keyword} must be a number (a boolean is draft 4's form: declare "
                '"$schema": "http://json-schema.org/draft-04/schema#")',
                code="invalid-schema",
                keyword=keyword,
                pointer=_ptr(node, keyword),
            )
    bounds = NumAlt()
    if "minimum" in schema:
        lo = to_decimal(schema["minimum"], "minimum", _ptr(node, "minimum"))
        excl = schema.get("exclusiveMinimum") is True
        bounds = _tighten(bounds, NumAlt(lo=lo, lo_excl=excl))
    if "maximum" in schema:
        hi = to_decimal(schema["maximum"], "maximum", _ptr(node, "maximum"))
        excl = schema.get("exclusiveMaximum") is True
        bounds = _tighten(bounds, NumAlt(hi=hi, hi_excl=excl))
    em, eM = schema.get("exclusiveMinimum"), schema.get("exclusiveMaximum")
    if em is not None and not isinstance(em, bool):
        lo = to_decimal(em, "exclusiveMinimum", _ptr(node, "exclusiveMinimum"))
        bounds = _tighten(bounds, NumAlt(lo=lo, lo_excl=True))
    if eM is not None and not isinstance(eM, bool):
        hi = to_decimal(eM, "exclusiveMaximum", _ptr(node, "exclusiveMaximum"))
        bounds = _tighten(bounds, NumAlt(hi=hi, hi_excl=True))
    if "multipleOf" in schema:
        m = to_decimal(schema["multipleOf"], "multipleOf", _ptr(node, "multipleOf"))
        if m <= 0:
            raise SchemaError(
                "multipleOf must be greater than 0",
                code="invalid-schema",
                keyword="multipleOf",
                pointer=_ptr(node, "multipleOf"),
            )
        bounds = replace(bounds, multiples=(m,))
    return None if bounds == _ANY_NUMBER else bounds


def _tighten(a: NumAlt, b: NumAlt) -> NumAlt:
    c = intersect_num(a, b)
    return c if c is not None else _EMPTY_NUM


_EMPTY_NUM = NumAlt(lo=Decimal(1), hi=Decimal(0))


# ----------------------------------------------------------------- builder


def _arg(value: Decimal | None) -> int | float | None:
    if value is None:
        return None
    if value == value.to_integral_value():
        return int(value)
    return float(value)


def _bounds(alt: NumAlt) -> dict[str, Any]:
    """``alt``'s bounds and positive divisibility as ``pse.automata`` keyword arguments."""
    lo = hi = elo = ehi = None
    if alt.lo is not None:
        lo, elo = (None, alt.lo) if alt.lo_excl else (alt.lo, None)
    if alt.hi is not None:
        hi, ehi = (None, alt.hi) if alt.hi_excl else (alt.hi, None)
    return {
        "integer": alt.integer,
        "minimum": _arg(lo),
        "maximum": _arg(hi),
        "exclusive_minimum": _arg(elo),
        "exclusive_maximum": _arg(ehi),
        "multiple_of": _arg(decimal_lcm(alt.multiples)) if alt.multiples else None,
    }


def _lowered(dfa: CpDfa, alt: NumAlt) -> StateMachine:
    """``dfa`` minus the multiples of ``alt.excluded``, as a machine."""
    for excluded in alt.excluded:
        others = number_dfa(multiple_of=_arg(excluded), not_multiple=True)
        dfa = product(dfa, others, keyword="not")
    if dfa.is_empty():
        raise SchemaError(
            "no number satisfies the constraints", code="unsatisfiable", keyword="minimum"
        )
    return lower_utf8(dfa, "number").machine(0)


def number_bounds_machine(alt: NumAlt) -> StateMachine:
    """The machine of one number alternative (``pse.automata.number_machine`` for bounds)."""
    if alt.unconstrained and not alt.integer:
        return NumberStateMachine()
    if not alt.excluded:
        return number_machine(**_bounds(alt))
    return _lowered(number_dfa(**_bounds(alt)), alt)


def draft4_integer_machine(alt: NumAlt) -> StateMachine:
    """Draft 4 integers: integer literals only (``1.0`` is a number, not an integer)."""
    if alt.unconstrained:
        return NumberStateMachine(integer_only=True)
    syntax = pattern_dfa(r"^-?(?:0|[1-9][0-9]*)$", True, "type")
    return _lowered(product(number_dfa(**_bounds(alt)), syntax, keyword="type"), alt)


def build_number(comp: Compiler, alt: NumAlt) -> StateMachine:
    try:
        if alt.integer and comp.options.draft == "4":
            return draft4_integer_machine(alt)
        return number_bounds_machine(alt)
    except SchemaError as exc:
        if exc.code == "unsatisfiable":  # no number qualifies: other types still may
            return NeverStateMachine()
        raise comp.reraise(exc, "minimum", "") from exc


__all__ = [
    "KEYWORDS",
    "build_number",
    "decimal_lcm",
    "draft4_integer_machine",
    "intersect_num",
    "modulus",
    "negate_num",
    "num_accepts",
    "num_empty",
    "number_bounds_machine",
    "number_keywords",
    "to_decimal",
]
