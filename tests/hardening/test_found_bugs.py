"""Regression tests for what the fuzzers in this folder found.

A test marked ``xfail(strict=True)`` records a bug that is not fixed yet (the
owner is named in the reason): it fails loudly once the bug is fixed, so the
mark comes off and the test guards the fix.
"""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from _support.json_schema import accepts, nested_objects
from _support.tokenizers import smollm2_tokenizer
from hardening.promise import (
    LogitSource,
    Outcome,
    Unjudged,
    check_case,
    exact_json,
    run_case,
    validator,
)
from jsonschema import Draft202012Validator
from pse_core._core import StateMachine
from pse_core.errors import SchemaError, TokenRejectedError

from pse import StructuringEngine
from pse.types.json.schema_machine import schema_to_state_machine

#: U+40000: UTF-8 F1 80 80 80. SmolLM2's byte-level vocabulary has no token
#: holding the byte F1, so a key with it is written with a JSON escape.
PLANE4_KEY = "0\U00040000"


def test_budget_holds_when_the_shortest_bytes_are_unspellable() -> None:
    """The shortest bytes hold F1, which no token spells: the completion falls back
    to the vocabulary's one-byte tokens (the escaped key) and the budget holds."""
    tokenizer = smollm2_tokenizer()
    engine = StructuringEngine(tokenizer)
    schema = {
        "type": "object",
        "properties": {PLANE4_KEY: {"type": "integer"}},
        "required": [PLANE4_KEY],
        "additionalProperties": False,
    }
    engine.configure(schema)
    assert PLANE4_KEY in (engine.shortest_completion() or "")  # raw bytes are shorter
    plan = engine.completion_token_ids()
    assert plan is not None
    text = tokenizer.decode(plan)
    assert "\\u" in text and PLANE4_KEY not in text  # the key escaped
    assert engine.consume_text(text) and engine.has_reached_accept_state
    engine.configure(schema)
    source, check = LogitSource(engine), validator(schema)
    for seed in range(10):
        outcome = run_case(engine, source, seed, greedy=False, bias=0.0, budget=40)
        assert check_case(outcome, check, 40) == [], json.dumps(schema)


def test_the_escaped_key_is_accepted_and_valid() -> None:
    """The escaped spelling of the same key is what a model can write: it is accepted."""
    engine = StructuringEngine(smollm2_tokenizer())
    schema = {"type": "object", "properties": {PLANE4_KEY: {"const": 1}}, "required": [PLANE4_KEY]}
    engine.configure(schema)
    text = json.dumps({PLANE4_KEY: 1})  # '{"0\\ud8c0\\udc00": 1}'
    assert engine.consume_text(text) and engine.has_reached_accept_state
    assert engine.get_structured_output() == {PLANE4_KEY: 1}


@pytest.mark.parametrize("depth", [100, 200])
def test_nesting_compiles(depth: int) -> None:
    engine = StructuringEngine(smollm2_tokenizer())
    schema, instance = nested_objects(depth)
    engine.configure(schema)
    assert engine.consume_text(json.dumps(instance)) and engine.has_reached_accept_state


def test_nesting_beyond_the_limit_is_a_schema_error() -> None:
    engine = StructuringEngine(smollm2_tokenizer())
    with pytest.raises(SchemaError):
        engine.configure(nested_objects(5_000)[0])


#: Schemas no instance satisfies: configure() declines them (code unsatisfiable,
#: from the compiler's own emptiness test or from the compiled machine matching
#: nothing); before, they compiled and generation dead-ended (NoValidTokenError,
#: or a budget spent on an unfinished output).
EMPTY_SCHEMAS = [
    {"type": "string", "maxLength": 0, "pattern": "^[a-z]+$"},
    {"type": "string", "minLength": 3, "maxLength": 5, "pattern": "^[0-9]{7}$"},
    {"type": "array", "items": {"type": "string", "maxLength": 0, "pattern": "a"}, "minItems": 1},
    {
        "type": "object",
        "properties": {"a": {"type": "string", "maxLength": 1, "pattern": "^ab$"}},
        "required": ["a"],
    },
    {
        "$defs": {
            "n": {"type": "object", "properties": {"c": {"$ref": "#/$defs/n"}}, "required": ["c"]}
        },
        "$ref": "#/$defs/n",
    },
]


@pytest.mark.parametrize("schema", EMPTY_SCHEMAS, ids=lambda s: json.dumps(s)[:50])
def test_an_empty_language_is_a_schema_error(schema: dict[str, Any]) -> None:
    engine = StructuringEngine(smollm2_tokenizer())
    engine.configure({"type": "boolean"})
    with pytest.raises(SchemaError) as declined:
        engine.configure(schema)
    assert declined.value.code == "unsatisfiable", declined.value
    # the previous configuration is kept
    assert engine.consume_text("true") and engine.get_structured_output() is True


#: Satisfiable schemas whose machines hold what the emptiness check cannot see
#: into (Python-defined nodes) or that only a base case keeps finite: never
#: reported empty. Each comes with an instance the engine must accept.
NOT_EMPTY = [
    ({"type": "array", "items": {"enum": [1, 2]}, "minItems": 2, "uniqueItems": True}, [1, 2]),
    ({"type": "string", "format": "idn-hostname"}, "example.com"),
    (
        {
            "$defs": {"n": {"type": "object", "properties": {"c": {"$ref": "#/$defs/n"}}}},
            "$ref": "#/$defs/n",
        },
        {"c": {}},
    ),
    ({"type": "string", "maxLength": 0}, ""),
]


@pytest.mark.parametrize(("schema", "instance"), NOT_EMPTY, ids=lambda s: json.dumps(s)[:40])
def test_satisfiable_schemas_are_not_reported_empty(schema: dict[str, Any], instance: Any) -> None:
    engine = StructuringEngine(smollm2_tokenizer())
    try:
        engine.configure(schema)
    except SchemaError as exc:
        assert exc.code != "unsatisfiable", exc
        pytest.skip(f"declined for another reason: {exc}")
    assert engine.consume_text(json.dumps(instance)) and engine.has_reached_accept_state


#: Zero with a negative exponent is a multiple of everything (and an integer);
#: the fuzzer found ``0e-1`` refused under multipleOf 100, whose exponent -1
#: check needs more remainder states than the number automaton keeps.
ZERO_SPELLINGS = ["0e-1", "-0e-1", "0.0e-3", "0E-4", "0.000e-2"]


@pytest.mark.parametrize(
    "schema",
    [
        {"type": "number", "multipleOf": 100},
        {"type": "integer", "multipleOf": 997},
        {"type": "number", "multipleOf": 100, "minimum": 0, "maximum": 0},
        {"oneOf": [{"type": "integer", "multipleOf": 100}]},
    ],
    ids=lambda s: json.dumps(s)[:50],
)
def test_zero_with_a_negative_exponent_is_a_multiple(schema: dict[str, Any]) -> None:
    engine = StructuringEngine(smollm2_tokenizer())
    engine.configure(schema)
    check = validator(schema)
    for text in ZERO_SPELLINGS:
        assert check.is_valid(exact_json(text)), text
        engine.reset(False)
        assert engine.consume_text(text) and engine.has_reached_accept_state, (schema, text)


def test_not_multiple_of_still_rejects_zero() -> None:
    engine = StructuringEngine(smollm2_tokenizer())
    engine.configure({"type": "number", "not": {"multipleOf": 100}})
    for text in ZERO_SPELLINGS:
        engine.reset(False)
        assert not (engine.consume_text(text) and engine.has_reached_accept_state), text


def test_large_multiples_are_judged_exactly() -> None:
    """The fuzzer's output ``347149876472999636E+4`` is 5 * 694299752945999272000,
    but ``json`` decodes it to a double whose remainder modulo 5 is 3: the engine
    is right, and the promise checker judges numbers exactly."""
    schema = {"type": "array", "items": {"oneOf": [{"type": "integer", "multipleOf": 5}]}}
    text = "[-180, 347149876472999636E+4]"
    assert not Draft202012Validator(schema).is_valid(json.loads(text))  # the float's verdict
    assert validator(schema).is_valid(exact_json(text))
    assert not validator(schema).is_valid(exact_json("[3471498764729996360001]"))
    engine = StructuringEngine(smollm2_tokenizer())
    engine.configure(schema)
    assert engine.consume_text(text) and engine.has_reached_accept_state


@pytest.mark.parametrize(
    ("text", "valid"),
    [
        ("0000-01-01", False),
        ("0000-02-29", False),
        ("0001-01-01", True),
        ("2000-02-29", True),
        ("1900-02-29", False),
        ("0400-02-29", True),
        ("9999-12-31", True),
    ],
)
def test_format_date_years_follow_the_date_checker(text: str, valid: bool) -> None:
    """``date`` is years 0001-9999, as jsonschema's checker (Python's date) has it;
    the fuzzer saw the engine write ``0000-11-01``, which that checker rejects."""
    schema = {"type": "string", "format": "date"}
    assert validator(schema).is_valid(text) == valid
    engine = StructuringEngine(smollm2_tokenizer())
    engine.configure(schema)
    assert (engine.consume_text(json.dumps(text)) and engine.has_reached_accept_state) == valid


def test_date_time_keeps_the_year_zero_of_rfc_3339() -> None:
    """RFC 3339's date-fullyear is any four digits (0000 a leap year, as in ISO 8601)."""
    engine = StructuringEngine(smollm2_tokenizer())
    engine.configure({"type": "string", "format": "date-time"})
    assert engine.consume_text('"0000-02-29T00:00:00Z"') and engine.has_reached_accept_state


@pytest.mark.parametrize(
    ("items", "duplicate", "distinct"),
    [
        ({"anyOf": [{"const": "a"}, {"enum": ["a", "b"]}]}, ["a", "a"], ["b", "a"]),
        ({"anyOf": [{"const": True}, {"type": "boolean"}]}, [True, True], [False, True]),
        (
            {"anyOf": [{"const": 1}, {"type": "integer", "minimum": 0, "maximum": 2}]},
            [1, 1],
            [2, 1],
        ),
        ({"enum": [1, 1.0, 2]}, [1, 1.0], [1, 2]),
    ],
)
def test_unique_items_over_overlapping_alternatives(
    items: dict[str, Any], duplicate: list[Any], distinct: list[Any]
) -> None:
    """The finite item set of uniqueItems lists each value once: alternatives that
    share a value gave it twice, so ``["a", "a"]`` was accepted (random seeds)."""
    engine = StructuringEngine(smollm2_tokenizer())
    schema = {"type": "array", "items": items, "uniqueItems": True}
    assert not Draft202012Validator(schema).is_valid(duplicate)
    engine.configure(schema)
    assert not (engine.consume_text(json.dumps(duplicate)) and engine.has_reached_accept_state)
    engine.configure(schema)
    assert engine.consume_text(json.dumps(distinct)) and engine.has_reached_accept_state


#: Objects whose count needs keys that are not named (compiled with
#: ``strict_properties=False``, which would close some of them): twenty optional
#: properties put any-order objects past ``max_object_states`` (the native key
#: check).
REPEATABLE: list[dict[str, Any]] = [
    {"type": "object", "minProperties": 2},
    {"type": "object", "properties": {"a": {}}, "minProperties": 2},
    {"type": "object", "additionalProperties": {"type": "integer"}, "minProperties": 3},
    {"type": "object", "patternProperties": {"^x": {}}, "minProperties": 2},
    {"type": "object", "properties": {f"p{i}": {} for i in range(20)}, "minProperties": 2},
]


@pytest.mark.parametrize("schema", REPEATABLE, ids=lambda s: json.dumps(s)[:50])
@pytest.mark.parametrize("ordered", [True, False])
def test_a_repeated_undeclared_key_does_not_count_twice(
    schema: dict[str, Any], ordered: bool
) -> None:
    """``{"x": 1, "x": 2}`` was two properties to the engine and one to json.loads:
    minProperties passed on fewer keys (found beside the random-seed runs:
    test_object_keys draws repeated keys). A repeated key is refused; distinct
    ones still count."""
    machine = schema_to_state_machine(schema, ordered_properties=ordered, strict_properties=False)
    check = Draft202012Validator(schema)
    assert not check.is_valid(json.loads('{"x": 1, "x": 2}'))
    assert not accepts(machine, '{"x": 1, "x": 2}')
    assert not accepts(machine, '{"x": 1, "xy": 2, "x": 3}')
    assert check.is_valid({"x": 1, "xy": 2, "xz": 3})
    assert accepts(machine, '{"x": 1, "xy": 2, "xz": 3}')


def test_a_huge_exponent_is_not_read_exactly() -> None:
    """The long fuzz run stalled on an output like ``1e999999999``: the checker
    read it as an exact int (a billion digits). Past ``MAX_EXACT_EXPONENT`` the
    output is judged on everything but its schema, at once."""
    text = "1e999999999"
    with pytest.raises(Unjudged):
        exact_json(text)
    outcome = Outcome(ended=True, accepted=True, text=text, engine_value=json.loads(text))
    assert check_case(outcome, validator({"type": "integer"}), None) == []
    assert exact_json("1e1000") == 10**1000


def test_a_fraction_a_double_rounds_to_an_integer_is_no_integer() -> None:
    """Fuzz seed 33 flagged ``100000011101001111101011000011.1`` under ``not:
    {type: [integer, boolean]}``: the engine was right (the number has a
    fraction), the checker read it as the double 1.000000111010011e+29, which
    is integral."""
    schema = {"not": {"type": ["integer", "boolean"]}}
    text = "100000011101001111101011000011.1"
    assert not Draft202012Validator(schema).is_valid(json.loads(text))  # the double's verdict
    assert validator(schema).is_valid(exact_json(text))
    assert validator({"type": "number", "minimum": 1e29}).is_valid(exact_json(text))
    assert not validator(schema).is_valid(exact_json("100000011101001111101011000011.0"))
    engine = StructuringEngine(smollm2_tokenizer())
    engine.configure(schema)
    assert engine.consume_text(text) and engine.has_reached_accept_state
    engine.reset(False)
    assert not (engine.consume_text(text[:-2]) and engine.has_reached_accept_state)


def test_a_float_const_is_its_decimal() -> None:
    """The long fuzz run flagged ``[-69624700533709950]`` under ``const
    [-6.962470053370995e+16]``: the engine was right (the const's decimal is that
    integer), the checker compared an exact int with the rounded float."""
    check = validator({"const": [-6.962470053370995e16]})
    for text in ("[-69624700533709950]", "[-6962470053370.995E+4]", "[-6.962470053370995e16]"):
        assert check.is_valid(exact_json(text))
    assert not check.is_valid(exact_json("[-69624700533709952]"))
    assert validator({"const": 1.5}).is_valid(exact_json("1.50"))


@pytest.mark.parametrize("ordered", [True, False])
def test_a_few_undeclared_keys_are_listed(ordered: bool) -> None:
    """Under the key check alone, ``{"a": 1, "a`` could only close as a repeated
    key (a dead end); a key language of a few words is listed as optional named
    properties instead, each at most once."""
    schema = {"type": "object", "propertyNames": {"enum": ["a", "b"]}, "minProperties": 2}
    machine = schema_to_state_machine(schema, ordered_properties=ordered)
    steppers = StateMachine.advance_all_basic(machine.get_steppers(), '{"a": 1, "a')
    assert not any(not s.remaining_input for s in steppers)
    assert accepts(machine, '{"a": 1, "b": 2}')


#: Fuzz findings of stop 27 (``fuzz_engine.py --seed 27``): the uniqueness check
#: let an item's beginning through when some textual extension differs from the
#: items seen, though the item schema leaves only completions equal (in JSON) to
#: one of them, so generation got stuck.
UNIQUE_DEAD_ENDS = [
    (  # zero spelled twice: a zero mantissa whose exponent has begun stays zero
        {"type": "array", "uniqueItems": True, "items": {"type": "integer", "multipleOf": 2}},
        "[0,0E01",
    ),
    (  # a literal is fixed by its first byte
        {"type": "array", "uniqueItems": True},
        "[true, tru",
    ),
    (  # a finite item set: only -469 begins with '-'
        {"type": "array", "uniqueItems": True, "items": {"enum": [-469, *range(27, 43)]}},
        "[-4.69e2,-46900.0e-2",
    ),
    # Arrays and objects of finitely many values are counted (stop 27, seed 28):
    # more unique items than values is no array at all.
    (  # the one object {"k": null}, twice
        {
            "anyOf": [
                {
                    "type": "array",
                    "minItems": 2,
                    "uniqueItems": True,
                    "items": {
                        "type": "object",
                        "properties": {"k": {"const": None}},
                        "required": ["k"],
                        "additionalProperties": False,
                    },
                },
                {"type": "integer"},
            ]
        },
        '[{"k":null},{"k": null',
    ),
    (  # {} twice
        {
            "anyOf": [
                {
                    "type": "array",
                    "minItems": 2,
                    "uniqueItems": True,
                    "items": {"type": "object", "additionalProperties": False},
                },
                {"type": "integer"},
            ]
        },
        "[{},{",
    ),
    (  # [null] is the one unique array of nulls
        {
            "type": "array",
            "maxItems": 2,
            "uniqueItems": True,
            "items": {
                "type": "array",
                "items": {"enum": [None]},
                "minItems": 1,
                "maxItems": 4,
                "uniqueItems": True,
            },
        },
        "[[null],[ null",
    ),
    (  # maxLength 0: "" is the one string (seed 29)
        {
            "anyOf": [
                {
                    "type": "array",
                    "minItems": 2,
                    "uniqueItems": True,
                    "items": {"type": "string", "maxLength": 0},
                },
                {"type": "integer"},
            ]
        },
        '["",\n"',
    ),
    (  # two unique items from {[]}: no such array
        {
            "type": "array",
            "maxItems": 4,
            "items": {
                "type": "array",
                "items": {"type": "array", "maxItems": 0},
                "minItems": 2,
                "maxItems": 2,
                "uniqueItems": True,
            },
        },
        "[[[],[",
    ),
    # Infinitely many item values, but the sign and digits leave only the enum's.
    (
        {
            "type": "array",
            "uniqueItems": True,
            "items": {
                "anyOf": [
                    {"enum": [-469]},
                    {"type": "number", "minimum": 27.82, "exclusiveMaximum": 42.63},
                ]
            },
        },
        "[-4.69e2,-46900.0e-2",
    ),
]


#: Bytes that continue JSON text other than blanks.
_NOT_BLANK = '{}[],:"0123456789-+.eEtrufalsnk'


def _refused_or_open(schema: dict[str, Any], prefix: str) -> None:
    """Either the engine refuses the prefix or it still allows a token after it,
    and the compiled machine refuses it or reads a byte other than a blank after
    it (blanks alone would only put the dead end off)."""
    machine = schema_to_state_machine(schema)
    if StateMachine.advance_all_basic(machine.get_steppers(), prefix):
        assert any(
            StateMachine.advance_all_basic(machine.get_steppers(), prefix + c) for c in _NOT_BLANK
        ), prefix
    tokenizer = smollm2_tokenizer()
    engine = StructuringEngine(tokenizer)
    engine.configure(schema)
    for token_id in tokenizer.encode(prefix, add_special_tokens=False):
        try:
            engine.consume_token(token_id)
        except TokenRejectedError:
            return
    assert engine.token_bitmask().any(), prefix


@pytest.mark.parametrize(
    ("schema", "prefix"),
    UNIQUE_DEAD_ENDS,
    ids=[
        "zero",
        "literal",
        "finite",
        "object",
        "empty-object",
        "array",
        "empty-string",
        "empty-array",
        "infinite",
    ],
)
def test_unique_items_prefixes_that_only_repeat_are_refused(
    schema: dict[str, Any], prefix: str
) -> None:
    _refused_or_open(schema, prefix)


#: Fuzz findings of stop 28 (``fuzz_engine.py --seed 28`` and its neighbours): a
#: count past what native code takes (std::bad_cast), and counts that built one
#: graph state per unit (minProperties 10**6 and minContains 3e9 hung compile).
HUGE_COUNTS: list[tuple[dict[str, Any], str | None]] = [
    ({"maxLength": 10813620030492370866874089472}, None),
    ({"type": "string", "minLength": 10**28}, "minLength"),
    ({"type": "array", "maxItems": 2**40}, None),
    ({"type": "array", "minContains": 3 * 10**9, "contains": {}}, "minContains"),
    ({"type": "array", "maxContains": 3000, "contains": {}}, "maxContains"),
    ({"type": "object", "minProperties": 10**6}, None),
    ({"type": "object", "maxProperties": 10**6}, None),
    ({"type": "object", "maxProperties": 10**6, "properties": {"a": {}}}, None),
]


@pytest.mark.parametrize(("schema", "declined"), HUGE_COUNTS)
def test_huge_counts_compile_or_decline_at_once(
    schema: dict[str, Any], declined: str | None
) -> None:
    """A maximum past ``MAX_COUNT`` is no bound; a minimum past it, and counts the
    graphs would spell out past ``MAX_EXPLICIT_ITEMS`` without a native check
    to count them, are declined with the keyword named."""
    if declined is not None:
        with pytest.raises(SchemaError) as error:
            schema_to_state_machine(schema)
        assert error.value.keyword == declined and error.value.code == "too-complex"
        return
    machine = schema_to_state_machine(schema)
    checker = Draft202012Validator(schema)
    for text in ['{"a": 1}', "{}", '"ab"', "[1, 2]"]:
        assert accepts(machine, text) == checker.is_valid(json.loads(text)), text


def test_the_plan_followed_keeps_the_budget() -> None:
    """Fuzz seed 28: the shortest completion after ``{"degrees":0,`` is
    ``"keep_original":true}`` (7 tokens); after its first token ``"`` the native
    plan is ``image_format":"BMP"}`` (as short in bytes, 7 tokens), so with 6
    left the budget looked lapsed and went unenforced. The rest of the plan
    followed (6 tokens) is kept instead."""
    tokenizer = smollm2_tokenizer()
    engine = StructuringEngine(tokenizer)
    schema = {
        "type": "object",
        "required": ["degrees"],
        "properties": {
            "degrees": {"type": "integer"},
            "image_format": {"type": "string", "enum": ["JPEG", "PNG", "BMP", "GIF", "TIFF"]},
            "keep_original": {"type": "boolean"},
        },
    }
    engine.configure(schema)
    source, check = LogitSource(engine), validator(schema)
    for seed in range(2, 8):
        for greedy, bias in ((False, 3.0), (False, 8.0), (True, 0.0)):
            outcome = run_case(engine, source, seed, greedy=greedy, bias=bias, budget=16)
            assert check_case(outcome, check, 16) == [], (seed, outcome.text)


@pytest.mark.parametrize("keyword", ["exclusiveMinimum", "exclusiveMaximum"])
def test_a_boolean_exclusive_bound_is_draft_4_only(keyword: str) -> None:
    """Fuzz seed 29: ``exclusiveMinimum: false`` was read as draft 4's modifier
    (no bound) where jsonschema's 2020-12 validator reads ``False`` as 0. Later
    drafts take a number there: the boolean is now a clear error, and draft 4
    keeps its meaning when declared."""
    with pytest.raises(SchemaError) as error:
        schema_to_state_machine({keyword: False})
    assert error.value.keyword == keyword and error.value.code == "invalid-schema"
    draft4 = {"$schema": "http://json-schema.org/draft-04/schema#", "minimum": 0, "maximum": 9}
    machine = schema_to_state_machine({**draft4, keyword: True})
    assert accepts(machine, "5")
    assert not accepts(machine, "0" if keyword == "exclusiveMinimum" else "9")


def test_completions_do_not_spell_out_huge_counts() -> None:
    """Fuzz seed 30: ``[{...}, {"minItems": 164123760}, ...]`` (a list is a union)
    spelled the array alternative's shortest completion, 330 MB, before taking
    the one-byte one of another; a node whose shortest match is longer than
    ``kMaxCompletionBytes`` now has no known completion."""
    engine = StructuringEngine(smollm2_tokenizer())
    engine.configure([{"a": None}, {"minItems": 164123760}])
    assert engine.shortest_completion() is not None
    assert len(engine.shortest_completion() or "") < 10
    engine.configure({"type": "array", "minItems": 10**6})
    assert engine.shortest_completion() is None  # 2 MB: past the limit
    engine.configure({"type": "array", "minItems": 1000})
    assert len(engine.shortest_completion() or "") == 2001


#: Fuzz seed 31: items read by overlapping alternatives (``hostname`` is a graph
#: of DFAs per label-length cap; an anyOf of overlapping patterns). Each item
#: left one path per alternative that read it, and the engine kept them all, so
#: the paths multiplied per item (614,400 after 22 tokens, gigabytes, a hang).
AMBIGUOUS_ITEMS: list[tuple[dict[str, Any], str, int]] = [
    ({"type": "string", "format": "hostname"}, '"issa"', 12),
    (
        {
            "anyOf": [
                {"type": "string", "pattern": "^a+$"},
                {"type": "string", "pattern": "^a*$"},
            ]
        },
        '"aa"',
        2,
    ),
]


@pytest.mark.parametrize(("items", "item", "most"), AMBIGUOUS_ITEMS, ids=["hostname", "anyOf"])
def test_ambiguous_items_do_not_multiply_the_paths(
    items: dict[str, Any], item: str, most: int
) -> None:
    """Paths that differ only in how an item was read continue alike and are
    kept once: their number stays at the alternatives of one item."""
    tokenizer = smollm2_tokenizer()
    engine = StructuringEngine(tokenizer)
    engine.configure({"type": "array", "items": items})
    text = "[" + ",".join([item] * 30) + "]"
    for token_id in tokenizer.encode(text, add_special_tokens=False):
        engine.consume_token(token_id)
        assert len(engine.steppers) <= most
    assert engine.has_reached_accept_state
    assert engine.get_structured_output(raise_on_error=True) == json.loads(text)


#: Fuzz seed 32: a uniqueItems array whose items admit no value (a pattern of 8
#: characters under maxLength 5) but which needs two of them. The plain array
#: compiled to NeverStateMachine, but wrapped in the uniqueness check it looked
#: like an array, so the object offered the key and then had no value for it.
EMPTY_UNIQUE_ITEMS = {
    "type": "string",
    "minLength": 4,
    "maxLength": 5,
    "pattern": "^[0-9]{3}-[0-9]{4}$",
}


@pytest.mark.parametrize("prefix", ['{"a":', '{"a": [', '{"'])
def test_a_unique_array_of_no_items_is_no_array(prefix: str) -> None:
    array = {"type": "array", "items": EMPTY_UNIQUE_ITEMS, "minItems": 2, "uniqueItems": True}
    _refused_or_open({"type": "object", "properties": {"a": array}}, prefix)


def test_unique_strings_of_bounded_length_are_not_searched_text_by_text() -> None:
    """Fuzz seed 32: strings of 4-7 characters containing an ``x`` under
    uniqueItems. Their automaton has no cycle, so every beginning went to the
    search of the texts beyond it, which gave up only after 4,096 of them, for
    each allowed token of each mask (minutes per mask). The count of texts
    without a backslash beyond a state, more than the items seen, now answers
    at once. A guard in CPU time (it was minutes; it is milliseconds)."""
    schema = {
        "type": "array",
        "items": {
            "type": "array",
            "items": {"type": "string", "minLength": 4, "maxLength": 7, "pattern": "x+"},
            "minItems": 2,
            "uniqueItems": True,
        },
    }
    tokenizer = smollm2_tokenizer()
    engine = StructuringEngine(tokenizer)
    engine.configure(schema)
    start = time.process_time()
    for token_id in tokenizer.encode('[["xxxx","xxxx', add_special_tokens=False):
        assert engine.token_bitmask().any()
        engine.consume_token(token_id)
    assert engine.token_bitmask().any()
    assert time.process_time() - start < 5.0
    assert not StateMachine.advance_all_basic(
        schema_to_state_machine(schema).get_steppers(), '[["xxxx","xxxx"'
    )
