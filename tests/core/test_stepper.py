"""Stepper: every documented method and property, immutability, ambiguity."""

from __future__ import annotations

from pse_core._core import (
    CharacterStateMachine,
    NumberStateMachine,
    PhraseStateMachine,
    StateMachine,
    Stepper,
    StringStateMachine,
)
from pse_core.stepper import Stepper as DocumentedPath


def kv_machine() -> StateMachine:
    key = StringStateMachine(identifier="key")
    colon = PhraseStateMachine(":")
    value = NumberStateMachine(identifier="value")
    return StateMachine({0: [(key, 1)], 1: [(colon, 2)], 2: [(value, "$")]}, identifier="pair")


def walk(sm: StateMachine, text: str) -> list[Stepper]:
    return StateMachine.advance_all_basic(sm.get_steppers(), text)


def test_documented_import_path() -> None:
    assert DocumentedPath is Stepper


def test_constructor_and_current_state() -> None:
    sm = kv_machine()
    s = Stepper(sm)
    assert s.state_machine is sm and s.current_state == 0 and s.target_state is None
    assert Stepper(sm, 2).current_state == 2


def test_consume_is_immutable() -> None:
    s = Stepper(kv_machine())
    [after] = s.consume('"a"')
    assert s.get_raw_value() == "" and after.get_raw_value() == '"a"'
    assert s.clone().get_raw_value() == ""


def test_history_sub_stepper_and_target_state() -> None:
    [s] = walk(kv_machine(), '"ab":4')
    assert s.current_state == 2
    assert [h.state_machine.identifier for h in s.history] == ["key", None]
    assert [h.get_raw_value() for h in s.history] == ['"ab"', ":"]
    sub = s.sub_stepper
    assert sub is not None and sub.state_machine.identifier == "value"
    assert s.target_state == "$"
    assert sub.get_raw_value() == "4" and sub.get_current_value() == 4
    assert s.get_identifier() == "pair"
    assert sub.get_identifier() == "value"


def test_values_raw_and_counts() -> None:
    [s] = walk(kv_machine(), '"é":-1.5')
    assert s.get_raw_value() == '"é":-1.5' and s._raw_value == '"é":-1.5'
    assert s.consumed_character_count == 8
    assert s.history[0].get_current_value() == "é"
    assert s.value == s.get_current_value()


def test_accept_more_input_and_within_value() -> None:
    [mid] = walk(kv_machine(), '"a":1')
    assert mid.has_reached_accept_state() and mid.can_accept_more_input()
    assert mid.is_within_value()
    [in_key] = walk(kv_machine(), '"ab')
    assert not in_key.has_reached_accept_state() and in_key.is_within_value()
    [done] = walk(PhraseStateMachine("x"), "x")
    assert done.has_reached_accept_state() and not done.can_accept_more_input()


def test_valid_and_invalid_continuations() -> None:
    s = Stepper(kv_machine())
    assert s.get_valid_continuations() == ['"']
    [after_key] = s.consume('"k"')
    assert after_key.get_valid_continuations() == [":"]
    digits = CharacterStateMachine("01", blacklist_charset="x")
    assert sorted(Stepper(digits).get_valid_continuations()) == ["0", "1"]
    assert Stepper(digits).get_invalid_continuations() == ["x"]
    [c] = Stepper(CharacterStateMachine(blacklist_charset="xy")).consume("a")
    assert c.get_invalid_continuations() == ["x", "y"]


def test_accepts_any_token() -> None:
    assert Stepper(CharacterStateMachine()).accepts_any_token()
    assert not Stepper(CharacterStateMachine("abc")).accepts_any_token()


def test_remaining_input_on_partial_consumption() -> None:
    [s] = Stepper(PhraseStateMachine("true")).consume("true, ")
    assert s.remaining_input == ", " and s.has_reached_accept_state()
    assert s.get_raw_value() == "true"


def test_current_state_setter() -> None:
    s = Stepper(kv_machine())
    s.current_state = 1
    assert s.current_state == 1
    assert [x.has_reached_accept_state() for x in s.consume(":7")] == [True]


def test_ambiguity_keeps_several_steppers() -> None:
    a = StateMachine({0: [(PhraseStateMachine("ab"), "$"), (PhraseStateMachine("ac"), "$")]})
    steppers = walk(a, "a")
    assert len(steppers) == 2
    assert [s.has_reached_accept_state() for s in walk(a, "ac")] == [True]


def test_token_safe_output_uses_token_ids() -> None:
    s = Stepper(kv_machine())
    assert s.get_token_ids_history() == []
    assert s.get_token_safe_output(lambda ids: "|".join(map(str, ids))) == ""
