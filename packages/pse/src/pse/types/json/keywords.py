"""The one table of JSON Schema keywords and how the compiler handles each.

``docs/json_schema.md`` lists the same table; a test checks that both agree,
and the compiler refuses (``SchemaError``) every keyword marked ``DECLINED`` as
well as the ``PARTIAL`` ones outside their tractable cases.

Handling:

* ``ENFORCED``: every instance the compiled machine accepts satisfies the keyword.
* ``PARTIAL``: enforced exactly in the cases listed in ``notes``; any other use
  raises ``SchemaError(code="unsupported-keyword")`` naming keyword and pointer.
* ``ANNOTATION``: no validation meaning; ignored.
* ``DECLINED``: always raises ``SchemaError`` (or, with ``lenient=True``, is
  ignored and listed in the compiled machine's ``ignored_keywords``).

Keywords the table does not know (``x-*``, vendor extensions) are annotations
by the JSON Schema specification and are ignored.
"""

from __future__ import annotations

from enum import Enum
from typing import NamedTuple


class Handling(str, Enum):
    """How the compiler treats a keyword."""

    ENFORCED = "enforced"
    PARTIAL = "partial"
    ANNOTATION = "annotation"
    DECLINED = "declined"


class Keyword(NamedTuple):
    """One row of the keyword table."""

    name: str
    handling: Handling
    notes: str


E, P, A, D = Handling.ENFORCED, Handling.PARTIAL, Handling.ANNOTATION, Handling.DECLINED

KEYWORDS: tuple[Keyword, ...] = (
    # --- any type
    Keyword("type", E, "string or list; `integer` accepts `1.0`-style integers"),
    Keyword("enum", E, "any JSON values; numbers compare numerically, objects in any key order"),
    Keyword("const", E, "as `enum` with one value"),
    Keyword("nullable", E, "OpenAPI: `true` adds `null`"),
    Keyword("allOf", E, "intersection; the product of alternatives is bounded"),
    Keyword("anyOf", E, "union"),
    Keyword(
        "oneOf",
        P,
        "enforced when the branches are provably disjoint (type, const/enum, "
        "required discriminator) or when the overlaps can be negated exactly",
    ),
    Keyword(
        "not",
        P,
        "negation of types, null/boolean consts, any string schema (a complement "
        "automaton), number bounds and integer/multipleOf; objects and arrays by De Morgan "
        "over their constraints (required, property values, dependencies, counts, prefix "
        "items, items without a prefix, `additionalProperties: false` with at most "
        "`MAX_NEGATED_NAMES` named properties), not over other `additionalProperties`, "
        "`patternProperties`/`propertyNames`, `contains` or `uniqueItems`",
    ),
    Keyword("if", P, "`(if and then) or (not if and else)` when `if` can be negated"),
    Keyword("then", P, "with `if`"),
    Keyword("else", P, "with `if`"),
    Keyword(
        "$ref",
        E,
        "JSON pointers, `$id`, `$anchor`, other documents from `registry=` (never fetched); "
        "recursion allowed",
    ),
    Keyword("$defs", E, "ref targets"),
    Keyword("definitions", E, "ref targets (draft 7)"),
    Keyword("$id", E, "base URI for refs"),
    Keyword("$anchor", E, "ref target"),
    Keyword(
        "$dynamicRef",
        E,
        "resolved in the dynamic scope: the outermost resource entered that binds the "
        "anchor, when the static target declares it (the bookend); else as `$ref`",
    ),
    Keyword("$dynamicAnchor", E, "a plain anchor, and a binding for `$dynamicRef`"),
    Keyword(
        "$recursiveRef",
        E,
        "draft 2019-09: to the outermost of the unbroken run of entered resources whose "
        "roots declare `$recursiveAnchor: true`, when its target's root does; else as "
        "`$ref`; an annotation in 2020-12",
    ),
    Keyword("$recursiveAnchor", E, "draft 2019-09: marks a resource for `$recursiveRef`"),
    # --- numbers
    Keyword("minimum", E, "exact decimal comparison"),
    Keyword("maximum", E, "exact decimal comparison"),
    Keyword("exclusiveMinimum", E, "number (2020-12) or boolean (draft 4)"),
    Keyword("exclusiveMaximum", E, "number (2020-12) or boolean (draft 4)"),
    Keyword("multipleOf", E, "several are combined by their least common multiple"),
    # --- strings
    Keyword("minLength", E, "code points"),
    Keyword("maxLength", E, "code points"),
    Keyword(
        "pattern",
        P,
        "ECMA-262 regex as an automaton, unanchored unless ^/$; lookaheads right after a "
        "leading ^; no lookbehind, backreferences or word boundaries",
    ),
    Keyword(
        "format",
        E,
        "date, time, date-time, duration, email, hostname, ipv4, ipv6, uuid, uri "
        "(see `pse.automata.SUPPORTED_FORMATS`); idn-hostname (IDNA2008, needs `idna`; a native "
        "check that calls `idna` for non-ASCII names) and regex (ECMA-262, Unicode mode; a "
        "native check); unknown formats are annotations",
    ),
    # --- arrays
    Keyword("items", E, "schema, or array (draft 7 tuple form)"),
    Keyword("prefixItems", E, "tuple items"),
    Keyword("additionalItems", E, "draft 7, with array `items`"),
    Keyword("minItems", E, ""),
    Keyword("maxItems", E, ""),
    Keyword(
        "uniqueItems",
        E,
        "small finite item sets: an explicit graph; any other item schema: a native check "
        "masks the token that completes a duplicate (JSON equality)",
    ),
    Keyword("contains", P, "with `minContains` (at least n items match); bounded item counts"),
    Keyword("minContains", P, "with `contains`"),
    Keyword("maxContains", P, "with `contains` when its schema can be negated"),
    # --- objects
    Keyword("properties", E, "named properties, each at most once"),
    Keyword("required", E, ""),
    Keyword("additionalProperties", E, "boolean or schema"),
    Keyword(
        "patternProperties",
        P,
        "when `additionalProperties` is false or the pattern schemas accept anything, "
        "and no named property matches a pattern",
    ),
    Keyword("propertyNames", P, "on named properties always; on other keys without named ones"),
    Keyword(
        "minProperties",
        E,
        "a key that is not named counts once: where such keys count towards it (2 or more), "
        "the object is read under the native key check, which refuses a repeated key "
        "(`json.loads` keeps one)",
    ),
    Keyword("maxProperties", E, ""),
    Keyword("dependentRequired", E, "named properties"),
    Keyword("dependencies", E, "both forms: property lists and schemas"),
    Keyword("dependentSchemas", E, "(no key) or (key and the schema)"),
    Keyword(
        "unevaluatedProperties",
        E,
        "annotations of properties, patternProperties, additionalProperties through allOf, "
        "anyOf (at most 8 branches), oneOf, if/then/else, dependentSchemas and $ref",
    ),
    Keyword(
        "unevaluatedItems",
        P,
        "annotations of prefixItems, items and contains through the same applicators; "
        "with contains, when the schemas involved can be negated",
    ),
    Keyword(
        "contentEncoding",
        A,
        "annotation in 2020-12; draft 7: base64 with contentMediaType application/json",
    ),
    Keyword(
        "contentMediaType",
        A,
        "annotation in 2020-12; draft 7: application/json (plain or base64) asserted by a "
        "native check, other media types declined",
    ),
    Keyword("contentSchema", A, "annotation in 2020-12"),
    # --- annotations
    Keyword(
        "$schema",
        A,
        "selects draft 4 (integers are integer literals), 7 (`$ref` overrides siblings) or 2020-12",
    ),
    Keyword("$comment", A, ""),
    Keyword("$vocabulary", A, ""),
    Keyword("id", A, "draft 4: the base URI for refs (as `$id` later); otherwise an annotation"),
    Keyword("title", A, ""),
    Keyword("description", A, ""),
    Keyword("default", A, "does not make a property optional"),
    Keyword("examples", A, ""),
    Keyword("deprecated", A, ""),
    Keyword("readOnly", A, ""),
    Keyword("writeOnly", A, ""),
    Keyword("discriminator", A, "OpenAPI hint; the `oneOf` branches themselves are compiled"),
)

BY_NAME: dict[str, Keyword] = {k.name: k for k in KEYWORDS}

#: Keywords that are always refused (unless lenient).
DECLINED: frozenset[str] = frozenset(k.name for k in KEYWORDS if k.handling is D)
#: Keywords with validation meaning the compiler reads.
VALIDATION: frozenset[str] = frozenset(k.name for k in KEYWORDS if k.handling in (E, P))


def markdown_table() -> str:
    """The keyword table as Markdown (``docs/json_schema.md`` embeds it)."""
    lines = ["| keyword | handling | notes |", "|---|---|---|"]
    lines += [f"| `{k.name}` | {k.handling.value} | {k.notes} |" for k in KEYWORDS]
    return "\n".join(lines)


__all__ = ["BY_NAME", "DECLINED", "KEYWORDS", "VALIDATION", "Handling", "Keyword", "markdown_table"]
