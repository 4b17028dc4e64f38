"""One schema object's alternatives: each keyword family narrows them in turn.

The families (``values.py``: type/enum/const, ``numbers.py``, ``strings.py``,
``arrays.py``, ``objects.py``, ``references.py``: ``$ref``,
``combinators.py``, ``unevaluated.py``) each read their own keywords.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pse.types.json.algebra import intersect, narrow
from pse.types.json.arrays import array_keywords
from pse.types.json.combinators import apply_combinators, apply_conditions
from pse.types.json.keywords import DECLINED
from pse.types.json.numbers import number_keywords
from pse.types.json.objects import object_keywords
from pse.types.json.reading import ptr
from pse.types.json.references import ref_alts
from pse.types.json.schema_ir import Alt, Node, NullAlt, all_alts
from pse.types.json.strings import content_format, string_keywords
from pse.types.json.unevaluated import apply_unevaluated
from pse.types.json.values import enum_alts, type_alts, value_alts

if TYPE_CHECKING:
    from pse.types.json.context import SchemaContext

#: Keywords introduced after a draft: unknown to it, hence annotations there.
_LATER_7 = (
    "prefixItems",
    "minContains",
    "maxContains",
    "dependentRequired",
    "dependentSchemas",
    "unevaluatedProperties",
    "unevaluatedItems",
    "$dynamicRef",
    "$dynamicAnchor",
    "$recursiveRef",
    "$recursiveAnchor",
)
_LATER_6 = ("if", "then", "else", "contentMediaType", "contentEncoding", *_LATER_7)
NEWER_KEYWORDS: dict[str, frozenset[str]] = {
    "4": frozenset(("const", "contains", "propertyNames", *_LATER_6)),
    "6": frozenset(_LATER_6),
    "7": frozenset(_LATER_7),
    "2019-09": frozenset(("prefixItems", "$dynamicRef", "$dynamicAnchor")),
}


#: The keywords the loop over a schema's keywords may decline.
_REFUSABLE = frozenset((*DECLINED, "contentMediaType", "contentEncoding"))


def apply_keywords(ctx: SchemaContext, node: Node, schema: dict[str, Any]) -> list[Alt]:
    """The alternatives of one schema object."""
    dialect = ctx.dialect_at(node)
    later = NEWER_KEYWORDS.get(dialect)
    if later and not later.isdisjoint(schema):
        schema = {k: v for k, v in schema.items() if k not in later}
    draft7 = dialect in ("4", "6", "7")
    if "$ref" in schema and draft7:
        # Draft 7: $ref overrides every sibling keyword.
        return ref_alts(ctx, node, schema["$ref"])

    if not _REFUSABLE.isdisjoint(schema):
        for keyword in schema:
            is_content = keyword in ("contentMediaType", "contentEncoding")
            if is_content and draft7 and content_format(schema) is not None:
                continue
            if keyword in DECLINED or (draft7 and is_content):
                ctx.decline(f"{keyword} is not supported", keyword, ptr(node, keyword))

    alts = type_alts(node, schema["type"]) if "type" in schema else all_alts()
    number = number_keywords(node, schema, draft4=dialect == "4")
    if number is not None:
        alts = narrow(alts, number)
    string = string_keywords(ctx, node, schema)
    if string is not None:
        alts = narrow(alts, string)
    array = array_keywords(ctx, node, schema)
    if array is not None:
        alts = narrow(alts, array)
    obj, conditions = object_keywords(ctx, node, schema)
    if obj is not None:
        alts = apply_conditions(ctx, narrow(alts, obj), conditions)

    if "enum" in schema:
        pointer = ptr(node, "enum")
        alts = intersect(alts, enum_alts(ctx, node, schema["enum"]), "enum", pointer)
    if "const" in schema:
        pointer = ptr(node, "const")
        alts = intersect(alts, value_alts(ctx, schema["const"], pointer), "const", pointer)
    recursive = ["$recursiveRef"] if ctx.declared_at(node) == "2019-09" else []  # not in 2020-12
    for keyword in ["$ref", "$dynamicRef", *recursive]:
        if keyword in schema:
            target = ref_alts(ctx, node, schema[keyword], keyword)
            alts = intersect(alts, target, keyword, ptr(node, keyword))
    alts = apply_combinators(ctx, node, schema, alts)
    if ctx.tracks_evaluation:
        alts = apply_unevaluated(ctx, node, schema, alts)
    if schema.get("nullable") is True and NullAlt() not in alts:
        alts = [*alts, NullAlt()]
    return alts


__all__ = ["NEWER_KEYWORDS", "apply_keywords"]
