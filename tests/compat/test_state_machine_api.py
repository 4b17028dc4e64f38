"""The StateMachine API of the reference (api/state-machine.md), and the exact
meaning of advance_all / advance_all_basic for a partly consumed token
(docs/concepts/token-healing.md)."""

from __future__ import annotations

import pytest
from pse_core import StateMachine, Stepper, StepperDelta, TrieMap

from pse.types.base.chain import ChainStateMachine
from pse.types.base.phrase import PhraseStateMachine
from pse.types.integer import IntegerStateMachine
from pse.types.number import NumberStateMachine

from .test_stepper_contract import parameters

DOCUMENTED_METHODS: dict[str, list[str]] = {
    "get_new_stepper": ["state"],
    "get_steppers": ["state"],
    "get_edges": ["state"],
    "get_transitions": ["stepper"],
    "advance_stepper": ["stepper", "token"],
    "branch_stepper": ["stepper", "token"],
    "advance_all": ["steppers", "token", "vocab", "token_healing"],
    "advance_all_basic": ["steppers", "token"],
}


@pytest.mark.parametrize("name", sorted(DOCUMENTED_METHODS))
def test_documented_method_exists_with_its_parameters(name: str) -> None:
    assert parameters(getattr(StateMachine, name)) == DOCUMENTED_METHODS[name]


def test_constructor_defaults_and_properties_read_write() -> None:
    sm = StateMachine()
    assert sm.state_graph == {} or sm.state_graph == {0: []}
    assert (sm.start_state, sm.end_states, sm.is_optional) == (0, ["$"], False)
    assert (sm.is_case_sensitive, sm.identifier) == (True, None)
    phrase = PhraseStateMachine("a")
    sm.state_graph = {0: [(phrase, "$")]}
    sm.start_state = 0
    sm.end_states = ["$"]
    sm.is_optional = True
    sm.is_case_sensitive = False
    sm.identifier = "x"
    assert sm.get_edges(0) == [(phrase, "$")]
    assert (sm.is_optional, sm.is_case_sensitive, sm.identifier) == (True, False, "x")


def test_steppers_edges_transitions_advance_branch() -> None:
    sm = ChainStateMachine([PhraseStateMachine("ab"), PhraseStateMachine("c")])
    stepper = sm.get_new_stepper()
    assert stepper.current_state == 0 and sm.get_new_stepper(1).current_state == 1
    assert len(sm.get_steppers()) == 1
    ((sub, target),) = sm.get_transitions(stepper)
    assert isinstance(sub, Stepper) and target == 1
    (advanced,) = sm.advance_stepper(stepper, "abc")
    assert advanced.has_reached_accept_state() and advanced.get_raw_value() == "abc"
    assert len(sm.branch_stepper(stepper, "a")) == 1 and sm.branch_stepper(stepper, "z") == []


def test_advance_all_basic_keeps_only_whole_token_results() -> None:
    integer = IntegerStateMachine()
    assert StateMachine.advance_all_basic(integer.get_steppers(), "12a4") == []
    (whole,) = StateMachine.advance_all_basic(integer.get_steppers(), "124")
    assert whole.get_current_value() == 124 and whole.has_reached_accept_state()
    # consume() itself still reports the partial reading, with its remaining input
    (partial,) = integer.get_new_stepper().consume("12a4")
    assert (partial.get_raw_value(), partial.remaining_input) == ("12", "a4")


def test_advance_all_heals_only_with_a_vocabulary_token() -> None:
    integer = IntegerStateMachine()
    vocab = TrieMap([("12", 5), ("12a4", 9)])
    (delta,) = StateMachine.advance_all(integer.get_steppers(), "12a4", vocab)
    assert isinstance(delta, StepperDelta)
    assert (delta.token, delta.was_healed, delta.token_id) == ("12", True, 5)
    assert delta.stepper.remaining_input is None and delta.stepper.get_current_value() == 12
    assert StateMachine.advance_all(integer.get_steppers(), "12a4", vocab, False) == []
    assert StateMachine.advance_all(integer.get_steppers(), "12a4") == []
    assert StateMachine.advance_all(integer.get_steppers(), "12a4", TrieMap([("1", 1)])) == []


def test_advance_all_whole_token_is_unhealed() -> None:
    deltas = StateMachine.advance_all(NumberStateMachine().get_steppers(), "3.5")
    assert [(d.token, d.was_healed) for d in deltas] == [("3.5", False)]
    token, best = StepperDelta.choose_best_path(deltas)
    assert token == "3.5" and best[0].get_current_value() == 3.5
