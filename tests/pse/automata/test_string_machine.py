"""string_machine: every JSON spelling of an allowed value, and nothing else."""

from __future__ import annotations

import json
import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pse.automata import string_machine

from .conftest import accepts

ALPHABET = st.characters(codec="utf-8", exclude_categories=["Cs"]) | st.sampled_from(
    list('ab"\\/\n\t\x00\x7f é😀\U0010ffff')
)


def spell(value: str, rng: random.Random) -> str:
    """A random valid JSON spelling of ``value``."""
    out = ['"']
    short = {
        '"': '\\"',
        "\\": "\\\\",
        "/": "\\/",
        "\b": "\\b",
        "\f": "\\f",
        "\n": "\\n",
        "\r": "\\r",
        "\t": "\\t",
    }
    for ch in value:
        cp = ord(ch)
        choices = []
        if cp >= 0x20 and ch not in '"\\':
            choices.append(ch)
        if ch in short:
            choices.append(short[ch])
        if cp <= 0xFFFF:
            choices.append(f"\\u{cp:04x}")
            choices.append(f"\\u{cp:04X}")
        else:
            hi, lo = 0xD800 + ((cp - 0x10000) >> 10), 0xDC00 + ((cp - 0x10000) & 0x3FF)
            choices.append(f"\\u{hi:04x}\\u{lo:04X}")
        out.append(rng.choice(choices))
    out.append('"')
    return "".join(out)


CASES = [
    dict(pattern="^[a-z😀]*$", min_length=1, max_length=3),
    dict(pattern="b", max_length=4),
    dict(pattern='^["\\\\/\\n]+$'),
    dict(pattern="é|😀", min_length=2),
    dict(pattern="^.*$"),
]


def allowed(value: str, case: dict[str, object]) -> bool:
    # Python's re as the oracle, with ECMA-262's '.' (no line terminators at all;
    # Python's '.' only excludes '\n'). The CASES use '.' outside classes only.
    pattern = str(case["pattern"]).replace("$", r"\Z").replace(".", "[^\n\r\u2028\u2029]")
    ok = re.search(pattern, value) is not None
    ok = ok and len(value) >= int(case.get("min_length", 0))  # type: ignore[call-overload]
    max_length = case.get("max_length")
    return ok and (max_length is None or len(value) <= max_length)  # type: ignore[operator]


@pytest.mark.parametrize("case", CASES)
@settings(max_examples=80, deadline=None)
@given(value=st.text(alphabet=ALPHABET, max_size=5), seed=st.integers(0, 2**32))
def test_spellings(case: dict[str, object], value: str, seed: int) -> None:
    sm = string_machine(**case)  # type: ignore[arg-type]
    expected = allowed(value, case)
    assert accepts(sm, json.dumps(value)) == expected
    assert accepts(sm, json.dumps(value, ensure_ascii=False)) == expected
    assert accepts(sm, spell(value, random.Random(seed))) == expected


def test_lengths_count_code_points() -> None:
    sm = string_machine(pattern="^.*$", max_length=2)
    assert accepts(sm, '"\\ud83d\\udca9\\ud83d\\udca9"')
    assert not accepts(sm, '"abc"')
    assert not accepts(sm, '"\\ud83d"')  # unpaired surrogate
    assert not accepts(sm, '"a\nb"')  # raw control character


def test_no_pattern_uses_native_string() -> None:
    sm = string_machine(min_length=2)
    assert accepts(sm, '"ab"') and not accepts(sm, '"a"')
