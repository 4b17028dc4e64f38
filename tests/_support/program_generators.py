"""Generated programs for judging the Python and Bash grammars against their references.

``bash_scripts()``: Bash scripts built from the constructs ``bash.lark`` covers (simple and
compound commands, pipelines, lists, redirections, heredocs, quoting, expansions, functions),
valid by construction; ``bash -n`` still judges each one. ``mutants(text)``: small edits of a
program (a character deleted, inserted, replaced or duplicated, from the characters syntax
hangs on, or a backslash-newline inserted), to look for texts the grammar accepts and the
reference rejects.

``token_soups(language)``: a few tokens of the language (keywords, numbers, strings, operators,
words), each glued to the next or separated by a blank: mostly invalid texts, where a grammar
that lexes differently from the reference shows (``1as``, ``time if``, ``a ;&>f``).

Used by ``tests/pse/grammar_properties`` (CI-sized) and ``benchmarks/bench_grammar_properties.py``
(long runs).
"""

from __future__ import annotations

from hypothesis import strategies as st

NAMES = st.sampled_from(["a", "x", "file", "n", "count", "dir_1", "PATH", "HOME"])
LITERALS = st.sampled_from(
    ["echo", "ls", "-l", "foo", "bar.txt", "*.log", "/tmp/x", "1", "a=b", "--opt=1", "x,y", "~"]
)
# bash reads an assignment's subscript to its "]", blanks and quotes in it included
SUBSCRIPTS = st.sampled_from(["", "[1]", "[ i ]", "[$i]", '["k y"]', "['k]']", "[$((i + 1))]"])
COMMANDS = st.sampled_from(["echo", "ls", "cat", "grep", "printf", "true", "wc", "sort", "cd"])


@st.composite
def _word(draw: st.DrawFn, depth: int = 0) -> str:
    """One shell word: literal text, quotes and expansions glued together."""
    parts: list[st.SearchStrategy[str]] = [
        LITERALS,
        NAMES.map(lambda n: f"${n}"),
        NAMES.map(lambda n: f"${{{n}}}"),
        st.sampled_from(["${a:-x}", "${#a}", "${a%.*}", "${a//x/y}", "$1", "$@", "$?", "$#"]),
        st.sampled_from(["'single quoted'", "'a\"b'", '"x"', "\\$", "\\ ", "$'a\\n'"]),
        st.sampled_from(["$((1 + 2))", "$((n * 2))", "`date`", "$[1+1]"]),
    ]
    if depth < 2:
        parts.append(_double_quoted(depth + 1))
        parts.append(_pipeline(depth + 1).map(_substitution))
    pieces = draw(st.lists(st.one_of(parts), min_size=1, max_size=3))
    word = "".join(pieces)
    # A word that starts with '#' would be a comment; '~' only leads.
    return word if not word.startswith("#") else "x" + word


def _substitution(command: str) -> str:
    # "$((" opens an arithmetic expansion (bash reparses some as a command substitution; the
    # grammar does not, docs/grammar_languages.md), so a subshell or (( )) gets a blank first.
    return f"$( {command})" if command.startswith("(") else f"$({command})"


@st.composite
def _double_quoted(draw: st.DrawFn, depth: int) -> str:
    inner = st.one_of(
        st.sampled_from(["text", " spaced ", "a'b", '\\"', "\\$", "100%"]),
        NAMES.map(lambda n: f"${n}"),
        NAMES.map(lambda n: f"${{{n}}}"),
        _pipeline(depth + 1).map(_substitution),
        st.just("$((2 ** 3))"),
    )
    return '"' + "".join(draw(st.lists(inner, max_size=3))) + '"'


@st.composite
def _redirect(draw: st.DrawFn, depth: int) -> str:
    op = draw(st.sampled_from([">", ">>", "<", "2>", "2>&1", "&>", "<<<", "1>&2", ">|"]))
    if op in ("2>&1", "1>&2"):
        return op
    return f"{op} {draw(_word(depth + 1))}" if draw(st.booleans()) else op + draw(_word(depth + 1))


@st.composite
def _simple(draw: st.DrawFn, depth: int) -> str:
    assigns = [f"{n}{draw(SUBSCRIPTS)}=" for n in draw(st.lists(NAMES, max_size=1))]
    assigns = [a + draw(_word(depth)) if draw(st.booleans()) else a for a in assigns]
    args = draw(st.lists(st.one_of(_word(depth), _redirect(depth)), max_size=3))
    return " ".join([*assigns, draw(COMMANDS), *args])


@st.composite
def _pipeline(draw: st.DrawFn, depth: int = 0) -> str:
    commands = draw(st.lists(_command(depth), min_size=1, max_size=3))
    pipe = " | ".join(commands)
    return ("! " + pipe) if draw(st.integers(0, 9)) == 0 else pipe


@st.composite
def _and_or(draw: st.DrawFn, depth: int) -> str:
    pipelines = draw(st.lists(_pipeline(depth), min_size=1, max_size=2))
    ops = [draw(st.sampled_from([" && ", " || "])) for _ in pipelines[1:]]
    out = pipelines[0]
    for op, pipeline in zip(ops, pipelines[1:], strict=True):
        out += op + pipeline
    return out


@st.composite
def _body(draw: st.DrawFn, depth: int) -> str:
    """A list that ends with a terminator (inside compound commands)."""
    items = draw(st.lists(_and_or(depth), min_size=1, max_size=2))
    seps = [draw(st.sampled_from(["; ", "\n", " &\n"])) for _ in items]
    return "".join(item + sep for item, sep in zip(items, seps, strict=True))


@st.composite
def _compound(draw: st.DrawFn, depth: int) -> str:
    d = depth + 1
    kind = draw(st.integers(0, 10))
    if kind == 0:
        return f"if {draw(_body(d))}then {draw(_body(d))}fi"
    if kind == 1:
        condition, then, other, alternative = (draw(_body(d)) for _ in range(4))
        return f"if {condition}then\n{then}elif {other}then {alternative}else {draw(_body(d))}fi"
    if kind == 2:
        words = " ".join(draw(st.lists(_word(d), max_size=3)))
        return f"for {draw(NAMES)} in {words}; do {draw(_body(d))}done"
    if kind == 3:
        return f"for ((i = 0; i < 3; i++)); do {draw(_body(d))}done"
    if kind == 4:
        return (
            f"{draw(st.sampled_from(['while', 'until']))} {draw(_body(d))}do\n{draw(_body(d))}done"
        )
    if kind == 5:
        pattern = draw(st.sampled_from(["a", "*.txt", "start|stop", "[0-9]*", '"x y"']))
        first, rest = draw(_body(d)), draw(_body(d))
        return f"case {draw(_word(d))} in\n  {pattern}) {first};;\n  *) {rest};;\nesac"
    if kind == 6:
        return "{ " + draw(_body(d)) + "}"
    if kind == 7:
        inner = draw(_and_or(d))
        # "((" opens an arithmetic command, so a subshell inside one gets a blank first.
        return ("( " if inner.startswith("(") else "(") + inner + ")"
    if kind == 8:
        return f"[[ {draw(_word(d))} == {draw(_word(d))} && -f {draw(_word(d))} ]]"
    if kind == 9:
        return f"(( {draw(NAMES)} += {draw(st.integers(0, 99))} ))"
    name = draw(st.sampled_from(["f", "greet", "do_it", "my-func"]))
    return f"{name}() {{ {draw(_body(d))}}}"


def _command(depth: int) -> st.SearchStrategy[str]:
    if depth >= 2:
        return _simple(depth)
    return st.one_of(_simple(depth), _simple(depth), _compound(depth))


@st.composite
def _line(draw: st.DrawFn) -> str:
    kind = draw(st.integers(0, 9))
    if kind == 0:
        return "# a comment"
    if kind == 1:
        delimiter = draw(st.sampled_from(["EOF", "END", "'EOF'", '"X"']))
        body = draw(st.sampled_from(["", "line $a\n", "text `x`\n  indented\n"]))
        plain = delimiter.strip("'\"")
        return f"cat <<{delimiter} > out\n{body}{plain}"
    if kind == 2:
        return f"{draw(NAMES)}={draw(_word(0))}"
    line = draw(_and_or(0))
    tail = draw(st.sampled_from(["", "", ";", " &", "  # trailing comment"]))
    return line + tail


@st.composite
def bash_scripts(draw: st.DrawFn) -> str:
    """A Bash script of a few lines over the grammar's constructs."""
    lines = draw(st.lists(_line(), min_size=1, max_size=4))
    shebang = "#!/bin/bash\n" if draw(st.booleans()) else ""
    return shebang + "\n".join(lines) + ("\n" if draw(st.booleans()) else "")


SYNTAX_CHARACTERS = "()[]{}:;,.=+-*/%<>!&|^~@'\"`$\\#\n\t 0aA_"


@st.composite
def mutants(draw: st.DrawFn, text: str) -> str:
    """``text`` with one small edit at a drawn position."""
    if not text:
        return draw(st.sampled_from(list(SYNTAX_CHARACTERS)))
    at = draw(st.integers(0, len(text) - 1))
    edit = draw(st.sampled_from(["delete", "insert", "replace", "duplicate", "continue"]))
    if edit == "delete":
        return text[:at] + text[at + 1 :]
    if edit == "continue":  # a line continuation (Bash, Python) or not (quotes, comments)
        return text[:at] + "\\\n" + text[at:]
    if edit == "duplicate":
        return text[: at + 1] + text[at:]
    char = draw(st.sampled_from(list(SYNTAX_CHARACTERS)))
    return text[:at] + char + text[at + (edit == "replace") :]


SOUP_TOKENS = {
    "python": [
        *["1", "0", "00", "1.", ".5", "1e5", "1_0", "0x1f", "0o7", "0b1", "1j", "1e", "07"],
        *["and", "or", "not", "in", "is", "if", "else", "for", "as", "from", "async", "await"],
        *["lambda", "yield", "None", "import", "return", "match", "case", "_", "x", "e"],
        *["'a'", "b'c'", "f'd'", "rb'f'", "f'{x}'", '"""h"""'],
        *["+", "*", "**", "<", "==", ".", ",", ":", "=", ":=", "(", ")", "[", "]", "{", "}"],
        *[";", "...", "\\\n", "#c\n", "\n", "!"],
        *["''", "f''", "'", "'''", 'f"""', '"', '"""', "\n    "],
    ],
    "bash": [
        *["echo", "a", "x=1", "if", "then", "else", "fi", "for", "in", "do", "done", "while"],
        *["case", "esac", "{", "}", "(", ")", "((", "))", "[[", "]]", "$(", "$((", "${x", "`"],
        *["'", '"', "\\", ";", ";;", "&", "&&", "||", "|", "!", "<", ">", "<<<", "2>", "&>"],
        *["#", "\n", "=", "==", "*", "[", "]", "$x", "~", "function", "f()", "time", "-p"],
        *["x[1]=2", "a=(", "${x:-y}", "$'a'", "\\\n", "a[", "a[ x ]", "declare", "=("],
        *[">&", "<&", ">&-", "-", "-x", "2", "{fd}", "{a[1]}", "<(", ">("],
    ],
}


@st.composite
def token_soups(draw: st.DrawFn, language: str) -> str:
    """One to seven tokens of ``language``, each followed by a blank or by nothing."""
    tokens = draw(st.lists(st.sampled_from(SOUP_TOKENS[language]), min_size=1, max_size=7))
    return "".join(token + draw(st.sampled_from(["", " "])) for token in tokens)
