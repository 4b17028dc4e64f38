"""nanobind's report of native objects alive at exit (PSE_LEAK_WARNINGS=1)
stays empty for a program that uses the engine the usual ways (a recursive
schema, a Lark grammar, the Python grammar, JSON schemas of every machine
kind: formats, native checks, counted graphs, the schema classes built
directly), so that the report, on in ``nox -s sanitize``, names only real
leaks."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from typing import Any

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
    for schema in json.loads({schemas!r}):
        engine.configure(schema)
        engine.consume_text("[" if schema.get("type") == "array" else "")
    from pse.types.json.json_array import ArraySchemaStateMachine
    from pse.types.json.json_object import ObjectSchemaStateMachine
    tree = ArraySchemaStateMachine({{"items": {{"$ref": "#"}}}})
    node = ObjectSchemaStateMachine({{"properties": {{"kids": {{"items": {{"$ref": "#"}}}}}}}})
    """
)

TREE = {
    "$defs": {"n": {"type": "object", "properties": {"kids": {"items": {"$ref": "#/$defs/n"}}}}},
    "$ref": "#/$defs/n",
}


#: One schema of each kind of compiled machine: process caches (integer, a
#: format), native checks (uniqueItems, keys, regex, idn-hostname, content),
#: counted graphs with pruned states, a recursion.
SCHEMAS: list[dict[str, Any]] = [
    {"type": "integer"},
    {"type": "string", "format": "date-time"},
    {"type": "string", "pattern": "^a+b$", "maxLength": 9},
    {"type": "array", "items": {"enum": [1, 2, 3]}, "uniqueItems": True, "contains": {"const": 1}},
    {"type": "array", "items": {"type": "object"}, "uniqueItems": True},
    {"type": "object", "minProperties": 2},
    {"type": "object", "properties": {f"p{i}": {} for i in range(20)}, "required": ["p1"]},
    {"type": "object", "required": ["a"], "maxProperties": 2, "dependentRequired": {"a": ["b"]}},
    {"type": "string", "format": "regex"},
    {"type": "string", "format": "idn-hostname"},
    {"type": "string", "contentMediaType": "application/json"},
    {"type": "array", "items": {"$ref": "#"}, "maxItems": 3},
    {  # a recursion with no way out: dropped from the anyOf
        "anyOf": [{"type": "integer"}, {"$ref": "#/$defs/endless"}],
        "$defs": {
            "endless": {
                "type": "object",
                "properties": {"next": {"$ref": "#/$defs/endless"}},
                "required": ["next"],
            }
        },
    },
    {
        "anyOf": [
            {"type": "array", "items": {"const": None}, "minItems": 2, "uniqueItems": True},
            {},
        ]
    },
]


def test_exit_report_is_empty() -> None:
    path = smollm2_tokenizer().name_or_path
    env = {**os.environ, "PSE_LEAK_WARNINGS": "1"}
    program = PROGRAM.format(path=path, tree=json.dumps(TREE), schemas=json.dumps(SCHEMAS))
    run = subprocess.run(
        [sys.executable, "-c", program],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    if "nanobind: leaked" in run.stderr:
        pytest.fail(run.stderr[run.stderr.index("nanobind: leaked") :][:2000])
