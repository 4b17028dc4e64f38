"""Schema-guided typing and streaming-stable output of repair_json."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pgents.repair import repair_json

SCHEMA = {
    "type": "object",
    "properties": {
        "count": {"type": "integer"},
        "ratio": {"type": "number", "default": 0.5},
        "ok": {"type": "boolean"},
        "tags": {"type": "array", "items": {"type": "string"}},
        "meta": {"type": "object", "properties": {"x": {"type": "integer"}}},
        "colour": {"enum": ["Red", "Blue"]},
        "mode": {"type": "string", "default": "fast"},
    },
    "required": ["count"],
}


@pytest.mark.parametrize(
    ("text", "value"),
    [
        # wrong-typed values
        ('{"count": "12", "ok": "yes"', {"count": 12, "ok": True, "ratio": 0.5, "mode": "fast"}),
        ('{"count": 3.0, "ok": 0}', {"count": 3, "ok": False, "ratio": 0.5, "mode": "fast"}),
        (
            '{"count": "1_000", "tags": "a"}',
            {"count": 1000, "tags": ["a"], "ratio": 0.5, "mode": "fast"},
        ),
        # empty values: declared default, else the empty container
        (
            '{"count": 1, "ratio": "", "tags": "", "meta": null}',
            {"count": 1, "ratio": 0.5, "tags": [], "meta": {}, "mode": "fast"},
        ),
        # an empty number without a default is not invented
        ('{"count": , }', {"count": "", "ratio": 0.5, "mode": "fast"}),
        # enum entries matched up to case and spaces
        (
            '{"count": 1, "colour": " red"}',
            {"count": 1, "colour": "Red", "ratio": 0.5, "mode": "fast"},
        ),
    ],
)
def test_schema_typing(text: str, value: Any) -> None:
    out = repair_json(text, schema=SCHEMA)
    assert out.found
    assert out.value == value
    assert out.repairs


def test_valid_json_is_typed_too() -> None:
    out = repair_json('{"count": "7"}', schema=SCHEMA)
    assert out.value == {"count": 7, "ratio": 0.5, "mode": "fast"}
    assert "coerced $.count to integer" in out.repairs


def test_salvage_mode() -> None:
    schema = {
        "type": "object",
        "properties": {
            "tags": {"type": "array", "items": {"type": "string"}},
            "point": {
                "type": "object",
                "properties": {"x": {"type": "integer"}, "y": {"type": "integer"}},
            },
        },
    }
    text = '{"tags": "a, b", "point": [1, "2"]}'
    assert repair_json(text, schema=schema).value == {"tags": ["a, b"], "point": [1, "2"]}
    salvaged = repair_json(text, schema=schema, schema_mode="salvage")
    assert salvaged.value == {"tags": ["a", "b"], "point": {"x": 1, "y": 2}}


def below(part: Any, full: Any) -> bool:
    """Is ``part`` what a prefix of ``full`` may show: strings are prefixes,
    containers hold a prefix of the items (keys in order), the last one
    itself below; numbers may still grow."""
    if isinstance(part, str):
        return isinstance(full, str) and full.startswith(part)
    if isinstance(part, list):
        return (
            isinstance(full, list)
            and len(part) <= len(full)
            and all(below(p, f) for p, f in zip(part, full, strict=False))
        )
    if isinstance(part, dict):
        keys = list(full) if isinstance(full, dict) else []
        return list(part) == keys[: len(part)] and all(below(part[k], full[k]) for k in part)
    if isinstance(part, (int, float)) and not isinstance(part, bool):
        return isinstance(full, (int, float)) and not isinstance(full, bool)
    return bool(part == full)


json_docs = st.recursive(
    st.none() | st.booleans() | st.integers(-1000, 1000) | st.text(max_size=12),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=20,
).filter(lambda v: isinstance(v, (dict, list)))


@settings(max_examples=150, deadline=None)
@given(json_docs, st.booleans())
def test_stream_stable_prefixes_only_grow(doc: Any, pretty: bool) -> None:
    text = json.dumps(doc, indent=2 if pretty else None, ensure_ascii=False)
    for cut in range(1, len(text)):
        out = repair_json(text[:cut], stream_stable=True)
        if out.found:
            assert below(out.value, doc), (text[:cut], out.value)


def test_stream_stable_keeps_the_characters_of_an_open_string() -> None:
    assert repair_json('{"a": "x}, b: y', stream_stable=True).value == {"a": "x}, b: y"}
    assert repair_json('{"a": "caf\\u00', stream_stable=True).value == {"a": "caf"}
    assert repair_json('{"a": "end\\', stream_stable=True).value == {"a": "end"}
    assert repair_json('{"a": "two words ', stream_stable=True).value == {"a": "two words "}
