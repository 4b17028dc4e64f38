"""``registry=``: other documents for ``$ref``, never fetched (refRemote cases of the suite)."""

from __future__ import annotations

from typing import Any

import jsonschema
import pytest
import referencing
import referencing.jsonschema
from _support.json_schema import compiled, valid
from conformance._harness import REMOTES, SUITE, read_jsonl, remote_documents
from pse_core.errors import SchemaError

needs_suite = pytest.mark.skipif(
    not REMOTES.is_dir(), reason=f"the corpus {REMOTES} is absent (../shared next to the repo)"
)


REMOTE_DOCUMENTS = remote_documents() if REMOTES.is_dir() else {}


def _cases() -> list[dict[str, Any]]:
    if not REMOTES.is_dir():
        return []
    return [c for c in read_jsonl(SUITE) if c["file"] == "refRemote.json"]


@needs_suite
@pytest.mark.parametrize(
    "case", _cases(), ids=lambda c: f"{c['draft']}:{c['group']}:{c['description']}"
)
def test_suite_ref_remote(case: dict[str, Any]) -> None:
    draft = "7" if case["draft"] == "draft7" else "2020-12"
    machine = compiled(
        case["schema"], draft=draft, registry=REMOTE_DOCUMENTS, ordered_properties=False
    )
    assert valid(machine, case["data"]) == case["valid"]


SCHEMA = {"$ref": "http://example.com/shapes.json#/$defs/size"}
SHAPES = {"$defs": {"size": {"type": "integer", "minimum": 1}}}


def test_mapping_and_referencing_registry_agree_with_jsonschema() -> None:
    resource = referencing.Resource.from_contents(
        SHAPES, default_specification=referencing.jsonschema.DRAFT202012
    )
    registry = referencing.Registry().with_resource("http://example.com/shapes.json", resource)
    reference = jsonschema.Draft202012Validator(SCHEMA, registry=registry)
    for source in ({"http://example.com/shapes.json": SHAPES}, registry):
        machine = compiled(SCHEMA, registry=source)
        for value in (1, 7, 0, -3, "1", 1.5):
            assert valid(machine, value) == reference.is_valid(value), (source, value)


def test_a_missing_document_names_its_uri_and_nothing_is_fetched() -> None:
    def retrieve(uri: str) -> referencing.Resource[Any]:
        raise AssertionError(f"fetched {uri}")

    for registry in (
        None,
        {"http://example.com/other.json": SHAPES},
        referencing.Registry(retrieve=retrieve),
    ):  # type: ignore[call-arg]
        with pytest.raises(SchemaError) as info:
            compiled(SCHEMA, registry=registry)
        assert info.value.code == "unresolved-ref"
        assert "http://example.com/shapes.json" in info.value.message


def test_a_bad_registry_is_a_schema_error() -> None:
    for registry in (
        ["http://example.com/shapes.json"],
        {"shapes.json": SHAPES},
        {"http://example.com/shapes.json": 3},
    ):
        with pytest.raises(SchemaError):
            compiled(SCHEMA, registry=registry)


def test_configure_takes_a_registry(smollm2: Any) -> None:
    from pse.structuring_engine import StructuringEngine  # noqa: PLC0415 - loads a tokenizer

    engine = StructuringEngine(smollm2)
    engine.configure(SCHEMA, registry={"http://example.com/shapes.json": SHAPES})
    assert not engine.consume_text("-1")  # the registry's minimum applies
    engine.configure(SCHEMA, registry={"http://example.com/shapes.json": SHAPES})
    assert engine.consume_text("12")
    assert engine.has_reached_accept_state
    with pytest.raises(SchemaError, match="shapes.json"):
        engine.configure(SCHEMA)


def test_a_document_of_another_draft_is_read_by_its_draft() -> None:
    """2019-09 knows no prefixItems (an annotation there); draft 7 knows no
    dependentRequired, but a 2019-09 document it references does."""
    older = {"$schema": "https://json-schema.org/draft/2019-09/schema", "prefixItems": [False]}
    newer = {
        "$schema": "https://json-schema.org/draft/2019-09/schema",
        "dependentRequired": {"a": ["b"]},
    }
    registry = {"http://example.com/older.json": older, "http://example.com/newer.json": newer}
    machine = compiled({"$ref": "http://example.com/older.json"}, registry=registry)
    assert valid(machine, [1])
    draft7 = {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "allOf": [{"$ref": "http://example.com/newer.json"}],
        "dependentRequired": {"b": ["c"]},
    }
    machine = compiled(draft7, registry=registry, strict_properties=False)
    assert valid(machine, {"b": 1}) and not valid(machine, {"a": 1})


def test_a_draft_4_document_is_declined() -> None:
    older = {"$schema": "http://json-schema.org/draft-04/schema#", "id": "x"}
    with pytest.raises(SchemaError) as info:
        compiled(
            {"$ref": "http://example.com/older.json"},
            registry={"http://example.com/older.json": older},
        )
    assert info.value.keyword == "$ref"
    assert "http://example.com/older.json" in info.value.message
