"""PythonGrammar on programs hypothesmith derives from CPython's own grammar."""

from __future__ import annotations

import sys

import pytest
from _support.code_reference import python_accepts as cpython_accepts
from hypothesis import HealthCheck, assume, given, settings

from pse.types.grammar.default_grammars.python import PythonStateMachine

hypothesmith = pytest.importorskip(
    "hypothesmith", reason="hypothesmith (PyPI) generates the programs"
)
pytestmark = pytest.mark.skipif(
    sys.version_info[:2] != (3, 11), reason="the grammar is Python 3.11's; ast.parse of 3.11 judges"
)

GRAMMAR = PythonStateMachine.grammar


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(code=hypothesmith.from_grammar())
def test_generated_programs_and_prefixes(code: str) -> None:
    """Programs hypothesmith derives from CPython's grammar (valid by construction):
    accepted, with every prefix viable, unless they use what is not covered (CR line
    ends, non-ASCII identifiers)."""
    assume("\r" not in code and code.isascii())
    assert cpython_accepts(code)
    assert GRAMMAR.validate(code, strict=True), repr(code)
    for cut in range(len(code)):
        assert GRAMMAR.validate(code[:cut], strict=False), repr(code[:cut])
