"""The native grammar engine on its own (pse_core.Grammar, GrammarStateMachine),
with hand-written byte automata: Earley parsing, lexing rules, the Python
newline hook, bad tables, the engine's masks against an enumerated language,
and concurrent use of one grammar."""

from __future__ import annotations

import itertools
import threading
from array import array

import numpy as np
import pytest
from pse_core._core import (
    Engine,
    Grammar,
    GrammarStateMachine,
    PhraseStateMachine,
    StateMachine,
    Vocabulary,
)
from pse_core.errors import GrammarError

Term = tuple[str, bytes, list[bool], int, bool, str, int]


def literal(name: str, text: bytes, role: str = "normal", priority: int = 0) -> Term:
    rows = []
    for i, b in enumerate(text):
        row = array("i", [-1]) * 256
        row[b] = i + 1
        rows.append(row)
    rows.append(array("i", [-1]) * 256)
    packed = b"".join(r.tobytes() for r in rows)
    return (name, packed, [False] * len(text) + [True], priority, True, role, 0)


def char_class(name: str, chars: bytes, role: str = "normal") -> Term:
    """One or more bytes of ``chars``."""
    start, more = array("i", [-1]) * 256, array("i", [-1]) * 256
    for b in chars:
        start[b] = more[b] = 1
    return (name, start.tobytes() + more.tobytes(), [False, True], 0, False, role, 0)


# S -> S "+" T | T ; T -> "(" S ")" | NUM   (left recursive), blanks ignored
TERMS = [
    literal("PLUS", b"+"),
    literal("LPAR", b"("),
    literal("RPAR", b")"),
    char_class("NUM", b"0123456789"),
    char_class("WS", b" ", "ignore"),
]
S, T = 0, 1
RULES = [(S, [~S, 0, ~T]), (S, [~T]), (T, [1, ~S, 2]), (T, [3])]


def sums() -> Grammar:
    return Grammar(TERMS, RULES, S, ["sum", "term"])


def reference(text: str) -> tuple[bool, bool]:
    """(complete, viable prefix) for the sums language, written by hand."""
    depth, prev, blank = 0, "start", False  # prev: start | num | op | open | close
    for c in text:
        if c == " ":
            blank = True
            continue
        if c.isdigit():
            if prev == "close" or (prev == "num" and blank):  # "1 2": two numbers
                return False, False
            prev = "num"
        elif c == "+":
            if prev not in ("num", "close"):
                return False, False
            prev = "op"
        elif c == "(":
            if prev not in ("start", "op", "open"):
                return False, False
            depth, prev = depth + 1, "open"
        elif c == ")":
            if prev not in ("num", "close") or depth == 0:
                return False, False
            depth, prev = depth - 1, "close"
        else:
            return False, False
        blank = False
    return depth == 0 and prev in ("num", "close"), True


@pytest.mark.parametrize(
    "text", ["".join(p) for n in range(5) for p in itertools.product("1+() ", repeat=n)]
)
def test_validate_matches_a_hand_written_recogniser(text: str) -> None:
    complete, viable = reference(text)
    g = sums()
    assert g.validate(text, strict=True) == complete, text
    assert g.validate(text) == viable, text


def test_maximal_munch_and_priorities() -> None:
    # start: WORD | IF WORD ; IF is "if" (a literal), WORD is [a-z]+ ; blanks ignored.
    terms = [literal("IF", b"if"), char_class("WORD", b"abcdefghijklmnopqrstuvwxyz")]
    terms.append(char_class("WS", b" ", "ignore"))
    g = Grammar(terms, [(0, [1]), (0, [0, 1])], 0, ["start"])
    assert g.validate("iffy", strict=True)  # one WORD, never IF + "fy"
    assert g.validate("if x", strict=True)
    assert not g.validate("ifx y", strict=True)
    # Both match "if" at the start: the literal wins, so "if" alone is incomplete...
    assert not g.validate("if", strict=True)
    # ...and after IF only WORD is expected (contextual lexing): "if" is a WORD there.
    assert g.validate("if if", strict=True)


def test_python_hook_indentation() -> None:
    terms = [
        char_class("NAME", b"abcxyz"),
        literal("COLON", b":"),
        char_class("WS", b" ", "ignore"),
        ("_NEWLINE", b"", [], 0, False, "declared", 0),
        ("_INDENT", b"", [], 0, False, "declared", 0),
        ("_DEDENT", b"", [], 0, False, "declared", 0),
    ]
    # file: stmt* ; stmt: NAME _NEWLINE | NAME COLON _NEWLINE _INDENT stmt+ _DEDENT
    rules = [
        (0, []),
        (0, [~0, ~1]),
        (1, [0, 3]),
        (1, [0, 1, 3, 4, ~2, 5]),
        (2, [~1]),
        (2, [~2, ~1]),
    ]
    g = Grammar(terms, rules, 0, ["file", "stmt", "stmts"], "python")
    assert g.validate("a:\n  b\n  c\nx\n", strict=True)
    assert g.validate("a:\n  b", strict=True)  # the end closes the block
    assert not g.validate("a:\nb\n", strict=True)  # missing indent
    assert not g.validate("a:\n  b\n c\n", strict=True)  # inconsistent dedent
    assert g.validate("a:\n\n  # \n  b\n".replace("#", ""), strict=True)
    assert not g.validate("  a\n", strict=True)  # unexpected indent
    with pytest.raises(GrammarError, match="_INDENT"):
        Grammar(terms[:3], [(0, [0])], 0, ["file"], "python")


@pytest.mark.parametrize(
    ("terms", "message"),
    [
        ([("X", b"\0" * 10, [True], 0, False, "normal", 0)], "256"),
        ([literal("E", b"")], "empty string"),
        ([("X", (array("i", [5]) * 256).tobytes(), [True], 0, False, "normal", 0)], "range"),
        ([("X", b"", [], 0, False, "weird", 0)], "role"),
    ],
)
def test_bad_tables_are_rejected(terms: list[Term], message: str) -> None:
    with pytest.raises(GrammarError, match=message):
        Grammar(terms, [(0, [0])], 0, ["start"])


def test_bad_rules_and_hooks() -> None:
    with pytest.raises(GrammarError, match="unknown symbol"):
        Grammar(TERMS, [(0, [99])], 0, ["start"])
    with pytest.raises(GrammarError, match="start"):
        Grammar(TERMS, RULES, 5, ["sum", "term"])
    with pytest.raises(GrammarError, match="hook"):
        Grammar(TERMS, RULES, 0, ["sum", "term"], "cobol")


def allowed_after(vocab: Vocabulary, machine: StateMachine, prefix: str) -> set[int]:
    """The ids a fresh engine on `machine` allows after `prefix` (a vocabulary of < 32 tokens)."""
    engine = Engine(vocab)
    engine.state_machine = machine
    assert engine.consume_text(prefix) or prefix == ""
    bits = np.zeros(1, dtype=np.int32)
    engine.fill_bitmask(bits)
    return {i for i in range(len(vocab)) if (int(bits[0]) >> i) & 1}


def test_engine_mask_equals_enumerated_language() -> None:
    tokens: list[bytes | None] = [
        b"1",
        b"2",
        b"+",
        b"(",
        b")",
        b"1+",
        b"+(",
        b"(1",
        b"1)",
        b" ",
        b")+2",
    ]
    tokens += [b"12", b"1 ", None]
    eos = len(tokens) - 1
    vocab = Vocabulary(tokens, [], [eos])
    machine = GrammarStateMachine(sums())
    assert machine.kind == "grammar"
    for prefix in ["", "1", "(1", "(1+", "((2)", "1 ", "12+(", "(1)"]:
        allowed = allowed_after(vocab, machine, prefix)
        expected = {
            i for i, t in enumerate(tokens) if t is not None and reference(prefix + t.decode())[1]
        }
        if reference(prefix)[0]:
            expected.add(eos)
        assert allowed == expected, prefix


def test_parent_mask_after_the_grammar_equals_enumerated_language() -> None:
    """A grammar followed by text whose first bytes its last lexeme could take:
    inside the grammar a lexeme is maximal, but the grammar may end there and
    the parent read on (NUM "1" then "23!"). Masks skip the lexeme ends whose
    next byte nothing after the grammar takes; they must still equal the
    language, with and without a parent that takes such bytes."""
    tokens: list[bytes | None] = [b"1", b"2", b"3", b"!", b"+", b"12", b"123", b"23!", b"3!"]
    tokens += [b"1+2", b"(1)2", b"123!", b"1 2", b"2+", b")2", None]
    eos = len(tokens) - 1
    vocab = Vocabulary(tokens, [], [eos])
    tail = "23!"

    def viable(text: str, parent: bool) -> bool:
        if reference(text)[1]:
            return True
        return parent and any(
            reference(text[:k])[0] and tail.startswith(text[k:]) for k in range(1, len(text))
        )

    def complete(text: str, parent: bool) -> bool:
        if not parent:
            return reference(text)[0]
        return any(reference(text[:k])[0] and text[k:] == tail for k in range(1, len(text)))

    for parent in (False, True):
        machine: StateMachine = GrammarStateMachine(sums())
        if parent:
            machine = StateMachine({0: [(machine, 1)], 1: [(PhraseStateMachine(tail), "$")]})
        for prefix in ["", "1", "(1", "1+2", "12", "(1)", "1 ", "1+(2)2"]:
            if not viable(prefix, parent):
                continue
            allowed = allowed_after(vocab, machine, prefix)
            expected = {
                i
                for i, t in enumerate(tokens)
                if t is not None and viable(prefix + t.decode(), parent)
            }
            if complete(prefix, parent):
                expected.add(eos)
            assert allowed == expected, (parent, prefix)


# S -> S "+" U | U ; U -> "-" U | U "!" | A ; A -> "(" S ")" | "[" V "]" | NUM | Q ;
# V -> "-" V | "[" V "]" | NUM ; Q -> Q "q" | "q". A run of "-" nests U in U,
# each completing with the next (right recursion), and a run of "q" extends Q
# in place (left recursion): either leaves the parse as it was, and the
# parser keeps one state for the whole run. A run of "[" looks alike, but
# each "[" waits for its "]": the parser must tell the two kinds apart.
RUN_TERMS = [*TERMS, literal("MINUS", b"-"), literal("Q", b"q"), literal("LSQB", b"[")]
RUN_TERMS += [literal("RSQB", b"]"), literal("BANG", b"!")]
U, A, Q, V = 1, 2, 3, 4
RUN_RULES = [(S, [~S, 0, ~U]), (S, [~U]), (U, [5, ~U]), (U, [~U, 9]), (U, [~A])]
RUN_RULES += [(A, [1, ~S, 2]), (A, [7, ~V, 8]), (A, [3]), (A, [~Q]), (Q, [~Q, 6]), (Q, [6])]
RUN_RULES += [(V, [5, ~V]), (V, [7, ~V, 8]), (V, [3])]


def runs() -> Grammar:
    return Grammar(RUN_TERMS, RUN_RULES, S, ["sum", "unary", "atom", "quotes", "inner"])


def runs_reference(text: str) -> tuple[bool, bool]:
    """(complete, viable prefix) for the runs language, written by hand."""
    # `levels`: the open brackets' contents, "S" (a sum: top level or in "()")
    # or "V" (in "[]"); prev: open (an operand is due) | num | q | close.
    levels, prev, blank = ["S"], "open", False
    for c in text:
        if c == " ":
            blank = True
            continue
        inner = levels[-1] == "V"
        if c == "-" or c == "[" or (c == "(" and not inner):
            if prev != "open":
                return False, False
            levels += {"-": [], "[": ["V"], "(": ["S"]}[c]
        elif c.isdigit():
            if prev not in ("open", "num") or (prev == "num" and blank):
                return False, False
            prev = "num"
        elif c == "q" and not inner:
            if prev not in ("open", "q"):
                return False, False
            prev = "q"
        elif c in "+!" and not inner:
            if prev == "open":
                return False, False
            prev = "open" if c == "+" else "close"
        elif c in ")]":
            if prev == "open" or len(levels) == 1 or levels[-1] != "SV"[")]".index(c)]:
                return False, False
            levels, prev = levels[:-1], "close"
        else:
            return False, False
        blank = False
    return len(levels) == 1 and prev != "open", True


RUN_TEXTS = ["".join(p) for n in range(6) for p in itertools.product("1-q+([])!", repeat=n)]
RUN_TEXTS += [
    text
    for k in range(4)
    for m in (7, 40)
    for j in range(5)
    for text in (
        f"{'(' * k}{'-' * m}{'q ' * m}{'!' * j}{')' * j}",
        f"{'[' * k}{'-' * m}1{']' * j}",
        f"{'-' * m}{'[' * (m + k)}1{']' * (m + j)}",
    )
]
RUN_TEXTS += [f"-{'-' * m}1+{'- ' * m}(q{' q' * m})!" for m in (1, 9, 60)]


def test_runs_that_leave_the_parse_in_place_match_a_hand_written_recogniser() -> None:
    g = runs()
    for text in RUN_TEXTS:
        complete, viable = runs_reference(text)
        assert g.validate(text, strict=True) == complete, text
        assert g.validate(text) == viable, text


def test_masks_inside_runs_equal_the_enumerated_language() -> None:
    tokens: list[bytes | None] = [b"-", b"--", b"----", b"q", b"qq", b"q q", b"-q", b"--(", b"1"]
    tokens += [b")", b"q)", b"))", b"+-", b"--1)", b"qqq+", b" ", b"-)", b"q1", b"[-", b"]", b"q]"]
    tokens += [b"!", b"!]", b"!+", b"q!)", None]
    eos = len(tokens) - 1
    vocab = Vocabulary(tokens, [], [eos])
    machine = GrammarStateMachine(runs())
    prefixes = ["", "-", "---", "(--", "((----", "q", "(qqq", "-(q q", "1+--", "(-(--q"]
    for prefix in [*prefixes, "[--", "([-[--1", "[[1", "-[-1]!", "(--q!", "[-[--"]:
        allowed = allowed_after(vocab, machine, prefix)
        expected = {
            i
            for i, t in enumerate(tokens)
            if t is not None and runs_reference(prefix + t.decode())[1]
        }
        if runs_reference(prefix)[0]:
            expected.add(eos)
        assert allowed == expected, prefix


def test_one_grammar_from_many_threads() -> None:
    g = sums()
    texts = ["(" * k + "1" + "+2" * k + ")" * k for k in range(1, 40)]
    errors: list[str] = []

    def work() -> None:
        for t in texts:
            if not g.validate(t, strict=True) or g.validate(t + ")", strict=True):
                errors.append(t)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert not errors
    assert g.lexer_states > 0


def test_machine_steps_like_any_state_machine() -> None:
    machine = GrammarStateMachine(sums(), identifier="sums")
    steppers = StateMachine.advance_all_basic(machine.get_steppers(), "(1 + 2")
    assert steppers and not any(s.has_reached_accept_state() for s in steppers)
    steppers = StateMachine.advance_all_basic(steppers, ")")
    assert any(s.has_reached_accept_state() for s in steppers)
    assert steppers[0].get_current_value() == "(1 + 2)"
