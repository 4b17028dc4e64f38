"""``unevaluatedProperties`` and ``unevaluatedItems``: annotations carried by the alternatives.

Every object and array alternative records what the keywords that built it
evaluate (``ObjAlt.evaluated``, ``ArrAlt.evaluated``): ``properties`` its
names, ``patternProperties`` its patterns, ``additionalProperties`` all keys;
``prefixItems`` (or array ``items``) the first items, ``items`` (or
``additionalItems``) all of them, ``contains`` the items it matches.
Intersection unions the records, so ``allOf``, ``$ref``, ``dependentSchemas``
and a passing ``if`` with its ``then`` contribute, and the negated parts of
``not``, ``oneOf`` and a failing ``if`` do not (negation builds fresh
alternatives). ``unevaluatedX`` is applied once the schema's other keywords
are in: the unevaluated property values or items get its schema, and the
alternative then counts everything as evaluated, so an enclosing schema sees
what the inner one evaluated and no more.

``anyOf`` collects the annotations of *every* passing branch. Evaluation only
loosens ``unevaluatedX``, so "some non-empty set of branches passes, with
their joint annotations" is exact: ``anyOf`` becomes the union of the
conjunctions of all non-empty subsets of its branches (at most
``limits.MAX_ANY_OF_BRANCHES`` branches; more are declined).

Tracking is on only for documents that use one of the two keywords, so
every other schema compiles to the same alternatives as before.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from pse.types.json.algebra import intersect, union
from pse.types.json.limits import MAX_ANY_OF_BRANCHES
from pse.types.json.schema_ir import (
    NO_ITEMS,
    NO_PROPS,
    TRUE,
    Alt,
    ArrAlt,
    EvaluatedItems,
    EvaluatedProps,
    Node,
    ObjAlt,
    ObjRule,
    Sub,
)
from pse.types.json.strings import ecma_search

if TYPE_CHECKING:
    from pse.types.json.context import SchemaContext

KEYWORDS = ("unevaluatedProperties", "unevaluatedItems")


def forget(alts: list[Alt]) -> list[Alt]:
    """``alts`` without annotations (what ``not`` passes on)."""
    out: list[Alt] = []
    for alt in alts:
        if isinstance(alt, ObjAlt) and alt.evaluated != NO_PROPS:
            alt = replace(alt, evaluated=NO_PROPS)
        elif isinstance(alt, ArrAlt) and alt.evaluated != NO_ITEMS:
            alt = replace(alt, evaluated=NO_ITEMS)
        if alt not in out:
            out.append(alt)
    return out


def any_of(ctx: SchemaContext, irs: list[list[Alt]], pointer: str) -> list[Alt]:
    """``anyOf`` with the annotations of every passing branch: the union of the
    conjunctions of the non-empty subsets of branches."""
    if len(irs) > MAX_ANY_OF_BRANCHES:
        ctx.decline(
            f"anyOf with more than {MAX_ANY_OF_BRANCHES} branches under unevaluatedProperties/"
            "unevaluatedItems",
            "anyOf",
            pointer,
            code="too-complex",
        )
    merged: list[Alt] = []
    for ir in irs:
        grown = union(merged, ir)
        grown = union(grown, intersect(merged, ir, "anyOf", pointer))
        merged = grown
    return merged


def apply_unevaluated(
    ctx: SchemaContext, node: Node, schema: dict[str, Any], alts: list[Alt]
) -> list[Alt]:
    """``alts`` under the schema's ``unevaluatedProperties``/``unevaluatedItems``."""
    out = alts
    if "unevaluatedProperties" in schema:
        rest = ctx.child(node, schema["unevaluatedProperties"], "unevaluatedProperties")
        out = [_props(a, rest) if isinstance(a, ObjAlt) else a for a in out]
    if "unevaluatedItems" in schema:
        pointer = node.pointer + "/unevaluatedItems"
        rest = ctx.child(node, schema["unevaluatedItems"], "unevaluatedItems")
        out = [_items(ctx, a, rest, pointer) if isinstance(a, ArrAlt) else a for a in out]
    deduped: list[Alt] = []
    for alt in out:
        if alt not in deduped:
            deduped.append(alt)
    return deduped


def _props(alt: ObjAlt, rest: Sub) -> ObjAlt:
    seen = alt.evaluated
    if seen.every:
        return alt
    done = replace(alt, evaluated=EvaluatedProps(every=True))
    if not rest:
        return done

    def evaluated(key: str) -> bool:
        return key in seen.names or any(ecma_search(p, key) for p in seen.patterns)

    props = tuple((k, s if evaluated(k) else s | rest) for k, s in alt.props)
    rule = ObjRule(patterns=tuple((p, TRUE) for p in seen.patterns), additional=rest)
    return replace(done, props=props, rules=(*alt.rules, rule), open=True)


def _items(ctx: SchemaContext, alt: ArrAlt, rest: Sub, pointer: str) -> ArrAlt:
    seen = alt.evaluated
    if seen.every:
        return alt
    done = replace(alt, evaluated=EvaluatedItems(every=True))
    if not rest:
        return done
    guard = rest
    if seen.contains:
        # An item is evaluated when it matches a contains schema: it must
        # satisfy `rest` or one of them, not(not rest and not C1 and ...).
        parts = frozenset(
            ctx.synthetic("not", {}, pointer, inner=s) for s in (rest, *seen.contains)
        )
        either = ctx.synthetic("not", {}, pointer, inner=parts)
        ctx.precompute(frozenset({either}))
        guard = frozenset({either})
    prefix = tuple(s if i < seen.upto else s | guard for i, s in enumerate(alt.prefix))
    return replace(done, prefix=prefix, items=alt.items | guard)


__all__ = ["KEYWORDS", "any_of", "apply_unevaluated", "forget"]
