"""PythonGrammar on programs hypothesmith builds from CPython's syntax tree (libcst nodes),
and on small edits of them, judged by ``ast.parse`` of CPython 3.11.

``tests/pse/grammar/test_python_hypothesmith.py`` covers ``hypothesmith.from_grammar()``;
``benchmarks/bench_grammar_properties.py`` runs the same properties with many more examples.
"""

from __future__ import annotations

import sys

import pytest
from _support.code_reference import python_accepts
from _support.program_generators import mutants
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from pse.types.grammar.default_grammars.python import PythonStateMachine

hypothesmith = pytest.importorskip("hypothesmith", reason="hypothesmith (PyPI) builds the programs")
pytestmark = pytest.mark.skipif(
    sys.version_info[:2] != (3, 11), reason="the grammar is Python 3.11's; ast.parse of 3.11 judges"
)

GRAMMAR = PythonStateMachine.grammar
MAX_CHARS = 600  # keeps the every-prefix check within CI time

SETTINGS = settings(
    max_examples=30, deadline=None, suppress_health_check=list(HealthCheck), database=None
)


def covered(code: str) -> bool:
    """Not in the documented gaps: CR line ends and non-ASCII text (docs/grammar_languages.md)."""
    return "\r" not in code and code.isascii() and len(code) <= MAX_CHARS


@SETTINGS
@given(code=hypothesmith.from_node())
def test_node_programs_and_their_prefixes(code: str) -> None:
    """A program CPython accepts is accepted, and every prefix of it is viable."""
    assume(covered(code) and python_accepts(code))
    assert GRAMMAR.validate(code, strict=True), repr(code)
    for cut in range(len(code)):
        assert GRAMMAR.validate(code[:cut], strict=False), repr(code[:cut])


@SETTINGS
@given(data=st.data(), code=hypothesmith.from_node())
def test_edited_programs_are_never_accepted_wrongly(data: st.DataObject, code: str) -> None:
    """An edited program the grammar accepts as complete is one CPython accepts."""
    assume(covered(code))
    for _ in range(5):
        mutant = data.draw(mutants(code))
        if GRAMMAR.validate(mutant, strict=True):
            assert python_accepts(mutant), repr(mutant)
