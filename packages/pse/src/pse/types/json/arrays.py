"""The arrays family: ``prefixItems``, ``items``, ``additionalItems``, ``minItems``,
``maxItems``, ``uniqueItems``, ``contains``, ``minContains``, ``maxContains``.

Owns the intersection, negation and emptiness of ``ArrAlt``; the array
machines are built by ``json_array.py`` (and ``unique_items.py``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pse.types.json.counts import intersect_counts, outside_counts
from pse.types.json.reading import count, invalid
from pse.types.json.schema_ir import TRUE, Alt, ArrAlt, EvaluatedItems, Node, Sub

if TYPE_CHECKING:
    from pse.types.json.context import SchemaContext

KEYWORDS = (
    "items",
    "prefixItems",
    "additionalItems",
    "minItems",
    "maxItems",
    "uniqueItems",
    "contains",
    "minContains",
    "maxContains",
)
_KEYWORD_SET = frozenset(KEYWORDS)


# ----------------------------------------------------------------- algebra


def intersect_arr(a: ArrAlt, b: ArrAlt) -> ArrAlt | None:
    width = max(len(a.prefix), len(b.prefix))
    pa = a.prefix + (a.items,) * (width - len(a.prefix))
    pb = b.prefix + (b.items,) * (width - len(b.prefix))
    bounds = intersect_counts((a.min_items, a.max_items), (b.min_items, b.max_items))
    if bounds is None:
        return None
    return ArrAlt(
        tuple(x | y for x, y in zip(pa, pb, strict=True)),
        a.items | b.items,
        *bounds,
        a.contains + b.contains,
        a.unique or b.unique,
        a.evaluated | b.evaluated,
    )


def negate_arr(ctx: SchemaContext, alt: ArrAlt, pointer: str) -> list[Alt] | None:
    """not(c1 and c2 and ...) = not c1 or not c2 or ...: one alternative per
    constraint of ``alt`` (``None`` where one has no complement here)."""
    if alt.unique or alt.contains:
        return None
    inside: list[Alt] = []
    for i, sub in enumerate(alt.prefix):
        if not ctx.sub_is_true(sub):
            bad = ctx.complement(sub, pointer)
            inside.append(ArrAlt(prefix=(TRUE,) * i + (bad,), min_items=i + 1))
    if not ctx.sub_is_true(alt.items):
        if alt.prefix:
            return None  # "an item after the prefix fails": no contains with an offset
        inside.append(ArrAlt(contains=((ctx.complement(alt.items, pointer), 1, None),)))
    counts = outside_counts((alt.min_items, alt.max_items))
    inside += [ArrAlt(min_items=lo, max_items=hi) for lo, hi in counts]
    return inside


def arr_empty(ctx: SchemaContext, alt: ArrAlt, depth: int) -> bool:
    """Whether a required item of ``alt`` provably has no value."""
    if any(ctx.sub_empty(p, depth + 1) for p in alt.prefix[: alt.min_items]):
        return True
    return alt.min_items > len(alt.prefix) and ctx.sub_empty(alt.items, depth + 1)


# ---------------------------------------------------------------- keywords


def array_keywords(ctx: SchemaContext, node: Node, schema: dict[str, Any]) -> ArrAlt | None:
    """The array constraint of one schema object (``None``: none)."""
    if _KEYWORD_SET.isdisjoint(schema):
        return None
    prefix: tuple[Sub, ...] = ()
    items: Sub = TRUE
    if "prefixItems" in schema:
        if not isinstance(schema["prefixItems"], list):
            raise invalid(node, "prefixItems", "prefixItems must be an array")
        prefix = tuple(
            ctx.child(node, s, "prefixItems", i) for i, s in enumerate(schema["prefixItems"])
        )
        if "items" in schema:
            items = ctx.child(node, schema["items"], "items")
    elif isinstance(schema.get("items"), list):
        prefix = tuple(ctx.child(node, s, "items", i) for i, s in enumerate(schema["items"]))
        if "additionalItems" in schema:
            items = ctx.child(node, schema["additionalItems"], "additionalItems")
    elif "items" in schema:
        items = ctx.child(node, schema["items"], "items")
    fields: dict[str, Any] = {}  # the ArrAlt is built once, at the end
    lo, hi = count(node, schema, "minItems"), count(node, schema, "maxItems")
    if lo is not None:
        fields["min_items"] = lo
    if hi is not None:
        fields["max_items"] = hi
    if schema.get("uniqueItems") is True:
        fields["unique"] = True
    contains: Sub | None = None
    if "contains" in schema:
        contains = ctx.child(node, schema["contains"], "contains")
        cmin = count(node, schema, "minContains")
        cmax = count(node, schema, "maxContains")
        fields["contains"] = ((contains, 1 if cmin is None else cmin, cmax),)
    if ctx.tracks_evaluation:
        fields["evaluated"] = items_evaluated(schema, len(prefix), contains)
    return ArrAlt(prefix=prefix, items=items, **fields)


def items_evaluated(schema: dict[str, Any], prefix: int, contains: Sub | None) -> EvaluatedItems:
    """What the array keywords of one schema object evaluate (``prefix``: tuple length)."""
    every = ("items" in schema and not isinstance(schema["items"], list)) or (
        isinstance(schema.get("items"), list) and "additionalItems" in schema
    )
    return EvaluatedItems(prefix, every, () if contains is None else (contains,))


__all__ = [
    "KEYWORDS",
    "arr_empty",
    "array_keywords",
    "intersect_arr",
    "items_evaluated",
    "negate_arr",
]
