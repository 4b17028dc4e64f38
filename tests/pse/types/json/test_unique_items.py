"""uniqueItems for any item schema, checked against the `jsonschema` validator; the
duplicate is masked at the token that completes it."""

from __future__ import annotations

import json
from collections.abc import Callable
from decimal import Decimal
from fractions import Fraction
from typing import Any

import jsonschema
import pytest
from _support.json_schema import compiled, valid
from _support.masks import assert_mask_is_what_steppers_consume
from hypothesis import given, settings
from hypothesis import strategies as st
from pse_core._core import StateMachine, canonical_json

SCHEMAS: list[dict[str, Any]] = [
    {"uniqueItems": True},
    {"items": {"type": "integer"}, "uniqueItems": True, "maxItems": 4},
    {"prefixItems": [{"type": "boolean"}], "items": {"type": "string"}, "uniqueItems": True},
    {"items": {"enum": list(range(8))}, "uniqueItems": True},
    {"contains": {"type": "string"}, "uniqueItems": True},
]

JSON = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-2, 2),
        st.sampled_from([1.0, 0.5, 2.0]),
        st.sampled_from(["a", "b"]),
    ),
    lambda inner: st.lists(inner, max_size=2) | st.dictionaries(st.sampled_from("xy"), inner),
    max_leaves=4,
)


@pytest.mark.parametrize("schema", SCHEMAS)
@settings(max_examples=80, deadline=None)
@given(value=st.lists(JSON, max_size=4))
def test_unique_items_agree_with_jsonschema(schema: dict[str, Any], value: list[Any]) -> None:
    full = {"type": "array", **schema}
    expected = jsonschema.Draft202012Validator(full).is_valid(value)
    machine = compiled(full, ordered_properties=False, strict_properties=False, whitespace="free")
    assert valid(machine, value) == expected, (schema, value)


def _alive(machine: StateMachine, text: str) -> bool:
    return bool(StateMachine.advance_all_basic(machine.get_steppers(), text))


def test_the_completing_token_is_masked() -> None:
    machine = compiled({"type": "array", "uniqueItems": True}, whitespace="free")
    assert _alive(machine, '["a", "a')
    assert not _alive(machine, '["a", "a"')  # the closing quote completes a duplicate
    assert not _alive(machine, "[true, true")
    assert _alive(machine, "[1, 1")  # may still become 12
    assert not _alive(machine, "[1, 1.0]")
    assert not _alive(machine, '[{"x": [1]}, {"x": [1.0]}')
    assert _alive(machine, '[{"x": 1, "y": 2}, {"y": 2, "x": 3}]')
    assert not _alive(machine, '[{"x": 1, "y": 2}, {"y": 2, "x": 1}')


def test_large_finite_domain_caps_the_length() -> None:
    machine = compiled({"type": "array", "items": {"enum": list(range(8))}, "uniqueItems": True})
    full = json.dumps(list(range(8)))
    assert valid(machine, list(range(8)))
    assert not _alive(machine, full[:-1] + ", ")


def test_array_followed_by_more_text_in_one_token() -> None:
    """The stepper hands back the rest of a token that closes the array."""
    schema = {"properties": {"a": {"type": "array", "uniqueItems": True}, "b": {}}}
    machine = compiled(schema, ordered_properties=False, strict_properties=False)
    assert valid(machine, {"a": ["x", "y"], "b": 1})
    assert not valid(machine, {"a": ["x", "x"], "b": 1})


def _reference_key(value: Any) -> Any:
    """JSON equality as the `jsonschema` validator sees it (booleans are not numbers)."""
    if isinstance(value, bool) or value is None:
        return ("b", value)
    if isinstance(value, int | float):
        return ("n", Fraction(value))
    if isinstance(value, str):
        return ("s", value)
    if isinstance(value, list):
        return ("a", tuple(_reference_key(v) for v in value))
    return ("o", frozenset((k, _reference_key(v)) for k, v in value.items()))


SPELLINGS = st.sampled_from(
    [
        lambda v: json.dumps(v),
        lambda v: json.dumps(v, ensure_ascii=False, separators=(",", ":")),
        lambda v: json.dumps(v, indent=1, sort_keys=True),
    ]
)
NUMBERS = st.one_of(
    st.integers(-1000, 1000),
    st.sampled_from([0.0, -0.0, 0.5, 1.0, 100.0, 1e-7, 2.5e10]),
)
VALUES = st.recursive(
    st.one_of(st.none(), st.booleans(), NUMBERS, st.text('ab\u00e9\U0001f600"\\\n', max_size=3)),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from("xyz"), inner),
    max_leaves=6,
)


@settings(max_examples=400, deadline=None)
@given(a=VALUES, b=VALUES, spell_a=SPELLINGS, spell_b=SPELLINGS)
def test_canonical_keys_agree_with_json_equality(
    a: Any, b: Any, spell_a: Callable[[Any], str], spell_b: Callable[[Any], str]
) -> None:
    """The native key of two spellings coincides exactly when the values are JSON-equal."""
    key_a, key_b = canonical_json(spell_a(a)), canonical_json(spell_b(b))
    assert key_a is not None and key_b is not None
    assert (key_a == key_b) == (_reference_key(a) == _reference_key(b)), (a, b)
    assert canonical_json(spell_b(a)) == key_a


def test_canonical_numbers_and_escapes() -> None:
    same = [("1", "1.0"), ("10e-1", "0.1e1"), ("-0", "0.0"), ('"\\u0061"', '"a"')]
    for x, y in same:
        assert canonical_json(x) == canonical_json(y), (x, y)
    assert canonical_json('"\\ud83d\\ude00"') == canonical_json('"\U0001f600"')
    assert canonical_json("1") != canonical_json("true")
    assert canonical_json("1e1234567890123456789") is None  # exponent not compared
    assert canonical_json("[1,") is None


@pytest.mark.parametrize(
    "prefix",
    ['["a", "', "[true, ", "[1, 1", '[{"x": 1, "y": [2]}, {"y": [2], "x": ', '["ab", "a'],
)
def test_mask_is_what_the_stepper_consumes(smollm2: Any, prefix: str) -> None:
    """The native mask (the array's mask less duplicate-completing tokens) allows
    exactly the tokens the steppers consume, on a real 49k vocabulary."""
    schema = {"type": "array", "uniqueItems": True}
    mask = assert_mask_is_what_steppers_consume(smollm2, schema, prefix)
    closing = smollm2.encode('a"', add_special_tokens=False)
    if prefix == '["a", "' and len(closing) == 1:
        assert not (int(mask[closing[0] >> 5]) >> (closing[0] & 31)) & 1


NESTED: list[dict[str, Any]] = [
    {"type": "array", "uniqueItems": True, "items": {"type": "array", "uniqueItems": True}},
    {
        "type": "array",
        "uniqueItems": True,
        "items": {"type": "object", "properties": {"c": {"type": "array", "uniqueItems": True}}},
    },
    {"type": "array", "uniqueItems": True, "items": {"type": "string", "format": "regex"}},
    {
        "$defs": {
            "tree": {"type": "array", "uniqueItems": True, "items": {"$ref": "#/$defs/tree"}}
        },
        "$ref": "#/$defs/tree",
    },
]
NESTED_INSTANCES: list[Any] = [
    [["a", "b"]],
    [["a"], ["a"]],
    [["a", "a"]],
    [["a"], ["b"]],
    [["a", "b"], ["b", "a"]],
    [{"c": ["a", "b"]}],
    [{"c": ["a", "a"]}],
    [{"c": [1]}, {"c": [1.0]}],
    ["a+", "b"],
    ["a(", "b"],
    [[], [[]]],
    [[[]], [[]]],
    [[[], []]],
]


@pytest.mark.parametrize("schema", NESTED, ids=["arrays", "objects", "regex", "recursive"])
def test_checked_values_nested_in_a_unique_array(schema: dict[str, Any]) -> None:
    """A checked value inside a unique array (itself unique, a format, recursive)
    gets the verdict jsonschema gives."""
    machine = compiled(schema)
    checker = jsonschema.Draft202012Validator(schema, format_checker=jsonschema.FormatChecker())
    for instance in NESTED_INSTANCES:
        assert valid(machine, instance) == checker.is_valid(instance), instance


def _number_spellings(value: Decimal, shifts: int = 3, zeros: int = 2) -> list[str]:
    """JSON spellings of a number: the point moved ``-shifts..shifts`` places
    with an exponent making up for it (as ``e``, ``E+``, ``e0``), up to ``zeros``
    trailing zeros."""
    out: set[str] = set()
    for shift in range(-shifts, shifts + 1):
        mantissa = format(value.scaleb(-shift), "f")
        padded = [mantissa] + [
            mantissa + ("" if "." in mantissa else ".") + "0" * z for z in range(1, zeros + 1)
        ]
        sign = "-" if shift < 0 else ""
        suffixes = [
            f"e{shift}",
            f"E{'+' if shift >= 0 else '-'}{abs(shift)}",
            f"e{sign}0{abs(shift)}",
        ]
        out |= {m + e for m in padded for e in ([""] if shift == 0 else []) + suffixes}
    if value == 0:
        out |= {"-0", "-0.0", "0E5", "-0.00e-1"}
    return sorted(s for s in out if not s.startswith(("00", "-00")))


def _string_spellings(value: str) -> list[str]:
    """JSON spellings of a string: escaped, raw, and every character as \\u."""
    escaped = "".join(
        f"\\u{ord(c):04x}" if ord(c) < 0x10000 else json.dumps(c)[1:-1] for c in value
    )
    return sorted({json.dumps(value), json.dumps(value, ensure_ascii=False), f'"{escaped}"'})


def _spellings(value: Any, shifts: int = 3, zeros: int = 2) -> list[str]:
    if isinstance(value, bool | list | dict) or value is None:
        return [json.dumps(value)]
    if isinstance(value, str):
        return _string_spellings(value)
    return _number_spellings(Decimal(str(value)), shifts, zeros)


#: (item schema, its values, the values already in the array)
REACH = [
    (
        {"enum": ["abc", "abd", "ab\u00e9", 'x"y', "\u00e9", "\U0001f600a", "a/b", "t\t"]},
        ["abc", "abd", "ab\u00e9", 'x"y', "\u00e9", "\U0001f600a", "a/b", "t\t"],
        ["abc", "abd", "\u00e9", "\U0001f600a"],
    ),
    ({"type": "integer", "minimum": 0, "maximum": 20}, list(range(21)), [1, 10, 0, 2, 20]),
    (
        {"type": "number", "multipleOf": 0.25, "minimum": -1, "maximum": 1},
        [-1, -0.75, -0.5, -0.25, 0, 0.25, 0.5, 0.75, 1],
        [0, -0.25, 0.5, 1],
    ),
    (
        {"enum": [True, False, None, 1, 2.5, "t", "nul", -3]},
        [True, False, None, 1, 2.5, "t", "nul", -3],
        [True, None, 2.5, "t"],
    ),
    ({}, [True, False, None, 0, 7, "q"], [True, False, None, 0]),
]


@pytest.mark.parametrize(
    ("items", "values", "seen"), REACH, ids=["strings", "integers", "multiples", "mixed", "any"]
)
def test_an_item_begins_only_where_an_unseen_value_is_in_reach(
    items: dict[str, Any], values: list[Any], seen: list[Any]
) -> None:
    """After the seen items, a beginning of a spelling is consumed exactly when it
    begins a spelling of an unseen value that the array accepts whole (an item
    that could only repeat is refused where it begins), judged against spellings
    written here."""
    machine = compiled({"type": "array", "items": items, "uniqueItems": True})
    head = "[" + "".join(json.dumps(v) + "," for v in seen)
    unseen = [v for v in values if all(_reference_key(v) != _reference_key(w) for w in seen)]
    if not items:  # any value: more unseen ones
        unseen += [0.5, -7, 30, 1e-7, "", [], {}]
    wide = [s for v in unseen for s in _spellings(v, shifts=9, zeros=4)]
    whole = [s for s in wide if _alive(machine, head + s + "]")]
    assert len(whole) >= len(unseen)
    tried = 0
    for value in values:
        for spelling in _spellings(value):
            for end in range(1, len(spelling)):
                prefix = spelling[:end]
                reach = any(s.startswith(prefix) for s in whole)
                assert _alive(machine, head + prefix) == reach, (head + prefix, reach)
                tried += 1
    assert tried > 100


#: (number item schema with infinitely many values, the values already in the
#: array, unseen values, beginnings that can only end as seen values)
ENDLESS = [
    (
        {
            "anyOf": [
                {"enum": [-469, 1.5]},
                {"type": "number", "minimum": 27.82, "exclusiveMaximum": 42.63},
            ]
        },
        [-469, 1.5, 30, 27.82],
        [31, 27.83, 27.821, 42.62, 42.629, 30.5, 40, 0.3001e2],
        ["-4", "-4.69e2", "-46900.0e-2", "1.5", "15e-1", "1.50", "0.15e1"],
    ),
    (
        {"type": "number", "minimum": 0, "maximum": 1},
        [0, 1, 0.5],
        [0.25, 0.001, 1e-4, 0.999, 0.05],
        ["1e0", "10e-1", "100e-2", "0.1e1"],
    ),
    (
        {"anyOf": [{"enum": [7]}, {"type": "integer", "minimum": 100}]},
        [7, 100],
        [101, 700, 1000, 7000, 150],
        ["70e-1", "0.7e1", "1.00e2", "10000e-2"],
    ),
    (
        {"type": "integer", "minimum": 0, "multipleOf": 5},
        [0, 5, 100],
        [10, 50, 105, 1000, 25],
        ["0.5e1", "50e-1", "0e0", "1.00e2"],
    ),
]

_NUMBER_BYTES = "e-.123456789+0E"


def _whole(text: str) -> bool:
    try:
        json.loads(text)
    except ValueError:
        return False
    return True


def _completes(
    machine: StateMachine, head: str, text: str, depth: int, alphabet: str = _NUMBER_BYTES
) -> str | None:
    """An item the array accepts that begins with ``text`` and has at most
    ``depth`` more bytes of ``alphabet``, or ``None`` (depth first over the
    bytes it keeps)."""
    if _whole(text) and _alive(machine, head + text + "]"):
        return text
    if depth == 0:
        return None
    for c in alphabet:
        if _alive(machine, head + text + c) and (
            found := _completes(machine, head, text + c, depth - 1, alphabet)
        ):
            return found
    return None


@pytest.mark.parametrize(
    ("items", "seen", "unseen", "dead"), ENDLESS, ids=["anyOf", "unit", "enum-or-more", "steps"]
)
def test_a_number_item_begins_only_where_its_automaton_reaches_an_unseen_value(
    items: dict[str, Any], seen: list[Any], unseen: list[Any], dead: list[str]
) -> None:
    """Items with infinitely many values, where some beginnings leave only seen
    ones (a branch the sign rules out, a range an exponent has closed): every
    beginning the array consumes completes to an item of an unseen value that
    jsonschema finds valid, every beginning of a spelling of an unseen value is
    consumed, and the listed beginnings that can only end as seen values are
    refused."""
    machine = compiled({"type": "array", "items": items, "uniqueItems": True})
    plain = compiled({"type": "array", "items": items})
    checker = jsonschema.Draft202012Validator(items)
    head = "[" + "".join(json.dumps(v) + "," for v in seen)
    values = {Decimal(str(v)) for v in seen}
    for prefix in dead:
        assert _alive(plain, head + prefix), prefix
        assert not _alive(machine, head + prefix), prefix
    whole = [s for v in unseen for s in _spellings(v, 4, 2) if _alive(plain, head + s + "]")]
    assert len(whole) > len(unseen)
    for spelling in whole:
        for end in range(1, len(spelling) + 1):
            assert _alive(machine, head + spelling[:end]), head + spelling[:end]
    spellings = {s for v in seen for s in _spellings(v, 4, 2)} | set(whole)
    refused = 0
    for prefix in sorted({s[:end] for s in spellings for end in range(1, len(s) + 1)}):
        if not _alive(machine, head + prefix):
            refused += _alive(plain, head + prefix)
            continue
        item = _completes(machine, head, prefix, 8)
        assert item is not None, head + prefix
        assert Decimal(item) not in values and checker.is_valid(json.loads(item)), item
    assert refused > len(dead)


#: (string item schema with infinitely many values, or more than the check
#: lists, the values already in the array, unseen values, beginnings that can
#: only end as seen values)
STRINGS = [
    (
        {"type": "string", "format": "date"},
        ["2020-01-01", "2021-12-31", "2020-02-29"],
        ["2020-01-02", "2020-12-31", "1999-01-01", "2020-01-10"],
        ['"2020-01-01', '"2021-12-31', '"2020-02-29', '"2020-02-2\\u0039'],
    ),
    (
        {"type": "string", "maxLength": 3},
        ["abc", "ab", "\u00e9t\u00e9"],
        ["abd", "a", "", "\u00e9", "xyz"],
        ['"abc', '"ab\\u0063', '"\u00e9t\u00e9', '"\\u00e9t\\u00e9'],
    ),
    (
        {"anyOf": [{"type": "string", "pattern": "^x[0-9]?$"}, {"enum": ["y", "zz"]}]},
        ["x1", "x", "y"],
        ["x2", "x0", "zz"],
        ['"x1', '"\\u0078\\u0031', '"y'],
    ),
    ({"type": "string", "format": "hostname"}, ["a", "b"], ["ab", "a.b", "c"], []),
]


@pytest.mark.parametrize(
    ("items", "seen", "unseen", "dead"), STRINGS, ids=["date", "short", "anyOf", "hostname"]
)
def test_a_string_item_begins_only_where_its_machine_reaches_an_unseen_value(
    items: dict[str, Any], seen: list[Any], unseen: list[Any], dead: list[str]
) -> None:
    """String items read by automata (formats, patterns, enums) or with length
    bounds, where some beginnings leave only seen values: every beginning the
    array consumes (written without escapes) completes to an item of an unseen
    value that jsonschema (formats checked) finds valid, every beginning of a
    spelling of an unseen value (escapes too) is consumed, and the listed
    beginnings are refused."""
    machine = compiled({"type": "array", "items": items, "uniqueItems": True})
    plain = compiled({"type": "array", "items": items})
    checker = jsonschema.Draft202012Validator(items, format_checker=jsonschema.FormatChecker())
    head = "[" + "".join(json.dumps(v) + "," for v in seen)
    for prefix in dead:
        assert _alive(plain, head + prefix), prefix
        assert not _alive(machine, head + prefix), prefix
    whole = [s for v in unseen for s in _string_spellings(v) if _alive(plain, head + s + "]")]
    assert len(whole) >= len(unseen)
    for spelling in whole:
        for end in range(1, len(spelling) + 1):
            assert _alive(machine, head + spelling[:end]), head + spelling[:end]
    spellings = {s for v in seen for s in _string_spellings(v)} | set(whole)
    refused = 0
    for prefix in sorted({s[:end] for s in spellings for end in range(1, len(s) + 1)}):
        if not _alive(machine, head + prefix):
            refused += _alive(plain, head + prefix)
            continue
        if "\\" in prefix:  # escapes: judged by the spellings above (a search would be long)
            continue
        item = _completes(machine, head, prefix, 12, '"0123456789-abcdxyz.')
        assert item is not None, head + prefix
        assert json.loads(item) not in seen and checker.is_valid(json.loads(item)), item
    assert refused >= len(dead)
