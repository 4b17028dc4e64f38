"""Schemas for fuzzing: generated ones (hypothesis strategies) and the corpora.

* :func:`schemas` draws well-formed JSON Schemas from the keywords the
  compiler enforces (types, bounds, lengths, enums, consts, patterns, formats,
  closed objects, arrays, ``anyOf``/``oneOf``/``allOf``, recursive ``$ref``).
* :func:`junk_schemas` draws arbitrary objects built from schema keywords and
  random JSON: compiling one must give a schema or a clean error.
* :func:`corpus_schemas` reads MaskBench, the JSON-Schema-Test-Suite and BFCL
  from ``../shared/data`` (empty when that folder is absent).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

DATA = Path(__file__).resolve().parents[3] / "shared" / "data"
CORPORA = {
    "maskbench": DATA / "maskbench" / "public.jsonl",
    "test-suite": DATA / "json-schema-test-suite" / "public.jsonl",
    "bfcl": DATA / "bfcl" / "public.jsonl",
}

PATTERNS = ["^[a-z]+$", "^[0-9]{3}-[0-9]{4}$", "^(a|aa)*b$", "^[A-Z][a-z]*( [A-Z][a-z]*)?$", "x+"]
FORMATS = ["date", "time", "date-time", "email", "uuid", "ipv4", "ipv6", "uri", "hostname"]
#: Property names and string values. Planes 4-11 (UTF-8 lead bytes F1, F2) are left
#: out: SmolLM2's vocabulary cannot spell those bytes, and a shortest completion
#: through them is unknown, so the budget goes unenforced (test_found_bugs.py).
UNSPELLABLE = range(0x40000, 0xC0000)
NAMES = st.text(
    st.characters(codec="utf-8", exclude_categories=["Cs"]).filter(
        lambda c: ord(c) not in UNSPELLABLE
    ),
    min_size=1,
    max_size=6,
)


def _scalar() -> st.SearchStrategy[dict[str, Any]]:
    small = st.integers(-1000, 1000)
    integer = st.builds(
        lambda lo, width, mult: {
            "type": "integer",
            **({"minimum": lo} if lo is not None else {}),
            **({"maximum": lo + width} if lo is not None and width is not None else {}),
            **({"multipleOf": mult} if mult else {}),
        },
        st.none() | small,
        st.none() | st.integers(0, 500),
        st.sampled_from([None, None, 2, 5]),
    )
    number = st.builds(
        lambda lo, hi, excl: {
            "type": "number",
            **({"minimum": lo} if lo is not None else {}),
            **({"exclusiveMaximum" if excl else "maximum": lo + hi} if lo is not None else {}),
        },
        st.none() | st.floats(-100, 100, allow_nan=False).map(lambda x: round(x, 2)),
        st.floats(0.5, 50).map(lambda x: round(x, 2)),
        st.booleans(),
    )
    string = st.builds(
        lambda lo, width, extra: {
            "type": "string",
            "minLength": lo,
            "maxLength": lo + width,
            **extra,
        },
        st.integers(0, 4),
        st.integers(0, 12),
        st.just({}) | st.builds(lambda p: {"pattern": p}, st.sampled_from(PATTERNS)),
    ) | st.builds(lambda f: {"type": "string", "format": f}, st.sampled_from(FORMATS))
    values = st.none() | st.booleans() | small | NAMES
    enum = st.lists(values, min_size=1, max_size=5, unique_by=json.dumps).map(lambda v: {"enum": v})
    const = values.map(lambda v: {"const": v})
    simple = st.sampled_from(
        [{"type": "boolean"}, {"type": "null"}, {}, {"type": ["string", "null"]}]
    )
    return integer | number | string | enum | const | simple


def _compound(inner: st.SearchStrategy[dict[str, Any]]) -> st.SearchStrategy[dict[str, Any]]:
    array = st.builds(
        lambda items, lo, width, unique: {
            "type": "array",
            "items": items,
            "minItems": lo,
            "maxItems": lo + width,
            **({"uniqueItems": True} if unique else {}),
        },
        inner,
        st.integers(0, 2),
        st.integers(0, 4),
        st.booleans(),
    )
    obj = st.dictionaries(NAMES, inner, max_size=4).flatmap(
        lambda props: st.builds(
            lambda required: {
                "type": "object",
                "properties": props,
                "required": sorted(required),
                "additionalProperties": False,
            },
            st.sets(st.sampled_from(sorted(props)) if props else st.nothing(), max_size=len(props)),
        )
    )
    combined = st.lists(inner, min_size=1, max_size=3).flatmap(
        lambda parts: st.sampled_from(
            [{"anyOf": parts}, {"oneOf": parts[:1]}, {"allOf": parts[:1]}]
        )
    )
    return array | obj | combined


def schemas() -> st.SearchStrategy[dict[str, Any]]:
    """Well-formed JSON Schemas (draft 2020-12), some recursive through ``$defs``."""
    plain = st.recursive(_scalar(), _compound, max_leaves=8)
    tree = plain.map(
        lambda value: {
            "$defs": {
                "node": {
                    "type": "object",
                    "properties": {
                        "value": value,
                        "children": {
                            "type": "array",
                            "items": {"$ref": "#/$defs/node"},
                            "maxItems": 3,
                        },
                    },
                    "required": ["value"],
                    "additionalProperties": False,
                }
            },
            "$ref": "#/$defs/node",
        }
    )
    return plain | tree


KEYWORDS = [
    "type",
    "properties",
    "required",
    "items",
    "prefixItems",
    "enum",
    "const",
    "anyOf",
    "oneOf",
    "allOf",
    "not",
    "$ref",
    "$defs",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "multipleOf",
    "minLength",
    "maxLength",
    "pattern",
    "format",
    "minItems",
    "maxItems",
    "uniqueItems",
    "additionalProperties",
    "patternProperties",
    "propertyNames",
    "minProperties",
    "if",
    "then",
    "else",
    "contains",
    "dependentRequired",
    "$id",
    "$anchor",
    "$schema",
    "unevaluatedProperties",
]
JSON_LEAF = (
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8)
)


def junk_schemas() -> st.SearchStrategy[Any]:
    """Objects made of schema keywords with arbitrary values: mostly nonsense."""
    typed = st.sampled_from(["string", "integer", "number", "object", "array", "boolean", "null"])
    leaf = JSON_LEAF | typed | st.sampled_from(PATTERNS + ["#", "#/$defs/a", "(", "[z-a]"])
    return st.recursive(
        leaf | st.booleans(),
        lambda inner: (
            st.lists(inner, max_size=3)
            | st.dictionaries(st.sampled_from(KEYWORDS) | st.text(max_size=4), inner, max_size=4)
        ),
        max_leaves=12,
    )


def corpus_schemas() -> list[tuple[str, Any]]:
    """``(name, schema)`` from every corpus present: MaskBench, the Test Suite, BFCL."""
    found: list[tuple[str, Any]] = []
    for corpus, path in CORPORA.items():
        if not path.is_file():
            continue
        seen: set[str] = set()
        for number, line in enumerate(path.read_text(encoding="utf-8").split("\n")):
            if not line.strip():
                continue
            row = json.loads(line)
            if corpus == "bfcl":
                for i, function in enumerate(row.get("functions_jsonschema") or []):
                    found.append((f"bfcl:{row['id']}:{i}", function.get("parameters", function)))
                continue
            schema = row["schema"]
            key = json.dumps(schema, sort_keys=True)
            if key in seen:
                continue
            seen.add(key)
            found.append((f"{corpus}:{row.get('unique_id', number)}", schema))
    return found
