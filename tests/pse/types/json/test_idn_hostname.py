"""format: idn-hostname: whole names against the `jsonschema` format checker (idna),
prefixes never dead ends, and the engine's token walk."""

from __future__ import annotations

import json
from typing import Any

import jsonschema
import pytest
from _support.json_schema import accepts, compiled, valid
from _support.masks import assert_mask_is_what_steppers_consume
from pse_core._core import StateMachine
from pse_core.errors import SchemaError

from pse.types.json.idn_hostname import viable

pytest.importorskip("idna")

SCHEMA = {"type": "string", "format": "idn-hostname"}
NAMES = [
    "실례.테스트",
    "xn--ihqwcrb4cv8a8dqg056pqjye",
    "l\u00b7l",
    "a\u00b7l",
    "\u03b1\u0375\u03b2",
    "\u03b1\u0375",
    "\u05d0\u05f3\u05d1",
    "\u30fb\u3041",
    "\u30fb",
    "\u0628\u0660\u06f0",
    "\u0915\u094d\u200d\u0937",
    "\u200d\u0937",
    "a.b",
    "a\u3002b",
    "example.",
    "a..b",
    "-hello",
    "hello-",
    "ab--c",
    "xn--X",
    "0a.\u05d0",
    "\u05d0.\u05d1",
    "a" * 63,
    "a" * 64,
    ".".join(["a" * 63] * 4),
    "",
    "Hostname",
]


def _expected(name: str) -> bool:
    """The `jsonschema` checker's verdict, but for two rules it does not apply: no
    empty (trailing) label, and the Bidi rule on every label of a name with a
    right-to-left label (RFC 5893 section 1.4)."""
    if name.endswith(".") or name == "0a.\u05d0":
        return False
    return bool(jsonschema.Draft202012Validator.FORMAT_CHECKER.conforms(name, "idn-hostname"))


@pytest.mark.parametrize("name", NAMES)
def test_names_agree_with_jsonschema(name: str) -> None:
    assert valid(compiled(SCHEMA), name) == _expected(name), name


@pytest.mark.parametrize("name", [n for n in NAMES if _expected(n) and "xn--" not in n])
def test_every_prefix_of_a_valid_name_is_viable(name: str) -> None:
    """(Inside an ``xn--`` label witnesses may not reach: see the module docstring.)"""
    for end in range(len(name) + 1):
        assert viable(name[:end]), name[:end]


def test_token_by_token_with_escapes() -> None:
    machine = compiled(SCHEMA)
    text = json.dumps("\u05d0\u05f3\u05d1.com")  # \\u escapes
    steppers = machine.get_steppers()
    for i in range(0, len(text), 3):
        steppers = StateMachine.advance_all_basic(steppers, text[i : i + 3])
        assert steppers, text[: i + 3]
    assert any(s.has_reached_accept_state() for s in steppers)
    # a dead end is masked where it starts: a label cannot begin with a combining mark
    assert not StateMachine.advance_all_basic(machine.get_steppers(), '"\u0301')


def test_length_bounds_and_literals() -> None:
    bounded = compiled({**SCHEMA, "maxLength": 3})
    assert accepts(bounded, '"abc"') and not accepts(bounded, '"abcd"')
    # "ab-" needs a fourth character: a dead end under maxLength 3
    assert not StateMachine.advance_all_basic(bounded.get_steppers(), '"ab-')
    enum = compiled({**SCHEMA, "enum": ["a.b", "-x", 3]})
    assert accepts(enum, '"a.b"') and not accepts(enum, '"-x"')


def test_declined_with_a_pattern() -> None:
    with pytest.raises(SchemaError) as info:
        compiled({"properties": {"h": {**SCHEMA, "pattern": "^a"}}})
    assert (info.value.keyword, info.value.pointer) == ("format", "/properties/h/format")


@pytest.mark.parametrize("prefix", ['"exa', '"a-', '"\u05d0', '"\u30fb', '"\\u00'])
def test_mask_is_what_the_stepper_consumes(smollm2: Any, prefix: str) -> None:
    """The native mask (the string's mask less the tokens the rule rejects, ASCII
    names without Python) allows exactly the tokens the steppers consume."""
    assert_mask_is_what_steppers_consume(smollm2, {**SCHEMA, "maxLength": 20}, prefix)
