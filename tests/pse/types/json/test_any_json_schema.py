"""AnySchemaStateMachine and the applicators anyOf / oneOf / allOf / not."""

from __future__ import annotations

import jsonschema
import pytest
from _support.json_schema import compiled, valid
from pse_core.errors import SchemaError


def test_one_of_disjoint_by_discriminator():
    sm = compiled(
        {
            "oneOf": [
                {
                    "properties": {"kind": {"const": "a"}, "x": {"type": "integer"}},
                    "required": ["kind"],
                },
                {
                    "properties": {"kind": {"const": "b"}, "y": {"type": "string"}},
                    "required": ["kind"],
                },
            ]
        },
        ordered_properties=False,
    )
    assert valid(sm, {"kind": "a", "x": 1})
    assert not valid(sm, {"kind": "a", "x": "s"})


def test_one_of_overlap_is_negated_exactly():
    sm = compiled({"oneOf": [{"required": ["a"]}, {"required": ["b"]}]}, ordered_properties=False)
    assert valid(sm, {"a": 1})
    assert not valid(sm, {"a": 1, "b": 2})


def test_all_of_and_type_lists():
    sm = compiled({"allOf": [{"type": ["string", "integer"]}, {"type": ["integer", "null"]}]})
    assert valid(sm, 3)
    assert not valid(sm, "s")
    assert not valid(sm, None)


def test_nullable_and_if_then_else():
    sm = compiled({"type": "string", "nullable": True})
    assert valid(sm, None)
    cond = compiled(
        {"if": {"type": "string"}, "then": {"minLength": 2}, "else": {"type": "integer"}}
    )
    assert valid(cond, "ab")
    assert not valid(cond, "a")
    assert valid(cond, 3)
    assert not valid(cond, None)


def test_string_negation_is_exact():
    """``not`` over patterns, formats and literals is a complement automaton."""
    no_a = compiled({"not": {"type": "string", "pattern": "^a"}})
    assert valid(no_a, "ba") and valid(no_a, "") and valid(no_a, 1)
    assert not valid(no_a, "abc")
    both = compiled({"allOf": [{"pattern": "^a"}, {"pattern": "z$"}], "type": "string"})
    assert valid(both, "abz")
    assert not valid(both, "ab") and not valid(both, "bz")
    one = compiled({"oneOf": [{"pattern": "^a"}, {"pattern": "z$"}], "type": "string"})
    assert valid(one, "ab") and valid(one, "bz")
    assert not valid(one, "az") and not valid(one, "b")
    not_email = compiled({"type": "string", "not": {"format": "email"}})
    assert valid(not_email, "x")
    assert not valid(not_email, "a@b.co")


def test_number_negation_is_exact():
    """``not`` over integer / multipleOf: the divisibility check negated natively."""
    not_int = compiled({"not": {"type": "integer"}})
    assert valid(not_int, 1.5) and valid(not_int, "x") and valid(not_int, -0.25)
    assert not valid(not_int, 1) and not valid(not_int, 2.0)
    one = compiled({"oneOf": [{"type": "integer"}, {"type": "number"}]})
    assert valid(one, 1.5)
    assert not valid(one, 3) and not valid(one, 3.0)
    no_fives = compiled({"type": "number", "minimum": 0, "not": {"multipleOf": 5}})
    assert valid(no_fives, 6) and valid(no_fives, 7.5)
    assert not valid(no_fives, 10) and not valid(no_fives, 0) and not valid(no_fives, -1)
    low_or_odd = compiled({"type": "number", "not": {"type": "integer", "maximum": 10}})
    assert valid(low_or_odd, 11) and valid(low_or_odd, 3.5)
    assert not valid(low_or_odd, 10) and not valid(low_or_odd, -2)
    odd = compiled({"type": "integer", "not": {"multipleOf": 2}})
    assert valid(odd, 3) and valid(odd, -1) and valid(odd, 5.0)
    assert not valid(odd, 4) and not valid(odd, 0) and not valid(odd, 1.5)
    either = compiled({"type": "number", "oneOf": [{"multipleOf": 3}, {"multipleOf": 5}]})
    assert valid(either, 3) and valid(either, 10) and valid(either, 9)
    assert not valid(either, 15) and not valid(either, 7) and not valid(either, 30)


def test_one_of_negates_branches_as_written():
    """Exactly one of two required keys, under closed properties (a common shape)."""
    schema = {
        "type": "object",
        "properties": {"href": {"type": "string"}, "primitive": {"enum": ["cone", "cube"]}},
        "oneOf": [{"required": ["primitive"]}, {"required": ["href"]}],
        "additionalProperties": False,
    }
    sm = compiled(schema, ordered_properties=False)
    assert valid(sm, {"href": "x"}) and valid(sm, {"primitive": "cone"})
    assert not valid(sm, {"href": "x", "primitive": "cone"})
    assert not valid(sm, {}) and not valid(sm, {"primitive": "z"})


NEGATED_NUMBERS = [
    {"not": {"type": "integer"}},
    {"type": "integer", "not": {"multipleOf": 2}},
    {"type": "number", "oneOf": [{"multipleOf": 3}, {"multipleOf": 5}]},
    {"type": "number", "not": {"multipleOf": 0.5, "minimum": 2}},
    {"not": {"not": {"type": "integer", "not": {"multipleOf": 3}}}},
    {"minimum": 0, "maximum": 10, "not": {"anyOf": [{"multipleOf": 2}, {"multipleOf": 3}]}},
]
NUMBERS = [0, 1, 2, 3, 4, 5, 6, 7, 9, 10, 12, 15, 30, -1, -3, 1.5, 2.5, 0.25, 7.5, 2.0, 1e3, -0.5]


@pytest.mark.parametrize("schema", NEGATED_NUMBERS)
def test_number_negations_agree_with_jsonschema(schema):
    sm = compiled(schema)
    checker = jsonschema.Draft202012Validator(schema)
    for value in NUMBERS:
        assert valid(sm, value) == checker.is_valid(value), value


def test_untractable_not_is_declined_or_listed_when_lenient():
    schema = {"not": {"type": "array", "uniqueItems": True}}
    with pytest.raises(SchemaError) as info:
        compiled(schema)
    assert (info.value.keyword, info.value.pointer) == ("not", "/not")
    lenient = compiled(schema, lenient=True)
    assert lenient.ignored_keywords == [("not", "/not")]
