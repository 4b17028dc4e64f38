"""Per-type stepper classes at the import paths of the original API reference.

Every documented state machine hands out its own Stepper subclass (from
``get_new_stepper``, ``get_steppers`` and every stepper derived from those),
``isinstance`` works along the documented hierarchy, and a Python subclass of a
machine can return a Python subclass of its stepper.
"""

from __future__ import annotations

import importlib
from typing import Any

import pytest
from pse_core import StateMachine, Stepper

from pse.types.base.phrase import PhraseStateMachine, PhraseStepper

# (module, machine, constructor arguments, stepper class, its documented base)
DOCUMENTED: list[tuple[str, str, dict[str, Any], str, str | None]] = [
    ("pse.types.base.phrase", "PhraseStateMachine", {"phrase": "hi"}, "PhraseStepper", None),
    ("pse.types.base.character", "CharacterStateMachine", {}, "CharacterStepper", None),
    (
        "pse.types.base.chain",
        "ChainStateMachine",
        {"state_machines": []},
        "ChainStepper",
        None,
    ),
    ("pse.types.base.any", "AnyStateMachine", {"state_machines": []}, "AnyStepper", None),
    ("pse.types.base.loop", "LoopStateMachine", {}, "LoopStepper", None),
    ("pse.types.base.wait_for", "WaitFor", {}, "WaitForStepper", None),
    ("pse.types.base.encapsulated", "EncapsulatedStateMachine", {}, "EncapsulatedStepper", None),
    ("pse.types.string", "StringStateMachine", {}, "StringStepper", None),
    ("pse.types.number", "NumberStateMachine", {}, "NumberStepper", None),
    ("pse.types.integer", "IntegerStateMachine", {}, "IntegerStepper", "CharacterStepper"),
    ("pse.types.boolean", "BooleanStateMachine", {}, "BooleanStepper", None),
    ("pse.types.whitespace", "WhitespaceStateMachine", {}, "WhitespaceStepper", "CharacterStepper"),
    ("pse.types.array", "ArrayStateMachine", {}, "ArrayStepper", None),
    ("pse.types.object", "ObjectStateMachine", {}, "ObjectStepper", None),
    ("pse.types.key_value", "KeyValueStateMachine", {}, "KeyValueStepper", "ChainStepper"),
    (
        "pse.types.xml.xml_tag",
        "XMLTagStateMachine",
        {"tag_name": "p"},
        "XMLTagStepper",
        "ChainStepper",
    ),
    ("pse.types.misc.freeform", "FreeformStateMachine", {}, "FreeformStepper", "CharacterStepper"),
    (
        "pse.types.misc.fenced_freeform",
        "FencedFreeformStateMachine",
        {},
        "FencedFreeformStepper",
        "EncapsulatedStepper",
    ),
    (
        "pse.types.json.json_array",
        "ArraySchemaStateMachine",
        {"schema": {"type": "array"}, "context": {}},
        "ArraySchemaStepper",
        "ArrayStepper",
    ),
    (
        "pse.types.json.json_object",
        "ObjectSchemaStateMachine",
        {"schema": {"type": "object"}, "context": {}},
        "ObjectSchemaStepper",
        "ObjectStepper",
    ),
    (
        "pse.types.json.json_key_value",
        "KeyValueSchemaStateMachine",
        {"property_name": "a", "property_schema": {"type": "string"}, "context": {}},
        "KeyValueSchemaStepper",
        "KeyValueStepper",
    ),
    (
        "pse.types.json.json_string",
        "StringSchemaStateMachine",
        {"schema": {"type": "string"}, "context": {}},
        "StringSchemaStepper",
        "StringStepper",
    ),
    (
        "pse.types.json.json_number",
        "NumberSchemaStateMachine",
        {"schema": {"type": "number"}, "context": {}},
        "NumberSchemaStepper",
        "NumberStepper",
    ),
    (
        "pse.types.json.any_json_schema",
        "AnySchemaStateMachine",
        {"schemas": [{"type": "string"}, {"type": "number"}], "context": {}},
        "AnySchemaStepper",
        "AnyStepper",
    ),
    ("pse.types.json.json_value", "JsonStateMachine", {}, "JsonStepper", None),
]

STEPPER_HOMES = {
    "CharacterStepper": "pse.types.base.character",
    "ChainStepper": "pse.types.base.chain",
    "EncapsulatedStepper": "pse.types.base.encapsulated",
    "ArrayStepper": "pse.types.array",
    "ObjectStepper": "pse.types.object",
    "KeyValueStepper": "pse.types.key_value",
    "StringStepper": "pse.types.string",
    "NumberStepper": "pse.types.number",
    "AnyStepper": "pse.types.base.any",
}


def build(module: str, machine: str, kwargs: dict[str, Any]) -> StateMachine:
    cls = getattr(importlib.import_module(module), machine)
    if machine in {"LoopStateMachine", "WaitFor", "EncapsulatedStateMachine"}:
        return cls(PhraseStateMachine("x"), **kwargs)  # type: ignore[no-any-return]
    return cls(**kwargs)  # type: ignore[no-any-return]


@pytest.mark.parametrize(("module", "machine", "kwargs", "stepper", "base"), DOCUMENTED)
def test_machine_hands_out_its_own_stepper_class(
    module: str, machine: str, kwargs: dict[str, Any], stepper: str, base: str | None
) -> None:
    stepper_cls = getattr(importlib.import_module(module), stepper)
    assert issubclass(stepper_cls, Stepper)
    if base is not None:
        assert issubclass(stepper_cls, getattr(importlib.import_module(STEPPER_HOMES[base]), base))
    sm = build(module, machine, kwargs)
    assert type(sm).stepper_class is stepper_cls
    fresh = sm.get_new_stepper()
    assert type(fresh) is stepper_cls and isinstance(fresh, Stepper)
    assert all(type(s) is stepper_cls for s in sm.get_steppers())
    assert type(fresh.clone()) is stepper_cls


def test_derived_steppers_keep_their_class() -> None:
    from pse.types.base.loop import LoopStateMachine, LoopStepper
    from pse.types.object import ObjectStateMachine, ObjectStepper

    obj = ObjectStateMachine()
    after = StateMachine.advance_all_basic(obj.get_steppers(), '{"a": [1')
    assert after and all(type(s) is ObjectStepper for s in after)
    assert [type(h).__name__ for h in after[0].history] == ["PhraseStepper"]
    assert isinstance(after[0].sub_stepper, LoopStepper)
    loop = LoopStateMachine(PhraseStateMachine("ab"))
    (stepper,) = loop.get_new_stepper().consume("ab")
    assert isinstance(stepper, LoopStepper) and isinstance(stepper.sub_stepper, PhraseStepper)


def test_plain_state_machine_hands_out_plain_steppers() -> None:
    graph = StateMachine({0: [(PhraseStateMachine("a"), "$")]})
    assert type(graph.get_new_stepper()) is Stepper
    assert StateMachine.stepper_class is Stepper


class ShoutStepper(PhraseStepper):
    """A Python subclass of a built-in stepper with its own state."""

    def __init__(self, machine: StateMachine) -> None:
        super().__init__(machine)
        self.volume = 11


class Shout(PhraseStateMachine):
    def get_new_stepper(self, state: int | str | None = None) -> Stepper:
        return ShoutStepper(self)


def test_python_machine_returns_python_stepper_subclass() -> None:
    machine = Shout("hey")
    stepper = machine.get_new_stepper()
    assert isinstance(stepper, ShoutStepper) and isinstance(stepper, PhraseStepper)
    (after,) = stepper.consume("he")
    assert type(after) is ShoutStepper and after.volume == 11
    assert after.get_raw_value() == "he" and not after.has_reached_accept_state()
    graph = StateMachine({0: [(machine, 1)], 1: [(PhraseStateMachine("!"), "$")]})
    assert [s.get_raw_value() for s in StateMachine.advance_all_basic(graph.get_steppers(), "hey!")]
    assert StateMachine.advance_all_basic(graph.get_steppers(), "hex") == []


class CountingStepper(PhraseStepper):
    """Keeps the native path: no hook overridden, only a helper added."""

    __slots__ = ()

    def letters_left(self) -> int:
        return len(self.state_machine.phrase) - self.consumed_character_count


class CountingPhrase(PhraseStateMachine):
    stepper_class = CountingStepper


def test_stepper_class_attribute_keeps_the_native_path() -> None:
    machine = CountingPhrase("hello")
    (after,) = machine.get_new_stepper().consume("hel")
    assert type(after) is CountingStepper and after.letters_left() == 2
