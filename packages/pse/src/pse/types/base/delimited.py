"""The shape shared by JSON arrays and objects: delimiters around a separated list."""

from __future__ import annotations

from pse_core._core import StateMachine

from pse.types.base.chain import ChainStateMachine
from pse.types.base.loop import LoopStateMachine
from pse.types.base.phrase import PhraseStateMachine
from pse.types.whitespace import WhitespaceStateMachine

StateGraph = dict[int | str, list[tuple[StateMachine, int | str]]]


def delimited_list(open_: str, item: StateMachine, close: str) -> tuple[StateGraph, StateMachine]:
    """The graph of ``open ws (item (ws "," ws item)*)? ws close`` and its item loop."""
    separator = ChainStateMachine(
        [WhitespaceStateMachine(), PhraseStateMachine(","), WhitespaceStateMachine()]
    )
    items = LoopStateMachine(item, min_loop_count=1, separator=separator)
    graph: StateGraph = {
        0: [(PhraseStateMachine(open_), 1)],
        1: [(WhitespaceStateMachine(), 2)],
        2: [(items, 3), (PhraseStateMachine(close), "$")],
        3: [(WhitespaceStateMachine(), 4)],
        4: [(PhraseStateMachine(close), "$")],
    }
    return graph, items
