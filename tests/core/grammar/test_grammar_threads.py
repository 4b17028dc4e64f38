"""Grammar masks from native threads: ``pse_core.fill_masks`` fills the rows of
engines that share one cold compiled grammar (its lexer configurations, Earley sets
and memos made by several threads at once) exactly as each engine fills its own
mask afterwards, one at a time."""

from __future__ import annotations

import numpy as np
import pytest
from _support.tokenizers import smollm2_tokenizer
from pse_core import _core

from pse import StructuringEngine
from pse.types.grammar import LarkGrammar, LarkGrammarStateMachine
from pse.types.grammar.default_grammars.python import PythonStateMachine

CODE = '''import os

class Walker(Base, metaclass=Meta):
    """Walks."""

    def walk(self, root: str = ".", *, depth=3) -> list[str]:
        found = [f"{root}/{name!r}" for name in os.listdir(root) if name[0] != "."]
        while depth > 0:
            depth -= 1
            try:
                found += self.walk(root, depth=depth)
            except OSError as exc:
                raise ValueError(exc) from None
        return found
'''


def cold_python() -> LarkGrammarStateMachine:
    """The Python grammar as a new native grammar (nothing memoised yet)."""
    grammar = PythonStateMachine.grammar
    text = grammar.lark_grammar + "\n// a distinct text: a grammar of its own\n"
    return LarkGrammarStateMachine(
        LarkGrammar("python-cold", text, start=grammar.start, lexer=grammar.lexer)
    )


@pytest.mark.parametrize("threads", [2, 4])
def test_parallel_grammar_fills_equal_serial_fills(threads: int) -> None:
    tokenizer = smollm2_tokenizer()
    machine = cold_python()
    engines = []
    for cut in range(0, len(CODE), len(CODE) // 24):
        engine = StructuringEngine(tokenizer)
        engine.configure(machine)
        assert engine.consume_text(CODE[:cut]) or cut == 0
        engines.append(engine)
    words = -(-engines[0].vocab_size // 32)
    out = np.zeros((len(engines), words), dtype=np.int32)
    rows = list(range(len(engines)))[::-1]
    _core.fill_masks(engines, out, rows, threads=threads)
    for engine, row in zip(engines, rows, strict=True):
        own = np.zeros(words, dtype=np.int32)
        engine.fill_bitmask(own)
        assert np.array_equal(out[row], own), engine.text if hasattr(engine, "text") else row
