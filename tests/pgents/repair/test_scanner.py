"""The repairs the issue names, one by one."""

from __future__ import annotations

from typing import Any

import pytest
from pgents.repair import repair_json


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ('Sure! Here it is: {"a": 1} Hope that helps.', {"a": 1}),
        ('```json\n{"a": [1, 2]}\n```', {"a": [1, 2]}),
        ('{"a": "unfinished', {"a": "unfinished"}),
        ('{"a": [1, 2', {"a": [1, 2]}),
        ('{"a": {"b": 1', {"a": {"b": 1}}),
        ('{"a": 1, "b": [1, 2,],}', {"a": 1, "b": [1, 2]}),
        ("{'a': 'b'}", {"a": "b"}),
        ("{a: 1, b_c: 2}", {"a": 1, "b_c": 2}),
        ('{"a": 1 // one\n, /* two */ "b": 2 # three\n}', {"a": 1, "b": 2}),
        ('{"a": True, "b": None, "c": False}', {"a": True, "b": None, "c": False}),
        ('{"a": 12.', {"a": 12.0}),
        ('{"a": 1e', {"a": 1}),
        ('{"a": -1.', {"a": -1.0}),
        ("[1, 2, 3", [1, 2, 3]),
        ('{"s": "\\ud83d\\ude00", }', {"s": "\U0001f600"}),
    ],
)
def test_repairs(text: str, value: Any) -> None:
    out = repair_json(text)
    assert out.found
    assert out.value == value
    assert out.repairs


def test_nothing_to_find() -> None:
    for text in ["", "   ", "no json here", "/", '"']:
        assert not repair_json(text).found


def test_deep_nesting_fails_gracefully() -> None:
    out = repair_json("[" * 100_000)
    assert not out.found and out.error
