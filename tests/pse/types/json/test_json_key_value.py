"""KeyValueSchemaStateMachine and the key automata."""

from __future__ import annotations

from pse.types.json.json_key_value import KeyValueSchemaStateMachine


def test_named_pair(harness):
    kv = KeyValueSchemaStateMachine("name", {"type": "string"}, {})
    assert harness.matches(kv, '"name": "Ada"')
    assert harness.matches(kv, '"name":"Ada"')
    assert not harness.matches(kv, '"nam": "Ada"')
    assert not harness.matches(kv, '"name": 1')


def test_escaped_name(harness):
    kv = KeyValueSchemaStateMachine("café", {"type": "integer"}, {})
    assert harness.matches(kv, '"café": 1')
    assert harness.matches(kv, '"caf\\u00e9": 1')
