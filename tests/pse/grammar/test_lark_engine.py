"""Grammars in the engine, end to end, with the real tokenizers: the mask
admits every token of a valid text, agrees with ``LarkGrammar.validate`` on
every token tried (an independent path: no trie, no mask cache), and random
generation under the mask never reaches a dead end."""

from __future__ import annotations

import json
import random

import pytest
from _support.masks import allowed_ids, assert_masks_follow_validate
from _support.tokenizers import llama3_tokenizer, smollm2_tokenizer

from pse.structuring_engine import StructuringEngine
from pse.types.grammar import LarkGrammar, LarkGrammarStateMachine

ARITH = LarkGrammar(
    "arith",
    r"""
?start: sum
?sum: sum ("+" | "-") product | product
?product: product ("*" | "/") atom | atom
?atom: NUMBER | NAME | "(" sum ")" | NAME "(" [sum ("," sum)*] ")"
NAME: /[a-z_][a-z_0-9]*/
%import common.NUMBER
%import common.WS
%ignore WS
""",
)

JSON = LarkGrammar(
    "json",
    r"""
?start: value
?value: object | array | STRING | NUMBER | "true" | "false" | "null"
array: "[" [value ("," value)*] "]"
object: "{" [pair ("," pair)*] "}"
pair: STRING ":" value
STRING: /"([^"\\\x00-\x1f]|\\["\\\/bfnrt]|\\u[0-9a-fA-F]{4})*"/
NUMBER: /-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/
%ignore /[ \t\n\r]+/
""",
)

MINIPY = LarkGrammar(
    "minipy",
    r"""
start: (_NEWLINE | stmt)*
?stmt: simple _NEWLINE | compound
simple: NAME "=" expr | "pass" | "return" expr
compound: "if" expr ":" block ("else" ":" block)? | "def" NAME "(" [NAME ("," NAME)*] ")" ":" block
block: simple _NEWLINE | _NEWLINE _INDENT stmt+ _DEDENT
?expr: expr "+" atom | atom
?atom: NAME | NUMBER | STRING | "(" expr ")" | "[" [args] "]" | NAME "(" [args] ")"
args: expr ("," expr)*
NAME: /[a-zA-Z_][a-zA-Z_0-9]*/
NUMBER: /[0-9]+/
STRING: /"[^"\n]*"/
%declare _NEWLINE _INDENT _DEDENT
%ignore /[\t \f]+/
%ignore /#[^\n]*/
""",
    lexer="python",
)

TEXTS = [
    (ARITH, "(12 + foo) * 3.5e2 - bar(x, 1)/(y+1)"),
    (JSON, json.dumps({"name": "Ada", "tags": ["x", "y z"], "n": [1, -2.5, 3e8], "ok": None})),
    (JSON, json.dumps({"a": {"b": [True, False, {}]}, "c": "é\n"}, indent=2)),
    (
        MINIPY,
        'def f(a, b):\n    if a:\n        return a + b\n    else:\n        x = [1, "two"]\n'
        "    # note\n    return g(x)\n\ny = f(1, 2)\n",
    ),
]

TOKENIZERS = {"smollm2": smollm2_tokenizer, "llama3": llama3_tokenizer}


@pytest.fixture(scope="module", params=sorted(TOKENIZERS))
def engine(request: pytest.FixtureRequest) -> StructuringEngine:
    return StructuringEngine(TOKENIZERS[request.param]())


def token_bytes(engine: StructuringEngine) -> list[bytes | None]:
    vocab = engine.native_vocabulary
    return [vocab.token_bytes(i) for i in range(len(vocab))]


@pytest.mark.parametrize("case", range(len(TEXTS)))
def test_mask_admits_the_text_and_agrees_with_validate(
    engine: StructuringEngine, case: int
) -> None:
    grammar, text = TEXTS[case]
    assert grammar.validate(text, strict=True)
    engine.configure(LarkGrammarStateMachine(grammar))
    rng = random.Random(case)
    sample = rng.sample(range(len(engine.native_vocabulary)), 1500)
    assert_masks_follow_validate(engine, grammar, text, sample)
    assert set(engine.native_vocabulary.eos_token_ids) & allowed_ids(engine)


@pytest.mark.parametrize("grammar", [ARITH, JSON, MINIPY], ids=["arith", "json", "minipy"])
def test_random_generation_never_dead_ends(engine: StructuringEngine, grammar: LarkGrammar) -> None:
    tokens = token_bytes(engine)
    eos = set(engine.native_vocabulary.eos_token_ids)
    rng = random.Random(3)
    for _ in range(4):
        engine.configure(LarkGrammarStateMachine(grammar))
        text = b""
        for _ in range(40):
            ids = sorted(allowed_ids(engine))
            assert ids, text  # never a dead end
            tid = rng.choice(ids)
            if tid in eos:
                assert grammar.validate(text, strict=True), text
                break
            engine.consume_token(tid)
            text += tokens[tid] or b""
            assert grammar.validate(text), text


def test_multi_token_and_healing_on_a_grammar() -> None:
    """Forced text after a token comes as extra tokens; a token that runs past
    the grammar's end is healed to the prefix it consumed."""
    tokenizer = smollm2_tokenizer()
    keyword = LarkGrammar("kw", 'start: "function" NAME "(" ")"\nNAME: /[a-z]+/\n%ignore " "')
    engine = StructuringEngine(tokenizer, multi_token_sampling=True)
    engine.configure(LarkGrammarStateMachine(keyword))
    first = tokenizer.encode("fun", add_special_tokens=False)
    assert len(first) == 1
    emitted = engine.consume_token(first[0])
    assert tokenizer.decode(emitted) == "function"  # "ction" is forced by the grammar
    engine.configure(LarkGrammarStateMachine(ARITH))
    # The expression is complete after the first ")": the second is left over.
    assert engine.consume_text("(1+2))", token_healing=True)
    assert engine.has_reached_accept_state
    assert engine.raw_output == "(1+2)"
