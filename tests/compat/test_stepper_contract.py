"""The Stepper contract of the API reference (api/stepper.md) and of
core-concepts/stepper.md: every documented method and property, read/write
properties on subclasses, and overrides that take effect on the Python path."""

from __future__ import annotations

import inspect

import pytest
from pse_core import StateMachine, Stepper
from pse_core.errors import PseError

from pse.types.base.chain import ChainStateMachine, ChainStepper
from pse.types.base.character import CharacterStateMachine
from pse.types.base.phrase import PhraseStateMachine, PhraseStepper
from pse.types.number import NumberStateMachine

# name -> documented parameters (after self)
DOCUMENTED_METHODS: dict[str, list[str]] = {
    "clone": [],
    "consume": ["token"],
    "get_current_value": [],
    "get_raw_value": [],
    "get_valid_continuations": [],
    "get_invalid_continuations": [],
    "has_reached_accept_state": [],
    "can_accept_more_input": [],
    "is_within_value": [],
    "accepts_any_token": [],
    "get_identifier": [],
    "get_token_ids_history": [],
    "get_token_safe_output": ["decode_function"],
    # core-concepts/stepper.md and the per-type implementation notes
    "branch": ["token"],
    "should_start_step": ["token"],
    "should_complete_step": [],
    "start_step": ["sub_stepper", "target_state", "token"],
    "complete_step": ["sub_stepper"],
    "step": ["new_value", "remaining_input"],
    "add_to_history": ["stepper"],
}

DOCUMENTED_PROPERTIES = [
    "state_machine",
    "current_state",
    "target_state",
    "sub_stepper",
    "history",
    "consumed_character_count",
    "remaining_input",
    "_raw_value",
]


def parameters(function: object) -> list[str]:
    """Parameter names of a nanobind method, from its signature line."""
    signature = getattr(function, "__nb_signature__", None)
    if signature is None:
        return list(inspect.signature(function).parameters)[1:]  # type: ignore[arg-type]
    text = signature[0][0]
    inside = text[text.index("(") + 1 : text.rindex(")")]
    names = [part.strip().split(":")[0].split("=")[0].strip() for part in inside.split(",")]
    return [n for n in names if n and n != "self"]


@pytest.mark.parametrize("name", sorted(DOCUMENTED_METHODS))
def test_documented_method_exists_with_its_parameters(name: str) -> None:
    method = getattr(Stepper, name)
    assert callable(method)
    assert parameters(method) == DOCUMENTED_METHODS[name]


def test_constructor_signature() -> None:
    assert parameters(Stepper.__init__) == ["state_machine", "current_state"]
    machine = ChainStateMachine([PhraseStateMachine("a"), PhraseStateMachine("b")])
    assert Stepper(machine).current_state == 0
    assert Stepper(machine, 1).current_state == 1


@pytest.mark.parametrize("name", DOCUMENTED_PROPERTIES)
def test_documented_property_is_read_write(name: str) -> None:
    prop = getattr(Stepper, name)
    assert prop.fget is not None and prop.fset is not None


NULLABLE = {"state_machine", "target_state", "sub_stepper", "remaining_input", "_raw_value"}


class Recording(Stepper):
    """A Stepper subclass: the documented properties hold what is assigned."""


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("state_machine", PhraseStateMachine("z")),
        ("current_state", 3),
        ("target_state", "$"),
        ("sub_stepper", PhraseStateMachine("y").get_new_stepper()),
        ("history", [PhraseStateMachine("y").get_new_stepper()]),
        ("consumed_character_count", 7),
        ("remaining_input", "rest"),
        ("_raw_value", "raw"),
    ],
)
def test_properties_are_writable_in_subclasses(name: str, value: object) -> None:
    stepper = Recording(PhraseStateMachine("abc"))
    setattr(stepper, name, value)
    assert getattr(stepper, name) == value
    assert getattr(Recording(PhraseStateMachine("abc")), name) != value
    if name in NULLABLE:
        setattr(stepper, name, None)
        assert getattr(stepper, name) is None


def test_built_in_steppers_reject_assignment_clearly() -> None:
    stepper = PhraseStateMachine("abc").get_new_stepper()
    with pytest.raises(AttributeError, match="immutable view"):
        stepper.remaining_input = "x"
    with pytest.raises(PseError, match="history"):
        stepper.add_to_history(stepper)
    chain = ChainStateMachine([PhraseStateMachine("a"), PhraseStateMachine("b")])
    moved = chain.get_new_stepper()
    moved.current_state = 1  # graph steppers move natively
    assert moved.consume("b")[0].has_reached_accept_state()


def test_read_methods_on_a_number() -> None:
    (stepper,) = NumberStateMachine().get_new_stepper().consume("-12")
    assert stepper.get_raw_value() == "-12" and stepper.get_current_value() == -12
    assert stepper.has_reached_accept_state() and stepper.can_accept_more_input()
    assert stepper.is_within_value() and not stepper.accepts_any_token()
    assert "." in stepper.get_valid_continuations()
    assert stepper.consumed_character_count == 3 and stepper.remaining_input is None
    assert stepper._raw_value == "-12"
    assert stepper.get_identifier() is None and stepper.get_token_ids_history() == []
    assert stepper.get_token_safe_output(lambda ids: "decoded") == "decoded"


def test_clone_is_an_equal_independent_stepper() -> None:
    (stepper,) = PhraseStateMachine("hello").get_new_stepper().consume("he")
    copy = stepper.clone()
    assert type(copy) is PhraseStepper and copy.get_raw_value() == "he"
    assert copy.consume("llo")[0].has_reached_accept_state()
    assert stepper.get_raw_value() == "he"


def test_invalid_continuations_and_any_token() -> None:
    stepper = CharacterStateMachine(blacklist_charset="xy").get_new_stepper()
    assert sorted(stepper.get_invalid_continuations()) == ["x", "y"]
    assert stepper.accepts_any_token()


def test_identifier_of_the_machine() -> None:
    stepper = PhraseStateMachine("a", identifier="greeting").get_new_stepper()
    assert stepper.get_identifier() == "greeting"


def test_branch_start_step_complete_step() -> None:
    chain = ChainStateMachine([PhraseStateMachine("ab"), PhraseStateMachine("cd")])
    stepper = chain.get_new_stepper()
    (branched,) = stepper.branch()
    assert isinstance(branched, ChainStepper) and branched.target_state == 1
    assert stepper.branch("x") == []
    sub = chain.get_edges(0)[0][0].get_new_stepper()
    started = stepper.start_step(sub, 1)
    assert started is not None and started.sub_stepper is not None
    assert stepper.start_step(sub, "$") is None
    (finished,) = started.sub_stepper.consume("ab")
    (completed,) = started.complete_step(finished)
    assert completed.current_state == 1 and completed.get_raw_value() == "ab"
    assert [h.get_raw_value() for h in completed.history] == ["ab"]
    (unfinished,) = started.sub_stepper.consume("a")
    assert started.complete_step(unfinished) == []
    with pytest.raises(PseError, match="sub-stepper of this stepper"):
        started.complete_step(PhraseStateMachine("ab").get_new_stepper().consume("ab")[0])


def test_should_start_and_complete_step_defaults() -> None:
    stepper = PhraseStateMachine("ab").get_new_stepper()
    assert stepper.should_start_step("a") and not stepper.should_start_step("b")
    assert stepper.should_complete_step()


def test_step() -> None:
    stepper = PhraseStateMachine("abc").get_new_stepper()
    assert stepper.step("ab").get_raw_value() == "ab"
    with pytest.raises(PseError, match="cannot take"):
        stepper.step("x")
    recording = Recording(PhraseStateMachine("abc"))
    after = recording.step("ab", remaining_input="!")
    assert type(after) is Recording
    assert (after._raw_value, after.remaining_input, after.consumed_character_count) == (
        "ab",
        "!",
        2,
    )
    after.add_to_history(stepper)
    assert after.history == [stepper]


# ---------------------------------------------------------------- overrides


class Shy(PhraseStepper):
    """Declines to start on a token that begins with a capital letter."""

    def should_start_step(self, token: str) -> bool:
        return not token[:1].isupper() and super().should_start_step(token)


class ShyPhrase(PhraseStateMachine):
    def get_new_stepper(self, state: int | str | None = None) -> Stepper:
        return Shy(self)


class Reluctant(Stepper):
    """Matches any word, but completes only once it is five letters long."""

    def should_complete_step(self) -> bool:
        return len(self.get_raw_value()) == 5


class Word(CharacterStateMachine):
    def __init__(self) -> None:
        super().__init__(whitelist_charset="abcdefghijklmnopqrstuvwxyz", char_limit=8)

    def get_new_stepper(self, state: int | str | None = None) -> Stepper:
        return Reluctant(self)


def test_should_start_step_override_takes_effect() -> None:
    machine = ShyPhrase("Yes", is_case_sensitive=False)
    graph = StateMachine({0: [(machine, 1)], 1: [(PhraseStateMachine("!"), "$")]})
    assert StateMachine.advance_all_basic(graph.get_steppers(), "yes!")
    assert StateMachine.advance_all_basic(graph.get_steppers(), "Yes!") == []


def test_should_complete_step_override_takes_effect() -> None:
    graph = StateMachine({0: [(Word(), 1)], 1: [(PhraseStateMachine("."), "$")]})
    assert StateMachine.advance_all_basic(graph.get_steppers(), "hello.")
    assert StateMachine.advance_all_basic(graph.get_steppers(), "hi.") == []
    assert StateMachine.advance_all_basic(graph.get_steppers(), "goodbye.") == []


class ShyByClass(PhraseStateMachine):
    """Declares its stepper class instead of overriding get_new_stepper."""

    stepper_class = Shy


def test_hook_override_through_stepper_class_takes_effect() -> None:
    machine = ShyByClass("yes", is_case_sensitive=False)
    assert type(machine.get_new_stepper()) is Shy
    graph = StateMachine({0: [(machine, 1)], 1: [(PhraseStateMachine("!"), "$")]})
    assert StateMachine.advance_all_basic(graph.get_steppers(), "yes!")
    assert StateMachine.advance_all_basic(graph.get_steppers(), "Yes!") == []
