"""The strings family: ``minLength``, ``maxLength``, ``pattern``, ``format``
(and draft 7's ``contentMediaType``/``contentEncoding``).

Owns the intersection, negation and emptiness of ``StrAlt``, the code-point
DFA of a string alternative and the builders of string machines: string-set
tries for literal sets, ``pse.automata`` for patterns and formats, Python
checks (``checked_string.py``) for the formats no automaton can judge.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from pse_core._core import StateMachine
from pse_core.errors import SchemaError

from pse.automata import SUPPORTED_FORMATS, string_dfa, string_machine
from pse.automata.dfa import complement, product
from pse.process_caches import process_cache
from pse.types.json import content, ecma_regex, idn_hostname
from pse.types.json.machines import NeverStateMachine
from pse.types.json.reading import count, invalid
from pse.types.json.schema_ir import Alt, Node, StrAlt
from pse.types.json.string_set import exclude_literals, literal_dfa, lower_key, string_set_machine
from pse.types.string import StringStateMachine

if TYPE_CHECKING:
    from pse.automata.dfa import CpDfa
    from pse.types.json.compiler import Compiler
    from pse.types.json.context import SchemaContext

KEYWORDS = ("minLength", "maxLength", "pattern", "format")
#: Every keyword ``string_keywords`` reads (draft 7's content keyword included).
_READ = frozenset((*KEYWORDS, "contentMediaType"))

#: The formats JSON Schema 2020-12 defines: those not compiled are refused.
STANDARD_FORMATS = frozenset(
    {
        "date-time",
        "date",
        "time",
        "duration",
        "email",
        "idn-email",
        "hostname",
        "idn-hostname",
        "ipv4",
        "ipv6",
        "uri",
        "uri-reference",
        "iri",
        "iri-reference",
        "uuid",
        "uri-template",
        "json-pointer",
        "relative-json-pointer",
        "regex",
    }
)
#: Formats judged by a Python check instead of an automaton.
CHECKED_FORMATS = frozenset({idn_hostname.FORMAT, ecma_regex.FORMAT, *content.FORMATS})


# ------------------------------------------------------------ regex helper

_RE_CACHE: dict[str, re.Pattern[str] | None] = {}
_ECMA_CLASSES = {r"\d": "[0-9]", r"\D": "[^0-9]", r"\w": "[A-Za-z0-9_]", r"\W": "[^A-Za-z0-9_]"}


def python_regex(pattern: str) -> re.Pattern[str] | None:
    """An approximation of an ECMA-262 regex in Python ``re`` (``None``: cannot translate)."""
    if pattern in _RE_CACHE:
        return _RE_CACHE[pattern]
    text = pattern
    for k, v in _ECMA_CLASSES.items():
        text = text.replace(k, v)
    try:
        compiled: re.Pattern[str] | None = re.compile(text)
    except re.error:
        compiled = None
    _RE_CACHE[pattern] = compiled
    return compiled


def ecma_search(pattern: str, text: str) -> bool:
    """Whether ``pattern`` matches somewhere in ``text`` (property names)."""
    compiled = python_regex(pattern)
    if compiled is None:
        raise SchemaError(
            f"cannot evaluate pattern {pattern!r} on property names",
            code="unsupported-pattern",
            keyword="patternProperties",
        )
    return compiled.search(text) is not None


# ----------------------------------------------------------------- algebra


def intersect_str(a: StrAlt, b: StrAlt) -> StrAlt | None:
    literals = a.literals
    if b.literals is not None:
        literals = b.literals if literals is None else literals & b.literals
    max_length = a.max_length
    if b.max_length is not None:
        max_length = b.max_length if max_length is None else min(max_length, b.max_length)
    s = StrAlt(
        max(a.min_length, b.min_length),
        max_length,
        tuple(dict.fromkeys(a.patterns + b.patterns)),
        tuple(dict.fromkeys(a.formats + b.formats)),
        literals,
        a.excluded | b.excluded,
        a.negated | b.negated,
    )
    if s.literals is not None:
        lits = frozenset(
            x
            for x in s.literals
            if x not in s.excluded
            and len(x) >= s.min_length
            and (s.max_length is None or len(x) <= s.max_length)
        )
        s = replace(s, literals=lits, excluded=frozenset(), min_length=0, max_length=None)
        if not lits:
            return None
    if s.max_length is not None and s.min_length > s.max_length:
        return None
    return s


def negate_str(alt: StrAlt) -> list[Alt]:
    """The strings ``alt`` rejects."""
    if alt.unconstrained:
        return []
    if alt.literals is not None and not alt.patterns and not alt.formats:
        return [StrAlt(excluded=alt.literals)]
    if alt.excluded and alt == StrAlt(excluded=alt.excluded):
        return [StrAlt(literals=alt.excluded)]
    if not alt.patterns and not alt.formats and not alt.excluded:
        inside: list[Alt] = []
        if alt.min_length > 0:
            inside.append(StrAlt(max_length=alt.min_length - 1))
        if alt.max_length is not None:
            inside.append(StrAlt(min_length=alt.max_length + 1))
        return inside
    return [StrAlt(negated=frozenset({alt}))]  # patterns, formats: the complement automaton


def str_empty(alt: StrAlt) -> bool:
    """Whether ``alt`` provably matches no string (one pattern or format: left to the builder)."""
    if alt.literals is not None and not alt.literals:
        return True
    if not alt.negated and len(alt.patterns) + len(alt.formats) < 2:
        return False
    try:
        return str_alt_dfa(alt).is_empty()
    except SchemaError:
        return False


# ---------------------------------------------------------------- keywords


def content_format(schema: dict[str, Any]) -> str | None:
    """The checked content format of draft 7's content keywords (``content.py``)."""
    if "contentMediaType" not in schema:
        return None
    return content.format_of(schema["contentMediaType"], schema.get("contentEncoding"))


def string_keywords(ctx: SchemaContext, node: Node, schema: dict[str, Any]) -> StrAlt | None:
    """The string constraint of one schema object (``None``: none)."""
    if _READ.isdisjoint(schema):
        return None
    fields: dict[str, Any] = {}  # the StrAlt is built once, at the end
    lo = count(node, schema, "minLength")
    hi = count(node, schema, "maxLength")
    if lo is not None:
        fields["min_length"] = lo
    if hi is not None:
        fields["max_length"] = hi
    if "pattern" in schema:
        if not isinstance(schema["pattern"], str):
            raise invalid(node, "pattern", "pattern must be a string")
        fields["patterns"] = (schema["pattern"],)
        ctx.pattern_pointers.setdefault(schema["pattern"], f"{node.pointer}/pattern")
    draft7 = ctx.dialect_at(node) in ("4", "6", "7")
    checked_content = content_format(schema) if draft7 else None
    formats: tuple[str, ...] = ()
    if checked_content is not None:
        formats = (checked_content,)
        ctx.format_pointers.setdefault(checked_content, f"{node.pointer}/contentMediaType")
    fmt = schema.get("format")
    if isinstance(fmt, str):
        pointer = f"{node.pointer}/format"
        checked = fmt == ecma_regex.FORMAT or (
            fmt == idn_hostname.FORMAT and idn_hostname.available()
        )
        if fmt in SUPPORTED_FORMATS or checked:
            formats = (*formats, fmt)
            ctx.format_pointers.setdefault(fmt, pointer)
        elif fmt in STANDARD_FORMATS:
            ctx.decline(f"format {fmt!r} is not supported", "format", pointer)
        else:
            ctx.note_ignored_format(fmt, pointer)
    if formats:
        fields["formats"] = formats
    s = StrAlt(**fields)
    return None if s.unconstrained else s


# ----------------------------------------------------------------- builder


def accepts_text(machine: StateMachine, text: str) -> bool:
    """Whether ``machine`` accepts exactly ``text``."""
    steppers = StateMachine.advance_all_basic(machine.get_steppers(), text)
    return any(not s.remaining_input and s.has_reached_accept_state() for s in steppers)


def _keyword(alt: StrAlt) -> str:
    """The keyword a failure to compile ``alt`` is reported under."""
    if alt.patterns:
        return "pattern"
    if alt.formats:
        return "format"
    return "not" if alt.negated else "maxLength"


@process_cache(maxsize=1024)
def str_alt_dfa(alt: StrAlt) -> CpDfa:
    """The minimal code-point DFA of the decoded strings ``alt`` allows.

    Every constraint: lengths, each pattern and format, the literal set, the
    excluded literals and the negated alternatives (each intersected as a
    complement). Raises ``SchemaError`` when an automaton is too large or a
    pattern is not supported.
    """
    if alt.literals is not None:
        return literal_dfa(_matching_literals(alt))
    patterns: list[str | None] = [*alt.patterns] or [None]
    formats: list[str | None] = [*alt.formats] or [None]
    dfa = string_dfa(patterns[0], alt.min_length, alt.max_length, formats[0])
    for pattern in patterns[1:]:
        dfa = product(dfa, string_dfa(pattern), keyword="pattern")
    for fmt in formats[1:]:
        dfa = product(dfa, string_dfa(None, 0, None, fmt), keyword="format")
    dfa = exclude_literals(dfa, alt.excluded)
    for other in sorted(alt.negated, key=repr):
        dfa = product(dfa, complement(str_alt_dfa(other)), keyword="not")
    return dfa


def _matching_literals(alt: StrAlt) -> list[str]:
    """The literals of ``alt`` (sorted) that satisfy its other string keywords."""
    assert alt.literals is not None
    rest = replace(alt, literals=None)
    if rest.unconstrained:
        return sorted(alt.literals)
    check = str_alt_dfa(rest)
    return [x for x in sorted(alt.literals) if check.accepts(x)]


def allowed_literals(comp: Compiler, alt: StrAlt) -> list[str]:
    """``_matching_literals``, its errors located at the keyword that caused them."""
    try:
        return _matching_literals(alt)
    except SchemaError as exc:
        raise _reraised(comp, replace(alt, literals=None), exc) from exc


def _reraised(comp: Compiler, alt: StrAlt, exc: SchemaError) -> SchemaError:
    keyword = _keyword(alt)
    pointer = comp.ctx.pattern_pointers.get(alt.patterns[0], "") if alt.patterns else ""
    return comp.reraise(exc, keyword, pointer)


def build_string(comp: Compiler, alt: StrAlt) -> StateMachine:
    """The machine of one string alternative.

    Literal sets and plain exclusions become string-set tries, one pattern or
    format the cached ``pse.automata.string_machine``; anything else (several
    patterns, exclusions with a pattern, negations) is lowered from
    ``str_alt_dfa``; formats no automaton judges go to ``build_checked``.
    """
    if not CHECKED_FORMATS.isdisjoint(alt.formats):
        return build_checked(comp, alt)
    if alt.literals is not None:
        literals = allowed_literals(comp, alt)
        return string_set_machine(literals) if literals else NeverStateMachine()
    try:
        if alt.excluded and alt == StrAlt(excluded=alt.excluded):
            return string_set_machine(alt.excluded, exclude=True)
        if alt.excluded or alt.negated or len(alt.patterns) > 1 or len(alt.formats) > 1:
            dfa = str_alt_dfa(alt)
            return NeverStateMachine() if dfa.is_empty() else lower_key(dfa, _keyword(alt))
        if not alt.patterns and not alt.formats:
            return StringStateMachine(min_length=alt.min_length, max_length=alt.max_length)
        return string_machine(
            pattern=alt.patterns[0] if alt.patterns else None,
            min_length=alt.min_length,
            max_length=alt.max_length,
            format=alt.formats[0] if alt.formats else None,
        )
    except SchemaError as exc:
        if exc.code == "unsatisfiable":
            return NeverStateMachine()
        raise _reraised(comp, alt, exc) from exc


def build_checked(comp: Compiler, alt: StrAlt) -> StateMachine:
    """A format judged by a native stateful check (``idn-hostname``, ``regex``,
    draft 7 content) with length bounds or a literal set; with other string
    keywords (patterns, other formats, negations) it is declined."""
    (fmt,) = [f for f in alt.formats if f in CHECKED_FORMATS][:1]
    if fmt in content.FORMATS:
        if alt.literals is not None:
            names = [x for x in sorted(alt.literals) if content.valid(fmt, x)]
            return string_set_machine(names) if names else NeverStateMachine()
        if alt.min_length or alt.max_length is not None or len(alt.formats) > 1:
            raise SchemaError(
                "contentMediaType together with lengths, pattern or format",
                code="unsupported-keyword",
                keyword="contentMediaType",
                pointer=comp.ctx.format_pointers.get(fmt, ""),
            )
        return content.content_machine(fmt)
    check = idn_hostname if fmt == idn_hostname.FORMAT else ecma_regex
    if alt.patterns or len(alt.formats) > 1 or alt.excluded or alt.negated:
        raise SchemaError(
            f"format {fmt!r} together with pattern, another format or not",
            code="unsupported-keyword",
            keyword="format",
            pointer=comp.ctx.format_pointers.get(fmt, ""),
        )
    if alt.literals is not None:
        names = [x for x in sorted(alt.literals) if check.valid(x)]
        return string_set_machine(names) if names else NeverStateMachine()
    if check is idn_hostname:
        if alt.min_length > idn_hostname.MAX_NAME:
            return NeverStateMachine()
        return idn_hostname.idn_hostname_machine(alt.min_length, alt.max_length)
    return ecma_regex.regex_machine(alt.min_length, alt.max_length)


__all__ = [
    "CHECKED_FORMATS",
    "KEYWORDS",
    "STANDARD_FORMATS",
    "accepts_text",
    "allowed_literals",
    "build_checked",
    "build_string",
    "content_format",
    "ecma_search",
    "intersect_str",
    "negate_str",
    "python_regex",
    "str_alt_dfa",
    "str_empty",
    "string_keywords",
]
