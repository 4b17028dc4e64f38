"""StateMachine: construction, properties, documented methods, bad input."""

from __future__ import annotations

import pytest
from pse_core._core import (
    CharacterStateMachine,
    LoopStateMachine,
    PhraseStateMachine,
    RefStateMachine,
    StateMachine,
    Stepper,
    StepperDelta,
    StringStateMachine,
    TrieMap,
    WaitFor,
)
from pse_core.errors import GrammarError
from pse_core.state_machine import StateMachine as DocumentedPath

from .conftest import accepts, prefix_ok


def ab_machine() -> StateMachine:
    a, b = PhraseStateMachine("a"), PhraseStateMachine("b")
    return StateMachine({0: [(a, 1)], 1: [(b, "$")]}, identifier="ab")


def test_documented_import_path() -> None:
    assert DocumentedPath is StateMachine


def test_defaults_and_properties() -> None:
    sm = StateMachine()
    assert sm.start_state == 0
    assert sm.end_states == ["$"]
    assert sm.is_optional is False and sm.is_case_sensitive is True
    assert sm.identifier is None
    sm.identifier = "x"
    sm.is_optional = True
    assert sm.identifier == "x" and sm.is_optional


def test_state_graph_round_trip() -> None:
    sm = ab_machine()
    graph = sm.state_graph
    assert list(graph) == [0, 1]
    ((edge_machine, target),) = graph[0]
    assert isinstance(edge_machine, PhraseStateMachine) and target == 1
    assert graph[1][0][1] == "$"
    # The same Python objects come back.
    assert edge_machine is sm.get_edges(0)[0][0]


def test_state_graph_setter_and_string_states() -> None:
    sm = StateMachine()
    sm.state_graph = {
        0: [(PhraseStateMachine("x"), "mid")],
        "mid": [(PhraseStateMachine("y"), "$")],
    }
    assert accepts(sm, "xy") and not accepts(sm, "x")


def test_end_states_setter() -> None:
    sm = ab_machine()
    sm.end_states = [1, "$"]
    assert accepts(sm, "a") and accepts(sm, "ab")


def test_get_new_stepper_and_state() -> None:
    sm = ab_machine()
    s = sm.get_new_stepper()
    assert isinstance(s, Stepper) and s.current_state == 0
    s1 = sm.get_new_stepper(1)
    assert s1.current_state == 1
    assert [x.has_reached_accept_state() for x in s1.consume("b")] == [True]


def test_get_steppers_branches_over_alternatives() -> None:
    any_sm = StateMachine({0: [(PhraseStateMachine("x"), "$"), (PhraseStateMachine("y"), "$")]})
    steppers = any_sm.get_steppers()
    assert len(steppers) == 2
    assert {s.get_valid_continuations()[0] for s in steppers} == {"x", "y"}


def test_get_transitions() -> None:
    sm = ab_machine()
    transitions = sm.get_transitions(sm.get_new_stepper())
    assert len(transitions) == 1
    sub, target = transitions[0]
    assert target == 1 and isinstance(sub.state_machine, PhraseStateMachine)


def test_advance_stepper_and_branch_stepper() -> None:
    sm = ab_machine()
    [after_a] = sm.advance_stepper(sm.get_new_stepper(), "a")
    assert after_a.get_raw_value() == "a"
    assert sm.branch_stepper(after_a, "b") and not sm.branch_stepper(after_a, "z")


def test_advance_all_returns_deltas() -> None:
    sm = ab_machine()
    deltas = StateMachine.advance_all(sm.get_steppers(), "ab")
    assert len(deltas) == 1 and isinstance(deltas[0], StepperDelta)
    assert deltas[0].token == "ab" and deltas[0].was_healed is False
    assert deltas[0].stepper.has_reached_accept_state()


def test_advance_all_basic_and_advance_all_steppers() -> None:
    sm = ab_machine()
    assert len(StateMachine.advance_all_basic(sm.get_steppers(), "a")) == 1
    assert len(sm.advance_all_steppers(sm.get_steppers(), "a")) == 1
    assert StateMachine.advance_all_basic(sm.get_steppers(), "b") == []


def test_optional_edges_are_skipped() -> None:
    opt = PhraseStateMachine("-", is_optional=True)
    sm = StateMachine({0: [(opt, 1)], 1: [(PhraseStateMachine("1"), "$")]})
    assert accepts(sm, "-1") and accepts(sm, "1") and not accepts(sm, "--1")


def test_optional_root_accepts_empty_output() -> None:
    sm = PhraseStateMachine("x", is_optional=True)
    assert any(s.has_reached_accept_state() for s in sm.get_steppers())


def test_case_insensitive_phrase() -> None:
    sm = PhraseStateMachine("HeLLo", is_case_sensitive=False)
    assert accepts(sm, "hello") and accepts(sm, "HELLO") and not accepts(sm, "help")


def test_loop_bounds_and_separator() -> None:
    digit = CharacterStateMachine("0123456789", char_limit=1)
    loop = LoopStateMachine(digit, 2, 3, separator=PhraseStateMachine(","))
    assert not accepts(loop, "1")
    assert accepts(loop, "1,2") and accepts(loop, "1,2,3")
    assert not prefix_ok(loop, "1,2,3,")
    assert not accepts(loop, "1,2,")


def test_wait_for_buffer_and_strict() -> None:
    lax = WaitFor(PhraseStateMachine("END"), buffer_length=0)
    assert accepts(lax, "some text END") and accepts(lax, "EN and END")
    strict = WaitFor(PhraseStateMachine("END"), buffer_length=0, strict=True)
    assert accepts(strict, "text END")
    assert not prefix_ok(strict, "EN and")  # a started match may not be abandoned
    needs = WaitFor(PhraseStateMachine("END"), buffer_length=5)
    assert not accepts(needs, "abEND") and accepts(needs, "abcdeEND")
    only = WaitFor(PhraseStateMachine("END"))
    assert accepts(only, "END") and not prefix_ok(only, "xEND")


def test_recursion_through_ref() -> None:
    ref = RefStateMachine()
    nested = StateMachine(
        {0: [(PhraseStateMachine("("), 1)], 1: [(ref, 2)], 2: [(PhraseStateMachine(")"), "$")]}
    )
    any_sm = StateMachine({0: [(PhraseStateMachine("x"), "$"), (nested, "$")]})
    ref.set_target(any_sm)
    assert accepts(any_sm, "((x))") and not accepts(any_sm, "((x)")
    assert ref.target is any_sm
    any_sm.seal()  # a hand-built cycle: sealed, it is freed with the root


def test_missing_state_is_a_grammar_error() -> None:
    with pytest.raises(GrammarError, match="references state 7"):
        StateMachine({0: [(PhraseStateMachine("a"), 7)]})
    with pytest.raises(GrammarError, match="start state"):
        StateMachine({0: [(PhraseStateMachine("a"), "$")]}, start_state=3)


def test_bad_edges_are_type_errors() -> None:
    with pytest.raises(TypeError, match="StateMachine"):
        StateMachine({0: [("not a machine", "$")]})  # type: ignore[list-item]
    with pytest.raises(TypeError):
        StateMachine({0: [(PhraseStateMachine("a"),)]})  # type: ignore[list-item]


def test_empty_phrase_and_bad_bounds() -> None:
    with pytest.raises(GrammarError, match="non-empty"):
        PhraseStateMachine("")
    with pytest.raises(GrammarError):
        LoopStateMachine(PhraseStateMachine("a"), 3, 2)
    with pytest.raises(GrammarError):
        StringStateMachine(min_length=5, max_length=2)
    with pytest.raises(GrammarError):
        CharacterStateMachine("a", char_min=4, char_limit=2)


def test_unset_ref_and_left_recursion_are_grammar_errors() -> None:
    with pytest.raises(GrammarError, match="set_target"):
        StateMachine({0: [(RefStateMachine(), "$")]}).get_steppers()
    ref = RefStateMachine()
    left = StateMachine({0: [(ref, 1)], 1: [(PhraseStateMachine("x"), "$")]})
    ref.set_target(left)
    with pytest.raises(GrammarError, match="recursion"):
        left.get_steppers()
    left.seal()


def test_advance_all_heals_with_vocab() -> None:
    sm = PhraseStateMachine("example")
    vocab = TrieMap([("example", 7), ("ex", 1)])
    deltas = StateMachine.advance_all(sm.get_steppers(), "example ", vocab)
    assert [(d.token, d.was_healed, d.token_id) for d in deltas] == [("example", True, 7)]
    assert deltas[0].stepper.remaining_input is None
    # Without healing, a stepper that left " " unconsumed is not a result.
    assert StateMachine.advance_all(sm.get_steppers(), "example ", vocab, token_healing=False) == []
    assert StateMachine.advance_all(sm.get_steppers(), "example ") == []
