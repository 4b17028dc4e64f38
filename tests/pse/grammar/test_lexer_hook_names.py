"""The terminals a lexer hook finds by name: a grammar that lacks one (or defines it as
another kind) is refused when it is compiled, with the names and the hook in the message,
never compiled into a hook that silently reads its text otherwise (docs/grammar.md)."""

from __future__ import annotations

import re

import pytest

from pse.types.grammar import GrammarError, LarkGrammar

# A small grammar with everything the bash hook looks up by name.
BASH_TERMINALS = {
    "COMMENT": r"/#[^\n]*/",
    "SINGLE_QUOTED": r"/'[^']*'/",
    "ANSI_C_QUOTED": r"/\$'(?:[^'\\]|\\[^\x00])*'/",
    "HEREDOC_START": r"/<<[A-Z]+/",
    "_NEWLINE": r"/\n/",
}


def bash_like(terminals: dict[str, str], extra: str = "") -> LarkGrammar:
    items = " | ".join(["WORD", "_BLANK", *(n for n in terminals if n != "_NEWLINE")])
    newline = "| _NEWLINE HEREDOC_BODY*" if "_NEWLINE" in terminals else ""
    text = "\n".join(
        [
            f"start: (({items}) {newline})*",
            "WORD: /[a-z]+/",
            "_BLANK: / +/",
            *(f"{name}: {regex}" for name, regex in terminals.items()),
            extra or "%declare HEREDOC_BODY",
        ]
    )
    return LarkGrammar("bash-like", text, lexer="bash")


def test_a_bash_grammar_with_every_name_compiles_and_the_hook_uses_them() -> None:
    g = bash_like(BASH_TERMINALS)
    assert g.validate("ab <<EOF\nx\nEOF\n", strict=True)
    # A backslash-newline stays in a comment (which ends at the newline)...
    assert g.validate("a #x\\\nb", strict=True)
    assert not g.validate("a #x\\\n'", strict=True)
    # ...and is removed elsewhere: `a\<newline>b` is the word `ab`.
    assert g.validate("a\\\nb", strict=True)


@pytest.mark.parametrize("missing", sorted(BASH_TERMINALS))
def test_a_bash_grammar_without_a_named_terminal_is_refused(missing: str) -> None:
    terminals = {n: r for n, r in BASH_TERMINALS.items() if n != missing}
    with pytest.raises(GrammarError, match="bash lexer hook") as info:
        bash_like(terminals).compiled()
    assert re.search(rf"missing or of another kind: {missing}\)", str(info.value))


def test_a_comment_named_otherwise_is_refused() -> None:
    # The hook would have joined such a comment to the next line at a backslash-newline.
    terminals = {n: r for n, r in BASH_TERMINALS.items() if n != "COMMENT"}
    terminals["HASH_COMMENT"] = r"/#[^\n]*/"
    with pytest.raises(GrammarError, match=r"bash lexer hook.*: COMMENT\)"):
        bash_like(terminals).compiled()


def test_heredoc_body_must_be_declared() -> None:
    with pytest.raises(GrammarError, match=r"bash lexer hook.*: HEREDOC_BODY\)"):
        bash_like(BASH_TERMINALS, "HEREDOC_BODY: /x/\nstart2: HEREDOC_BODY").compiled()


@pytest.mark.parametrize(
    ("name", "regex", "lead"),
    [
        ("COMMENT", r"/;[^\n]*/", "#"),
        ("COMMENT", r"/#[^\n]*|--[^\n]*/", "#"),
        ("SINGLE_QUOTED", r"/'[^']*'|\"[^\"]*\"/", "'"),
        ("ANSI_C_QUOTED", r"/\$?'[^']*'/", "$'"),
        ("HEREDOC_START", r"/<[A-Z]+/", "<<"),
    ],
)
def test_a_named_terminal_must_start_as_the_hook_reads_it(name: str, regex: str, lead: str) -> None:
    terminals = dict(BASH_TERMINALS) | {name: regex}
    with pytest.raises(GrammarError, match=rf"terminal {name} .*starts with `{re.escape(lead)}`"):
        bash_like(terminals).compiled()


MINIPY = r"""
start: (_NEWLINE | stmt)*
stmt: "if" NAME ":" _NEWLINE _INDENT stmt+ _DEDENT | NAME _NEWLINE
NAME: /[a-z]+/
%declare _NEWLINE _INDENT _DEDENT
%ignore / +/
"""


def test_a_python_grammar_needs_a_name_terminal() -> None:
    g = LarkGrammar("minipy", MINIPY, lexer="python")
    assert g.validate("if a:\n  b\n", strict=True)
    assert not g.validate("ifa:\n  b\n", strict=True)  # the keyword does not end inside a NAME
    renamed = LarkGrammar("minipy", MINIPY.replace("NAME", "IDENT"), lexer="python")
    with pytest.raises(GrammarError, match=r"python lexer hook.*: NAME\)"):
        renamed.compiled()
    literal = LarkGrammar("minipy", MINIPY.replace("/[a-z]+/", '"a"'), lexer="python")
    with pytest.raises(GrammarError, match=r"python lexer hook.*regex terminal NAME.*: NAME\)"):
        literal.compiled()


def test_a_python_grammar_needs_the_layout_terminals_declared() -> None:
    text = MINIPY.replace("%declare _NEWLINE _INDENT _DEDENT", "%declare _INDENT _DEDENT")
    with pytest.raises(GrammarError, match=r"python lexer hook.*: _NEWLINE\)"):
        LarkGrammar("minipy", text + "_NEWLINE: /;/\n", lexer="python").compiled()
