"""The lowered tables shipped with the ready-made grammars (``pse.types.grammar.shipped``)."""

from __future__ import annotations

import json
from importlib.resources import files

import pytest

from pse.types.grammar import LarkGrammar, lark
from pse.types.grammar.shipped import FOLDER, SUFFIX
from pse.types.grammar.write_tables import lowered_document, ready_made

GRAMMARS = ready_made()


@pytest.mark.parametrize("stem", sorted(GRAMMARS))
def test_each_shipped_file_is_what_lowering_makes_now(stem: str) -> None:
    shipped = json.loads(files(FOLDER).joinpath(stem + SUFFIX).read_text(encoding="utf-8"))
    assert shipped == lowered_document(GRAMMARS[stem]), (
        f"{stem}{SUFFIX} is out of date with the grammar or the lowering code: "
        "run `python -m pse.types.grammar.write_tables`"
    )


@pytest.fixture
def no_lowering(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Count lowerings; the disk cache off, so only shipped tables can spare one."""
    monkeypatch.setenv("PSE_GRAMMAR_CACHE", "off")
    lowered: list[str] = []
    original = lark.lower_tables

    def counting(grammar: LarkGrammar, start: str) -> lark.Tables:
        lowered.append(grammar.name)
        return original(grammar, start)

    monkeypatch.setattr(lark, "lower_tables", counting)
    monkeypatch.setattr(lark, "_COMPILED", {})
    return lowered


@pytest.mark.parametrize("stem", sorted(GRAMMARS))
def test_a_ready_made_grammar_compiles_from_its_shipped_tables(
    stem: str, no_lowering: list[str]
) -> None:
    grammar = GRAMMARS[stem]
    sample = {"python": "def f(x):\n    return x + 1\n", "bash": "for i in 1 2; do echo $i; done\n"}
    assert grammar.validate(sample[stem], strict=True)
    assert not grammar.validate(sample[stem][:-4] + ")(\n", strict=True)
    assert no_lowering == []


def test_another_text_or_start_is_lowered(no_lowering: list[str]) -> None:
    python = GRAMMARS["python"]
    edited = LarkGrammar("edited", python.lark_grammar + "\n", lexer="python")
    assert edited.validate("x = 1\n", strict=True)
    other_start = LarkGrammar("other start", python.lark_grammar, lexer="python")
    assert other_start.validate("x = 1; y = 2\n", strict=True, start="simple_stmts")
    assert no_lowering == ["edited", "other start"]
