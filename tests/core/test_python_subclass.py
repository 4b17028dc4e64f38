"""Python subclasses: graphs built in __init__ run natively; a subclass that
overrides get_new_stepper runs its own Stepper subclass (the slow path)."""

from __future__ import annotations

from pse_core._core import Engine, PhraseStateMachine, StateMachine, Stepper, Vocabulary

from .conftest import SYNTHETIC_TOKENS, accepts


class Greeting(StateMachine):
    """A subclass that only builds a graph: fully native."""

    def __init__(self) -> None:
        hello, world = PhraseStateMachine("hello"), PhraseStateMachine(" world")
        super().__init__({0: [(hello, 1)], 1: [(world, "$")]}, identifier="greeting")


class DigitsStepper(Stepper):
    """One to three ASCII digits, consumed a token at a time."""

    def __init__(self, machine: StateMachine, count: int = 0, rest: str | None = None) -> None:
        super().__init__(machine)
        self.count = count
        self.rest = rest

    def consume(self, token: str) -> list[Stepper]:
        n = 0
        while n < len(token) and "0" <= token[n] <= "9" and self.count + n < 3:
            n += 1
        if n == 0:
            return []
        return [DigitsStepper(self.state_machine, self.count + n, token[n:] or None)]

    @property
    def remaining_input(self) -> str | None:  # type: ignore[override]
        return self.rest

    def has_reached_accept_state(self) -> bool:
        return self.count >= 1


class Digits(StateMachine):
    def get_new_stepper(self, state: int | str | None = None) -> Stepper:
        return DigitsStepper(self)


def assignment() -> StateMachine:
    return StateMachine(
        {
            0: [(PhraseStateMachine("n="), 1)],
            1: [(Digits(), 2)],
            2: [(PhraseStateMachine(";"), "$")],
        }
    )


def test_graph_subclass_is_native() -> None:
    g = Greeting()
    assert accepts(g, "hello world") and not accepts(g, "hello")
    assert g.identifier == "greeting" and isinstance(g, StateMachine)


def test_overriding_subclass_inside_a_native_graph() -> None:
    sm = assignment()
    assert accepts(sm, "n=12;") and accepts(sm, "n=123;")
    assert not accepts(sm, "n=1234;") and not accepts(sm, "n=;")


def test_overriding_subclass_in_the_engine_mask(synthetic_vocab: Vocabulary) -> None:
    engine = Engine(synthetic_vocab)
    engine.state_machine = assignment()
    ids = {t: i for i, t in enumerate(SYNTHETIC_TOKENS) if t is not None}
    for t in (b"n", b"=", b"12"):
        engine.consume_token(ids[t])
    allowed = {SYNTHETIC_TOKENS[i] for i in engine.allowed_token_ids()}
    assert allowed == {*(bytes([d]) for d in b"0123456789"), b";"}
    engine.consume_token(ids[b"3"])
    assert {SYNTHETIC_TOKENS[i] for i in engine.allowed_token_ids()} == {b";"}
