"""nanobind's report of native objects alive at exit (PSE_LEAK_WARNINGS=1)
stays empty for a program that uses the engine the usual ways (a recursive
schema, a Lark grammar, the Python grammar), so that the report, on in
``nox -s sanitize``, names only real leaks."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest
from _support.tokenizers import smollm2_tokenizer

PROGRAM = textwrap.dedent(
    """
    import json

    from transformers import AutoTokenizer
    from pse import StructuringEngine
    from pse.types.grammar import LarkGrammar, LarkGrammarStateMachine
    from pse.types.grammar.default_grammars.python import PythonStateMachine

    engine = StructuringEngine(AutoTokenizer.from_pretrained({path!r}))
    engine.configure(json.loads({tree!r}))
    engine.consume_text('{{"kids": [{{}}]}}')
    arith = LarkGrammar("arith", 'start: NUMBER ("+" NUMBER)*\\n%import common.NUMBER')
    engine.configure(LarkGrammarStateMachine(arith))
    engine.consume_text("1+2")
    engine.configure(PythonStateMachine)
    """
)

TREE = {
    "$defs": {"n": {"type": "object", "properties": {"kids": {"items": {"$ref": "#/$defs/n"}}}}},
    "$ref": "#/$defs/n",
}


def test_exit_report_is_empty() -> None:
    path = smollm2_tokenizer().name_or_path
    env = {**os.environ, "PSE_LEAK_WARNINGS": "1"}
    run = subprocess.run(
        [sys.executable, "-c", PROGRAM.format(path=path, tree=json.dumps(TREE))],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    if "nanobind: leaked" in run.stderr:
        pytest.fail(run.stderr[run.stderr.index("nanobind: leaked") :][:2000])
