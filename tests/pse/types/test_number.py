"""NumberStateMachine: docs examples (datatypes page) and properties."""

from __future__ import annotations

import json
import math
import re

from hypothesis import given
from hypothesis import strategies as st

from pse.types.number import NumberStateMachine

JSON_NUMBER = re.compile(r"-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?")


def test_basic_number_parsing(harness):
    number_sm = NumberStateMachine()
    assert harness.value(number_sm, "42") == 42  # integer
    assert isinstance(harness.value(number_sm, "42"), int)
    assert harness.value(number_sm, "-3.14") == -3.14  # negative decimal
    assert math.isclose(harness.value(number_sm, "1.618e2"), 161.8)  # scientific notation


def test_json_number_forms(harness):
    number_sm = NumberStateMachine()
    for text in ("0", "-0", "0.001", "1.5e3", "2E-4", "1e+5", "10", "-10.25"):
        assert harness.value(number_sm, text) == json.loads(text), text
    for text in ("01", "-", "1.", ".5", "1e", "1e+", "+1", "--1", "1.2.3", "0x10", "1 "):
        assert not harness.matches(number_sm, text), text


def test_integer_only_and_no_negative(harness):
    ints = NumberStateMachine(integer_only=True)
    assert harness.value(ints, "-12") == -12
    assert not harness.matches(ints, "1.5")
    assert not harness.matches(ints, "1e5")
    positive = NumberStateMachine(allow_negative=False)
    assert harness.matches(positive, "1.5")
    assert not harness.matches(positive, "-1")


def test_partial_values(harness):
    sm = NumberStateMachine()
    for text, expected in [("-", None), ("1.", 1.0), ("12", 12), ("1.5e", 1.5), ("2e-", 2.0)]:
        values = [s.get_current_value() for s in harness.alive(harness.run(sm, text))]
        assert values and all(v == expected for v in values), (text, values)


@given(
    value=st.one_of(
        st.integers(-(10**30), 10**30),
        st.floats(allow_nan=False, allow_infinity=False),
    ),
    cuts=st.lists(st.integers(0, 30), max_size=6),
)
def test_json_dumps_roundtrip_property(harness, value, cuts):
    sm = NumberStateMachine()
    text = json.dumps(value)
    assert harness.value(sm, text) == json.loads(text)
    steppers = harness.run_chunks(sm, harness.chunked(text, cuts))
    assert [s.get_current_value() for s in harness.accepting(steppers)][:1] == [json.loads(text)]


@given(text=st.text(alphabet="-+.eE0123", min_size=1, max_size=8))
def test_validity_matches_grammar_property(harness, text):
    assert harness.matches(NumberStateMachine(), text) == bool(JSON_NUMBER.fullmatch(text))
