"""Objects with more property sets than ``max_object_states``, in any order: the
native key check (``pse_core._core.object_keys``) keeps the set in the stepper.

Verdicts are compared with ``jsonschema`` on texts built from key lists (with
duplicates, which no JSON Schema validator sees: they must be rejected), and
prefixes that no valid object completes must be rejected as they arrive.
"""

from __future__ import annotations

import json
from typing import Any

import jsonschema
import pytest
from _support.json_schema import accepts, compiled
from _support.masks import assert_mask_is_what_steppers_consume
from hypothesis import given, settings
from hypothesis import strategies as st
from pse_core._core import StateMachine

NAMES = [f"p{i}" for i in range(14)] + ["q", "é", 'a"b']

SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {name: {"type": "integer"} for name in NAMES},
    "required": ["p3", "p11"],
    "dependentRequired": {"p5": ["p6"], "p6": ["p7"]},
    "not": {"required": ["p1", "p2"]},
    "minProperties": 3,
    "maxProperties": 6,
}
CLOSED = {**SCHEMA, "additionalProperties": False}
OPTIONS: dict[str, Any] = {
    "ordered_properties": False,
    "strict_properties": False,
    "max_object_states": 64,
}
OPEN_MACHINE = compiled(SCHEMA, **OPTIONS)
CLOSED_MACHINE = compiled(CLOSED, **OPTIONS)


def text_of(keys: list[str]) -> str:
    return "{" + ", ".join(f"{json.dumps(k)}: 1" for k in keys) + "}"


def alive(machine: StateMachine, text: str) -> bool:
    """Whether some stepper has read all of ``text`` (a prefix so far allowed)."""
    steppers = StateMachine.advance_all_basic(machine.get_steppers(), text)
    return any(not s.remaining_input for s in steppers)


def test_the_check_replaces_the_schema_order_fallback() -> None:
    assert not OPEN_MACHINE.notes and not CLOSED_MACHINE.notes
    assert accepts(OPEN_MACHINE, text_of(["p11", "p4", "p3"]))
    assert accepts(CLOSED_MACHINE, text_of(["p11", "p4", "p3"]))


@given(
    keys=st.lists(st.sampled_from([*NAMES, "x", "p"]), max_size=8),
    closed=st.booleans(),
)
@settings(max_examples=400, deadline=None)
def test_verdicts_match_jsonschema(keys: list[str], closed: bool) -> None:
    schema, machine = (CLOSED, CLOSED_MACHINE) if closed else (SCHEMA, OPEN_MACHINE)
    expected = len(set(keys)) == len(keys) and jsonschema.Draft202012Validator(schema).is_valid(
        dict.fromkeys(keys, 1)
    )
    assert accepts(machine, text_of(keys)) == expected
    assert accepts(machine, text_of(keys).replace(" ", "")) == expected


def test_pattern_regions_that_cover_every_other_key() -> None:
    """patternProperties split the undeclared keys, but every region may appear:
    the check still reads "any key not named"."""
    schema = {**SCHEMA, "patternProperties": {"^x": {"type": "string"}}}
    machine = compiled(schema, **OPTIONS)
    assert not machine.notes
    assert accepts(machine, text_of(["p11", "p3"])[:-1] + ', "xa": "s", "y": 2}')
    assert not accepts(machine, text_of(["p11", "p3"])[:-1] + ', "xa": 1}')


def test_escaped_keys_are_decoded() -> None:
    assert accepts(OPEN_MACHINE, '{"p3": 1, "p11": 1, "\\u00e9": 2}')
    assert accepts(OPEN_MACHINE, '{"p3": 1, "p11": 1, "a\\"b": 2}')
    assert not accepts(OPEN_MACHINE, '{"p3": 1, "p11": 1, "\\u00e9": 2, "é": 3}')


def test_prefixes_without_a_valid_completion_are_rejected() -> None:
    # A named key seen before: with no other keys allowed, its prefix leads nowhere.
    assert not alive(CLOSED_MACHINE, '{"p3": 1, "p3')
    assert alive(OPEN_MACHINE, '{"p3": 1, "p3')  # "p3x" is another key
    assert not alive(OPEN_MACHINE, '{"p3": 1, "p3"')
    # Room for the required keys: 6 pairs at most, p3 and p11 still missing.
    full = '{"p0": 1, "p1": 1, "p4": 1, "p8": 1, '
    assert not alive(OPEN_MACHINE, full + '"p9')
    assert alive(OPEN_MACHINE, full + '"p1')  # p11
    # p5 brings p6 and p7 with it: 3 + 3 pairs already is too many with p3, p11.
    assert not alive(OPEN_MACHINE, '{"p0": 1, "p1": 1, "p4": 1, "p5"')
    # The forbidden pair p1 + p2.
    assert not alive(CLOSED_MACHINE, '{"p1": 1, "p2')
    # A closing brace before the required keys, a comma after the sixth pair.
    assert not alive(OPEN_MACHINE, '{"p3": 1, "p4": 1, "p9": 1}')
    six = '{"p3": 1, "p11": 1, "p0": 1, "p4": 1, "p8": 1, "p9": 1'
    assert alive(OPEN_MACHINE, six + "}")
    assert not alive(OPEN_MACHINE, six + ",")


def test_nested_values_do_not_count() -> None:
    schema = {
        "type": "object",
        "properties": {f"k{i}": {} for i in range(16)},
        "required": ["k0"],
        "additionalProperties": False,
    }
    machine = compiled(schema, **OPTIONS)
    inner = {"k0": {"k0": [1, "}", {"k0": 2}]}, "k1": '"k0"'}
    assert accepts(machine, json.dumps(inner))
    assert not accepts(machine, '{"k1": {"k0": 1}}')


def test_many_dependencies_compile_in_generation_order() -> None:
    """dependentRequired over many properties used to be declined in any order."""
    schema = {
        "type": "object",
        "properties": {f"k{i}": {"type": "integer"} for i in range(16)},
        "dependentRequired": {"k0": ["k15"]},
    }
    machine = compiled(schema, max_object_states=64)
    assert accepts(machine, '{"k15": 1, "k0": 2}')
    assert not accepts(machine, '{"k0": 2}')


GENERATION: dict[str, Any] = {
    "type": "object",
    "properties": {f"k{i}": {"type": "integer"} for i in range(16)},
    "required": ["k3"],
    "dependentRequired": {"k1": ["k12"]},
}


@pytest.mark.parametrize(
    "prefix",
    ["{", '{"k3": 1, "k', '{"k3": 1, ', '{"k1": 2, "k3": 1', '{"k3": 1, "k1'],
)
def test_mask_is_what_the_stepper_consumes(smollm2: Any, prefix: str) -> None:
    """The native mask (the object's mask less the tokens the key check rejects)
    allows exactly the tokens the steppers consume, on a real 49k vocabulary;
    the schema compiles in generation mode (schema order, no undeclared keys)."""
    mask = assert_mask_is_what_steppers_consume(smollm2, GENERATION, prefix)
    assert mask.any()
