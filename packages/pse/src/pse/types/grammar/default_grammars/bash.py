"""Bash scripts, as ``bash -n`` (GNU bash 5) accepts them."""

from __future__ import annotations

from importlib.resources import files

from pse.types.grammar.lark import LarkGrammar, LarkGrammarStateMachine


class BashGrammar(LarkGrammar):
    """The Bash grammar of ``bash.lark`` with the native ``bash`` lexer hook (heredocs).

    ``validate(script, strict=True)`` accepts a complete script; ``strict=False``
    accepts any prefix of one. What the grammar does not cover is rejected, and
    listed in ``docs/grammar_languages.md``.
    """

    def __init__(self) -> None:
        super().__init__(
            name="Bash",
            lark_grammar=files(__package__).joinpath("bash.lark").read_text(encoding="utf-8"),
            start="start",
            lexer="bash",
            delimiters=("```bash\n", "\n```"),
        )


BashStateMachine = LarkGrammarStateMachine(BashGrammar())
"""A state machine for Bash scripts (``BashStateMachine.grammar`` is its ``BashGrammar``)."""
