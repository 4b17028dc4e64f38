"""LarkGrammar.validate judged against references that share no code with it:
Python's own evaluator for arithmetic, ``json`` for a Lark JSON grammar,
counters for Dyck words, and the grammar's language enumerated by hand."""

from __future__ import annotations

import ast
import itertools
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pse.types.grammar import GrammarError, LarkGrammar

ARITH = LarkGrammar(
    "arith",
    r"""
?start: sum
?sum: sum ("+" | "-") product | product
?product: product ("*" | "/") atom | atom
?atom: INT | "(" sum ")" | "-" atom | "+" atom
INT: /0+|[1-9][0-9]*/
%import common.WS_INLINE
%ignore WS_INLINE
""",
)

JSON = LarkGrammar(
    "json",
    r"""
?start: value
?value: object | array | STRING | NUMBER | "true" | "false" | "null"
array: "[" [value ("," value)*] "]"
object: "{" [pair ("," pair)*] "}"
pair: STRING ":" value
STRING: /"([^"\\\x00-\x1f]|\\["\\\/bfnrt]|\\u[0-9a-fA-F]{4})*"/
NUMBER: /-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/
%ignore /[ \t\n\r]+/
""",
)

DYCK = LarkGrammar("dyck", 'start: ("(" start ")" | "[" start "]")*')


def arith_reference(text: str) -> bool:
    """Complete arithmetic expression over integers, as Python's parser reads it."""
    if any(c not in "0123456789+-*/() " for c in text):
        return False
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except SyntaxError:
        return False
    allowed = (ast.Expression, ast.BinOp, ast.UnaryOp, ast.Add, ast.Sub, ast.Mult, ast.Div)
    allowed += (ast.UAdd, ast.USub)
    return all(
        isinstance(n, allowed) or (isinstance(n, ast.Constant) and type(n.value) is int)
        for n in ast.walk(tree)
    )


def json_reference(text: str) -> bool:
    """A complete JSON text as ``json`` reads it (without its NaN/Infinity extension)."""

    def reject(name: str) -> object:
        raise ValueError(name)

    try:
        json.loads(text, parse_constant=reject)
    except ValueError:
        return False
    return True


def dyck_reference(text: str) -> tuple[bool, bool]:
    """(complete, viable prefix) for balanced () and []."""
    stack: list[str] = []
    for c in text:
        if c in "([":
            stack.append(c)
        elif not stack or {"(": ")", "[": "]"}[stack.pop()] != c:
            return False, False
    return not stack, True


@pytest.mark.parametrize(
    "text",
    ["1", "1+2", "(1+2)*3", "-(4)/ 2", "1 +", "(1", "1)", "", "+", "1 2", "((3))", "3--4", "7*-2"],
)
def test_arithmetic_complete_matches_python(text: str) -> None:
    assert ARITH.validate(text, strict=True) == arith_reference(text), text


def test_arithmetic_every_prefix_of_valid_expressions_is_viable() -> None:
    rng = random.Random(7)

    def expr(depth: int) -> str:
        if depth == 0 or rng.random() < 0.3:
            return str(rng.randint(0, 999))
        op = rng.choice("+-*/")
        left, right = expr(depth - 1), expr(depth - 1)
        return rng.choice([f"{left}{op}{right}", f"({left} {op} {right})", f"-{left}"])

    for _ in range(200):
        text = expr(4)
        assert arith_reference(text)
        assert ARITH.validate(text, strict=True), text
        for i in range(len(text)):
            assert ARITH.validate(text[:i]), text[:i]


JSON_CORPUS = [
    '{"a": [1, 2.5e3, -0.1, true, false, null], "b": {"c": "d\\n\\u00e9"}}',
    "[]",
    "{}",
    '"x"',
    "-0",
    "[1,[2,[3,[4]]]]",
    ' { "k" : "v" } ',
    '{"a":1,}',
    "[1 2]",
    "01",
    '"\\x"',
    "[1,]",
    "tru",
    '{"a" 1}',
]


@pytest.mark.parametrize("text", JSON_CORPUS)
def test_json_grammar_agrees_with_json(text: str) -> None:
    assert JSON.validate(text, strict=True) == json_reference(text), text


def test_json_prefixes_of_generated_documents() -> None:
    rng = random.Random(11)

    def value(depth: int) -> object:
        kind = rng.randrange(6 if depth else 4)
        if kind == 0:
            return rng.choice([True, False, None])
        if kind == 1:
            return rng.choice([0, -3, 12.5, 1e-7, 123456789])
        if kind == 2:
            return "".join(rng.choice('ab"\\\n é') for _ in range(rng.randrange(5)))
        if kind == 3:
            return rng.randrange(100)
        if kind == 4:
            return [value(depth - 1) for _ in range(rng.randrange(4))]
        return {f"k{i}": value(depth - 1) for i in range(rng.randrange(4))}

    for _ in range(60):
        text = json.dumps(value(3), indent=rng.choice([None, 1]))
        assert JSON.validate(text, strict=True), text
        for i in range(len(text)):
            assert JSON.validate(text[:i]), text[:i]
        # One mutation: the verdict on the whole text matches json's.
        pos = rng.randrange(len(text) + 1)
        mutated = text[:pos] + rng.choice(list('{}[],:"0 ')) + text[pos:]
        assert JSON.validate(mutated, strict=True) == json_reference(mutated), mutated


@given(st.text(alphabet="()[]", max_size=14))
@settings(max_examples=300, deadline=None)
def test_dyck_language(text: str) -> None:
    complete, viable = dyck_reference(text)
    assert DYCK.validate(text, strict=True) == complete
    assert DYCK.validate(text) == viable


@given(st.text(alphabet="0123456789+-*/() ", max_size=12))
@settings(max_examples=400, deadline=None)
def test_arithmetic_random_strings(text: str) -> None:
    assert ARITH.validate(text, strict=True) == arith_reference(text)


def test_left_recursive_and_ambiguous_grammars() -> None:
    left = LarkGrammar("left", 'start: start "a" | "b"')
    assert left.validate("baaaa", strict=True)
    assert not left.validate("ab", strict=True)
    ambiguous = LarkGrammar("amb", 'start: start start | "x"')
    assert ambiguous.validate("x" * 30, strict=True)
    assert not ambiguous.validate("x" * 5 + "y")
    empty = LarkGrammar("empty", 'start: a b\na: "a"?\nb: "b"*')
    for text, ok in [("", True), ("a", True), ("abbb", True), ("bb", True), ("ba", False)]:
        assert empty.validate(text, strict=True) == ok, text


def test_ignore_whitespace_and_comments() -> None:
    g = LarkGrammar(
        "list",
        r"""
start: "[" NAME ("," NAME)* "]"
NAME: /[a-z]+/
COMMENT: /#[^\n]*/
%ignore /[ \n]+/
%ignore COMMENT
""",
    )
    assert g.validate("[a, b # two\n , c]", strict=True)
    assert not g.validate("[a b]", strict=True)
    assert g.validate("[a # note")


def test_keywords_beat_identifiers_and_maximal_munch() -> None:
    g = LarkGrammar(
        "kw",
        r"""
start: stmt+
stmt: "if" NAME ":" | NAME "=" NAME ";"
NAME: /[a-z]+/
%ignore " "
""",
    )
    assert g.validate("if x:", strict=True)
    assert g.validate("iffy = x;", strict=True)  # longest match: NAME, not "if" + "fy"
    assert not g.validate("if = x;", strict=True)  # "if" is the keyword
    # Contextual lexing: where the parser expects no keyword, "if" is a NAME.
    assert g.validate("x = if;", strict=True)
    prio = LarkGrammar(
        "prio",
        r"""
start: A | B
A.2: /[a-z]+/
B: "abc"
""",
    )
    assert prio.validate("abc", strict=True)
    assert prio.validate("abd", strict=True)


def test_syntax_error_has_line_and_column() -> None:
    with pytest.raises(GrammarError) as info:
        LarkGrammar("bad", 'start: "a"\nfoo: "b" )\n').compiled()
    assert (info.value.line, info.value.column) == (2, 10)  # type: ignore[attr-defined]
    assert "line 2, column 10" in str(info.value)


def test_unsupported_features_are_named() -> None:
    with pytest.raises(GrammarError, match="WORD.*flags") as info:
        LarkGrammar("flags", "start: WORD\nWORD: /[a-z]+/i\n").compiled()
    assert info.value.line == 2  # type: ignore[attr-defined]
    with pytest.raises(GrammarError, match="LOOK"):
        LarkGrammar("look", "start: LOOK\nLOOK: /a(?=b)/\n").compiled()
    with pytest.raises(GrammarError, match="empty string"):
        LarkGrammar("empty", "start: E\nE: /a*/\n").compiled()
    with pytest.raises(GrammarError, match="_INDENT"):
        LarkGrammar("decl", "%declare _INDENT\nstart: _INDENT\n").compiled()
    with pytest.raises(GrammarError, match="undefined|not defined"):
        LarkGrammar("undef", "start: missing\n").compiled()
    with pytest.raises(GrammarError, match="hook"):
        LarkGrammar("hook", "start: 'a'", lexer="cobol")


def test_strings_case_insensitive() -> None:
    g = LarkGrammar("ci", 'start: "select"i " " "x"')
    assert g.validate("SeLeCt x", strict=True)
    assert not g.validate("selecx", strict=True)


JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=6),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner, max_size=4)
    ),
    max_leaves=12,
)


@given(JSON_VALUES, st.sampled_from([None, 1, 2]), st.data())
@settings(max_examples=150, deadline=None)
def test_json_sentences_and_mutations(
    value: object, indent: int | None, data: st.DataObject
) -> None:
    """A random sentence is accepted and every prefix is viable; one mutation
    is judged as ``json`` judges it."""
    text = json.dumps(value, indent=indent, ensure_ascii=data.draw(st.booleans()))
    assert JSON.validate(text, strict=True)
    for i in range(0, len(text), max(1, len(text) // 25)):
        assert JSON.validate(text[:i])
    pos = data.draw(st.integers(0, len(text)))
    mutated = text[:pos] + data.draw(st.sampled_from(list('{}[],:"0e.- \\x'))) + text[pos:]
    assert JSON.validate(mutated, strict=True) == json_reference(mutated)


# Alternatives that share prefixes, end inside one another and repeat (the
# native grammar factors them into a trie of new nonterminals), judged by
# lark's own Earley parser.
SHARED_PREFIXES = r"""
start: item+
item: "a" "b"? "c"? "d"
    | "a" "b" "e"
    | "a" ("x" | "y")* "z"?
    | "a"
    | "b" item? "c"
    | "b" "a" "b"
"""


def test_alternatives_with_shared_prefixes_agree_with_lark() -> None:
    import lark

    reference = lark.Lark(SHARED_PREFIXES, parser="earley", lexer="basic")
    ours = LarkGrammar("prefixes", SHARED_PREFIXES)

    def accepted(text: str) -> bool:
        try:
            reference.parse(text)
        except lark.exceptions.LarkError:
            return False
        return True

    alphabet = "abcdexyz"
    rng = random.Random(7)
    texts = ["".join(p) for n in range(5) for p in itertools.product(alphabet, repeat=n)]
    texts += ["".join(rng.choice(alphabet) for _ in range(rng.randint(5, 8))) for _ in range(150)]
    valid = 0
    for text in texts:
        verdict = accepted(text)
        valid += verdict
        assert ours.validate(text, strict=True) == verdict, text
        if verdict:
            assert all(ours.validate(text[:i]) for i in range(len(text))), text
    assert valid > 100  # the enumeration reaches the language, not only its complement
