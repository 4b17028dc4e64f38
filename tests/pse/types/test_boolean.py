"""BooleanStateMachine: docs examples (datatypes page)."""

from __future__ import annotations

import pytest

from pse.types.boolean import BooleanStateMachine


def test_boolean_parsing(harness):
    bool_sm = BooleanStateMachine()
    assert harness.value(bool_sm, "true") is True  # "true" -> True
    assert harness.value(bool_sm, "false") is False  # "false" -> False
    assert not harness.matches(bool_sm, "True")  # incorrect case
    assert not harness.matches(bool_sm, " true")  # has whitespace
    assert not harness.matches(bool_sm, "truthy")  # extra characters
    assert not harness.matches(bool_sm, "FALSE")
    assert not harness.matches(bool_sm, "")


@pytest.mark.parametrize("text", ["t", "tr", "tru", "f", "fa", "fals"])
def test_prefixes_survive_but_do_not_accept(harness, text):
    bool_sm = BooleanStateMachine()
    assert harness.is_prefix(bool_sm, text)
    assert not harness.matches(bool_sm, text)


def test_chunked(harness):
    bool_sm = BooleanStateMachine()
    steppers = harness.run_chunks(bool_sm, ["fa", "l", "se"])
    assert [s.get_current_value() for s in harness.accepting(steppers)] == [False]
