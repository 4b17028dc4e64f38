"""LoopStateMachine: one machine, repeated."""

from __future__ import annotations

from pse_core import _core
from pse_core._core import StateMachine
from pse_core.errors import GrammarError


class LoopStateMachine(_core.LoopStateMachine):
    """Matches ``min_loop_count..max_loop_count`` repetitions of ``state_machine``.

    ``max_loop_count=-1`` means unbounded. ``separator`` (if given) must match
    between repetitions; it does not count and is not part of the value.
    ``whitespace_separator=True`` (or the documented spelling
    ``whitespace_seperator=True``) uses ``WhitespaceStateMachine()`` as separator.
    The loop is skippable when ``min_loop_count == 0``.
    """

    def __init__(
        self,
        state_machine: StateMachine,
        min_loop_count: int = 1,
        max_loop_count: int = -1,
        separator: StateMachine | None = None,
        is_optional: bool = False,
        identifier: str | None = None,
        *,
        whitespace_seperator: bool = False,
        whitespace_separator: bool = False,
    ) -> None:
        if whitespace_seperator or whitespace_separator:
            if separator is not None:
                raise GrammarError("give either separator or whitespace_separator, not both")
            from pse.types.whitespace import WhitespaceStateMachine  # noqa: PLC0415 (cycle)

            separator = WhitespaceStateMachine()
        super().__init__(
            state_machine,
            min_loop_count=min_loop_count,
            max_loop_count=max_loop_count,
            separator=separator,
            is_optional=is_optional,
            identifier=identifier,
        )
