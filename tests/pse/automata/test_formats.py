"""Formats against the JSON-Schema-Test-Suite (optional/format cases)."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from pse_core.errors import SchemaError

from pse.automata import SUPPORTED_FORMATS, string_dfa, string_machine

from .conftest import accepts

SUITE = Path(__file__).parents[3] / "../shared/data/json-schema-test-suite/public.jsonl"


def _cases() -> list[tuple[str, str, bool]]:
    if not SUITE.exists():
        return []
    out = []
    for line in SUITE.read_text(encoding="utf-8").split("\n"):
        if not line:
            continue
        case = json.loads(line)
        schema = case["schema"]
        fmt = schema.get("format") if isinstance(schema, dict) else None
        if case["optional"] and fmt in SUPPORTED_FORMATS and isinstance(case["data"], str):
            out.append((fmt, case["data"], case["valid"]))
    return sorted(set(out))


def _is_a_label(fmt: str, data: str) -> bool:
    # Documented: labels with '--' in positions 3-4 (Punycode A-labels) are rejected.
    return fmt == "hostname" and any(label[2:4] == "--" for label in data.split("."))


@pytest.mark.parametrize(("fmt", "data", "valid"), _cases())
def test_suite(fmt: str, data: str, valid: bool) -> None:
    if valid and _is_a_label(fmt, data):
        assert not string_dfa(format=fmt).accepts(data)
        return
    assert string_dfa(format=fmt).accepts(data) == valid
    assert accepts(string_machine(format=fmt), json.dumps(data)) == valid


@pytest.mark.parametrize(
    ("fmt", "good", "bad"),
    [
        ("date", ["2000-02-29", "2024-02-29", "1600-02-29"], ["1900-02-29", "2023-02-29"]),
        (
            "time",
            ["23:59:60Z", "15:59:60-08:00", "01:29:60+01:30", "08:30:06.283185z"],
            ["22:59:60Z", "23:59:60+01:00", "08:30:06"],
        ),
        (
            "date-time",
            ["1963-06-19T08:30:06.283185Z", "1963-06-19t08:30:06z"],
            ["1963-06-19 08:30:06Z", "1990-02-31T15:59:59.123-08:00"],
        ),
        (
            "ipv6",
            ["::1", "1:2:3:4:5:6:7:8", "::ffff:192.168.0.1", "1::"],
            ["12345::", "1:2:3:4:5:6:7:8:9", ":::", "fe80::a%eth1"],
        ),
        (
            "uuid",
            ["2EB8AA08-AA98-11EA-B4AA-73B441D16380"],
            ["2eb8aa08-aa98-11ea-b4aa-73b441d1638", "2eb8aa08aa9811eab4aa73b441d16380"],
        ),
        (
            "uri",
            ["http://example.com/a?b#c", "urn:isbn:0451450523", "mailto:a@b.c"],
            ["//foo.bar/", "http:// x", "\\\\WINDOWS"],
        ),
        ("email", ["a@b", "joe.bloggs@[IPv6:::1]"], ["a@b@c", "a@-b.com"]),
        ("hostname", ["a.b-c.d", "a" * 63], ["a" * 64, "-a", "a-", "a..b", "ab--cd"]),
    ],
)
def test_rfc_examples(fmt: str, good: list[str], bad: list[str]) -> None:
    dfa = string_dfa(format=fmt)
    for text in good:
        assert dfa.accepts(text), text
    for text in bad:
        assert not dfa.accepts(text), text


def test_unsupported_format() -> None:
    with pytest.raises(SchemaError) as info:
        string_machine(format="idn-hostname")
    assert info.value.code == "unsupported-format"


def test_compile_times_are_reported() -> None:
    """Smoke check that every format compiles (timings are printed with -s)."""
    for fmt in sorted(SUPPORTED_FORMATS):
        start = time.perf_counter()
        string_machine(format=fmt, max_length=None)
        print(f"{fmt}: {(time.perf_counter() - start) * 1000:.1f} ms")
