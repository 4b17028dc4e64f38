"""StringSchemaStateMachine: lengths, enum/const escapes, pattern, format."""

from __future__ import annotations

import pytest
from _support.json_schema import accepts, compiled, valid
from pse_core.errors import SchemaError

from pse.types.json.json_string import StringSchemaStateMachine


def test_lengths(harness):
    sm = StringSchemaStateMachine({"minLength": 2, "maxLength": 3}, {})
    assert harness.matches(sm, '"ab"')
    assert not harness.matches(sm, '"a"')
    assert not harness.matches(sm, '"abcd"')


def test_enum_accepts_every_spelling():
    sm = compiled({"enum": ["é", 'a"b', "x"]})
    for text in ('"é"', '"\\u00e9"', '"a\\"b"', '"a\\u0022b"', '"x"'):
        assert accepts(sm, text), text
    assert not accepts(sm, '"y"')
    assert valid(sm, "é")


def test_not_enum_excludes_every_spelling():
    sm = compiled({"type": "string", "not": {"enum": ["a"]}})
    assert not accepts(sm, '"a"')
    assert not accepts(sm, '"\\u0061"')
    assert accepts(sm, '"b"')


def test_pattern_and_format():
    sm = compiled({"type": "string", "pattern": "^[a-z]+$"})
    assert valid(sm, "abc")
    assert not valid(sm, "ab1")
    unanchored = compiled({"type": "string", "pattern": "b"})
    assert valid(unanchored, "abc")
    date = compiled({"type": "string", "format": "date"})
    assert valid(date, "2024-02-29")
    assert not valid(date, "2024-13-01")


def test_standard_format_not_compiled_is_declined():
    with pytest.raises(SchemaError) as info:
        compiled({"properties": {"h": {"type": "string", "format": "idn-email"}}})
    assert info.value.keyword == "format"
    assert info.value.pointer == "/properties/h/format"


def test_vendor_format_is_an_annotation():
    sm = compiled({"type": "string", "format": "int32"})
    assert valid(sm, "anything")
    assert sm.unknown_formats == [("int32", "/format")]
