"""XMLTagStateMachine: one opening or closing XML tag."""

from __future__ import annotations

from pse_core.errors import GrammarError

from pse.types.base.chain import ChainStateMachine
from pse.types.base.phrase import PhraseStateMachine


class XMLTagStateMachine(ChainStateMachine):
    """Matches ``<tag_name>``, or ``</tag_name>`` with ``closing_tag=True``.

    The tag name is case-sensitive; attributes, whitespace inside the tag and
    self-closing tags are not supported. The value is the tag text.
    """

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
