"""References: base URIs per draft, checked against the `jsonschema` validators."""

from __future__ import annotations

from typing import Any

import jsonschema
import pytest
from _support.json_schema import compiled, valid

DRAFT7 = "http://json-schema.org/draft-07/schema#"
DRAFT2020 = "https://json-schema.org/draft/2020-12/schema"

#: A `$ref` next to an `$id` that, if it moved the base URI, would land on
#: /definitions/elsewhere (a string) instead of /definitions/here (a number).
SIBLING_ID: dict[str, Any] = {
    "$id": "http://example.com/tree/root/",
    "definitions": {
        "elsewhere": {"$id": "http://example.com/tree/leaf.json", "type": "string"},
        "here": {"$id": "leaf.json", "type": "number"},
    },
    "allOf": [{"$id": "http://example.com/tree/", "$ref": "leaf.json"}],
}


def _agrees(schema: dict[str, Any], value: Any, cls: type[Any], draft: str | None) -> bool:
    verdict = valid(compiled(schema, ordered_properties=False, draft=draft), value)
    assert verdict == cls(schema).is_valid(value), (schema, value)
    return verdict


@pytest.mark.parametrize("uri", [DRAFT7, "http://json-schema.org/draft-06/schema#"])
def test_legacy_ref_ignores_a_sibling_id(uri: str) -> None:
    schema = {"$schema": uri, **SIBLING_ID}
    cls = jsonschema.validators.validator_for(schema)
    assert _agrees(schema, 1, cls, None)
    assert not _agrees(schema, "a", cls, None)


def test_draft4_ref_ignores_a_sibling_id() -> None:
    schema = {
        "$schema": "http://json-schema.org/draft-04/schema#",
        "id": "http://example.com/tree/root/",
        "definitions": {
            "elsewhere": {"id": "http://example.com/tree/leaf.json", "type": "string"},
            "here": {"id": "leaf.json", "type": "number"},
        },
        "allOf": [{"id": "http://example.com/tree/", "$ref": "leaf.json"}],
    }
    assert _agrees(schema, 1, jsonschema.Draft4Validator, None)
    assert not _agrees(schema, "a", jsonschema.Draft4Validator, None)


def test_legacy_ref_sibling_id_declares_no_anchor() -> None:
    # Draft 7: {"$id": "#x", "$ref": ...} is all $ref; its "#x" names nothing,
    # so the only schema called "#x" is the integer one.
    schema = {
        "$schema": DRAFT7,
        "definitions": {
            "int": {"$id": "#x", "type": "integer"},
            "str": {"type": "string"},
            "shadow": {"$id": "#x", "$ref": "#/definitions/str"},
        },
        "properties": {"a": {"$ref": "#x"}},
    }
    assert _agrees(schema, {"a": 1}, jsonschema.Draft7Validator, None)
    assert not _agrees(schema, {"a": "s"}, jsonschema.Draft7Validator, None)


def test_2020_ref_resolves_against_its_sibling_id() -> None:
    # 2019-09 and later: siblings apply, so the same document finds the string.
    schema = {"$schema": DRAFT2020, **_defs(SIBLING_ID)}
    assert _agrees(schema, "a", jsonschema.Draft202012Validator, None)
    assert not _agrees(schema, 1, jsonschema.Draft202012Validator, None)


def test_the_draft_option_decides_when_no_schema_uri() -> None:
    assert not valid(compiled(SIBLING_ID, draft="7"), "a")
    assert valid(compiled(SIBLING_ID, draft="7"), 1)
    schema = _defs(SIBLING_ID)
    assert valid(compiled(schema, draft="2020-12"), "a")
    assert not valid(compiled(schema, draft="2020-12"), 1)


def _defs(schema: dict[str, Any]) -> dict[str, Any]:
    """``definitions`` spelled ``$defs`` (the 2020-12 name)."""
    out = dict(schema)
    out["$defs"] = out.pop("definitions")
    return out
