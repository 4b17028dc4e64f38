"""XMLEncapsulatedStateMachine: a machine between matching XML tags."""

from __future__ import annotations

from pse_core._core import StateMachine

from pse.types.base.encapsulated import EncapsulatedStateMachine
from pse.types.xml.xml_tag import XMLTagStateMachine


class XMLEncapsulatedStateMachine(EncapsulatedStateMachine):
    """Matches ``<tag_name>``, then ``state_machine``, then ``</tag_name>``.

    ``min_buffer_length`` is the free text allowed before the opening tag (see
    ``WaitFor``; ``-1``: none). The value is the inner machine's value.
    """

    def __init__(
        self,
        tag_name: str,
        state_machine: StateMachine,
        min_buffer_length: int = -1,
        is_optional: bool = False,
        identifier: str | None = None,
    ) -> None:
        super().__init__(
            state_machine,
            delimiters=(
                XMLTagStateMachine(tag_name),
                XMLTagStateMachine(tag_name, closing_tag=True),
            ),
            buffer_length=min_buffer_length,
            is_optional=is_optional,
            identifier=identifier,
        )
        self.tag_name = tag_name
