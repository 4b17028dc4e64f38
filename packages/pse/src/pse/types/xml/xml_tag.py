"""XMLTagStateMachine: one opening or closing XML tag."""

from __future__ import annotations

from typing import ClassVar, cast

from pse_core._core import Stepper
from pse_core.errors import GrammarError

from pse.types.base.chain import ChainStateMachine, ChainStepper
from pse.types.base.phrase import PhraseStateMachine


class XMLTagStepper(ChainStepper):
    """A position in an ``XMLTagStateMachine``."""

    __slots__ = ()

    def get_valid_continuations(self) -> list[str]:
        """The rest of the whole tag, as one continuation."""
        machine = cast("XMLTagStateMachine", self.state_machine)
        tag = f"{'</' if machine.closing_tag else '<'}{machine.tag_name}>"
        raw = self.get_raw_value()
        return [tag[len(raw) :]] if tag.startswith(raw) and raw != tag else []


class XMLTagStateMachine(ChainStateMachine):
    """Matches ``<tag_name>``, or ``</tag_name>`` with ``closing_tag=True``.

    The tag name is case-sensitive; attributes, whitespace inside the tag and
    self-closing tags are not supported. The value is the tag text.
    """

    stepper_class: ClassVar[type[Stepper]] = XMLTagStepper

    def __init__(
        self,
        tag_name: str,
        closing_tag: bool = False,
        is_optional: bool = False,
        identifier: str | None = None,
    ) -> None:
        if not tag_name:
            raise GrammarError("XMLTagStateMachine needs a non-empty tag_name")
        super().__init__(
            [
                PhraseStateMachine("</" if closing_tag else "<"),
                PhraseStateMachine(tag_name),
                PhraseStateMachine(">"),
            ],
            is_optional=is_optional,
            identifier=identifier,
        )
        self.tag_name = tag_name
        self.closing_tag = closing_tag

    def __repr__(self) -> str:
        return f"XMLTag({'</' if self.closing_tag else '<'}{self.tag_name}>)"
