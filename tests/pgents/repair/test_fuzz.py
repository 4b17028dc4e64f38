"""repair_json on random and mutated input: it never raises, always returns
JSON when the text holds a bracket, and its time grows linearly."""

from __future__ import annotations

import gc
import json
import time
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pgents.repair import repair_json

_ALPHABET = list("{}[]():,\"'`\\/*#\n\t -+.eE0123456789tfnulTFNaxyz_\u201c\u201d")

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**12), 10**12)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner, max_size=5)
    ),
    max_leaves=30,
)


def check(text: str) -> None:
    out = repair_json(text)
    assert all(isinstance(r, str) for r in out.repairs)
    if out.found:
        json.dumps(out.value, allow_nan=False)
    else:
        assert out.error
    if ("{" in text or "[" in text) and text.count("[") + text.count("{") < 256:
        assert out.found, text


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(alphabet=st.sampled_from(_ALPHABET), max_size=400))
def test_random_text(text: str) -> None:
    check(text)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=300))
def test_any_unicode(text: str) -> None:
    check(text)


Mutation = Callable[[str, int, str], str]
_MUTATIONS: list[Mutation] = [
    lambda t, i, c: t[:i],  # truncate
    lambda t, i, c: t[:i] + t[i + 1 :],  # delete a character
    lambda t, i, c: t[:i] + c + t[i:],  # insert one
    lambda t, i, c: t[:i] + c + t[i + 1 :],  # replace one
    lambda t, i, c: t[:i] + t[i : i + 8] + t[i:],  # duplicate a slice
    lambda t, i, c: t.replace('"', c),  # change every double quote
]


@settings(max_examples=300, deadline=None)
@given(
    json_values,
    st.lists(
        st.tuples(
            st.sampled_from(range(len(_MUTATIONS))),
            st.integers(0, 10_000),
            st.sampled_from(_ALPHABET),
        ),
        min_size=1,
        max_size=4,
    ),
    st.booleans(),
)
def test_mutated_json(value: Any, edits: list[tuple[int, int, str]], indent: bool) -> None:
    text = json.dumps(value, indent=2 if indent else None, ensure_ascii=False)
    for kind, at, char in edits:
        text = _MUTATIONS[kind](text, at % (len(text) + 1), char)
    check(text)


@settings(max_examples=100, deadline=None)
@given(json_values)
def test_valid_json_is_returned_unchanged(value: Any) -> None:
    out = repair_json(json.dumps(value))
    assert out.repairs == []
    assert out.found == (value is not None)


# Inputs that make naive repairers quadratic: many candidate closing quotes,
# escapes, separators, unterminated keys and strings, nested openers.
_PATTERNS: dict[str, Callable[[int], str]] = {
    "inner quotes": lambda k: '{"a": "' + 'x "y" ' * k,
    "backslashes": lambda k: '{"a": "' + "\\" * (6 * k),
    "commas": lambda k: "[" + "," * (6 * k),
    "unclosed keys": lambda k: "{" + '"a: 1, ' * k,
    "unclosed values": lambda k: '{"a": "x, b: "y, ' * k,
    "mixed quotes": lambda k: "{'a': \"b', 'c\": 'd\" " * k,
    "fences": lambda k: '```json\n{"a": "' + "``` x " * k,
    "bare words": lambda k: "[" + "a b, " * k,
    "quote runs": lambda k: '{"a": "x' + '"""" y ' * k,
    "prose and braces": lambda k: "text { " * k,
}


def _best_time(text: str, reps: int = 7) -> float:
    """Best of ``reps`` CPU times: the process's CPU clock ignores time spent preempted."""
    best = float("inf")
    gc.collect()
    gc.disable()
    try:
        for _ in range(reps):
            start = time.process_time()
            repair_json(text)
            best = min(best, time.process_time() - start)
    finally:
        gc.enable()
    return best


@pytest.mark.parametrize("name", list(_PATTERNS))
def test_time_is_linear(name: str) -> None:
    make = _PATTERNS[name]
    small, large = _best_time(make(2_500)), _best_time(make(20_000))
    # 8 times the input: a linear repair takes about 8 times as long, a
    # quadratic one 64 times. The bound leaves room for a loaded machine.
    assert large < 40 * max(small, 1e-4), (name, small, large)
