"""StringStateMachine: docs examples (datatypes page) and properties."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from pse.types.string import StringStateMachine


def test_basic_and_constrained(harness):
    string_sm = StringStateMachine()
    assert harness.value(string_sm, '"hello"') == "hello"
    assert harness.value(string_sm, '""') == ""
    assert not harness.matches(string_sm, "hello")
    assert not harness.matches(string_sm, '"hello')
    assert not harness.matches(string_sm, '"hello" ')
    constrained_string_sm = StringStateMachine(min_length=3, max_length=50)
    assert constrained_string_sm.min_length == 3
    assert constrained_string_sm.max_length == 50
    assert harness.matches(constrained_string_sm, '"abc"')
    assert harness.matches(constrained_string_sm, '"' + "x" * 50 + '"')
    assert not harness.matches(constrained_string_sm, '"ab"')
    assert not harness.matches(constrained_string_sm, '"' + "x" * 51 + '"')


def test_escape_sequences(harness):
    string_sm = StringStateMachine()
    # This will match: "Hello\nWorld" and correctly handle the newline
    assert harness.value(string_sm, r'"Hello\nWorld"') == "Hello\nWorld"
    for escape, decoded in [
        (r"\"", '"'),
        (r"\\", "\\"),
        (r"\/", "/"),
        (r"\b", "\b"),
        (r"\f", "\f"),
        (r"\n", "\n"),
        (r"\r", "\r"),
        (r"\t", "\t"),
    ]:
        assert harness.value(string_sm, f'"a{escape}b"') == f"a{decoded}b"
    assert not harness.matches(string_sm, r'"bad \x escape"')
    assert not harness.matches(string_sm, r'"bad \u12G4"')
    # Control characters must be escaped.
    assert not harness.matches(string_sm, '"raw\nnewline"')
    assert not harness.matches(string_sm, '"tab\there"')


def test_unicode(harness):
    string_sm = StringStateMachine()
    # This will match: "Hello\u0057orld" and correctly interpret it as "HelloWorld"
    assert harness.value(string_sm, r'"Hello\u0057orld"') == "HelloWorld"
    # This also matches: "Hello 世界" as Unicode is supported via direct inclusion or escapes
    assert harness.value(string_sm, '"Hello 世界"') == "Hello 世界"
    assert harness.value(string_sm, r'"\ud83c\udf89 🎉"') == "🎉 🎉"


def test_length_validation(harness):
    username_sm = StringStateMachine(min_length=3, max_length=20)
    assert harness.matches(username_sm, '"user123"')  # This will match: "user123"
    assert not harness.matches(username_sm, '"a"')  # too short
    assert not harness.matches(username_sm, '"this_username_is_way_too_long"')  # too long


def test_lengths_count_code_points(harness):
    sm = StringStateMachine(min_length=2, max_length=2)
    assert harness.matches(sm, '"世界"')
    assert harness.matches(sm, '"🎉🎉"')
    assert harness.matches(sm, r'"\u00e9x"')
    assert not harness.matches(sm, '"世"')
    assert not harness.matches(sm, '"世界!"')


def test_partial_values(harness):
    sm = StringStateMachine()
    for text, expected in [
        ('"', ""),
        ('"ab', "ab"),
        ('"ab\\', "ab"),
        ('"ab\\u00', "ab"),
        ('"a\\n', "a\n"),
    ]:
        values = {s.get_current_value() for s in harness.alive(harness.run(sm, text))}
        assert values == {expected}, text


@given(
    value=st.text(max_size=20),
    ensure_ascii=st.booleans(),
    cuts=st.lists(st.integers(0, 140), max_size=8),
)
def test_json_dumps_roundtrip_property(harness, value, ensure_ascii, cuts):
    sm = StringStateMachine()
    text = json.dumps(value, ensure_ascii=ensure_ascii)
    assert harness.value(sm, text) == value
    steppers = harness.run_chunks(sm, harness.chunked(text, cuts))
    assert [s.get_current_value() for s in harness.accepting(steppers)] == [value]


@given(text=st.text(alphabet='"\\abu0\n/', max_size=10))
def test_validity_matches_json_property(harness, text):
    literal = '"' + text + '"'
    try:
        expected = isinstance(json.loads(literal), str)
    except ValueError:
        expected = False
    assert harness.matches(StringStateMachine(), literal) == expected


@given(
    body=st.text(alphabet='ab"\\u0/\né🎉', max_size=10),
    lo=st.integers(0, 4),
    extra=st.integers(0, 4),
)
def test_length_bounds_match_json_property(harness, body, lo, extra):
    literal = '"' + body + '"'
    try:
        decoded = json.loads(literal)
        expected = isinstance(decoded, str) and lo <= len(decoded) <= lo + extra
    except ValueError:
        expected = False
    sm = StringStateMachine(min_length=lo, max_length=lo + extra)
    assert harness.matches(sm, literal) == expected
