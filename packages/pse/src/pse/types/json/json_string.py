"""StringSchemaStateMachine: a JSON string under lengths, ``pattern``, ``format``, ``enum``."""

from __future__ import annotations

import functools
import json
from typing import Any

from pse_core._core import StateMachine, Stepper
from pse_core.errors import SchemaError

from pse.types._values import decode_json_string
from pse.types.json.compiler import Compiler, NeverStateMachine, compiler_for
from pse.types.json.schema_ir import StrAlt
from pse.types.json.string_set import string_set_machine
from pse.types.string import StringStateMachine


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


def _pattern_pointer(comp: Compiler, alt: StrAlt) -> tuple[str, str]:
    if alt.patterns:
        return "pattern", comp.ctx.pattern_pointers.get(alt.patterns[0], "")
    return "format", ""


def constrained_string(comp: Compiler, alt: StrAlt) -> StateMachine:
    """Lengths, one pattern and one format, through ``pse.automata.string_machine``."""
    if len(alt.patterns) > 1:
        pointer = comp.ctx.pattern_pointers.get(alt.patterns[1], "")
        comp.ctx.decline("several patterns on one string are not supported", "pattern", pointer)
    if len(alt.formats) > 1:
        comp.ctx.decline("several formats on one string are not supported", "format", "")
    if not alt.patterns and not alt.formats:
        return StringStateMachine(min_length=alt.min_length, max_length=alt.max_length)
    from pse.automata import string_machine  # noqa: PLC0415

    try:
        return string_machine(
            pattern=alt.patterns[0] if alt.patterns else None,
            min_length=alt.min_length,
            max_length=alt.max_length,
            format=alt.formats[0] if alt.formats else None,
        )
    except SchemaError as exc:
        if exc.code == "unsatisfiable":
            return NeverStateMachine()
        keyword, pointer = _pattern_pointer(comp, alt)
        raise comp.reraise(exc, keyword, pointer) from exc


def build_string(comp: Compiler, alt: StrAlt) -> StateMachine:
    """The machine of one string alternative."""
    if alt.literals is not None:
        literals = sorted(alt.literals)
        if alt.patterns or alt.formats:
            check = constrained_string(comp, StrAlt(patterns=alt.patterns, formats=alt.formats))
            literals = [x for x in literals if accepts_text(check, json.dumps(x))]
        if not literals:
            return NeverStateMachine()
        return string_set_machine(literals)
    if alt.excluded:
        if alt != StrAlt(excluded=alt.excluded):
            from pse.automata import string_dfa  # noqa: PLC0415
            from pse.types.json.json_key_value import exclude_literals, lower_key  # noqa: PLC0415

            if len(alt.patterns) > 1 or len(alt.formats) > 1:
                comp.ctx.decline("several patterns on one string are not supported", "pattern", "")
            dfa = string_dfa(
                alt.patterns[0] if alt.patterns else None,
                alt.min_length,
                alt.max_length,
                alt.formats[0] if alt.formats else None,
            )
            return lower_key(exclude_literals(dfa, alt.excluded), "not")
        return string_set_machine(alt.excluded, exclude=True)
    return constrained_string(comp, alt)


class StringSchemaStateMachine(StateMachine):
    """A JSON string satisfying a schema's string keywords.

    ``StringSchemaStateMachine({"type": "string", "pattern": "^[a-z]+$"}, {})``.
    The value is the decoded string.
    """

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


__all__ = ["StringSchemaStateMachine", "accepts_text", "build_string", "supported_formats"]
