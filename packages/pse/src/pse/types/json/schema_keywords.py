"""Keyword families: how each JSON Schema keyword narrows the alternatives of a schema."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from decimal import Decimal
from typing import Any

from pse_core.errors import SchemaError

from pse.types.json import content, ecma_regex, idn_hostname
from pse.types.json.keywords import BY_NAME, DECLINED, Handling
from pse.types.json.schema_ir import (
    Alt,
    ArrAlt,
    BoolAlt,
    Node,
    NullAlt,
    NumAlt,
    ObjAlt,
    ObjRule,
    SchemaContext,
    StrAlt,
    Sub,
    all_alts,
    disjoint,
    intersect,
    negate,
    to_decimal,
    union,
    value_alts,
)
from pse.types.json.unevaluated import (
    any_of,
    apply_unevaluated,
    forget,
    items_evaluated,
    props_evaluated,
)

_TYPES: dict[str, Alt] = {
    "null": NullAlt(),
    "boolean": BoolAlt(),
    "number": NumAlt(),
    "integer": NumAlt(integer=True),
    "string": StrAlt(),
    "array": ArrAlt(),
    "object": ObjAlt(),
}


#: The formats JSON Schema 2020-12 defines: those not compiled are refused.
STANDARD_FORMATS = frozenset(
    {
        "date-time",
        "date",
        "time",
        "duration",
        "email",
        "idn-email",
        "hostname",
        "idn-hostname",
        "ipv4",
        "ipv6",
        "uri",
        "uri-reference",
        "iri",
        "iri-reference",
        "uuid",
        "uri-template",
        "json-pointer",
        "relative-json-pointer",
        "regex",
    }
)


def _ptr(node: Node, *parts: str | int) -> str:
    return node.pointer + "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in parts)


def _invalid(node: Node, keyword: str, message: str) -> SchemaError:
    return SchemaError(message, code="invalid-schema", keyword=keyword, pointer=_ptr(node, keyword))


def _count(node: Node, schema: dict[str, Any], keyword: str) -> int | None:
    value = schema.get(keyword)
    if value is None:
        return None
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise _invalid(node, keyword, f"{keyword} must be a non-negative integer")
    return value


def _map(alts: list[Alt], kind: type, fn: Any) -> list[Alt]:
    out: list[Alt] = []
    for a in alts:
        if isinstance(a, kind):
            b = fn(a)
            if b is not None and b not in out:
                out.append(b)
        elif a not in out:
            out.append(a)
    return out


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


def apply_keywords(ctx: SchemaContext, node: Node, schema: dict[str, Any]) -> list[Alt]:
    """The alternatives of one schema object."""
    dialect = ctx.dialect_at(node)
    later = NEWER_KEYWORDS.get(dialect)
    if later and not later.isdisjoint(schema):
        schema = {k: v for k, v in schema.items() if k not in later}
    draft7 = dialect in ("4", "6", "7")
    if "$ref" in schema and draft7:
        # Draft 7: $ref overrides every sibling keyword.
        return _ref(ctx, node, schema["$ref"])

    for keyword in schema:
        is_content = keyword in ("contentMediaType", "contentEncoding")
        if is_content and draft7 and _content_format(schema) is not None:
            continue
        if keyword in DECLINED or (draft7 and is_content):
            ctx.decline(f"{keyword} is not supported", keyword, _ptr(node, keyword))

    alts: list[Alt] = all_alts()

    # --- type
    if "type" in schema:
        names = schema["type"]
        names = [names] if isinstance(names, str) else names
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            raise _invalid(node, "type", "type must be a string or a list of strings")
        typed: list[Alt] = []
        for name in names:
            if name not in _TYPES:
                raise _invalid(node, "type", f"unknown type {name!r}")
            typed = union(typed, [_TYPES[name]])
        if NumAlt() in typed:
            typed = [t for t in typed if t != NumAlt(integer=True)]
        alts = typed

    alts = _numbers(node, schema, alts)
    alts = _strings(ctx, node, schema, alts)
    alts = _arrays(ctx, node, schema, alts)
    alts = _objects(ctx, node, schema, alts)

    # --- enum / const
    if "enum" in schema:
        values = schema["enum"]
        if not isinstance(values, list):
            raise _invalid(node, "enum", "enum must be an array")
        # Strings (most enums) go straight into one literal set, at the place
        # of the first; other values get their alternatives.
        strings: set[str] = set()
        groups: list[list[Alt] | None] = []
        for i, v in enumerate(values):
            if isinstance(v, str):
                if not strings:
                    groups.append(None)
                strings.add(v)
            else:
                groups.append(value_alts(ctx, v, _ptr(node, "enum", i)))
        literal_set: list[Alt] = [StrAlt(literals=frozenset(strings))]
        allowed = _merge_values(literal_set if g is None else g for g in groups)
        alts = intersect(alts, allowed, "enum", _ptr(node, "enum"))
    if "const" in schema:
        alts = intersect(
            alts,
            value_alts(ctx, schema["const"], _ptr(node, "const")),
            "const",
            _ptr(node, "const"),
        )

    # --- applicators
    if "$ref" in schema:
        alts = intersect(alts, _ref(ctx, node, schema["$ref"]), "$ref", _ptr(node, "$ref"))
    for keyword in ("allOf", "anyOf", "oneOf"):
        if keyword not in schema:
            continue
        branches = schema[keyword]
        if not isinstance(branches, list) or not branches:
            raise _invalid(node, keyword, f"{keyword} must be a non-empty array")
        irs = [ctx.sub_ir(ctx.child(node, b, keyword, i)) for i, b in enumerate(branches)]
        if keyword == "allOf":
            for i, ir in enumerate(irs):
                alts = intersect(alts, ir, "allOf", _ptr(node, "allOf", i))
        elif keyword == "anyOf" and ctx.tracks_evaluation:
            pointer = _ptr(node, "anyOf")
            alts = intersect(alts, any_of(ctx, irs, pointer), "anyOf", pointer)
        elif keyword == "anyOf":
            merged: list[Alt] = []
            for ir in irs:
                merged = union(merged, ir)
            alts = intersect(alts, merged, "anyOf", _ptr(node, "anyOf"))
        else:
            alts = intersect(alts, _one_of(ctx, node, irs, alts), "oneOf", _ptr(node, "oneOf"))
    if "not" in schema:
        twice = _double_negation(ctx, node, schema["not"])
        if twice is not None:  # not(not(Y)) is Y, without Y's annotations
            alts = intersect(alts, forget(ctx.sub_ir(twice)), "not", _ptr(node, "not"))
        else:
            inner = ctx.sub_ir(ctx.child(node, schema["not"], "not"))
            alts = intersect(alts, negate(ctx, inner, _ptr(node, "not")), "not", _ptr(node, "not"))
    conditional = "then" in schema or "else" in schema or ctx.tracks_evaluation
    if "if" in schema and conditional:  # a lone `if` only annotates
        cond = ctx.sub_ir(ctx.child(node, schema["if"], "if"))
        then = ctx.sub_ir(ctx.child(node, schema.get("then", True), "then"))
        other = ctx.sub_ir(ctx.child(node, schema.get("else", True), "else"))
        neg = negate(ctx, cond, _ptr(node, "if"))
        both = union(
            intersect(cond, then, "then", _ptr(node, "then")),
            intersect(neg, other, "else", _ptr(node, "else")),
        )
        alts = intersect(alts, both, "if", _ptr(node, "if"))

    if ctx.tracks_evaluation:
        alts = apply_unevaluated(ctx, node, schema, alts)
    if schema.get("nullable") is True and NullAlt() not in alts:
        alts = [*alts, NullAlt()]
    return alts


def _content_format(schema: dict[str, Any]) -> str | None:
    """The checked content format of draft 7's content keywords (``content.py``)."""
    if "contentMediaType" not in schema:
        return None
    return content.format_of(schema["contentMediaType"], schema.get("contentEncoding"))


def _merge_values(groups: Iterable[list[Alt]]) -> list[Alt]:
    """Union of the values' alternatives, in order of first appearance: plain
    string literals fold into one alternative, booleans into another (linear
    in the number of values)."""
    out: list[Alt] = []
    seen: set[Alt] = set()
    literals: set[str] = set()
    booleans: set[bool] = set()
    literal_at = boolean_at = -1
    for alts in groups:
        for alt in alts:
            if (
                isinstance(alt, StrAlt)
                and alt.literals is not None
                and alt == StrAlt(literals=alt.literals)
            ):
                if literal_at < 0:
                    literal_at = len(out)
                    out.append(alt)
                literals |= alt.literals
            elif isinstance(alt, BoolAlt):
                if boolean_at < 0:
                    boolean_at = len(out)
                    out.append(alt)
                booleans |= alt.values
            elif alt not in seen:
                seen.add(alt)
                out.append(alt)
    if literal_at >= 0:
        out[literal_at] = StrAlt(literals=frozenset(literals))
    if boolean_at >= 0:
        out[boolean_at] = BoolAlt(frozenset(booleans))
    return out


def _ref(ctx: SchemaContext, node: Node, ref: Any) -> list[Alt]:
    if not isinstance(ref, str):
        raise _invalid(node, "$ref", "$ref must be a string")
    return ctx.ir(ctx.resolve(ref, node))


#: Overlapping oneOf branches beyond this many are declined (the negations multiply).
MAX_ONE_OF_NEGATED = 16


def _one_of(ctx: SchemaContext, node: Node, irs: list[list[Alt]], context: list[Alt]) -> list[Alt]:
    """``oneOf``: a union of disjoint branches (within ``context``), else exact negation."""
    scoped = [intersect(context, ir, "oneOf", _ptr(node, "oneOf")) for ir in irs]
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
        ctx.decline(
            "oneOf branches overlap and there are too many to negate",
            "oneOf",
            _ptr(node, "oneOf"),
        )
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
            for other in overlapping:
                part = intersect(
                    part, negate(ctx, [other], _ptr(node, "oneOf")), "oneOf", _ptr(node, "oneOf", i)
                )
            merged = union(merged, part)
    return merged


def _overlap(ctx: SchemaContext, a: Alt, b: Alt) -> bool:
    from pse.types.json.schema_ir import alt_empty, intersect_alt  # noqa: PLC0415

    c = intersect_alt(a, b)
    return c is not None and not alt_empty(ctx, c)


def _contained(a: Alt, b: Alt) -> bool:
    """``a`` provably matches a subset of what ``b`` matches."""
    return a == b or (type(a) is type(b) and b in all_alts())


# ---------------------------------------------------------------- numbers


def _numbers(node: Node, schema: dict[str, Any], alts: list[Alt]) -> list[Alt]:
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
            raise _invalid(node, "multipleOf", "multipleOf must be greater than 0")
        bounds = replace(bounds, multiples=(m,))
    if bounds == NumAlt():
        return alts
    from pse.types.json.schema_ir import intersect_alt  # noqa: PLC0415

    return _map(alts, NumAlt, lambda a: intersect_alt(a, bounds))


def _tighten(a: NumAlt, b: NumAlt) -> NumAlt:
    from pse.types.json.schema_ir import intersect_alt  # noqa: PLC0415

    c = intersect_alt(a, b)
    return c if isinstance(c, NumAlt) else _EMPTY_NUM


_EMPTY_NUM = NumAlt(lo=Decimal(1), hi=Decimal(0))


# ---------------------------------------------------------------- strings


def _strings(ctx: SchemaContext, node: Node, schema: dict[str, Any], alts: list[Alt]) -> list[Alt]:
    s = StrAlt()
    lo = _count(node, schema, "minLength")
    hi = _count(node, schema, "maxLength")
    if lo is not None:
        s = replace(s, min_length=lo)
    if hi is not None:
        s = replace(s, max_length=hi)
    if "pattern" in schema:
        if not isinstance(schema["pattern"], str):
            raise _invalid(node, "pattern", "pattern must be a string")
        s = replace(s, patterns=(schema["pattern"],))
        ctx.pattern_pointers.setdefault(schema["pattern"], _ptr(node, "pattern"))
    draft7 = ctx.dialect_at(node) in ("4", "6", "7")
    checked_content = _content_format(schema) if draft7 else None
    if checked_content is not None:
        s = replace(s, formats=(checked_content,))
        ctx.format_pointers.setdefault(checked_content, _ptr(node, "contentMediaType"))
    fmt = schema.get("format")
    if isinstance(fmt, str):
        from pse.types.json.json_string import supported_formats  # noqa: PLC0415

        checked = fmt == ecma_regex.FORMAT or (
            fmt == idn_hostname.FORMAT and idn_hostname.available()
        )
        if fmt in supported_formats() or checked:
            s = replace(s, formats=(*s.formats, fmt))
            ctx.format_pointers.setdefault(fmt, _ptr(node, "format"))
        elif fmt in STANDARD_FORMATS:
            ctx.decline(f"format {fmt!r} is not supported", "format", _ptr(node, "format"))
        else:
            ctx.note_ignored_format(fmt, _ptr(node, "format"))
    if s == StrAlt():
        return alts
    from pse.types.json.schema_ir import intersect_alt  # noqa: PLC0415

    if s.max_length is not None and s.min_length > s.max_length:
        return [a for a in alts if not isinstance(a, StrAlt)]
    return _map(alts, StrAlt, lambda a: intersect_alt(a, s))


# ----------------------------------------------------------------- arrays


def _arrays(ctx: SchemaContext, node: Node, schema: dict[str, Any], alts: list[Alt]) -> list[Alt]:
    keys = (
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
    if not any(k in schema for k in keys):
        return alts
    prefix: tuple[Sub, ...] = ()
    items: Sub = frozenset()
    if "prefixItems" in schema:
        if not isinstance(schema["prefixItems"], list):
            raise _invalid(node, "prefixItems", "prefixItems must be an array")
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
    arr = ArrAlt(prefix=prefix, items=items)
    lo, hi = _count(node, schema, "minItems"), _count(node, schema, "maxItems")
    if lo is not None:
        arr = replace(arr, min_items=lo)
    if hi is not None:
        arr = replace(arr, max_items=hi)
    if schema.get("uniqueItems") is True:
        arr = replace(arr, unique=True)
    contains: Sub | None = None
    if "contains" in schema:
        contains = ctx.child(node, schema["contains"], "contains")
        cmin = _count(node, schema, "minContains")
        cmax = _count(node, schema, "maxContains")
        arr = replace(
            arr,
            contains=(
                (
                    contains,
                    1 if cmin is None else cmin,
                    cmax,
                ),
            ),
        )
    if ctx.tracks_evaluation:
        arr = replace(arr, evaluated=items_evaluated(schema, len(prefix), contains))
    from pse.types.json.schema_ir import intersect_alt  # noqa: PLC0415

    return _map(alts, ArrAlt, lambda a: intersect_alt(a, arr))


# ---------------------------------------------------------------- objects


def _objects(ctx: SchemaContext, node: Node, schema: dict[str, Any], alts: list[Alt]) -> list[Alt]:
    keys = (
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
    if not any(k in schema for k in keys):
        return alts
    props_schema = schema.get("properties", {})
    if not isinstance(props_schema, dict):
        raise _invalid(node, "properties", "properties must be an object")
    props = tuple((k, ctx.child(node, v, "properties", k)) for k, v in props_schema.items())
    patterns_schema = schema.get("patternProperties", {})
    if not isinstance(patterns_schema, dict):
        raise _invalid(node, "patternProperties", "patternProperties must be an object")
    patterns = tuple(
        (k, ctx.child(node, v, "patternProperties", k)) for k, v in patterns_schema.items()
    )
    additional: Sub = frozenset()
    if "additionalProperties" in schema:
        additional = ctx.child(node, schema["additionalProperties"], "additionalProperties")
    rule = ObjRule(patterns=patterns, additional=additional)
    required = schema.get("required", [])
    if not isinstance(required, list) or not all(isinstance(r, str) for r in required):
        raise _invalid(node, "required", "required must be an array of strings")
    obj = ObjAlt(
        props=props,
        rules=(rule,) if rule != ObjRule() else (),
        required=frozenset(required),
        open=any(
            k in schema for k in ("additionalProperties", "patternProperties", "propertyNames")
        ),
    )
    lo, hi = _count(node, schema, "minProperties"), _count(node, schema, "maxProperties")
    if lo is not None:
        obj = replace(obj, min_props=lo)
    if hi is not None:
        obj = replace(obj, max_props=hi)
    if ctx.tracks_evaluation:
        obj = replace(obj, evaluated=props_evaluated(schema))
    if "propertyNames" in schema:
        obj = replace(obj, names=ctx.child(node, schema["propertyNames"], "propertyNames"))
    deps: dict[str, frozenset[str]] = {}
    conditions: list[tuple[str, Sub, str, str]] = []  # (key, schema, keyword, pointer)
    for keyword in ("dependentRequired", "dependencies", "dependentSchemas"):
        value = schema.get(keyword)
        if value is None:
            continue
        if not isinstance(value, dict):
            raise _invalid(node, keyword, f"{keyword} must be an object")
        for k, v in value.items():
            if keyword != "dependentSchemas" and isinstance(v, list):
                if not all(isinstance(x, str) for x in v):
                    raise _invalid(node, keyword, f"{keyword}/{k} must list property names")
                deps[k] = deps.get(k, frozenset()) | frozenset(v)
            elif keyword == "dependentRequired":
                raise _invalid(node, keyword, f"{keyword}/{k} must be an array")
            elif v is not True and v != {}:
                sub = ctx.child(node, v, keyword, k)
                conditions.append((k, sub, keyword, _ptr(node, keyword, k)))
    if deps:
        obj = replace(obj, dependent=tuple(deps.items()))
    from pse.types.json.schema_ir import intersect_alt  # noqa: PLC0415

    alts = _map(alts, ObjAlt, lambda a: intersect_alt(a, obj))
    for key, sub, keyword, pointer in conditions:
        # An object holding `key` must also satisfy `sub`: (no `key`) or (`key` and sub).
        without = ObjAlt(forbid_all=(frozenset({key}),))
        holding = intersect([ObjAlt(required=frozenset({key}))], ctx.sub_ir(sub), keyword, pointer)
        others = [a for a in all_alts() if not isinstance(a, ObjAlt)]
        alts = intersect(alts, [*others, without, *holding], keyword, pointer)
    return alts


__all__ = ["apply_keywords"]
