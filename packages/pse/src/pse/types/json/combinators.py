"""The combinators family: ``allOf``, ``anyOf``, ``oneOf``, ``not``, ``if``/``then``/``else``
and the conditionals of ``dependentSchemas`` (schema-valued ``dependencies``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pse.types.json.algebra import (
    alt_empty,
    disjoint,
    intersect,
    intersect_alt,
    intersect_irs,
    negate,
    union,
)
from pse.types.json.keywords import BY_NAME, Handling
from pse.types.json.limits import MAX_ONE_OF_NEGATED
from pse.types.json.objects import Condition
from pse.types.json.reading import invalid, ptr
from pse.types.json.schema_ir import Alt, Node, ObjAlt, Sub, all_alts
from pse.types.json.unevaluated import any_of, forget

if TYPE_CHECKING:
    from pse.types.json.context import SchemaContext

KEYWORDS = ("allOf", "anyOf", "oneOf", "not", "if", "then", "else", "dependentSchemas")
#: The keywords ``apply_combinators`` acts on (``then``/``else`` only with ``if``).
_APPLIED = frozenset(("allOf", "anyOf", "oneOf", "not", "if"))


def apply_combinators(
    ctx: SchemaContext, node: Node, schema: dict[str, Any], alts: list[Alt]
) -> list[Alt]:
    """``alts`` under the schema's ``allOf``, ``anyOf``, ``oneOf``, ``not`` and ``if``."""
    if _APPLIED.isdisjoint(schema):
        return alts
    for keyword in ("allOf", "anyOf", "oneOf"):
        if keyword not in schema:
            continue
        branches = schema[keyword]
        if not isinstance(branches, list) or not branches:
            raise invalid(node, keyword, f"{keyword} must be a non-empty array")
        irs = [ctx.sub_ir(ctx.child(node, b, keyword, i)) for i, b in enumerate(branches)]
        pointer = ptr(node, keyword)
        if keyword == "allOf":
            for i, ir in enumerate(irs):
                alts = intersect_irs(alts, ir, "allOf", ptr(node, "allOf", i))
        elif keyword == "anyOf" and ctx.tracks_evaluation:
            alts = intersect(alts, any_of(ctx, irs, pointer), "anyOf", pointer)
        elif keyword == "anyOf":
            merged: list[Alt] = []
            for ir in irs:
                merged = union(merged, ir)
            alts = intersect_irs(alts, merged, "anyOf", pointer)
        else:
            alts = intersect_irs(alts, _one_of(ctx, node, irs, alts), "oneOf", pointer)
    if "not" in schema:
        pointer = ptr(node, "not")
        twice = _double_negation(ctx, node, schema["not"])
        if twice is not None:  # not(not(Y)) is Y, without Y's annotations
            alts = intersect(alts, forget(ctx.sub_ir(twice)), "not", pointer)
        else:
            inner = ctx.sub_ir(ctx.child(node, schema["not"], "not"))
            alts = intersect(alts, negate(ctx, inner, pointer), "not", pointer)
    conditional = "then" in schema or "else" in schema or ctx.tracks_evaluation
    if "if" in schema and conditional:  # a lone `if` only annotates
        cond = ctx.sub_ir(ctx.child(node, schema["if"], "if"))
        then = ctx.sub_ir(ctx.child(node, schema.get("then", True), "then"))
        other = ctx.sub_ir(ctx.child(node, schema.get("else", True), "else"))
        neg = negate(ctx, cond, ptr(node, "if"))
        both = union(
            intersect(cond, then, "then", ptr(node, "then")),
            intersect(neg, other, "else", ptr(node, "else")),
        )
        alts = intersect(alts, both, "if", ptr(node, "if"))
    return alts


def apply_conditions(ctx: SchemaContext, alts: list[Alt], conditions: list[Condition]) -> list[Alt]:
    """An object holding ``key`` must also satisfy its schema: (no ``key``) or (``key`` and it)."""
    for key, sub, keyword, pointer in conditions:
        without = ObjAlt(forbid_all=(frozenset({key}),))
        holding = intersect([ObjAlt(required=frozenset({key}))], ctx.sub_ir(sub), keyword, pointer)
        others = [a for a in all_alts() if not isinstance(a, ObjAlt)]
        alts = intersect(alts, [*others, without, *holding], keyword, pointer)
    return alts


def _double_negation(ctx: SchemaContext, node: Node, inner: Any) -> Sub | None:
    """``Y`` when ``inner`` is ``{"not": Y}`` with nothing else but annotations."""
    if not isinstance(inner, dict) or "not" not in inner:
        return None
    for key in inner:
        if key == "not":
            continue
        kw = BY_NAME.get(key)
        if key.startswith("$") or (kw is not None and kw.handling is not Handling.ANNOTATION):
            return None
    (middle,) = ctx.child(node, inner, "not")
    return ctx.child(middle, inner["not"], "not")


def _one_of(ctx: SchemaContext, node: Node, irs: list[list[Alt]], context: list[Alt]) -> list[Alt]:
    """``oneOf``: a union of disjoint branches (within ``context``), else exact negation."""
    pointer = ptr(node, "oneOf")
    scoped = [intersect_irs(context, ir, "oneOf", pointer) for ir in irs]
    pairs_disjoint = all(
        disjoint(ctx, scoped[i], scoped[j])
        for i in range(len(scoped))
        for j in range(i + 1, len(scoped))
    )
    merged: list[Alt] = []
    if pairs_disjoint:
        for ir in scoped:
            merged = union(merged, ir)
        return merged
    if len(irs) > MAX_ONE_OF_NEGATED:
        ctx.decline("oneOf branches overlap and there are too many to negate", "oneOf", pointer)
        for ir in scoped:
            merged = union(merged, ir)
        return merged
    # Exactly one: each alternative of branch i minus the alternatives of other
    # branches it overlaps (dropped outright when contained in one of them).
    # The alternative already lies inside the context, so the other branches
    # are negated as written: {"required": ["a"]} has a simple complement, its
    # intersection with the context's properties often has none.
    for i, ir in enumerate(scoped):
        for alt in ir:
            overlapping = [
                other
                for j, branch in enumerate(irs)
                if j != i
                for other in branch
                if _overlap(ctx, alt, other)
            ]
            if any(_contained(alt, other) for other in overlapping):
                continue
            part: list[Alt] = [alt]
            here = ptr(node, "oneOf", i)
            for other in overlapping:
                part = intersect(part, negate(ctx, [other], pointer), "oneOf", here)
            merged = union(merged, part)
    return merged


def _overlap(ctx: SchemaContext, a: Alt, b: Alt) -> bool:
    c = intersect_alt(a, b)
    return c is not None and not alt_empty(ctx, c)


def _contained(a: Alt, b: Alt) -> bool:
    """``a`` provably matches a subset of what ``b`` matches."""
    return a == b or (type(a) is type(b) and b in all_alts())


__all__ = ["KEYWORDS", "apply_combinators", "apply_conditions"]
