"""The objects family: ``properties``, ``patternProperties``, ``additionalProperties``,
``required``, ``propertyNames``, ``minProperties``, ``maxProperties``,
``dependentRequired`` and ``dependencies`` (its ``dependentSchemas`` part is a
conditional, applied by ``combinators.py``).

Owns the intersection, negation and emptiness of ``ObjAlt``; the object
machines are built by ``json_object.py``.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from pse.types.json.counts import intersect_counts, outside_counts
from pse.types.json.limits import MAX_NEGATED_NAMES
from pse.types.json.reading import count, invalid, ptr
from pse.types.json.schema_ir import TRUE, Alt, EvaluatedProps, Node, ObjAlt, ObjRule, Sub
from pse.types.json.strings import ecma_search

if TYPE_CHECKING:
    from pse.types.json.context import SchemaContext

KEYWORDS = (
    "properties",
    "required",
    "additionalProperties",
    "patternProperties",
    "propertyNames",
    "minProperties",
    "maxProperties",
    "dependentRequired",
    "dependencies",
    "dependentSchemas",
)
_KEYWORD_SET = frozenset(KEYWORDS)

#: A conditional subschema: (key, schema the object must satisfy when it has
#: ``key``, keyword, pointer).
Condition = tuple[str, Sub, str, str]


# ----------------------------------------------------------------- algebra


def obj_value(o: ObjAlt, key: str) -> Sub:
    """The conjunction a value under ``key`` must satisfy in ``o`` (patterns tested with ``re``)."""
    named = o.prop(key)
    out: Sub = named if named is not None else TRUE
    for rule in o.rules:
        matched = False
        for pattern, psub in rule.patterns:
            if ecma_search(pattern, key):
                out = out | psub
                matched = True
        if not matched and named is None:
            out = out | rule.additional
    return out


#: The unconstrained object alternative and the rule that constrains nothing.
_ANY_OBJECT = ObjAlt()
_NO_RULE = ObjRule()


def _kept_by_intersection(o: ObjAlt) -> bool:
    """Whether ``intersect_obj(ObjAlt(), o)`` is ``o`` itself: distinct names
    and dependencies (merged otherwise), no ``patternProperties`` (they add to
    named values), no empty rule (dropped), bounds that meet, no forbidden set
    that the required keys fill, distinct evaluated patterns."""
    return (
        len({k for k, _ in o.props}) == len(o.props)
        and all(not r.patterns and r != _NO_RULE for r in o.rules)
        and o.min_props >= 0
        and (o.max_props is None or o.min_props <= o.max_props)
        and len({k for k, _ in o.dependent}) == len(o.dependent)
        and not any(r <= o.required for r in o.forbid_all)
        and len(set(o.evaluated.patterns)) == len(o.evaluated.patterns)
    )


def intersect_obj(a: ObjAlt, b: ObjAlt) -> ObjAlt | None:
    if a == _ANY_OBJECT and _kept_by_intersection(b):  # ``type: object`` and its keywords
        return b
    names = list(dict.fromkeys([k for k, _ in a.props] + [k for k, _ in b.props]))
    props = tuple((k, obj_value(a, k) | obj_value(b, k)) for k in names)
    bounds = intersect_counts((a.min_props, a.max_props), (b.min_props, b.max_props))
    if bounds is None:
        return None
    deps = dict(a.dependent)
    for k, v in b.dependent:
        deps[k] = deps.get(k, frozenset()) | v
    o = ObjAlt(
        props,
        tuple(r for r in a.rules + b.rules if r != _NO_RULE),
        a.required | b.required,
        *bounds,
        a.names | b.names,
        a.forbid_all + b.forbid_all,
        tuple(deps.items()),
        a.open or b.open,
        a.evaluated | b.evaluated,
    )
    if any(r <= o.required for r in o.forbid_all):
        return None
    return o


def negate_obj(ctx: SchemaContext, alt: ObjAlt, pointer: str) -> list[Alt] | None:
    """De Morgan over the constraints of ``alt`` (as ``arrays.negate_arr``): a missing
    required key, a present forbidden set, a present key whose value fails, a
    count outside the bounds, a dependency broken, a key beyond the named ones
    where ``additionalProperties`` is ``false`` (``None``: no complement here)."""
    closed = False
    for rule in alt.rules:
        if not all(ctx.sub_is_true(s) for _, s in rule.patterns):
            return None
        if ctx.sub_is_true(rule.additional):
            continue
        if rule.patterns or not ctx.sub_empty(rule.additional):
            return None
        closed = True
    if not ctx.sub_is_true(alt.names):
        return None
    inside: list[Alt] = []
    if closed:
        beyond = key_beyond(frozenset(key for key, _ in alt.props))
        if beyond is None:
            return None
        inside += beyond
    if alt.required:
        inside.append(ObjAlt(forbid_all=(alt.required,)))
    inside += [ObjAlt(required=keys) for keys in alt.forbid_all]
    for key, deps in alt.dependent:
        for dep in sorted(deps):
            inside.append(ObjAlt(required=frozenset({key}), forbid_all=(frozenset({dep}),)))
    for key, sub in alt.props:
        if not ctx.sub_is_true(sub):
            bad = ctx.complement(sub, pointer)
            inside.append(ObjAlt(props=((key, bad),), required=frozenset({key})))
    counts = outside_counts((alt.min_props, alt.max_props))
    inside += [ObjAlt(min_props=lo, max_props=hi) for lo, hi in counts]
    return inside


def key_beyond(names: frozenset[str]) -> list[Alt] | None:
    """The objects holding a key that is not one of ``names``: for each subset of
    ``names`` present (the rest absent), more keys than that subset. ``None``
    beyond ``MAX_NEGATED_NAMES`` names (``2**n`` alternatives)."""
    if len(names) > MAX_NEGATED_NAMES:
        return None
    ordered = sorted(names)
    out: list[Alt] = []
    for mask in range(1 << len(ordered)):
        held = frozenset(n for i, n in enumerate(ordered) if mask >> i & 1)
        absent = tuple(frozenset({n}) for n in ordered if n not in held)
        out.append(ObjAlt(required=held, forbid_all=absent, min_props=len(held) + 1))
    return out


def obj_empty(ctx: SchemaContext, alt: ObjAlt, depth: int) -> bool:
    """Whether a required value of ``alt`` provably has none, or a forbidden set is required."""
    for name in alt.required:
        if ctx.sub_empty(obj_value(alt, name), depth + 1):
            return True
    return any(r <= alt.required for r in alt.forbid_all)


# ---------------------------------------------------------------- keywords


def object_keywords(
    ctx: SchemaContext, node: Node, schema: dict[str, Any]
) -> tuple[ObjAlt | None, list[Condition]]:
    """The object constraint of one schema object (``None``: none) and its
    conditional subschemas (``dependentSchemas``, schema-valued ``dependencies``)."""
    if _KEYWORD_SET.isdisjoint(schema):
        return None, []
    props_schema = schema.get("properties", {})
    if not isinstance(props_schema, dict):
        raise invalid(node, "properties", "properties must be an object")
    props = tuple((k, ctx.child(node, v, "properties", k)) for k, v in props_schema.items())
    patterns_schema = schema.get("patternProperties", {})
    if not isinstance(patterns_schema, dict):
        raise invalid(node, "patternProperties", "patternProperties must be an object")
    patterns = tuple(
        (k, ctx.child(node, v, "patternProperties", k)) for k, v in patterns_schema.items()
    )
    additional: Sub = TRUE
    if "additionalProperties" in schema:
        additional = ctx.child(node, schema["additionalProperties"], "additionalProperties")
    rule = ObjRule(patterns=patterns, additional=additional)
    required = schema.get("required", [])
    if not isinstance(required, list) or not all(isinstance(r, str) for r in required):
        raise invalid(node, "required", "required must be an array of strings")
    obj = ObjAlt(
        props=props,
        rules=(rule,) if rule != _NO_RULE else (),
        required=frozenset(required),
        open=any(
            k in schema for k in ("additionalProperties", "patternProperties", "propertyNames")
        ),
    )
    lo, hi = count(node, schema, "minProperties"), count(node, schema, "maxProperties")
    if lo is not None:
        obj = replace(obj, min_props=lo)
    if hi is not None:
        obj = replace(obj, max_props=hi)
    if ctx.tracks_evaluation:
        obj = replace(obj, evaluated=props_evaluated(schema))
    if "propertyNames" in schema:
        obj = replace(obj, names=ctx.child(node, schema["propertyNames"], "propertyNames"))
    deps: dict[str, frozenset[str]] = {}
    conditions: list[Condition] = []
    for keyword in ("dependentRequired", "dependencies", "dependentSchemas"):
        value = schema.get(keyword)
        if value is None:
            continue
        if not isinstance(value, dict):
            raise invalid(node, keyword, f"{keyword} must be an object")
        for k, v in value.items():
            if keyword != "dependentSchemas" and isinstance(v, list):
                if not all(isinstance(x, str) for x in v):
                    raise invalid(node, keyword, f"{keyword}/{k} must list property names")
                deps[k] = deps.get(k, frozenset()) | frozenset(v)
            elif keyword == "dependentRequired":
                raise invalid(node, keyword, f"{keyword}/{k} must be an array")
            elif v is not True and v != {}:
                sub = ctx.child(node, v, keyword, k)
                conditions.append((k, sub, keyword, ptr(node, keyword, k)))
    if deps:
        obj = replace(obj, dependent=tuple(deps.items()))
    return obj, conditions


def props_evaluated(schema: dict[str, Any]) -> EvaluatedProps:
    """What the object keywords of one schema object evaluate."""
    names = schema.get("properties", {})
    patterns = schema.get("patternProperties", {})
    return EvaluatedProps(
        frozenset(names) if isinstance(names, dict) else frozenset(),
        tuple(patterns) if isinstance(patterns, dict) else (),
        "additionalProperties" in schema,
    )


__all__ = [
    "KEYWORDS",
    "Condition",
    "intersect_obj",
    "key_beyond",
    "negate_obj",
    "obj_empty",
    "obj_value",
    "object_keywords",
    "props_evaluated",
]
