"""The runnable examples of the original API reference pages (base, datatype and
format state machines), ported as written and executed; each "This will
(not) match" comment is an assertion. Where an example cannot run as written,
the corrected form is used and the correction is named in a comment (the list
is in docs/compat.md)."""

from __future__ import annotations

import pytest
from pse_core import StateMachine
from pse_core.errors import SchemaError

from ._walk import matches, value

# ---------------------------------------------------------------- base.md


def test_any_state_machine() -> None:
    from pse.types.base.any import AnyStateMachine
    from pse.types.number import NumberStateMachine
    from pse.types.string import StringStateMachine

    any_state_machine = AnyStateMachine([StringStateMachine(), NumberStateMachine()])
    assert value(any_state_machine, '"a"') == "a" and value(any_state_machine, "12") == 12
    assert not matches(any_state_machine, "true")


def test_chain_state_machine() -> None:
    from pse.types.base.chain import ChainStateMachine
    from pse.types.base.phrase import PhraseStateMachine
    from pse.types.string import StringStateMachine
    from pse.types.whitespace import WhitespaceStateMachine

    chain_state_machine = ChainStateMachine(
        [
            StringStateMachine(),
            WhitespaceStateMachine(),
            PhraseStateMachine(":"),
            WhitespaceStateMachine(),
            StringStateMachine(),
        ]
    )
    assert matches(chain_state_machine, '"name": "John"')
    optional_chain = ChainStateMachine(
        [PhraseStateMachine(","), WhitespaceStateMachine()], is_optional=True
    )
    assert optional_chain.is_optional and matches(optional_chain, ", ")


def test_loop_state_machine() -> None:
    from pse.types.base.loop import LoopStateMachine
    from pse.types.number import NumberStateMachine

    numbers_list = LoopStateMachine(
        NumberStateMachine(), min_loop_count=1, max_loop_count=5, whitespace_seperator=True
    )
    assert matches(numbers_list, "1 2 3")
    assert not matches(numbers_list, "1 2 3 4 5 6")
    assert not matches(numbers_list, "")


def test_phrase_state_machine() -> None:
    from pse.types.base.phrase import PhraseStateMachine

    greeting = PhraseStateMachine("Hello, World!")
    optional_phrase = PhraseStateMachine("Optional text", is_optional=True)
    case_insensitive = PhraseStateMachine("HELLO", is_case_sensitive=False)
    assert matches(greeting, "Hello, World!") and not matches(greeting, "Hello")
    assert optional_phrase.is_optional and matches(case_insensitive, "hello")
    assert repr(greeting) == "Phrase('Hello, World!')"
    assert greeting.get_new_stepper().get_valid_continuations() == ["Hello, World!"]
    with pytest.raises(ValueError):
        PhraseStateMachine("")


def test_wait_for() -> None:
    from pse.types.base.phrase import PhraseStateMachine
    from pse.types.base.wait_for import WaitFor

    json_block_start = WaitFor(PhraseStateMachine("```json"), buffer_length=0)
    assert matches(json_block_start, "Here it is: ```json")
    strict_pattern = WaitFor(PhraseStateMachine("BEGIN DATA"), buffer_length=10, strict=True)
    assert matches(strict_pattern, "0123456789BEGIN DATA")
    assert not matches(strict_pattern, "short BEGIN DATA")
    exact = WaitFor(PhraseStateMachine("<START>"))
    assert matches(exact, "<START>") and not matches(exact, "x<START>")


def test_character_state_machine() -> None:
    from pse.types.base.character import CharacterStateMachine

    any_char_sm = CharacterStateMachine()
    alpha_sm = CharacterStateMachine(whitelist_charset="abcdefghijklmnopqrstuvwxyz")
    no_digits_sm = CharacterStateMachine(blacklist_charset="0123456789")
    identifier_sm = CharacterStateMachine(
        whitelist_charset="abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_",
        char_min=1,
        char_limit=64,
        case_sensitive=True,
    )
    word_sm = CharacterStateMachine(graylist_charset=" \t\n.,:;!?")
    assert matches(any_char_sm, "any thing!") and matches(alpha_sm, "abc")
    assert not matches(alpha_sm, "abC") and not matches(no_digits_sm, "a1")
    assert matches(identifier_sm, "snake_case_1") and not matches(identifier_sm, "x" * 65)
    assert matches(word_sm, "word") and not matches(word_sm, "two words")


def test_encapsulated_state_machine() -> None:
    from pse.types.base.encapsulated import EncapsulatedStateMachine
    from pse.types.object import ObjectStateMachine  # missing from the original example
    from pse.types.string import StringStateMachine

    json_code_block = EncapsulatedStateMachine(
        ObjectStateMachine(), delimiters=("```json\n", "\n```"), buffer_length=0
    )
    assert value(json_code_block, 'text\n```json\n{"a": 1}\n```') == {"a": 1}
    xml_content = EncapsulatedStateMachine(
        StringStateMachine(), delimiters=("<content>", "</content>")
    )
    assert value(xml_content, '<content>"hi"</content>') == "hi"
    delayed_content = EncapsulatedStateMachine(
        StringStateMachine(), delimiters=("<START>", "<END>"), buffer_length=10, is_optional=True
    )
    assert delayed_content.is_optional
    assert matches(delayed_content, '0123456789<START>"x"<END>')
    assert not matches(delayed_content, '<START>"x"<END>')


# ----------------------------------------------------------- datatypes.md


def test_string_state_machines() -> None:
    from pse.types.json.json_string import StringSchemaStateMachine
    from pse.types.string import StringStateMachine

    string_sm = StringStateMachine()
    assert value(string_sm, '"Hello\\nWorld"') == "Hello\nWorld"
    assert value(string_sm, '"Hello\\u0057orld"') == "HelloWorld"
    assert value(string_sm, '"Hello 世界"') == "Hello 世界"
    username_sm = StringStateMachine(min_length=3, max_length=20)
    assert matches(username_sm, '"user123"') and not matches(username_sm, '"a"')
    assert not matches(username_sm, '"this_username_is_way_too_long"')
    email_string_sm = StringSchemaStateMachine(
        schema={"type": "string", "format": "email"}, context={}
    )
    assert matches(email_string_sm, '"a@example.com"')
    pattern_string_sm = StringSchemaStateMachine(
        schema={"type": "string", "pattern": "^[A-Z]{2}-\\d{4}$"}, context={}
    )
    assert matches(pattern_string_sm, '"AB-1234"') and not matches(pattern_string_sm, '"AB-12"')


def test_number_state_machines() -> None:
    from pse.types.json.json_number import NumberSchemaStateMachine
    from pse.types.number import NumberStateMachine

    number_sm = NumberStateMachine()
    assert value(number_sm, "42") == 42 and value(number_sm, "-3.14") == -3.14
    assert value(number_sm, "1.618e2") == 161.8 and value(number_sm, "2E-4") == 2e-4
    # Corrected: the draft-4 boolean "exclusiveMaximum": True is an exclusive bound
    # given as a number in drafts 6 and later.
    constrained_number_sm = NumberSchemaStateMachine(
        schema={"type": "number", "minimum": 0, "exclusiveMaximum": 100}, context={}
    )
    assert matches(constrained_number_sm, "99.5") and not matches(constrained_number_sm, "100")
    integer_number_sm = NumberSchemaStateMachine(
        schema={"type": "integer", "multipleOf": 5}, context={}
    )
    assert matches(integer_number_sm, "15") and not matches(integer_number_sm, "12")
    temperature_sm = NumberSchemaStateMachine(
        schema={"type": "number", "minimum": -273.15, "maximum": 1000}, context={}
    )
    assert matches(temperature_sm, "25.5")
    assert not matches(temperature_sm, "-300") and not matches(temperature_sm, "1200")
    page_number_sm = NumberSchemaStateMachine(schema={"type": "integer", "minimum": 1}, context={})
    assert matches(page_number_sm, "42")
    assert not matches(page_number_sm, "2.5") and not matches(page_number_sm, "0")
    integer_sm = NumberSchemaStateMachine(
        schema={"type": "integer", "minimum": 1, "maximum": 1000}, context={}
    )
    assert matches(integer_sm, "1000") and not matches(integer_sm, "1001")


def test_integer_state_machine() -> None:
    from pse.types.integer import IntegerStateMachine

    int_sm = IntegerStateMachine()
    assert value(int_sm, "42") == 42 and value(int_sm, "007") == 7
    assert not matches(int_sm, "-5") and not matches(int_sm, "3.14")
    raw_int_sm = IntegerStateMachine(drop_leading_zeros=False)
    assert value(raw_int_sm, "42") == "42" and value(raw_int_sm, "007") == "007"


def test_boolean_state_machine() -> None:
    from pse.types.boolean import BooleanStateMachine
    from pse.types.json.json_object import ObjectSchemaStateMachine

    bool_sm = BooleanStateMachine()
    assert value(bool_sm, "true") is True and value(bool_sm, "false") is False
    for text in ("True", " true", "truthy"):
        assert not matches(bool_sm, text)
    settings_sm = ObjectSchemaStateMachine(
        schema={
            "type": "object",
            "properties": {"enabled": {"type": "boolean"}, "notifications": {"type": "boolean"}},
        },
        context={},
    )
    assert value(settings_sm, '{"enabled": true, "notifications": false}') == {
        "enabled": True,
        "notifications": False,
    }


def test_array_state_machines() -> None:
    from pse.types.array import ArrayStateMachine
    from pse.types.json.json_array import ArraySchemaStateMachine

    array_sm = ArrayStateMachine()
    assert value(array_sm, "[]") == [] and value(array_sm, "[1, 2, 3]") == [1, 2, 3]
    assert value(array_sm, '["a", "b", "c"]') == ["a", "b", "c"]
    assert value(array_sm, "[true, false]") == [True, False]
    assert value(array_sm, "[[1, 2], [3, 4]]") == [[1, 2], [3, 4]]
    assert value(array_sm, '[{"a": 1}, {"b": 2}]') == [{"a": 1}, {"b": 2}]
    string_array_sm = ArraySchemaStateMachine(
        schema={"type": "array", "items": {"type": "string"}}, context={}
    )
    assert matches(string_array_sm, '["x"]') and not matches(string_array_sm, "[1]")
    constrained = {
        "type": "array",
        "items": {"type": "number"},
        "minItems": 1,
        "maxItems": 5,
        "uniqueItems": True,
    }
    # Deliberate difference: a bare array machine cannot enforce uniqueItems over
    # an unbounded item set, so it refuses it (lenient=True compiles without it);
    # the schema compiler enforces it with a duplicate check around the array.
    with pytest.raises(SchemaError, match="uniqueItems"):
        ArraySchemaStateMachine(schema=constrained, context={})
    from pse.types.json import json_schema_state_machine

    _, unique = json_schema_state_machine(constrained)
    assert matches(unique, "[1, 2, 3]") and not matches(unique, "[1, 2, 1]")
    constrained_array_sm = ArraySchemaStateMachine(schema=constrained, context={}, lenient=True)
    assert matches(constrained_array_sm, "[1, 2, 3]")
    assert not matches(constrained_array_sm, "[]") and not matches(
        constrained_array_sm, "[1,2,3,4,5,6]"
    )
    unique_enum = ArraySchemaStateMachine(
        schema={"type": "array", "items": {"enum": [1, 2, 3]}, "uniqueItems": True}, context={}
    )
    assert matches(unique_enum, "[1, 2, 3]") and not matches(unique_enum, "[1, 2, 1]")
    integers_array_sm = ArraySchemaStateMachine(
        schema={"type": "array", "items": {"type": "integer"}, "minItems": 2}, context={}
    )
    assert value(integers_array_sm, "[1, 2, 3]") == [1, 2, 3]
    assert not matches(integers_array_sm, "[1]") and not matches(integers_array_sm, "[1.5, 2]")


def test_object_state_machines() -> None:
    from pse.types.json.json_object import ObjectSchemaStateMachine
    from pse.types.object import ObjectStateMachine

    object_sm = ObjectStateMachine()
    optional_object_sm = ObjectStateMachine(is_optional=True)
    assert optional_object_sm.is_optional and value(optional_object_sm, "{}") == {}
    assert value(object_sm, '{"a": 1}') == {"a": 1}
    assert value(object_sm, '{"name": "Alice", "age": 30}') == {"name": "Alice", "age": 30}
    nested = '{"user": {"name": "Alice", "address": {"city": "New York", "zip": "10001"}}}'
    assert value(object_sm, nested)["user"]["address"]["city"] == "New York"
    # "Working with object values", as written: one character at a time.
    input_str = '{"a": 1, "b": true, "c": "hello"}'
    steppers = object_sm.get_steppers()
    for char in input_str:
        steppers = object_sm.advance_all_steppers(steppers, char)
    parsed_object = steppers[0].value
    assert parsed_object == {"a": 1, "b": True, "c": "hello"} and parsed_object["a"] == 1
    person_object_sm = ObjectSchemaStateMachine(
        schema={
            "type": "object",
            "properties": {
                "name": {"type": "string"},
                "age": {"type": "integer", "minimum": 0},
                "email": {"type": "string", "format": "email"},
            },
            "required": ["name", "email"],
        },
        context={},
    )
    assert matches(person_object_sm, '{"name": "A", "email": "a@b.co"}')
    assert not matches(person_object_sm, '{"name": "A"}')


def test_key_value_state_machines() -> None:
    from pse.types.key_value import KeyValueStateMachine
    from pse.types.object import ObjectStateMachine

    kv_sm = KeyValueStateMachine()
    optional_kv_sm = KeyValueStateMachine(is_optional=True)
    assert optional_kv_sm.is_optional
    assert value(kv_sm, '"name": "Alice"') == ("name", "Alice")
    assert value(kv_sm, '"age": 30') == ("age", 30)
    assert value(kv_sm, '"active": true') == ("active", True)
    assert value(kv_sm, '"data": {"x": 1, "y": 2}') == ("data", {"x": 1, "y": 2})
    object_sm = ObjectStateMachine()
    steppers = object_sm.get_steppers()
    for char in '{"name": "Alice", "age": 30}':
        steppers = object_sm.advance_all_steppers(steppers, char)
    assert steppers[0].value == {"name": "Alice", "age": 30}


def test_whitespace_state_machine() -> None:
    from pse.types.base.chain import ChainStateMachine
    from pse.types.base.phrase import PhraseStateMachine
    from pse.types.whitespace import WhitespaceStateMachine

    ws_sm = WhitespaceStateMachine()
    assert ws_sm.is_optional and matches(ws_sm, " ") and matches(ws_sm, "\t\n  ")
    assert not matches(ws_sm, "a") and not matches(ws_sm, " " * 21)
    required_ws_sm = WhitespaceStateMachine(min_whitespace=1, max_whitespace=10)
    assert not required_ws_sm.is_optional and matches(required_ws_sm, " ")
    assignment_sm = ChainStateMachine(
        [
            PhraseStateMachine("key"),
            WhitespaceStateMachine(),
            PhraseStateMachine("="),
            WhitespaceStateMachine(),
            PhraseStateMachine("value"),
        ]
    )
    for text in ("key=value", "key = value", "key  =  value", "key\n=\tvalue"):
        assert matches(assignment_sm, text)
    assert not matches(assignment_sm, "key = val ue") and not matches(assignment_sm, " key=value")


# ------------------------------------------------------------- formats.md


def test_json_state_machine_and_any_schema() -> None:
    from pse.types.json.any_json_schema import AnySchemaStateMachine
    from pse.types.json.json_value import JsonStateMachine

    json_sm = JsonStateMachine()
    for text, expected in [("null", None), ("1.5", 1.5), ('{"a": [true]}', {"a": [True]})]:
        assert value(json_sm, text) == expected
    complex_sm = AnySchemaStateMachine(
        schemas=[
            {"type": "string"},
            {"type": "number"},
            {
                "type": "object",
                "properties": {
                    "status": {"type": "string", "enum": ["success", "error"]},
                    "data": {"type": "object"},
                },
                "required": ["status"],
            },
        ],
        context={},
    )
    assert value(complex_sm, '"s"') == "s" and value(complex_sm, "3") == 3
    assert value(complex_sm, '{"status": "error"}') == {"status": "error"}
    assert not matches(complex_sm, '{"status": "other"}')
    assert not matches(complex_sm, '{"status": "maybe"}')


def test_schema_examples_compile() -> None:
    from pse.types.json.json_array import ArraySchemaStateMachine
    from pse.types.json.json_object import ObjectSchemaStateMachine

    contact_sm = ObjectSchemaStateMachine(
        schema={
            "type": "object",
            "properties": {
                "id": {"type": "string"},
                "name": {"type": "string"},
                "email": {"type": "string", "format": "email"},
            },
            "required": ["id", "name"],
            "additionalProperties": {"type": "string"},
        },
        context={},
        ordered_properties=True,
    )
    assert matches(contact_sm, '{"id": "1", "name": "N"}')
    complex_array_sm = ArraySchemaStateMachine(
        schema={
            "type": "array",
            "items": {
                "type": "object",
                "properties": {"id": {"type": "string"}, "value": {"type": "number"}},
                "required": ["id"],
            },
            "minItems": 1,
            "maxItems": 10,
            "uniqueItems": True,
        },
        context={"path": "root"},
        lenient=True,  # uniqueItems over objects is refused otherwise (see above)
    )
    assert matches(complex_array_sm, '[{"id": "a"}, {"id": "b", "value": 1}]')
    nested_sm = ObjectSchemaStateMachine(
        {
            "type": "object",
            "properties": {
                "name": {"type": "string"},
                "tags": {"type": "array", "items": {"type": "string"}, "uniqueItems": True},
                "scores": {"type": "array", "items": {"type": "number"}, "minItems": 3},
            },
            "required": ["name", "scores"],
        },
        {},
        lenient=True,  # uniqueItems over strings is refused otherwise
    )
    assert matches(nested_sm, '{"name": "n", "scores": [1, 2, 3]}')
    assert not matches(nested_sm, '{"name": "n", "scores": [1]}')


def test_xml_state_machines() -> None:
    from pse.types.base.phrase import PhraseStateMachine
    from pse.types.json.json_value import JsonStateMachine
    from pse.types.xml.xml_encapsulated import XMLEncapsulatedStateMachine
    from pse.types.xml.xml_tag import XMLTagStateMachine

    person_tag_sm = XMLTagStateMachine(tag_name="person")
    person_closing_tag_sm = XMLTagStateMachine(tag_name="person", closing_tag=True)
    assert matches(person_tag_sm, "<person>") and matches(person_closing_tag_sm, "</person>")
    h1_tag_sm = XMLTagStateMachine(tag_name="h1")
    assert matches(h1_tag_sm, "<h1>") and not matches(h1_tag_sm, "<h2>")
    assert not matches(h1_tag_sm, "<H1>")
    text_element_sm = XMLEncapsulatedStateMachine(
        tag_name="p",
        state_machine=PhraseStateMachine("Hello world"),
        min_buffer_length=-1,
        is_optional=False,
    )
    assert matches(text_element_sm, "<p>Hello world</p>")
    json_in_xml_sm = XMLEncapsulatedStateMachine(tag_name="data", state_machine=JsonStateMachine())
    assert value(json_in_xml_sm, '<data>{"key": "value"}</data>') == {"key": "value"}
    paragraph_sm = XMLEncapsulatedStateMachine(
        tag_name="p", state_machine=PhraseStateMachine("Sample text")
    )
    div_with_paragraph_sm = XMLEncapsulatedStateMachine(tag_name="div", state_machine=paragraph_sm)
    assert matches(div_with_paragraph_sm, "<div><p>Sample text</p></div>")
    optional_element_sm = XMLEncapsulatedStateMachine(
        tag_name="optional", state_machine=PhraseStateMachine("Some content"), is_optional=True
    )
    assert optional_element_sm.is_optional
    assert matches(optional_element_sm, "<optional>Some content</optional>")


def test_fenced_freeform_state_machine() -> None:
    from pse.types.misc.fenced_freeform import FencedFreeformStateMachine

    python_block_sm = FencedFreeformStateMachine(identifier="python")
    assert "print(1)" in [
        s.get_current_value()
        for s in StateMachine.advance_all_basic(
            python_block_sm.get_steppers(), "```python\nprint(1)\n```"
        )
        if s.has_reached_accept_state()
    ]
    custom_block_sm = FencedFreeformStateMachine(
        delimiters=("<START>", "<END>"), char_min=10, char_max=1000, is_optional=False
    )
    assert matches(custom_block_sm, "<START>0123456789<END>")
    description_sm = FencedFreeformStateMachine(
        delimiters=("<desc>", "</desc>"), char_min=10, char_max=50
    )
    assert not matches(description_sm, "<desc>short</desc>")
    assert not matches(description_sm, "<desc>" + "x" * 51 + "</desc>")


def test_grammar_state_machines() -> None:
    from pse.types.base.encapsulated import EncapsulatedStateMachine
    from pse.types.grammar.default_grammars.python import PythonGrammar, PythonStateMachine
    from pse.types.grammar.lark import LarkGrammarStateMachine

    python_code_block = EncapsulatedStateMachine(
        left_delimiter="```python\n",
        right_delimiter="\n```",
        state_machine=LarkGrammarStateMachine(PythonGrammar()),
    )
    assert matches(python_code_block, "```python\nx = 1\n```")
    python_block_sm = EncapsulatedStateMachine(
        state_machine=PythonStateMachine, left_delimiter="```python\n", right_delimiter="\n```"
    )
    assert not matches(python_block_sm, "```python\nx = = 1\n```")


# ------------------------------------------------- guides/base-state-machines.md


def test_base_state_machines_guide() -> None:
    from pse.types.base import (
        AnyStateMachine,
        ChainStateMachine,
        CharacterStateMachine,
        EncapsulatedStateMachine,
        LoopStateMachine,
        PhraseStateMachine,
        WaitFor,
    )
    from pse.types.json.json_value import JsonStateMachine
    from pse.types.string import StringStateMachine
    from pse.types.whitespace import WhitespaceStateMachine

    assert matches(PhraseStateMachine("class"), "class")
    assert matches(PhraseStateMachine("---"), "---")
    digit_sm = CharacterStateMachine(whitelist_charset="0123456789")
    whitespace_sm = CharacterStateMachine(
        whitelist_charset=" \t\n\r", char_limit=10, is_optional=True
    )
    non_quote_sm = CharacterStateMachine(blacklist_charset='"')
    assert matches(digit_sm, "7") and not matches(digit_sm, "x")
    assert whitespace_sm.is_optional and not matches(whitespace_sm, " " * 11)
    assert matches(non_quote_sm, "abc") and not matches(non_quote_sm, 'a"')
    key_value_sm = ChainStateMachine(
        [
            StringStateMachine(),
            PhraseStateMachine(":"),
            WhitespaceStateMachine(),
            JsonStateMachine(),
        ]
    )
    assert matches(key_value_sm, '"k": [1]')
    json_literal_sm = AnyStateMachine(
        [PhraseStateMachine("true"), PhraseStateMachine("false"), PhraseStateMachine("null")]
    )
    assert all(matches(json_literal_sm, t) for t in ("true", "false", "null"))
    word_loop_sm = LoopStateMachine(
        state_machine=CharacterStateMachine(blacklist_charset=" \t\n\r"),
        min_loop_count=1,
        whitespace_seperator=True,
    )
    assert matches(word_loop_sm, "word1 word2 word3")
    json_block_sm = EncapsulatedStateMachine(
        state_machine=JsonStateMachine(), delimiters=("```json\n", "\n```")
    )
    assert value(json_block_sm, '```json\n{"a": 1}\n```') == {"a": 1}
    optional_xml_sm = EncapsulatedStateMachine(
        state_machine=StringStateMachine(), delimiters=("<data>", "</data>"), is_optional=True
    )
    assert optional_xml_sm.is_optional and value(optional_xml_sm, '<data>"x"</data>') == "x"
    wait_for_start_sm = WaitFor(state_machine=PhraseStateMachine("<START>"))
    assert matches(wait_for_start_sm, "<START>")
    wait_for_json_buffered_sm = WaitFor(
        state_machine=PhraseStateMachine("```json"), buffer_length=20
    )
    assert matches(wait_for_json_buffered_sm, "x" * 20 + "```json")
    assert not matches(wait_for_json_buffered_sm, "x" * 5 + "```json")


# ------------------------------------------ api/state-machines/schema-sources.md


def test_schema_sources_configure_an_engine() -> None:
    # Corrected: configure() is called on an engine instance, not on the class.
    from typing import Optional

    from _support.tokenizers import smollm2_tokenizer
    from pydantic import BaseModel, Field

    from pse import StructuringEngine

    engine = StructuringEngine(smollm2_tokenizer())
    person_schema = {
        "type": "object",
        "properties": {
            "name": {"type": "string"},
            "age": {"type": "integer", "minimum": 0},
            "address": {
                "type": "object",
                "properties": {
                    "street": {"type": "string"},
                    "city": {"type": "string"},
                    "zipcode": {"type": "string"},
                },
                "required": ["street", "city"],
            },
            "hobbies": {"type": "array", "items": {"type": "string"}},
        },
        "required": ["name", "age"],
    }
    engine.configure(person_schema)
    assert matches(engine.state_machine, '{"name": "A", "age": 3}')

    class Address(BaseModel):
        street: str
        city: str
        zipcode: Optional[str] = None  # noqa: UP045 (as the page writes it)

    class Person(BaseModel):
        name: str
        age: int = Field(ge=0)
        address: Optional[Address] = None  # noqa: UP045
        hobbies: list[str] = []

    engine.configure(Person)
    assert matches(engine.state_machine, '{"name": "A", "age": 3}')
    assert not matches(engine.state_machine, '{"name": "A", "age": -3}')

    def search_database(
        query: str,
        max_results: int = 10,
        filters: dict[str, str] | None = None,
        sort_by: list[str] = ["relevance"],  # noqa: B006 (as the page writes it)
    ) -> list[dict[str, str]]:
        """
        Search the database with the given parameters.

        Args:
            query: The search query string
            max_results: Maximum number of results to return
            filters: Optional dictionary of field/value filters
            sort_by: Fields to sort results by
        """
        return []

    engine.configure(search_database)
    assert matches(engine.state_machine, '{"query": "q"}')
    assert not matches(engine.state_machine, '{"max_results": 3}')
