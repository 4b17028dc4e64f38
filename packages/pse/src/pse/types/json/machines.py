"""Machines every compilation shares: the empty language, a union of alternatives,
layout whitespace; and sealing a finished grammar."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, ClassVar

from pse_core._core import StateMachine, Stepper

from pse.types.base.any import AnyStateMachine, AnyStepper
from pse.types.base.character import CharacterStateMachine
from pse.types.base.phrase import PhraseStateMachine

if TYPE_CHECKING:
    from pse_core._core import Edge, StateGraph


class NeverStateMachine(StateMachine):
    """Matches nothing: the compiled form of an unsatisfiable schema (``false``)."""

    def __init__(self) -> None:
        super().__init__({0: []}, start_state=0, end_states=["$"])


class AnySchemaStepper(AnyStepper):
    """A position in an ``AnySchemaStateMachine``: one sub-stepper per schema still possible."""

    __slots__ = ()


class GraphStateMachine(StateMachine):
    """A compiled alternative's graph: from state 0 to ``"$"``."""

    def __init__(
        self, graph: StateGraph, *, is_optional: bool = False, identifier: str | None = None
    ) -> None:
        super().__init__(
            graph, start_state=0, end_states=["$"], is_optional=is_optional, identifier=identifier
        )


def parsed_value(stepper: Stepper) -> Any:
    """A JSON stepper's value: its text parsed once it is complete JSON, else the raw
    text (``None`` when empty)."""
    raw = stepper.get_raw_value()
    try:
        return json.loads(raw)
    except ValueError:
        return raw or None


class AlternativesStateMachine(AnyStateMachine):
    """One machine per alternative (``anyOf``, several types), explored in parallel
    (``AnySchemaStateMachine`` compiles them from schemas). The value is the
    parsed JSON of the alternative that matched."""

    stepper_class: ClassVar[type[Stepper]] = AnySchemaStepper

    def stepper_value(self, stepper: Stepper) -> Any:
        """The parsed value once complete, else the raw text."""
        return parsed_value(stepper)


class LayoutWhitespaceStateMachine(StateMachine):
    """An optional gap as models lay JSON out: one space, or a newline and an indent.

    Matches ``""``, ``" "``, or ``"\n"`` followed by at most ``max_indent``
    spaces: compact JSON, ``json.dumps``' default spacing and indented JSON up
    to that depth, but no runs of blank lines, tabs or stray spaces.
    """

    def __init__(self, max_indent: int = 16, newline: bool = True) -> None:
        edges: list[Edge] = [(PhraseStateMachine(" "), 2)]
        if newline:
            edges.append((PhraseStateMachine("\n"), 1))
        indent = CharacterStateMachine(" ", char_min=0, char_limit=max_indent, is_optional=True)
        super().__init__(
            {0: edges, 1: [(indent, 2)]}, start_state=0, end_states=[1, 2], is_optional=True
        )
        self.max_indent = max_indent


def seal_grammar(machine: StateMachine) -> None:
    """``machine.seal()``; a development pse-core built before ``seal`` existed
    (pse and pse-core are released together) keeps the reference cycles."""
    seal = getattr(machine, "seal", None)
    if seal is not None:
        seal()


__all__ = [
    "AlternativesStateMachine",
    "AnySchemaStepper",
    "LayoutWhitespaceStateMachine",
    "NeverStateMachine",
    "seal_grammar",
]
