"""NumberSchemaStateMachine: integer, bounds, multipleOf."""

from __future__ import annotations

from _support.json_schema import accepts, compiled, valid

from pse.types.json.json_number import NumberSchemaStateMachine


def test_integer_accepts_integral_spellings(harness):
    sm = NumberSchemaStateMachine({"type": "integer"}, {})
    assert harness.matches(sm, "12")
    assert harness.matches(sm, "1.0")
    assert not harness.matches(sm, "1.5")


def test_bounds_and_multiples():
    sm = compiled({"type": "number", "minimum": 0, "exclusiveMaximum": 10, "multipleOf": 0.5})
    assert valid(sm, 0)
    assert valid(sm, 9.5)
    assert not valid(sm, 10)
    assert not valid(sm, -0.5)
    assert not valid(sm, 0.25)
    both = compiled({"allOf": [{"multipleOf": 2}, {"multipleOf": 3}]})
    assert valid(both, 12)
    assert not valid(both, 4)


def test_const_number_compares_numerically():
    sm = compiled({"const": 1})
    assert accepts(sm, "1")
    assert accepts(sm, "1.0")
    assert not accepts(sm, "true")


def test_no_number_qualifies_but_other_types_do():
    """Numeric keywords only restrict numbers: with none left, other types remain."""
    untyped = compiled({"multipleOf": 3, "minimum": 1, "maximum": 2})
    assert valid(untyped, "x") and valid(untyped, None)
    assert not valid(untyped, 1) and not valid(untyped, 3)
