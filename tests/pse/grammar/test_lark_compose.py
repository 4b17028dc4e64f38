"""LarkGrammarStateMachine composed with other machines: fenced inside
Encapsulated, repeated by Loop, alternatives of Any, and as a JSON object
value in a hand-built graph; the engine's masks there, with a real tokenizer."""

from __future__ import annotations

import json

import numpy as np
import pytest
from _support.tokenizers import smollm2_tokenizer
from pse_core import StateMachine

from pse.structuring_engine import StructuringEngine
from pse.types.base.any import AnyStateMachine
from pse.types.base.encapsulated import EncapsulatedStateMachine
from pse.types.base.loop import LoopStateMachine
from pse.types.base.phrase import PhraseStateMachine
from pse.types.grammar import LarkGrammar, LarkGrammarStateMachine

ARITH = LarkGrammar(
    "arith",
    r"""
?start: sum
?sum: sum ("+" | "-") atom | atom
?atom: INT | "(" sum ")"
%import common.INT
%ignore " "
""",
)


def accepts(machine: StateMachine, text: str) -> bool:
    steppers = StateMachine.advance_all_basic(machine.get_steppers(), text)
    return any(s.has_reached_accept_state() and s.remaining_input is None for s in steppers)


def viable(machine: StateMachine, text: str) -> bool:
    steppers = StateMachine.advance_all_basic(machine.get_steppers(), text)
    return any(s.remaining_input is None for s in steppers)


def test_alone() -> None:
    sm = LarkGrammarStateMachine(ARITH)
    assert sm.grammar is ARITH and sm.kind == "grammar"
    assert accepts(sm, "1 + (2 - 3)")
    assert viable(sm, "1 + (") and not accepts(sm, "1 + (")
    assert not viable(sm, "1 +)")


def test_inside_encapsulated_fence() -> None:
    fenced = EncapsulatedStateMachine(LarkGrammarStateMachine(ARITH), ("```arith\n", "\n```"))
    assert accepts(fenced, "```arith\n1+2\n```")
    assert not viable(fenced, "Here")
    chatty = EncapsulatedStateMachine(
        LarkGrammarStateMachine(ARITH), ("```arith\n", "\n```"), buffer_length=0
    )
    assert accepts(chatty, "Here it is:\n```arith\n(4 - 1) + 2\n```")
    assert not viable(fenced, "```arith\n1+*")
    assert not accepts(fenced, "```arith\n1+\n```")


def test_repeated_by_loop_with_separator() -> None:
    loop = LoopStateMachine(
        LarkGrammarStateMachine(ARITH), min_loop_count=2, separator=PhraseStateMachine(";")
    )
    assert accepts(loop, "1+2;3")
    assert accepts(loop, "1;(2);3 - 4")
    assert not accepts(loop, "1")
    assert not viable(loop, "1;;")


def test_alternative_of_any() -> None:
    other = LarkGrammar("words", 'start: WORD (" " WORD)*\nWORD: /[a-z]+/')
    either = AnyStateMachine([LarkGrammarStateMachine(ARITH), LarkGrammarStateMachine(other)])
    assert accepts(either, "1 + 2")
    assert accepts(either, "hello world")
    assert not viable(either, "hello 1")


def object_with_expression() -> StateMachine:
    """``{"expr": <arith>, "ok": true}`` as a graph of native machines."""
    return StateMachine(
        {
            0: [(PhraseStateMachine('{"expr": '), 1)],
            1: [(LarkGrammarStateMachine(ARITH), 2)],
            2: [(PhraseStateMachine(', "ok": true}'), "$")],
        }
    )


def test_as_a_json_object_value() -> None:
    sm = object_with_expression()
    assert accepts(sm, '{"expr": 1 + 2, "ok": true}')
    assert not accepts(sm, '{"expr": 1 +, "ok": true}')
    assert viable(sm, '{"expr": (1')


def test_masks_in_the_composition_with_a_real_tokenizer() -> None:
    tokenizer = smollm2_tokenizer()
    engine = StructuringEngine(tokenizer)
    engine.configure(object_with_expression())
    text = '{"expr": (12 + 3) - 4, "ok": true}'
    vocab = engine.native_vocabulary
    done = ""
    for tid in tokenizer.encode(text, add_special_tokens=False):
        bits = engine.token_bitmask()
        ids = set(np.flatnonzero(np.unpackbits(bits.view(np.uint8), bitorder="little")).tolist())
        assert tid in ids, done
        for j in list(ids)[:300]:  # every allowed token really continues the text
            tok = vocab.token_bytes(j)
            if tok is None:
                continue
            probe = object_with_expression()
            try:
                piece = (done.encode() + tok).decode()
            except UnicodeDecodeError:
                continue
            assert viable(probe, piece), (done, tok)
        engine.consume_token(tid)
        done += tokenizer.decode([tid])
    assert engine.has_reached_accept_state
    assert json.loads(done.replace("(12 + 3) - 4", "11")) == {"expr": 11, "ok": True}


@pytest.mark.parametrize("text", ["1", "1 + 2"])
def test_grammar_completes_before_parent_text(text: str) -> None:
    """The grammar may end wherever its parse is complete; the parent continues."""
    sm = StateMachine(
        {0: [(LarkGrammarStateMachine(ARITH), 1)], 1: [(PhraseStateMachine("!"), "$")]}
    )
    assert accepts(sm, text + "!")


def test_parent_may_take_bytes_the_last_lexeme_could_extend() -> None:
    """Inside a grammar a lexeme is maximal, but the grammar may end before a
    byte its last lexeme could take; masks and consumption agree on that."""
    short = LarkGrammar("short", 'start: "ab" | "abc"')
    sm = StateMachine(
        {0: [(LarkGrammarStateMachine(short), 1)], 1: [(PhraseStateMachine("c!"), "$")]}
    )
    assert accepts(sm, "abc!")  # "ab" then the parent's "c!"
    assert accepts(sm, "abcc!")
    tokenizer = smollm2_tokenizer()
    engine = StructuringEngine(tokenizer)
    vocab = engine.native_vocabulary
    for text in ("abc!", "abcc!"):
        engine.configure(sm)
        for tid in tokenizer.encode(text, add_special_tokens=False):
            bits = engine.token_bitmask().view(np.uint32)
            assert (bits[tid >> 5] >> np.uint32(tid & 31)) & 1, vocab.token_bytes(tid)
            engine.consume_token(tid)
        assert engine.has_reached_accept_state


def test_masks_after_a_lexeme_a_parent_may_cut_short_are_exact() -> None:
    """Where the last lexeme could take a byte but a parent after the grammar
    may take it instead, the mask holds exactly the tokens some parse
    continues with (checked token by token against consumption). `day` at the
    start is one: `d`, then the parent's `ay.` (`y` is no WORD byte)."""
    words = LarkGrammar("words", 'start: WORD (" " WORD)*\nWORD: /[a-m]+/')
    sm = StateMachine(
        {0: [(LarkGrammarStateMachine(words), 1)], 1: [(PhraseStateMachine("ay."), "$")]}
    )
    assert accepts(sm, "day.") and accepts(sm, "be day.") and not accepts(sm, "d ay.")
    tokenizer = smollm2_tokenizer()
    engine = StructuringEngine(tokenizer)
    vocab = engine.native_vocabulary
    plain = set(b"abcdefghijklmnopqrstuvwxyz .")
    day = tokenizer.convert_tokens_to_ids("day")
    for done in ("", "d", "be", "be d", "be da"):
        engine.configure(sm)
        for tid in tokenizer.encode(done, add_special_tokens=False):
            engine.consume_token(tid)
        bits = engine.token_bitmask()
        allowed = set(np.flatnonzero(np.unpackbits(bits.view(np.uint8), bitorder="little")))
        expected = set()
        for tid in range(tokenizer.vocab_size):
            tok = vocab.token_bytes(tid)
            if tok and set(tok) <= plain and viable(sm, done + tok.decode()):
                expected.add(tid)
        assert allowed == expected, (done, sorted(allowed ^ expected)[:10])
        assert day in allowed, done  # only by the grammar ending before its `a`
