"""NumberSchemaStateMachine: a JSON number under the numeric keywords of a schema."""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal
from typing import Any

from pse_core._core import StateMachine, Stepper
from pse_core.errors import SchemaError

from pse.types._values import parse_number
from pse.types.json.compiler import Compiler, NeverStateMachine, compiler_for
from pse.types.json.schema_ir import NumAlt, decimal_lcm
from pse.types.number import NumberStateMachine


def _arg(value: Decimal | None) -> int | float | None:
    if value is None:
        return None
    if value == value.to_integral_value():
        return int(value)
    return float(value)


def number_bounds_machine(alt: NumAlt) -> StateMachine:
    """The machine of one number alternative (``pse.automata.number_machine`` for bounds)."""
    if alt.unconstrained and not alt.integer:
        return NumberStateMachine()
    from pse.automata import number_machine  # noqa: PLC0415

    lo = hi = elo = ehi = None
    if alt.lo is not None:
        lo, elo = (None, alt.lo) if alt.lo_excl else (alt.lo, None)
    if alt.hi is not None:
        hi, ehi = (None, alt.hi) if alt.hi_excl else (alt.hi, None)
    multiple = decimal_lcm(alt.multiples) if alt.multiples else None
    return number_machine(
        integer=alt.integer,
        minimum=_arg(lo),
        maximum=_arg(hi),
        exclusive_minimum=_arg(elo),
        exclusive_maximum=_arg(ehi),
        multiple_of=_arg(multiple),
        not_multiple=alt.not_multiple,
    )


def draft4_integer_machine(alt: NumAlt) -> StateMachine:
    """Draft 4 integers: integer literals only (``1.0`` is a number, not an integer)."""
    if alt.unconstrained:
        return NumberStateMachine(integer_only=True)
    from pse.automata import pattern_dfa  # noqa: PLC0415
    from pse.automata.dfa import lower_utf8, product  # noqa: PLC0415
    from pse.automata.numbers import number_dfa  # noqa: PLC0415

    lo = hi = elo = ehi = None
    if alt.lo is not None:
        lo, elo = (None, alt.lo) if alt.lo_excl else (alt.lo, None)
    if alt.hi is not None:
        hi, ehi = (None, alt.hi) if alt.hi_excl else (alt.hi, None)
    dfa = number_dfa(
        integer=True,
        minimum=_arg(lo),
        maximum=_arg(hi),
        exclusive_minimum=_arg(elo),
        exclusive_maximum=_arg(ehi),
        multiple_of=_arg(decimal_lcm(alt.multiples)) if alt.multiples else None,
    )
    syntax = pattern_dfa(r"^-?(?:0|[1-9][0-9]*)$", True, "type")
    return lower_utf8(product(dfa, syntax, keyword="type"), "type").machine(0)


def build_number(comp: Compiler, alt: NumAlt) -> StateMachine:
    try:
        if alt.integer and comp.options.draft == "4":
            if not alt.not_multiple:
                return draft4_integer_machine(alt)
            # Draft 4 integers are a syntax (no "1.0"); its complement is not built.
            comp.ctx.decline("cannot negate a draft 4 integer", "not", "")
            alt = replace(alt, integer=False, multiples=(), not_multiple=False)  # lenient
        return number_bounds_machine(alt)
    except SchemaError as exc:
        if exc.code == "unsatisfiable":  # no number qualifies: other types still may
            return NeverStateMachine()
        raise comp.reraise(exc, "minimum", "") from exc


class NumberSchemaStateMachine(StateMachine):
    """A JSON number satisfying a schema's numeric keywords.

    ``NumberSchemaStateMachine({"type": "integer", "minimum": 0}, {})``. The
    value is the parsed number.
    """

    def __init__(self, schema: dict[str, Any], context: Any = None, **options: Any) -> None:
        comp = compiler_for({"type": "number", **schema}, context, **options)
        alts = [
            a for a in comp.ctx.sub_ir(frozenset({comp.ctx.root_node})) if isinstance(a, NumAlt)
        ]
        inner = comp.compile_alts(list(alts))
        super().__init__({0: [(inner, "$")]}, start_state=0, end_states=["$"])
        self.schema = schema

    def stepper_value(self, stepper: Stepper) -> Any:
        """The number read so far."""
        return parse_number(stepper.get_raw_value())


__all__ = ["NumberSchemaStateMachine", "build_number", "number_bounds_machine"]
