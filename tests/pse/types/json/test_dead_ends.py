"""Parts of a schema that match nothing are dropped when the schema compiles:
an ``anyOf``/``oneOf`` alternative, an optional property, an array item whose
machine provably matches nothing (``StateMachine.accepts_nothing``) would let
generation enter a value it can never finish (issue 20's fuzz findings). The
first cases are visible only in the compiled machines: a required property
that recurses into itself with no way out. The later ones come from counting:
items, contained items or keys the schema cannot supply; a state from which
the value cannot be closed is pruned, as is an alternative left without any."""

from __future__ import annotations

import itertools
import json
from typing import Any

import jsonschema
import pytest
from _support.json_schema import accepts, compiled
from hypothesis import given, settings
from hypothesis import strategies as st
from pse_core._core import StateMachine

#: An object that must hold another one like it: no finite instance.
ENDLESS: dict[str, Any] = {
    "type": "object",
    "properties": {"next": {"$ref": "#/$defs/endless"}},
    "required": ["next"],
}


def with_defs(schema: dict[str, Any]) -> dict[str, Any]:
    return {**schema, "$defs": {"endless": ENDLESS}}


def alive(machine: StateMachine, text: str) -> bool:
    """Whether some stepper has read all of ``text``."""
    steppers = StateMachine.advance_all_basic(machine.get_steppers(), text)
    return any(not s.remaining_input for s in steppers)


CASES: list[tuple[dict[str, Any], str, Any]] = [
    ({"anyOf": [{"type": "integer"}, {"$ref": "#/$defs/endless"}]}, "{", 7),
    ({"oneOf": [{"type": "string"}, {"$ref": "#/$defs/endless"}]}, "{", "x"),
    (
        {"type": "object", "properties": {"a": {"$ref": "#/$defs/endless"}, "b": {}}},
        '{"a',
        {"b": 1},
    ),
    ({"type": "array", "items": {"$ref": "#/$defs/endless"}}, "[{", []),
    (
        {"type": "array", "prefixItems": [{"type": "null"}, {"$ref": "#/$defs/endless"}]},
        "[null,",
        [None],
    ),
]


@pytest.mark.parametrize(("schema", "dead", "instance"), CASES, ids=lambda x: json.dumps(x)[:40])
@pytest.mark.parametrize("ordered", [True, False])
def test_a_branch_that_matches_nothing_is_not_entered(
    schema: dict[str, Any], dead: str, instance: Any, ordered: bool
) -> None:
    machine = compiled(with_defs(schema), ordered_properties=ordered)
    assert not alive(machine, dead)
    assert accepts(machine, json.dumps(instance))


def test_recursion_that_can_end_is_kept() -> None:
    tree = {
        "$defs": {
            "node": {
                "type": "object",
                "properties": {"kids": {"type": "array", "items": {"$ref": "#/$defs/node"}}},
                "required": ["kids"],
            }
        },
        "anyOf": [{"type": "null"}, {"$ref": "#/$defs/node"}],
    }
    machine = compiled(tree)
    assert accepts(machine, json.dumps({"kids": [{"kids": []}]}))
    assert accepts(machine, "null")


#: Twenty optional properties: any-order objects go past ``max_object_states``
#: into the native key check, whose graph cannot be pruned.
MANY: dict[str, Any] = {f"p{i}": {} for i in range(20)}

#: Alternatives that counting makes empty: more distinct items, contained items
#: or keys than the schema lets appear. Each with a prefix that enters it.
FINITE: list[tuple[dict[str, Any], str]] = [
    # the fuzz finding: two distinct items over a one-value domain
    (
        {
            "type": "array",
            "items": {"const": None},
            "minItems": 2,
            "maxItems": 2,
            "uniqueItems": True,
        },
        "[null",
    ),
    ({"type": "array", "items": {"const": 1}, "contains": {"const": 2}}, "["),
    (
        {
            "type": "array",
            "items": {"enum": [1, 2]},
            "contains": {"const": 1},
            "minContains": 2,
            "uniqueItems": True,
        },
        "[1",
    ),
    (
        {
            "type": "array",
            "items": {"type": "integer", "minimum": 0, "maximum": 1},
            "uniqueItems": True,
            "minItems": 3,
        },
        "[0",
    ),
    (  # past MAX_UNIQUE_DOMAIN: the native uniqueness check, capped at 51 items
        {
            "type": "array",
            "items": {"type": "integer", "minimum": 0, "maximum": 50},
            "uniqueItems": True,
            "minItems": 60,
        },
        "[0",
    ),
    (
        {
            "type": "array",
            "items": {"type": "number", "multipleOf": 0.5, "minimum": 0, "maximum": 1.5},
            "uniqueItems": True,
            "minItems": 5,
        },
        "[0",
    ),
    ({"type": "object", "required": ["a", "b"], "maxProperties": 1}, '{"a"'),
    ({"type": "object", "propertyNames": {"enum": ["a", "b"]}, "minProperties": 3}, '{"a"'),
    (
        {
            "type": "object",
            "properties": {"a": {}},
            "additionalProperties": False,
            "minProperties": 2,
        },
        '{"a"',
    ),
    (
        {"type": "object", "properties": MANY, "additionalProperties": False, "minProperties": 21},
        "{",
    ),
    (
        {
            "type": "object",
            "properties": {**MANY, "q": False},
            "required": ["p0"],
            "dependentRequired": {"p0": ["q"]},
        },
        "{",
    ),
    (
        {
            "type": "object",
            "properties": MANY,
            "required": ["p0"],
            "dependentRequired": {"p0": ["p1", "p2"]},
            "maxProperties": 2,
        },
        "{",
    ),
]


@pytest.mark.parametrize(("schema", "dead"), FINITE, ids=lambda x: json.dumps(x)[:50])
@pytest.mark.parametrize("ordered", [True, False])
def test_an_alternative_whose_counts_cannot_be_met_is_dropped(
    schema: dict[str, Any], dead: str, ordered: bool
) -> None:
    assert compiled(schema, ordered_properties=ordered).accepts_nothing()
    either = compiled({"anyOf": [{"type": "null"}, schema]}, ordered_properties=ordered)
    assert not alive(either, dead)
    assert accepts(either, "null")


def test_states_that_cannot_finish_are_pruned() -> None:
    """At most two distinct items, one of them 1: ``[2,3`` cannot finish."""
    machine = compiled(
        {
            "type": "array",
            "items": {"enum": [1, 2, 3]},
            "uniqueItems": True,
            "contains": {"const": 1},
            "maxItems": 2,
        }
    )
    assert not alive(machine, "[2,3")
    assert not alive(machine, "[2,2")
    for good in ([1], [2, 1], [1, 3]):
        assert accepts(machine, json.dumps(good))


POOL: list[Any] = [None, True, 1, "a", 2]


@st.composite
def counted_arrays(draw: st.DrawFn) -> tuple[dict[str, Any], list[Any]]:
    """Arrays over a few values (an enum, two overlapping ones, a range of
    integers) under uniqueItems, contains and the counts; and those values."""
    enums = st.lists(st.sampled_from(POOL), min_size=1, max_size=3, unique=True)
    kind = draw(st.sampled_from(["enum", "anyOf", "range"]))
    if kind == "enum":
        values = draw(enums)
        items: dict[str, Any] = {"enum": values}
    elif kind == "anyOf":
        a, b = draw(enums), draw(enums)
        values = list({(type(v), v): v for v in a + b}.values())  # True is not 1
        items = {"anyOf": [{"enum": a}, {"enum": b}]}
    else:
        lo = draw(st.integers(0, 3))
        values = list(range(lo, draw(st.integers(lo, lo + 2)) + 1))
        items = {"type": "integer", "minimum": values[0], "maximum": values[-1]}
    schema: dict[str, Any] = {"type": "array", "items": items, "minItems": draw(st.integers(0, 3))}
    if draw(st.booleans()):
        schema["maxItems"] = draw(st.integers(0, 4))
    if draw(st.booleans()):
        schema["uniqueItems"] = True
    if draw(st.booleans()):
        schema["contains"] = {"enum": draw(st.lists(st.sampled_from(POOL), min_size=1, max_size=2))}
        schema["minContains"] = draw(st.integers(0, 3))
        if draw(st.booleans()):
            schema["maxContains"] = draw(st.integers(0, 3))
    return schema, values


def typed(items: tuple[Any, ...]) -> tuple[tuple[str, Any], ...]:
    """``items`` compared as JSON compares them (``True`` is not ``1``)."""
    return tuple((type(v).__name__, v) for v in items)


def text(items: tuple[Any, ...], closed: bool = True) -> str:
    inner = ",".join(json.dumps(v) for v in items)
    return f"[{inner}]" if closed else f"[{inner}"


@given(counted_arrays())
@settings(max_examples=80, deadline=None)
def test_counted_arrays_have_no_dead_ends(drawn: tuple[dict[str, Any], list[Any]]) -> None:
    """Exactly the valid arrays are accepted, and a prefix of whole items and a
    comma is readable exactly when some longer valid array extends it (jsonschema
    is the reference; arrays up to six items reach every completion of the
    prefixes up to three). The comma ends the last item: ``[0,0`` may still
    become ``[0,0.1e1]``."""
    schema, values = drawn
    validator = jsonschema.Draft202012Validator(schema)
    arrays = [a for n in range(7) for a in itertools.product(values, repeat=n)]
    ok = {typed(a) for a in arrays if validator.is_valid(list(a))}
    machine = compiled(schema)
    for a in arrays:
        if len(a) <= 4:
            assert accepts(machine, text(a)) == (typed(a) in ok), text(a)
        if len(a) <= 3:
            extendable = any(len(b) > len(a) and b[: len(a)] == typed(a) for b in ok)
            prefix = text(a, closed=False) + ("," if a else "")
            assert alive(machine, prefix) == (extendable or not a and bool(ok)), prefix


NAMES = ["a", "b", "c"]


@st.composite
def counted_objects(draw: st.DrawFn) -> dict[str, Any]:
    """Closed objects over three keys under required, dependentRequired, a
    forbidden pair and the counts (``false`` makes a key unusable)."""
    names = st.lists(st.sampled_from(NAMES), max_size=3, unique=True)
    schema: dict[str, Any] = {
        "type": "object",
        "properties": {n: draw(st.sampled_from([{}, {}, False])) for n in NAMES},
        "additionalProperties": False,
        "required": draw(names),
        "minProperties": draw(st.integers(0, 3)),
    }
    if draw(st.booleans()):
        schema["maxProperties"] = draw(st.integers(0, 3))
    if draw(st.booleans()):
        schema["dependentRequired"] = {draw(st.sampled_from(NAMES)): draw(names)}
    if draw(st.booleans()):
        schema["not"] = {
            "required": draw(st.lists(st.sampled_from(NAMES), min_size=2, max_size=2, unique=True))
        }
    return schema


@given(counted_objects())
@settings(max_examples=60, deadline=None)
def test_counted_objects_have_no_dead_ends(schema: dict[str, Any]) -> None:
    """Any-order objects: exactly the valid ones are accepted, and a prefix is
    readable exactly when some valid object extends it (jsonschema decides)."""
    validator = jsonschema.Draft202012Validator(schema)
    orders = [p for n in range(4) for p in itertools.permutations(NAMES, n)]
    ok = [p for p in orders if validator.is_valid(dict.fromkeys(p, 1))]
    machine = compiled(schema, ordered_properties=False)
    for keys in orders:
        inner = ",".join(f'"{k}":1' for k in keys)
        assert accepts(machine, "{" + inner + "}") == (keys in ok), inner
        extendable = any(p[: len(keys)] == keys for p in ok)
        assert alive(machine, "{" + inner) == extendable, inner
