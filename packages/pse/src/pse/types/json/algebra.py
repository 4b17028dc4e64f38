"""The schema algebra: intersection, union, negation and emptiness of alternatives.

``anyOf`` is concatenation, ``allOf`` the pairwise intersection, ``not`` the
complement where it is tractable. Each JSON type's part lives in its family
(``numbers.py``, ``strings.py``, ``arrays.py``, ``objects.py``); this module
dispatches on the type. Whatever cannot be represented exactly raises
``SchemaError`` naming the keyword and the JSON pointer (or is declined).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pse_core.errors import SchemaError

from pse.types.json.arrays import arr_empty, intersect_arr, negate_arr
from pse.types.json.limits import EMPTINESS_DEPTH, MAX_ALTERNATIVES
from pse.types.json.numbers import intersect_num, negate_num, num_empty
from pse.types.json.objects import intersect_obj, negate_obj, obj_empty
from pse.types.json.schema_ir import (
    ALL_ALTS,
    TYPE_OF,
    Alt,
    ArrAlt,
    BoolAlt,
    NullAlt,
    NumAlt,
    ObjAlt,
    StrAlt,
    all_alts,
)
from pse.types.json.strings import intersect_str, negate_str, str_empty

if TYPE_CHECKING:
    from pse.types.json.context import SchemaContext


def intersect_alt(a: Alt, b: Alt) -> Alt | None:
    """The intersection of two alternatives; ``None`` when it is empty or the types differ."""
    if type(a) is not type(b):
        return None
    if isinstance(a, NullAlt):
        return a
    if isinstance(a, BoolAlt):
        assert isinstance(b, BoolAlt)
        vals = a.values & b.values
        return BoolAlt(vals) if vals else None
    if isinstance(a, NumAlt):
        assert isinstance(b, NumAlt)
        return intersect_num(a, b)
    if isinstance(a, StrAlt):
        assert isinstance(b, StrAlt)
        return intersect_str(a, b)
    if isinstance(a, ArrAlt):
        assert isinstance(b, ArrAlt)
        return intersect_arr(a, b)
    assert isinstance(a, ObjAlt) and isinstance(b, ObjAlt)
    return intersect_obj(a, b)


def intersect(xs: list[Alt], ys: list[Alt], keyword: str, pointer: str) -> list[Alt]:
    """``allOf`` of two unions (at most ``MAX_ALTERNATIVES`` alternatives)."""
    out: list[Alt] = []
    for x in xs:
        for y in ys:
            try:
                z = intersect_alt(x, y)
            except SchemaError as exc:  # raised without a location: give it this one
                if exc.pointer:
                    raise
                raise SchemaError(
                    exc.message, code=exc.code, keyword=exc.keyword, pointer=pointer
                ) from exc
            if z is not None and z not in out:
                out.append(z)
                if len(out) > MAX_ALTERNATIVES:
                    raise SchemaError(
                        f"{keyword} expands to more than {MAX_ALTERNATIVES} alternatives",
                        code="too-complex",
                        keyword=keyword,
                        pointer=pointer,
                    )
    return out


TYPE_RANK = {kind: rank for rank, kind in enumerate(TYPE_OF)}


def by_type(alts: list[Alt]) -> list[Alt]:
    """``intersect(all_alts(), alts)`` for alternatives as ``SchemaContext.ir``
    gives them (each already intersected with its type's unconstrained
    alternative): the distinct ones, ordered by type, each type's in their order."""
    return sorted(dict.fromkeys(alts), key=lambda alt: TYPE_RANK[type(alt)])


def allows_all(alts: list[Alt]) -> bool:
    """Whether ``alts`` is ``all_alts()`` as built (its shared alternatives, in order)."""
    return len(alts) == len(ALL_ALTS) and all(a is b for a, b in zip(alts, ALL_ALTS, strict=True))


def intersect_irs(xs: list[Alt], ys: list[Alt], keyword: str, pointer: str) -> list[Alt]:
    """``intersect`` for ``ys`` computed by ``SchemaContext`` (``sub_ir`` results and
    their unions): when ``xs`` allows every value, ``ys`` ordered by type."""
    if allows_all(xs):
        out = by_type(ys)
        if len(out) <= MAX_ALTERNATIVES:
            return out
    return intersect(xs, ys, keyword, pointer)


def union(xs: list[Alt], ys: list[Alt]) -> list[Alt]:
    out = list(xs)
    for y in ys:
        if y not in out:
            out.append(y)
    return out


def narrow(alts: list[Alt], bound: Alt) -> list[Alt]:
    """``alts`` with the alternatives of ``bound``'s type intersected with it."""
    out: list[Alt] = []
    for a in alts:
        b = intersect_alt(a, bound) if type(a) is type(bound) else a
        if b is not None and b not in out:
            out.append(b)
    return out


def negate(ctx: SchemaContext, alts: list[Alt], pointer: str) -> list[Alt]:
    """The complement of a union of alternatives, where tractable."""
    result = all_alts()
    for alt in alts:
        result = intersect(result, negate_alt(ctx, alt, pointer), "not", pointer)
    return result


def negate_alt(ctx: SchemaContext, alt: Alt, pointer: str) -> list[Alt]:
    others: list[Alt] = [a for a in all_alts() if type(a) is not type(alt)]
    inside: list[Alt] | None
    if isinstance(alt, NullAlt):
        inside = []
    elif isinstance(alt, BoolAlt):
        rest = frozenset({True, False}) - alt.values
        inside = [BoolAlt(rest)] if rest else []
    elif isinstance(alt, NumAlt):
        inside = negate_num(alt)
    elif isinstance(alt, StrAlt):
        inside = negate_str(alt)
    elif isinstance(alt, ArrAlt):
        inside = negate_arr(ctx, alt, pointer)
    else:
        inside = negate_obj(ctx, alt, pointer)
    if inside is None:
        ctx.decline(f"cannot negate this {TYPE_OF[type(alt)]} schema exactly", "not", pointer)
        return all_alts()  # lenient: the negation is dropped
    return others + inside


def alt_empty(ctx: SchemaContext, alt: Alt, depth: int = 0) -> bool:
    """Whether ``alt`` provably matches nothing (may answer ``False`` when unsure)."""
    if depth > EMPTINESS_DEPTH:
        ctx.emptiness_cutoffs += 1
        return False
    if isinstance(alt, NumAlt):
        return num_empty(alt)
    if isinstance(alt, StrAlt):
        return str_empty(alt)
    if isinstance(alt, ArrAlt):
        return arr_empty(ctx, alt, depth)
    if isinstance(alt, ObjAlt):
        return obj_empty(ctx, alt, depth)
    return False


def disjoint(ctx: SchemaContext, xs: list[Alt], ys: list[Alt]) -> bool:
    for x in xs:
        for y in ys:
            z = intersect_alt(x, y)
            if z is not None and not alt_empty(ctx, z):
                return False
    return True


__all__ = [
    "TYPE_RANK",
    "allows_all",
    "alt_empty",
    "by_type",
    "disjoint",
    "intersect",
    "intersect_alt",
    "intersect_irs",
    "narrow",
    "negate",
    "negate_alt",
    "union",
]
