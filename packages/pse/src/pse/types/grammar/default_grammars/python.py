"""Python 3.11 source code, as ``ast.parse`` of CPython 3.11 accepts it."""

from __future__ import annotations

from importlib.resources import files

from pse.types.grammar.lark import LarkGrammar, LarkGrammarStateMachine


class PythonGrammar(LarkGrammar):
    """The Python grammar of ``python.lark`` with the native ``python`` lexer hook.

    The hook produces NEWLINE, INDENT and DEDENT as CPython's tokenizer does
    (bracket-aware newlines, backslash continuations, blank and comment-only lines
    skipped). ``validate(code, strict=True)`` accepts a complete module;
    ``strict=False`` accepts any prefix of one. What the grammar does not cover is
    rejected, and listed in ``docs/grammar_languages.md``.
    """

    def __init__(self) -> None:
        super().__init__(
            name="Python",
            lark_grammar=files(__package__).joinpath("python.lark").read_text(encoding="utf-8"),
            start="start",
            lexer="python",
            delimiters=("```python\n", "\n```"),
        )


PythonStateMachine = LarkGrammarStateMachine(PythonGrammar())
"""A state machine for Python code (``PythonStateMachine.grammar`` is its ``PythonGrammar``)."""
