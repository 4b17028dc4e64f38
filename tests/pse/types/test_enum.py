"""EnumStateMachine."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pse.types.enum import EnumStateMachine


def test_quoted_values(harness):
    sm = EnumStateMachine(["success", "error"])
    assert harness.value(sm, '"success"') == "success"
    assert harness.value(sm, '"error"') == "error"
    assert not harness.matches(sm, "success")
    assert not harness.matches(sm, '"succes"')
    assert not harness.matches(sm, '"other"')


def test_unquoted_values(harness):
    sm = EnumStateMachine(["red", "reddish"], require_quotes=False)
    assert harness.value(sm, "red") == "red"
    assert harness.value(sm, "reddish") == "reddish"
    assert not harness.matches(sm, '"red"')


def test_non_string_values(harness):
    sm = EnumStateMachine(["a", 1, None, True, "é"])
    assert harness.value(sm, "1") == 1
    assert harness.value(sm, "null") is None
    assert harness.value(sm, "true") is True
    assert harness.value(sm, '"é"') == "é"
    assert harness.value(sm, '"a"') == "a"


def test_empty_enum_raises():
    with pytest.raises(ValueError):
        EnumStateMachine([])


@given(
    values=st.lists(st.text(min_size=1, max_size=5), min_size=1, max_size=5),
    choice=st.text(max_size=5),
)
def test_membership_property(harness, values, choice):
    import json

    sm = EnumStateMachine(values)
    assert harness.matches(sm, json.dumps(choice, ensure_ascii=False)) == (choice in values)
