"""StringSchemaStateMachine: a JSON string under lengths, ``pattern``, ``format``, ``enum``."""

from __future__ import annotations

import functools
from dataclasses import replace
from typing import TYPE_CHECKING, Any, ClassVar

from pse_core._core import StateMachine, Stepper
from pse_core.errors import SchemaError

from pse.types._values import decode_json_string
from pse.types.json.compiler import Compiler, NeverStateMachine, compiler_for
from pse.types.json.schema_ir import StrAlt
from pse.types.json.string_set import string_set_machine
from pse.types.string import StringStateMachine, StringStepper

if TYPE_CHECKING:
    from pse.automata.dfa import CpDfa


@functools.cache
def supported_formats() -> frozenset[str]:
    """The ``format`` values compiled to automata (``pse.automata.SUPPORTED_FORMATS``)."""
    try:
        from pse.automata import SUPPORTED_FORMATS  # noqa: PLC0415
    except ImportError:  # pragma: no cover - pse.automata ships with pse
        return frozenset()
    return frozenset(SUPPORTED_FORMATS)


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


@functools.lru_cache(maxsize=1024)
def str_alt_dfa(alt: StrAlt) -> CpDfa:
    """The minimal code-point DFA of the decoded strings ``alt`` allows.

    Every constraint: lengths, each pattern and format, the literal set, the
    excluded literals and the negated alternatives (each intersected as a
    complement). Raises ``SchemaError`` when an automaton is too large or a
    pattern is not supported.
    """
    from pse.automata import string_dfa  # noqa: PLC0415
    from pse.automata.dfa import complement, product  # noqa: PLC0415
    from pse.types.json.json_key_value import exclude_literals, literal_dfa  # noqa: PLC0415

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
    ``str_alt_dfa``.
    """
    if alt.literals is not None:
        literals = allowed_literals(comp, alt)
        return string_set_machine(literals) if literals else NeverStateMachine()
    try:
        if alt.excluded and alt == StrAlt(excluded=alt.excluded):
            return string_set_machine(alt.excluded, exclude=True)
        if alt.excluded or alt.negated or len(alt.patterns) > 1 or len(alt.formats) > 1:
            from pse.types.json.json_key_value import lower_key  # noqa: PLC0415

            dfa = str_alt_dfa(alt)
            return NeverStateMachine() if dfa.is_empty() else lower_key(dfa, _keyword(alt))
        if not alt.patterns and not alt.formats:
            return StringStateMachine(min_length=alt.min_length, max_length=alt.max_length)
        from pse.automata import string_machine  # noqa: PLC0415

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


class StringSchemaStepper(StringStepper):
    """A position in a ``StringSchemaStateMachine``."""

    __slots__ = ()


class StringSchemaStateMachine(StateMachine):
    """A JSON string satisfying a schema's string keywords.

    ``StringSchemaStateMachine({"type": "string", "pattern": "^[a-z]+$"}, {})``.
    The value is the decoded string.
    """

    stepper_class: ClassVar[type[Stepper]] = StringSchemaStepper

    def __init__(self, schema: dict[str, Any], context: Any = None, **options: Any) -> None:
        comp = compiler_for({"type": "string", **schema}, context, **options)
        alts = [
            a for a in comp.ctx.sub_ir(frozenset({comp.ctx.root_node})) if isinstance(a, StrAlt)
        ]
        inner = comp.compile_alts(list(alts))
        super().__init__({0: [(inner, "$")]}, start_state=0, end_states=["$"])
        self.schema = schema

    def stepper_value(self, stepper: Stepper) -> Any:
        """The decoded string read so far."""
        return decode_json_string(stepper.get_raw_value())


__all__ = [
    "StringSchemaStateMachine",
    "accepts_text",
    "allowed_literals",
    "build_string",
    "str_alt_dfa",
    "supported_formats",
]
