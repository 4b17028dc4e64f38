"""Lark grammars compiled to the native grammar engine.

The grammar text is read with the ``lark`` package (rules, EBNF, templates,
``%import common``, ``%ignore``, ``%declare``, terminal priorities); each
terminal becomes a byte automaton and the rules go, as plain BNF, to the
native Earley parser in ``pse_core`` (``cpp/grammar/``). Every step of
lexing, parsing and masking then runs natively. Semantics: docs/grammar.md.

Reading a large grammar with ``lark`` takes a few hundred milliseconds, so the
lowered tables are cached on disk, keyed on the grammar text, start rule, lexer
hook and the code that lowers them: ``$PSE_GRAMMAR_CACHE`` (a directory, or
``off``), by default ``~/.cache/pse/grammars`` (``$XDG_CACHE_HOME`` honoured).
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import re
import tempfile
import zlib
from array import array
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import lark as lark_package
from lark.exceptions import LarkError, UnexpectedInput
from lark.grammar import Rule, Symbol, Terminal
from lark.lexer import PatternStr, TerminalDef
from lark.load_grammar import load_grammar
from pse_core._core import Grammar, GrammarStateMachine
from pse_core.errors import GrammarError, SchemaError

import pse.automata
from pse.automata import pattern_dfa
from pse.automata.dfa import EMPTY_ROW, lower_utf8
from pse.process_caches import on_exit
from pse.types.grammar.shipped import shipped_text

__all__ = ["GrammarError", "LarkGrammar", "LarkGrammarStateMachine"]

LEXER_HOOKS = ("python", "bash")
_BRACKETS = {"(": 1, "[": 1, "{": 1, ")": -1, "]": -1, "}": -1}
# (name, packed int32 rows, accepting, priority, literal, role, bracket): see pse_core.Grammar.
NativeTerminal = tuple[str, bytes, list[bool], int, bool, str, int]
_HOOK_TERMINALS = {"python": {"_NEWLINE", "_INDENT", "_DEDENT"}, "bash": {"HEREDOC_BODY"}}


# The process cache of native grammars, their only holder on the Python side:
# cleared at interpreter exit, so that nanobind's report of native objects
# alive at exit (PSE_LEAK_WARNINGS=1) names only real leaks. (CPython collects
# no cycle after it clears module globals, so a grammar held by an object in
# a cycle, such as a test parameter in pytest's session, outlived the report.)
_COMPILED: dict[tuple[str, str, str | None], Grammar] = {}
on_exit(_COMPILED.clear)
# Lowered tables: (terminals, rules, start index, nonterminal names, hook).
Tables = tuple[list[NativeTerminal], list[tuple[int, list[int]]], int, list[str], str]
_CACHE_FORMAT = 1


def _error(message: str, line: int | None = None, column: int | None = None) -> GrammarError:
    """A GrammarError carrying ``line`` and ``column`` (1-based) when known."""
    where = f" (line {line}, column {column})" if line is not None else ""
    err = GrammarError(message + where)
    err.line = line  # type: ignore[attr-defined]
    err.column = column  # type: ignore[attr-defined]
    return err


class LarkGrammar:
    """A grammar in Lark syntax, compiled once (per start rule) to a native grammar.

    ``lexer``: ``None``, ``"python"`` (NEWLINE/INDENT/DEDENT as CPython's
    tokenizer makes them) or ``"bash"`` (heredoc bodies); see docs/grammar.md.
    ``delimiters``: the fence a fenced block of this language uses, for callers
    that wrap it.
    """

    def __init__(
        self,
        name: str,
        lark_grammar: str,
        *,
        start: str = "start",
        lexer: str | None = None,
        delimiters: tuple[str, str] | None = None,
    ) -> None:
        if lexer is not None and lexer not in LEXER_HOOKS:
            raise GrammarError(f"{name}: unknown lexer hook {lexer!r} (known: {LEXER_HOOKS})")
        self.name = name
        self.lark_grammar = lark_grammar
        self.start = start
        self.lexer = lexer
        self.delimiters = delimiters

    def compiled(self, start: str | None = None) -> Grammar:
        """The native grammar for ``start`` (default: ``self.start``), compiled on first use.

        Native grammars are immutable: every ``LarkGrammar`` with the same text,
        start and lexer in this process shares one.
        """
        key = (self.lark_grammar, start or self.start, self.lexer)
        native = _COMPILED.get(key)
        if native is None:
            native = _COMPILED[key] = Grammar(*_tables(self, key[1]))
        return native

    def validate(self, input: str, strict: bool = False, start: str | None = None) -> bool:
        """Whether ``input`` is a sentence of the grammar (``strict``) or a prefix of one."""
        return self.compiled(start).validate(input, strict)

    def __repr__(self) -> str:
        return f"LarkGrammar({self.name!r}, start={self.start!r}, lexer={self.lexer!r})"


class LarkGrammarStateMachine(GrammarStateMachine):
    """A state machine accepting the sentences of a :class:`LarkGrammar`."""

    def __init__(
        self,
        grammar: LarkGrammar,
        start: str | None = None,
        *,
        is_optional: bool = False,
        identifier: str | None = None,
    ) -> None:
        super().__init__(grammar.compiled(start), is_optional, identifier or grammar.name)
        self.grammar = grammar
        self.start = start or grammar.start


def _definition(text: str, name: str) -> tuple[int | None, int | None]:
    """Line and column of ``name``'s definition in the grammar text, if it is there."""
    m = re.search(rf"^[ \t]*[?!]?({re.escape(name)})\b", text, re.MULTILINE)
    if not m:
        return None, None
    line = text.count("\n", 0, m.start(1)) + 1
    return line, m.start(1) - (text.rfind("\n", 0, m.start(1)) + 1) + 1


def _literal_rows(value: str, fold: bool) -> tuple[bytes, list[bool]]:
    """Byte rows of an exact string (ASCII letters either case with ``fold``)."""
    data = value.encode()
    rows = []
    for i, b in enumerate(data):
        row = array("i", EMPTY_ROW)
        for byte in {b, ord(chr(b).lower()), ord(chr(b).upper())} if fold and b < 128 else {b}:
            row[byte] = i + 1
        rows.append(row)
    rows.append(array("i", EMPTY_ROW))
    return b"".join(r.tobytes() for r in rows), [False] * len(data) + [True]


def _regex_rows(grammar: LarkGrammar, term: TerminalDef) -> tuple[bytes, list[bool]]:
    """Byte rows of a regex terminal, through the engine's regex compiler."""
    flags = set(term.pattern.flags)
    if flags:
        line, col = _definition(grammar.lark_grammar, term.name)
        raise _error(
            f"{grammar.name}: terminal {term.name} uses regex flags {sorted(flags)}, "
            "which are not supported (write the cases out in the pattern)",
            line,
            col,
        )
    try:
        dfa = pattern_dfa(term.pattern.value, anchored=True, keyword=term.name)
    except SchemaError as e:
        line, col = _definition(grammar.lark_grammar, term.name)
        raise _error(f"{grammar.name}: terminal {term.name}: {e.message}", line, col) from None
    table = lower_utf8(dfa, term.name)
    return b"".join(r.tobytes() for r in table.rows), table.accepting


def _terminal(grammar: LarkGrammar, term: TerminalDef, role: str) -> NativeTerminal:
    literal = isinstance(term.pattern, PatternStr)
    if literal:
        if set(term.pattern.flags) - {"i"}:
            raise _error(f"{grammar.name}: terminal {term.name} uses unsupported flags")
        rows, accepting = _literal_rows(term.pattern.value, "i" in term.pattern.flags)
    else:
        rows, accepting = _regex_rows(grammar, term)
    bracket = _BRACKETS.get(term.pattern.value, 0) if literal else 0
    return (term.name, rows, accepting, term.priority, literal, role, bracket)


def _symbols(rules: list[Rule]) -> Iterator[Symbol]:
    for rule in rules:
        yield rule.origin
        yield from rule.expansion


@cache
def _lowering_version() -> str:
    """A digest of the code that lowers grammars (this module, pse.automata) and lark's version."""
    digest = hashlib.sha256(f"{_CACHE_FORMAT} {lark_package.__version__}".encode())
    sources = [Path(__file__), *sorted(Path(pse.automata.__file__).parent.glob("*.py"))]
    for path in sources:
        digest.update(path.read_bytes())
    return digest.hexdigest()


def _cache_dir() -> Path | None:
    setting = os.environ.get("PSE_GRAMMAR_CACHE")
    if setting is not None:
        return None if setting.lower() in ("", "0", "off") else Path(setting)
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "pse" / "grammars"


def _cache_path(grammar: LarkGrammar, start: str) -> Path | None:
    directory = _cache_dir()
    if directory is None:
        return None
    key = json.dumps([_lowering_version(), grammar.lark_grammar, start, grammar.lexer])
    return directory / (hashlib.sha256(key.encode()).hexdigest() + ".json")


def encode_tables(tables: Tables) -> str:
    """Lowered tables as JSON text (the disk cache's and the shipped files' format)."""
    terminals, rules, start, nonterminals, hook = tables
    packed = [
        [n, base64.b64encode(zlib.compress(rows, 1)).decode(), "".join("01"[a] for a in acc)]
        + [priority, literal, role, bracket]
        for n, rows, acc, priority, literal, role, bracket in terminals
    ]
    doc = {"terminals": packed, "rules": rules, "start": start, "nonterminals": nonterminals}
    return json.dumps(doc | {"hook": hook})


def decode_tables(text: str) -> Tables:
    """The tables of ``encode_tables`` text."""
    doc: dict[str, Any] = json.loads(text)
    terminals: list[NativeTerminal] = [
        (n, zlib.decompress(base64.b64decode(rows)), [c == "1" for c in acc], p, lit, role, br)
        for n, rows, acc, p, lit, role, br in doc["terminals"]
    ]
    rules = [(lhs, list(symbols)) for lhs, symbols in doc["rules"]]
    return terminals, rules, doc["start"], doc["nonterminals"], doc["hook"]


def _tables(grammar: LarkGrammar, start: str) -> Tables:
    """The lowered tables of ``grammar`` from ``start``: the package's own for a ready-made
    grammar (``shipped.py``), else read from the disk cache, else lowered and stored."""
    shipped = shipped_text(grammar.lark_grammar, start, grammar.lexer)
    if shipped is not None:
        return decode_tables(shipped)
    path = _cache_path(grammar, start)
    if path is not None and path.is_file():
        try:
            return decode_tables(path.read_text())
        except (OSError, ValueError, KeyError, TypeError, zlib.error):
            pass  # unreadable or from an older format: lowered again and rewritten below
    tables = lower_tables(grammar, start)
    if path is not None:
        _store(path, encode_tables(tables))
    return tables


def _store(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` atomically; a read-only or full disk only means no cache."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
    except OSError:
        return
    try:
        with os.fdopen(fd, "w") as out:
            out.write(text)
        os.replace(tmp, path)
    except OSError:
        Path(tmp).unlink(missing_ok=True)


def lower_tables(grammar: LarkGrammar, start: str) -> Tables:
    """Read the grammar text with ``lark`` and lower it: terminals to automata, rules to BNF."""
    try:
        parsed, _ = load_grammar(grammar.lark_grammar, grammar.name, [], False)  # type: ignore[no-untyped-call]
        terminals, rules, ignore = parsed.compile([start], set())
    except UnexpectedInput as e:
        what = str(e).splitlines()[0].split(" at line")[0]
        raise _error(
            f"{grammar.name}: the grammar does not parse: {what}", e.line, e.column
        ) from None
    except LarkError as e:
        raise _error(f"{grammar.name}: {e}") from None
    names = [t.name for t in terminals]
    used = {s.name for s in _symbols(rules) if isinstance(s, Terminal)}
    declared = sorted(used - set(names))
    allowed = _HOOK_TERMINALS.get(grammar.lexer or "", set())
    for name in declared:
        if name not in allowed:
            line, col = _definition(grammar.lark_grammar, f"%declare[^\n]*{name}")
            raise _error(
                f"{grammar.name}: terminal {name} is declared but never defined, and the lexer "
                f"hook {grammar.lexer!r} does not produce it",
                line,
                col,
            )
    native_terms = [
        _terminal(grammar, t, "ignore" if t.name in ignore else "normal") for t in terminals
    ]
    # The hook's terminals, also those no rule uses (lark drops them).
    hooked = sorted(allowed - set(names))
    native_terms += [(n, b"", [], 0, False, "declared", 0) for n in hooked]
    index = {t[0]: i for i, t in enumerate(native_terms)}
    nonterminals: dict[str, int] = {}
    for rule in rules:
        nonterminals.setdefault(rule.origin.name, len(nonterminals))
    if start not in nonterminals:
        raise _error(f"{grammar.name}: no rule named {start!r} to start from")
    native_rules: list[tuple[int, list[int]]] = []
    for rule in rules:
        symbols = [
            index[s.name] if isinstance(s, Terminal) else ~nonterminals[s.name]
            for s in rule.expansion
        ]
        native_rules.append((nonterminals[rule.origin.name], symbols))
    return native_terms, native_rules, nonterminals[start], list(nonterminals), grammar.lexer or ""
