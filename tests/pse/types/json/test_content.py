"""Draft 7 contentMediaType application/json, plain and base64, against json/base64."""

from __future__ import annotations

import base64
import json

import pytest
from _support.json_schema import compiled, valid
from hypothesis import given, settings
from hypothesis import strategies as st
from pse_core._core import StateMachine
from pse_core.errors import SchemaError

PLAIN = {"contentMediaType": "application/json"}
ENCODED = {"contentMediaType": "application/json", "contentEncoding": "base64"}
DOCS = ['{"foo": "bar"}', "[1, 2]", " 3 ", "{:}", "[1,", "", '"\u00e9"']


def _is_json(text: str) -> bool:
    """RFC 8259 JSON text, as `json` reads it without its NaN/Infinity extension."""

    def constant(name: str) -> None:
        raise ValueError(name)

    try:
        json.loads(text, parse_constant=constant)
    except ValueError:
        return False
    return True


@settings(max_examples=300, deadline=None)
@given(doc=st.text('{}[]:,"\\0-19.eE+ \tnultrfaxNI', max_size=10))
def test_agrees_with_json_on_generated_texts(doc: str) -> None:
    """The native check accepts exactly the documents `json` accepts, and every
    prefix of an accepted one stays alive (plain and base64)."""
    plain = compiled(PLAIN, draft="7")
    encoded = compiled(ENCODED, draft="7")
    assert valid(plain, doc) == _is_json(doc), doc
    b64 = base64.b64encode(doc.encode()).decode()
    assert valid(encoded, b64) == _is_json(doc), doc
    if _is_json(doc):
        literal = json.dumps(doc)
        for end in range(1, len(literal)):
            assert StateMachine.advance_all_basic(plain.get_steppers(), literal[:end]), doc


@pytest.mark.parametrize("doc", DOCS)
def test_plain_and_base64(doc: str) -> None:
    plain = compiled(PLAIN, draft="7")
    encoded = compiled(ENCODED, draft="7")
    assert valid(plain, doc) == _is_json(doc)
    assert valid(encoded, base64.b64encode(doc.encode()).decode()) == _is_json(doc)
    assert not valid(encoded, doc) or doc == ""


def test_dead_prefixes_are_masked() -> None:
    machine = compiled(PLAIN, draft="7")
    assert StateMachine.advance_all_basic(machine.get_steppers(), '"{\\"a\\": [1')
    assert not StateMachine.advance_all_basic(machine.get_steppers(), '"{:')
    encoded = compiled(ENCODED, draft="7")
    assert not StateMachine.advance_all_basic(encoded.get_steppers(), '"e!')  # not base64
    assert not StateMachine.advance_all_basic(encoded.get_steppers(), '"ezp9')  # b"{:}"


def test_other_media_types_are_declined() -> None:
    with pytest.raises(SchemaError) as info:
        compiled({"contentMediaType": "image/png"}, draft="7")
    assert info.value.keyword == "contentMediaType"
