"""Compiled grammars are freed when dropped, recursive ones included (sealed references)."""

from __future__ import annotations

import gc
import os
import weakref
from pathlib import Path

import pytest
from _support.json_schema import accepts, compiled
from pse_core._core import PhraseStateMachine, RefStateMachine, StateMachine

TREE = {
    "$defs": {
        "node": {
            "type": "object",
            "properties": {
                "name": {"type": "string"},
                "kids": {"type": "array", "items": {"$ref": "#/$defs/node"}},
            },
            "required": ["name", "kids"],
            "additionalProperties": False,
        }
    },
    "$ref": "#/$defs/node",
}
DOC = '{"name": "a", "kids": [{"name": "b", "kids": [{"name": "c", "kids": []}]}]}'


def _rss_mib() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS line")


def test_a_dropped_recursive_grammar_is_freed() -> None:
    machine = compiled(TREE)
    assert accepts(machine, DOC)
    alive = weakref.ref(machine)
    del machine
    gc.collect()
    assert alive() is None


def test_a_stepper_keeps_its_grammar_alive() -> None:
    machine = compiled(TREE)
    steppers = machine.get_steppers()
    del machine
    gc.collect()
    steppers = StateMachine.advance_all_basic(steppers, DOC)
    assert any(s.has_reached_accept_state() and not s.remaining_input for s in steppers)


class _Root(StateMachine):
    """A Python subclass, so that it can be weakly referenced."""


def test_seal_turns_references_into_back_edges() -> None:
    ref = RefStateMachine()
    word = PhraseStateMachine("x")
    # value := "x" | "(" value ")"
    nested = StateMachine(
        {0: [(PhraseStateMachine("("), 1)], 1: [(ref, 2)], 2: [(PhraseStateMachine(")"), "$")]}
    )
    value = _Root({0: [(word, "$"), (nested, "$")]})
    ref.set_target(value)
    assert value.seal() == 1
    assert value.seal() == 0  # already sealed
    assert ref.target is value
    assert accepts(value, "((x))")
    assert not accepts(value, "((x)")
    alive = weakref.ref(value)
    del value, nested, ref
    gc.collect()
    assert alive() is None


@pytest.mark.skipif(not Path("/proc/self/status").is_file(), reason="needs Linux /proc")
@pytest.mark.skipif(
    "libasan" in os.environ.get("LD_PRELOAD", ""),
    reason="under AddressSanitizer freed memory waits in its quarantine (RSS grows up to "
    "quarantine_size_mb); the sanitize session checks leaks with nanobind's exit report",
)
def test_recompiling_a_recursive_schema_does_not_grow_memory() -> None:
    # Leaking, each compile kept ~36 KiB (2,000 compiles: ~70 MiB).
    for _ in range(200):
        compiled(TREE)
    gc.collect()
    before = _rss_mib()
    for _ in range(2_000):
        compiled(TREE)
    gc.collect()
    assert _rss_mib() - before < 4.0
