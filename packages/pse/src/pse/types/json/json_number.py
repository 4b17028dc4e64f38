"""NumberSchemaStateMachine: a JSON number under the numeric keywords of a schema."""

from __future__ import annotations

from decimal import Decimal
from typing import TYPE_CHECKING, Any, ClassVar

from pse_core._core import StateMachine, Stepper
from pse_core.errors import SchemaError

from pse.types._values import parse_number
from pse.types.json.compiler import Compiler, NeverStateMachine, compiler_for
from pse.types.json.schema_ir import NumAlt, decimal_lcm
from pse.types.number import NumberStateMachine, NumberStepper

if TYPE_CHECKING:
    from pse.automata.dfa import CpDfa


def _arg(value: Decimal | None) -> int | float | None:
    if value is None:
        return None
    if value == value.to_integral_value():
        return int(value)
    return float(value)


def _bounds(alt: NumAlt) -> dict[str, Any]:
    """``alt``'s bounds and positive divisibility as ``pse.automata`` keyword arguments."""
    lo = hi = elo = ehi = None
    if alt.lo is not None:
        lo, elo = (None, alt.lo) if alt.lo_excl else (alt.lo, None)
    if alt.hi is not None:
        hi, ehi = (None, alt.hi) if alt.hi_excl else (alt.hi, None)
    return {
        "integer": alt.integer,
        "minimum": _arg(lo),
        "maximum": _arg(hi),
        "exclusive_minimum": _arg(elo),
        "exclusive_maximum": _arg(ehi),
        "multiple_of": _arg(decimal_lcm(alt.multiples)) if alt.multiples else None,
    }


def _lowered(dfa: CpDfa, alt: NumAlt) -> StateMachine:
    """``dfa`` minus the multiples of ``alt.excluded``, as a machine."""
    from pse.automata.dfa import lower_utf8, product  # noqa: PLC0415
    from pse.automata.numbers import number_dfa  # noqa: PLC0415

    for modulus in alt.excluded:
        others = number_dfa(multiple_of=_arg(modulus), not_multiple=True)
        dfa = product(dfa, others, keyword="not")
    if dfa.is_empty():
        raise SchemaError(
            "no number satisfies the constraints", code="unsatisfiable", keyword="minimum"
        )
    return lower_utf8(dfa, "number").machine(0)


def number_bounds_machine(alt: NumAlt) -> StateMachine:
    """The machine of one number alternative (``pse.automata.number_machine`` for bounds)."""
    if alt.unconstrained and not alt.integer:
        return NumberStateMachine()
    if not alt.excluded:
        from pse.automata import number_machine  # noqa: PLC0415

        return number_machine(**_bounds(alt))
    from pse.automata.numbers import number_dfa  # noqa: PLC0415

    return _lowered(number_dfa(**_bounds(alt)), alt)


def draft4_integer_machine(alt: NumAlt) -> StateMachine:
    """Draft 4 integers: integer literals only (``1.0`` is a number, not an integer)."""
    if alt.unconstrained:
        return NumberStateMachine(integer_only=True)
    from pse.automata import pattern_dfa  # noqa: PLC0415
    from pse.automata.dfa import product  # noqa: PLC0415
    from pse.automata.numbers import number_dfa  # noqa: PLC0415

    syntax = pattern_dfa(r"^-?(?:0|[1-9][0-9]*)$", True, "type")
    return _lowered(product(number_dfa(**_bounds(alt)), syntax, keyword="type"), alt)


def build_number(comp: Compiler, alt: NumAlt) -> StateMachine:
    try:
        if alt.integer and comp.options.draft == "4":
            return draft4_integer_machine(alt)
        return number_bounds_machine(alt)
    except SchemaError as exc:
        if exc.code == "unsatisfiable":  # no number qualifies: other types still may
            return NeverStateMachine()
        raise comp.reraise(exc, "minimum", "") from exc


class NumberSchemaStepper(NumberStepper):
    """A position in a ``NumberSchemaStateMachine``."""

    __slots__ = ()


class NumberSchemaStateMachine(StateMachine):
    """A JSON number satisfying a schema's numeric keywords.

    ``NumberSchemaStateMachine({"type": "integer", "minimum": 0}, {})``. The
    value is the parsed number.
    """

    stepper_class: ClassVar[type[Stepper]] = NumberSchemaStepper

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
