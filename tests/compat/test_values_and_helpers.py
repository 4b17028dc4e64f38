"""Typed values (api/stepper.md: get_current_value) and the original helpers:
json_schema_state_machine, StructuringEngine.configure(delimiters=,
buffer_length=), KeyValueSchemaStateMachine keywords and documented defaults."""

from __future__ import annotations

from typing import Any

import pytest
from pse_core import StateMachine

from pse.types.array import ArrayStateMachine
from pse.types.base.encapsulated import EncapsulatedStateMachine
from pse.types.base.loop import LoopStateMachine
from pse.types.base.phrase import PhraseStateMachine
from pse.types.base.wait_for import WaitFor
from pse.types.boolean import BooleanStateMachine
from pse.types.integer import IntegerStateMachine
from pse.types.json.json_key_value import KeyValueSchemaStateMachine
from pse.types.json.json_value import JsonStateMachine
from pse.types.key_value import KeyValueStateMachine
from pse.types.number import NumberStateMachine
from pse.types.object import ObjectStateMachine
from pse.types.string import StringStateMachine
from pse.types.xml.xml_tag import XMLTagStateMachine

from ._walk import matches, value


@pytest.mark.parametrize(
    ("machine", "text", "expected"),
    [
        (IntegerStateMachine(), "007", 7),
        (IntegerStateMachine(drop_leading_zeros=False), "007", "007"),
        (NumberStateMachine(), "-3.14", -3.14),
        (NumberStateMachine(), "1.618e2", 161.8),
        (NumberStateMachine(), "42", 42),
        (BooleanStateMachine(), "false", False),
        (JsonStateMachine(), "null", None),
        (StringStateMachine(), '"Hello\\u0057orld"', "HelloWorld"),
        (ArrayStateMachine(), "[true, false]", [True, False]),
        (
            ObjectStateMachine(),
            '{"a": 1, "b": true, "c": "hello"}',
            {"a": 1, "b": True, "c": "hello"},
        ),
        (KeyValueStateMachine(), '"data": {"x": 1, "y": 2}', ("data", {"x": 1, "y": 2})),
    ],
)
def test_typed_values(machine: StateMachine, text: str, expected: Any) -> None:
    result = value(machine, text)
    assert result == expected and type(result) is type(expected)


def test_json_schema_state_machine_helper() -> None:
    from pse.types.json import json_schema_state_machine

    schema = {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}
    json_schema, machine = json_schema_state_machine(schema)
    assert json_schema == schema and value(machine, '{"n": 3}') == {"n": 3}
    _, fenced = json_schema_state_machine(schema, delimiters=("```json\n", "\n```"))
    assert isinstance(fenced, EncapsulatedStateMachine)
    assert value(fenced, '```json\n{"n": 3}\n```') == {"n": 3}
    _, waiting = json_schema_state_machine(schema, buffer_length=0)
    assert isinstance(waiting, WaitFor) and matches(waiting, 'Sure! {"n": 3}')
    _, exact = json_schema_state_machine(schema, buffer_length=-1)
    assert not matches(exact, 'Sure! {"n": 3}')


def test_schema_to_state_machine_still_importable() -> None:
    from pse.types.json import schema_to_state_machine
    from pse.types.json.schema_machine import schema_to_state_machine as same

    assert schema_to_state_machine is same


@pytest.fixture(scope="module")
def engine() -> Any:
    from _support.tokenizers import smollm2_tokenizer

    from pse import StructuringEngine

    return StructuringEngine(smollm2_tokenizer())


def test_configure_wraps_as_documented(engine: Any) -> None:
    schema = {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}
    engine.configure(schema, delimiters=("<json>", "</json>"), buffer_length=0)
    assert isinstance(engine.state_machine, EncapsulatedStateMachine)
    assert matches(engine.state_machine, 'ok <json>{"n": 1}</json>')
    engine.configure(schema, buffer_length=0)
    assert isinstance(engine.state_machine, WaitFor)
    engine.configure(PhraseStateMachine("yes"), delimiters=("[", "]"))
    assert matches(engine.state_machine, "[yes]")
    engine.configure(schema)
    assert not isinstance(engine.state_machine, WaitFor | EncapsulatedStateMachine)


def test_key_value_schema_documented_keywords() -> None:
    email = KeyValueSchemaStateMachine(
        property_name="email",
        property_schema={"type": "string", "format": "email"},
        context={},
        required=True,
    )
    assert value(email, '"email": "user@example.com"') == ("email", "user@example.com")
    assert not matches(email, '"email": 123') and not matches(email, '"email": "invalid"')
    assert not email.is_optional
    assert KeyValueSchemaStateMachine(property_name="a", required=False).is_optional


def test_documented_defaults() -> None:
    assert LoopStateMachine(PhraseStateMachine("a"), min_loop_count=0).is_optional
    assert not LoopStateMachine(PhraseStateMachine("a"), min_loop_count=1).is_optional
    tag = XMLTagStateMachine(tag_name="person")
    assert tag.get_new_stepper().get_valid_continuations() == ["<person>"]
    closing = XMLTagStateMachine(tag_name="person", closing_tag=True)
    assert closing.get_new_stepper().get_valid_continuations() == ["</person>"]
    (partial,) = StateMachine.advance_all_basic(tag.get_steppers(), "<pe")
    assert partial.get_valid_continuations() == ["rson>"]


def test_loop_and_wait_for_stepper_properties() -> None:
    from pse.types.base.loop import LoopStepper
    from pse.types.base.wait_for import WaitForStepper

    loop = LoopStateMachine(PhraseStateMachine("ab"), whitespace_seperator=True)
    (stepper,) = [s for s in StateMachine.advance_all_basic(loop.get_steppers(), "ab ab")]
    assert isinstance(stepper, LoopStepper) and stepper.loop_count == 2
    wait = WaitFor(PhraseStateMachine("END"), buffer_length=0)
    buffered = StateMachine.advance_all_basic(wait.get_steppers(), "text EN")
    assert all(isinstance(s, WaitForStepper) for s in buffered)
    assert sorted(s.buffer for s in buffered) == ["text ", "text EN"]


def test_encapsulated_and_key_value_stepper_properties() -> None:
    fenced = EncapsulatedStateMachine(NumberStateMachine(), delimiters=("<n>", "</n>"))
    (done,) = StateMachine.advance_all_basic(fenced.get_steppers(), "<n>42</n>")
    assert done.get_current_value() == 42 and done.inner_stepper.get_current_value() == 42
    pair = KeyValueStateMachine()
    (kv,) = [s for s in StateMachine.advance_all_basic(pair.get_steppers(), '"age": 30')]
    assert (kv.property_name, kv.property_value) == ("age", 30)


def test_engine_steppers_have_their_machine_class(engine: Any) -> None:
    from pse.types.object import ObjectStepper

    engine.configure(ObjectStateMachine())
    assert engine.steppers and all(isinstance(s, ObjectStepper) for s in engine.steppers)
    engine.steppers = engine.steppers  # the documented setter still takes them
    assert all(isinstance(s, ObjectStepper) for s in engine.steppers)
