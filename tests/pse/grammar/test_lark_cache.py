"""The disk cache of lowered grammars: keyed on the text, read back identically."""

from __future__ import annotations

from pathlib import Path

import pytest

from pse.types.grammar import LarkGrammar, lark

TEXT = r"""
start: item ("," item)*
item: NAME | NUMBER | "none"
NAME: /[a-z]+/
NUMBER: /[0-9]+/
%ignore " "
"""


def compile_fresh(text: str = TEXT) -> LarkGrammar:
    lark._COMPILED.clear()
    grammar = LarkGrammar("cache-test", text)
    grammar.compiled()
    return grammar


def verdicts(grammar: LarkGrammar) -> list[bool]:
    texts = ["a, 1, none", "a,", "a b", "nonex, 2", "", "12,ab"]
    return [grammar.validate(t, strict=True) for t in texts] + [grammar.validate("a,", False)]


@pytest.fixture
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("PSE_GRAMMAR_CACHE", str(tmp_path))
    return tmp_path


def test_a_second_compile_reads_the_cache(cache_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    expected = verdicts(compile_fresh())
    assert len(list(cache_dir.glob("*.json"))) == 1

    def no_lark(*args: object) -> None:
        raise AssertionError("lowered again although the cache holds the tables")

    monkeypatch.setattr(lark, "lower_tables", no_lark)
    assert verdicts(compile_fresh()) == expected


def test_another_text_or_start_is_another_entry(cache_dir: Path) -> None:
    compile_fresh()
    compile_fresh(TEXT + "\n")
    lark._COMPILED.clear()
    LarkGrammar("cache-test", TEXT, start="item").compiled()
    assert len(list(cache_dir.glob("*.json"))) == 3


def test_a_damaged_entry_is_lowered_again_and_replaced(cache_dir: Path) -> None:
    expected = verdicts(compile_fresh())
    (entry,) = cache_dir.glob("*.json")
    entry.write_text('{"terminals": [["NAME", "not base64!"')
    assert verdicts(compile_fresh()) == expected
    assert entry.read_text().startswith('{"terminals"')
    assert verdicts(compile_fresh()) == expected


def test_off_writes_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PSE_GRAMMAR_CACHE", "off")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    compile_fresh()
    assert not any(tmp_path.rglob("*.json"))


def test_errors_are_not_cached(cache_dir: Path) -> None:
    with pytest.raises(lark.GrammarError):
        compile_fresh("start: (")
    assert not any(cache_dir.iterdir())
