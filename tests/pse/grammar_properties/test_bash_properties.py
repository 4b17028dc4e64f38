"""BashGrammar on generated scripts (``_support.program_generators.bash_scripts``) and on
small edits of them, judged by ``bash -n``.

``benchmarks/bench_grammar_properties.py`` runs the same properties with many more examples.
"""

from __future__ import annotations

import pytest
from _support.code_reference import BASH, bash_accepts
from _support.program_generators import bash_scripts, mutants
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pse.types.grammar.default_grammars.bash import BashStateMachine

pytestmark = pytest.mark.skipif(BASH is None, reason="bash is not installed: `bash -n` judges")

GRAMMAR = BashStateMachine.grammar
SETTINGS = settings(
    max_examples=30, deadline=None, suppress_health_check=list(HealthCheck), database=None
)


@SETTINGS
@given(script=bash_scripts())
def test_generated_scripts_and_their_prefixes(script: str) -> None:
    """The generator writes scripts bash accepts; each is accepted and every prefix viable."""
    assert bash_accepts(script), repr(script)
    assert GRAMMAR.validate(script, strict=True), repr(script)
    for cut in range(len(script)):
        assert GRAMMAR.validate(script[:cut], strict=False), repr(script[:cut])


@SETTINGS
@given(data=st.data(), script=bash_scripts())
def test_edited_scripts_are_never_accepted_wrongly(data: st.DataObject, script: str) -> None:
    """An edited script the grammar accepts as complete is one bash -n accepts."""
    for _ in range(3):
        mutant = data.draw(mutants(script))
        if GRAMMAR.validate(mutant, strict=True):
            assert bash_accepts(mutant), repr(mutant)


# Pieces of conditional expressions, right and wrong, to join at random inside [[ ]].
_COND_PIECES = [
    "a",
    "$x",
    '"q"',
    "-f",
    "-z",
    "-eq",
    "-nt",
    "==",
    "=",
    "!=",
    "=~",
    "!",
    "<",
    ">",
    "(",
    ")",
    "&&",
    "||",
    "]]",
    "]]x",
    "x]]",
    "@(b|c)",
    "b|c",
    "|",
    "&",
    ";",
    "-q",
    "!~",
    "*.c",
    "<(b)",
    "(b c)",
    "\n",
    "# c\n",
]


@SETTINGS
@given(
    pieces=st.lists(
        st.tuples(st.sampled_from(["", " ", "\t"]), st.sampled_from(_COND_PIECES)),
        min_size=1,
        max_size=6,
    )
)
def test_conditionals_accepted_inside_a_substitution_are_bash_s(
    pieces: list[tuple[str, str]],
) -> None:
    """Inside $( ) bash fails a malformed [[ ]], so there its verdict is the reference."""
    script = "x=$([[ " + "".join(gap + piece for gap, piece in pieces) + " ]])\n"
    if GRAMMAR.validate(script, strict=True):
        assert bash_accepts(script), repr(script)
