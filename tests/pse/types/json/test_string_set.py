"""string_set: literal sets on decoded values, the reference DFA against pse.automata."""

from __future__ import annotations

import json

from _support.json_schema import accepts
from hypothesis import given, settings
from hypothesis import strategies as st
from pse_core._core import DfaStateMachine

from pse.types.json.string_set import string_set_dfa, string_set_machine

NAMES = ["a", "ab", "é", 'q"', "x\ny", "😀"]


def _reference(exclude: bool) -> DfaStateMachine:
    rows, accepting = string_set_dfa(NAMES, exclude=exclude)
    return DfaStateMachine(rows, accepting, 0)


@settings(max_examples=150)
@given(
    st.text(alphabet=st.sampled_from(["a", "b", "é", '"', "\n", "😀", "q", "y", "x"]), max_size=4),
    st.booleans(),
)
def test_reference_agrees(text, ascii_only):
    literal = json.dumps(text, ensure_ascii=ascii_only)
    for exclude in (False, True):
        expected = (text in NAMES) != exclude
        reference = accepts(_reference(exclude), literal)
        if ascii_only and any(ord(c) > 0xFFFF for c in text):
            assert not reference or expected  # escaped surrogate pairs: refused, never wrong
        else:
            assert reference == expected, literal
        assert accepts(string_set_machine(NAMES, exclude=exclude), literal) == expected, literal
