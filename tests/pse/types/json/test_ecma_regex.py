"""format: regex: ECMA-262 pattern syntax (Unicode mode) and viable prefixes."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from typing import Any

import pytest
from _support.json_schema import compiled, valid
from _support.masks import assert_mask_is_what_steppers_consume
from pse_core._core import StateMachine

from pse.types.json.ecma_regex import valid as regex_valid
from pse.types.json.ecma_regex import viable

GOOD = [
    "",
    "([abc])+\\s+$",
    "(?<name>x)",
    "(?<n>a)\\k<n>",
    "\\k<n>(?<n>a)",  # a reference may precede its group
    "a{2,3}?b*?",
    "(?=a)(?!b)(?<=c)(?<!d)",
    "[\\d-]|[a-z\\-]",
    "\\u{1F600}\\uD83D\\x41\\cJ\\0\\p{L}\\P{Lu}",
    "^a|b$",
    "(a)\\1",
    "a/b",
]
BAD = [
    "^(abc]",
    "(?i)abc",
    "(?ims)abc",
    "*a",
    "a**",
    "a{3,2}",
    "]",
    "a{",
    "(?=a)*",
    "\\q",
    "(a)\\2",
    "\\k<x>",
    "(?<n>a)(?<n>b)",
    "[z-a]",
    "[\\d-z]",
    "\\00",
    ")",
]


@pytest.mark.parametrize("pattern", GOOD)
def test_valid_patterns(pattern: str) -> None:
    assert regex_valid(pattern)
    assert all(viable(pattern[:end]) for end in range(len(pattern) + 1))
    assert valid(compiled({"type": "string", "format": "regex"}), pattern)


@pytest.mark.parametrize("pattern", BAD)
def test_invalid_patterns(pattern: str) -> None:
    assert not regex_valid(pattern)
    assert not valid(compiled({"type": "string", "format": "regex"}), pattern)


def test_dead_prefixes_are_masked() -> None:
    machine = compiled({"type": "string", "format": "regex"})
    assert StateMachine.advance_all_basic(machine.get_steppers(), '"(a|[b')  # unfinished: alive
    for dead in ('"*', '"a{3,2}', '"(?i', '"\\\\q'):
        assert not StateMachine.advance_all_basic(machine.get_steppers(), dead), dead


_NODE = shutil.which("node")
_NODE_CHECK = """
let data = "";
process.stdin.on("data", (c) => (data += c));
process.stdin.on("end", () => {
  const ok = (p) => { try { new RegExp(p, "u"); return true; } catch (e) { return false; } };
  process.stdout.write(JSON.stringify(JSON.parse(data).map(ok)));
});
"""
#: Pattern characters for generated patterns: every construct of the reader
#: except ``\\p{...}`` (Node checks property names, the reader does not) and
#: group modifiers (no ``i``/``m``/``s``: newer engines accept ``(?i:...)``).
_ALPHABET = "ab01(){}[]|*+?^$.\\-,:=!<>kdDwWbBcxu/"


def _node_verdicts(patterns: list[str]) -> list[bool]:
    assert _NODE is not None
    done = subprocess.run(
        [_NODE, "-e", _NODE_CHECK],
        input=json.dumps(patterns),
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    verdicts: list[bool] = json.loads(done.stdout)
    return verdicts


@pytest.mark.skipif(_NODE is None, reason="needs node (the ECMA-262 reference engine)")
def test_agrees_with_node_on_generated_patterns() -> None:
    """The native reader agrees with V8's `new RegExp(p, "u")` on random patterns,
    and every prefix of a pattern V8 accepts is viable (never masked)."""
    rng = random.Random(20261124)
    patterns = [
        "".join(rng.choice(_ALPHABET) for _ in range(rng.randint(1, 9))) for _ in range(20000)
    ]
    patterns += [p for p in GOOD + BAD if "\\p" not in p and "\\P" not in p]
    disagree = [
        (p, node)
        for p, node in zip(patterns, _node_verdicts(patterns), strict=True)
        if regex_valid(p) != node
    ]
    assert not disagree, disagree[:20]
    accepted = [p for p in patterns if regex_valid(p)]
    assert len(accepted) > 500  # the sample reaches valid patterns, not only errors
    dead = [p[:end] for p in accepted for end in range(len(p)) if not viable(p[:end])]
    assert not dead, dead[:20]


@pytest.mark.parametrize("prefix", ['"(a|[b', '"a{1', '"(?<na', '"\\\\u00', '"x\\\\'])
def test_mask_is_what_the_stepper_consumes(smollm2: Any, prefix: str) -> None:
    """The native mask (the string's mask less the tokens the check rejects)
    allows exactly the tokens the steppers consume, on a real 49k vocabulary."""
    schema = {"type": "string", "format": "regex", "maxLength": 12}
    assert_mask_is_what_steppers_consume(smollm2, schema, prefix)


def test_max_length_keeps_room_for_a_completion() -> None:
    machine = compiled({"type": "string", "format": "regex", "maxLength": 3})
    assert StateMachine.advance_all_basic(machine.get_steppers(), '"(a')
    assert not StateMachine.advance_all_basic(machine.get_steppers(), '"((a')  # needs 5
    assert valid(machine, "(a)")
    assert not valid(machine, "(ab)")
