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


# ----------------------------------------------------------------- hostname

_L63 = "abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijk"


def _hostname_ok(text: str) -> bool:
    """Reference: RFC 1123 labels, 253 characters, no '--' at 3-4, not #.#.#.#."""
    import re  # noqa: PLC0415

    label = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?")
    if not 1 <= len(text) <= 253 or re.fullmatch(r"[0-9]+(?:\.[0-9]+){3}", text):
        return False
    return all(label.fullmatch(x) and x[2:4] != "--" for x in text.split("."))


@pytest.mark.parametrize(
    ("text", "valid"),
    [
        ("www.example.com", True),
        (f"{_L63}.com", True),  # maximum label length
        (f"{_L63}l.com", False),  # a label of 64
        (".".join([_L63] * 4) + ".com", False),  # 259 characters
        (".".join(["x" * 62, "y" * 62, "z" * 62, "w" * 62]), True),  # 251
        (".".join(["x" * 63, "y" * 63, "z" * 63, "w" * 62]), False),  # 254
        (".".join(["a"] * 127), True),  # 253
        (".".join(["a"] * 128), False),  # 255
        ("192.168.0.1", False),  # RFC 1123: never the dotted-decimal form
        ("192.168.0.1a", True),
        ("a192.168.0.1", True),
        ("1.2.3.4.5", True),
        ("123.example.com", True),
        ("example.", False),
        ("", False),
    ],
)
def test_hostname_lengths(text: str, valid: bool) -> None:
    assert _hostname_ok(text) == valid
    assert accepts(string_machine(format="hostname"), json.dumps(text)) == valid


def test_hostname_never_accepts_an_invalid_name() -> None:
    import random  # noqa: PLC0415

    rng = random.Random(7)
    machines = {
        (lo, hi): string_machine(format="hostname", min_length=lo, max_length=hi)
        for lo, hi in [(0, None), (0, 20), (5, 70), (64, None)]
    }
    for _ in range(3000):
        labels = []
        for _ in range(rng.choice([1, 2, 4, 9, 40, 90])):
            n = rng.choice([1, 2, 3, 5, 14, 31, 62, 63, 64])
            chars = "ab1-" if rng.random() < 0.6 else "7"
            labels.append("".join(rng.choice(chars) for _ in range(n)))
        text = ".".join(labels)
        for (lo, hi), machine in machines.items():
            if accepts(machine, json.dumps(text)):
                assert _hostname_ok(text) and lo <= len(text) <= (hi or 253), text


def test_hostname_covers_short_names_and_the_label_caps() -> None:
    """Every valid hostname of <= 63 characters, and longer ones whose labels fit
    a cap: n labels of at most m characters with n * (m + 1) <= 254."""
    from pse.automata.hostname import LABEL_CAPS  # noqa: PLC0415

    machine = string_machine(format="hostname")
    assert accepts(machine, json.dumps(".".join(["ab"] * 21)))  # 62 characters, 21 labels
    for cap in LABEL_CAPS:
        n = 254 // (cap + 1)
        text = ".".join(["q" * cap] * n)
        assert len(text) <= 253 and accepts(machine, json.dumps(text)), cap
    # Documented conservative gaps: 4 labels, one of 63 characters.
    for text in (f"{_L63}.{'y' * 40}.example.com", ".".join(["x" * 63] * 3 + ["w" * 61])):
        assert _hostname_ok(text)
        assert not accepts(machine, json.dumps(text))


def test_hostname_with_a_pattern_is_at_most_63_characters() -> None:
    both = string_machine(format="hostname", pattern="^a")
    assert accepts(both, json.dumps("a.b"))
    assert not accepts(both, json.dumps("b.a"))
    assert not accepts(both, json.dumps("a" + ".b" * 40))  # 81 characters: left out
    assert string_dfa(format="hostname", max_length=10).accepts("a" * 10)
    assert not string_dfa(format="hostname", max_length=10).accepts("a" * 11)


def test_hostname_literals_are_read_raw() -> None:
    machine = string_machine(format="hostname")
    assert accepts(machine, '"a.b"')
    assert not accepts(machine, '"\\u0061.b"')  # documented: escapes are not read


def test_hostname_compiles_in_milliseconds() -> None:
    from pse.automata import hostname  # noqa: PLC0415

    hostname.hostname_machine.cache_clear()
    start = time.perf_counter()
    hostname.hostname_machine()
    assert time.perf_counter() - start < 0.5  # ~15 ms; the exact DFA takes 0.1-0.4 s
