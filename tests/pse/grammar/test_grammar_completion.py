"""Shortest completions inside grammars (``Engine.shortest_completion``), what
budget-aware generation emits when the budget runs out: the text so far plus the
completion must be a whole program for the reference (``ast.parse``, ``bash -n``),
after every prefix of the Python snippets and after a sample of the Bash ones; a
fenced block is closed only after valid code; on a small grammar the completion is
as short as a brute-force search finds."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import pytest
from _support.code_reference import BASH, bash_accepts, python_accepts
from pse_core._core import Engine, StateMachine, Vocabulary

from pse.types.base.encapsulated import EncapsulatedStateMachine
from pse.types.grammar import LarkGrammar, LarkGrammarStateMachine
from pse.types.grammar.default_grammars.python import PythonStateMachine

CORPUS = Path(__file__).resolve().parents[3].parent / "shared" / "data" / "code-snippets"
CORPUS = CORPUS / "public.jsonl"

# Every byte is a token: the completion is judged as bytes, not as a tokenization.
BYTES = Vocabulary([bytes([b]) for b in range(256)] + [None], [], [256])


def completion(machine: StateMachine, prefix: str) -> str | None:
    engine = Engine(BYTES)
    engine.state_machine = machine
    assert engine.consume_text(prefix) or prefix == "", prefix
    return engine.shortest_completion()


def snippets(language: str) -> list[str]:
    if not CORPUS.exists():
        pytest.skip(f"{CORPUS} is absent (../shared is not checked out)")
    with CORPUS.open(encoding="utf-8") as handle:
        rows: list[dict[str, Any]] = [json.loads(line) for line in handle]
    return [r["code"] for r in rows if ("cpython_parses" in r) == (language == "python")]


def test_every_python_prefix_completes_to_a_program() -> None:
    wrong, unknown, prefixes = [], [], 0
    for code in snippets("python"):
        if not python_accepts(code):
            continue
        for cut in range(len(code)):
            prefix = code[:cut]
            prefixes += 1
            rest = completion(PythonStateMachine, prefix)
            if rest is None:
                unknown.append(prefix)
            elif not python_accepts(prefix + rest):
                wrong.append((prefix, rest))
    assert prefixes > 1000
    assert not wrong, wrong[:5]
    assert not unknown, unknown[:5]


def bash_completions(step: int) -> list[tuple[str, str | None]]:
    """(prefix, completion) for every ``step``-th prefix of the Bash snippets bash -n accepts."""
    from pse.types.grammar.default_grammars.bash import BashStateMachine

    return [
        (code[:cut], completion(BashStateMachine, code[:cut]))
        for code in snippets("bash")
        if bash_accepts(code)
        for cut in range(0, len(code), step)
    ]


@pytest.mark.skipif(BASH is None, reason="bash is not installed: `bash -n` is the reference")
def test_bash_prefixes_complete_to_a_sentence_of_the_grammar() -> None:
    from pse.types.grammar.default_grammars.bash import BashStateMachine

    pairs = bash_completions(40)
    assert len(pairs) > 100
    unknown = [prefix for prefix, rest in pairs if rest is None]
    assert len(unknown) <= len(pairs) // 50, unknown[:5]  # search limits: rare, never wrong
    wrong = [
        (prefix, rest)
        for prefix, rest in pairs
        if rest is not None and not BashStateMachine.grammar.validate(prefix + rest, strict=True)
    ]
    assert not wrong, wrong[:5]


@pytest.mark.skipif(BASH is None, reason="bash is not installed: `bash -n` is the reference")
def test_bash_completions_pass_bash_n() -> None:
    wrong = [
        (prefix, rest)
        for prefix, rest in bash_completions(40)
        if rest is not None and not bash_accepts(prefix + rest)
    ]
    assert not wrong, wrong[:5]


# Where the search used to give up (decorators in a class body: the blanks of the
# indentation and after keywords, which the estimate did not count) or took seconds (inside
# a heredoc start: its delimiter line was not counted). The lengths are the shortest.
HARD = [
    ("python", "class C:\n  @", 13),
    ("python", "@a.b\nclass C:\n  @d(1)\n  @e[", 14),
    ("python", "class C:\n  def f(self):\n    if x:\n      @", 17),
    ("bash", "cat <<EOF", 4),
    ("bash", "FOO=bar echo <<EOF 2> err.txt > hello.tx", 4),
    ("bash", "if a; then cat <<EOF", 7),
    ("bash", "cat <<A <<BB", 5),  # "\nA\nBB": each delimiter on a line of its own
]


@pytest.mark.parametrize(("language", "prefix", "length"), HARD)
def test_hard_completions_are_found_and_shortest(language: str, prefix: str, length: int) -> None:
    from pse.types.grammar.default_grammars.bash import BashStateMachine

    machine = PythonStateMachine if language == "python" else BashStateMachine
    rest = completion(machine, prefix)
    assert rest is not None and len(rest) == length, rest
    assert machine.grammar.validate(prefix + rest, strict=True)
    if language == "python":
        assert python_accepts(prefix + rest)


@pytest.mark.parametrize(
    "prefix",
    ["", "```python\n", "```python\ndef", "```python\ndef factor", "```python\nx = [1, (2"],
)
def test_fenced_block_closes_after_valid_code(prefix: str) -> None:
    fenced = EncapsulatedStateMachine(PythonStateMachine, delimiters=("```python\n", "\n```"))
    rest = completion(fenced, prefix)
    assert rest is not None and rest.endswith("\n```")
    text = prefix + rest
    assert text.startswith("```python\n")
    assert python_accepts(text[len("```python\n") : -len("\n```")])


SUMS = LarkGrammar(
    "sums",
    r"""
start: sum
sum: sum "+" term | term
term: "(" sum ")" | NUM
NUM: /[0-9]+/
%ignore " "
""",
)


def shortest_by_enumeration(prefix: str, limit: int = 6) -> str | None:
    for size in range(limit + 1):
        for rest in itertools.product("1+() ", repeat=size):
            if SUMS.validate(prefix + "".join(rest), strict=True):
                return "".join(rest)
    return None


@pytest.mark.parametrize("prefix", ["", "1", "1+", "((", "(1+(2", "1 ", "(1)+((1 "])
def test_completion_is_as_short_as_enumeration_finds(prefix: str) -> None:
    rest = completion(LarkGrammarStateMachine(SUMS), prefix)
    expected = shortest_by_enumeration(prefix)
    assert rest is not None and expected is not None
    assert len(rest) == len(expected)
    assert SUMS.validate(prefix + rest, strict=True)
