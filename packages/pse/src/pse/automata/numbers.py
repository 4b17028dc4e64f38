"""JSON number literals whose value satisfies numeric constraints, as DFAs.

The grammar is ``-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][+-]?[0-9]+)?``.  Values are
compared exactly (``fractions.Fraction``).  A literal ``M e X`` has value
``M * 10**X``; the automaton reads the mantissa ``M`` once while tracking, for
every allowed exponent ``X``, whether ``M * 10**X`` can still satisfy the
constraints (digit-by-digit comparison against each bound, remainders modulo
each ``multipleOf``), then reads the exponent.  This module checks the
schema's values; the automaton is built and minimised natively
(``packages/pse-core/cpp/automata/number_dfa.cc``).

Exponents are bounded to stay regular: when any constraint is given, an
exponent is accepted only if its value lies in ``-EXPONENT_LIMIT ..
EXPONENT_LIMIT`` (leading zeros allowed), and an exponent is left out when its
remainder check would need more than ``MAX_REMAINDERS`` states and more than
exponent 0's (large negative exponents with ``multipleOf``/``integer``); a
``multipleOf`` whose reduced numerator exceeds ``MAX_MODULUS`` is declined.
Without constraints the native
``NumberStateMachine`` accepts every JSON number.
"""

from __future__ import annotations

import math
from decimal import Decimal
from fractions import Fraction

from pse_core._core import NumberStateMachine, StateMachine
from pse_core._core import number_dfa as _native_number_dfa
from pse_core._core import number_machine as _native_number_machine
from pse_core.errors import SchemaError

from .built_in import built_in
from .dfa import MAX_BYTE_STATES, CpDfa, too_large

EXPONENT_LIMIT = 4
MAX_REMAINDERS = 100
#: multipleOf (reduced p/q, integer included) is declined past this numerator.
MAX_MODULUS = 1000
MAX_STATES = 20_000

Number = float | int | Decimal | Fraction | None

# Outcomes of comparing a value with a bound (the native automaton's bits).
_LESS, _EQUAL, _GREATER = 1, 2, 4


def _fraction(value: float | int | Decimal | Fraction, keyword: str) -> Fraction:
    if isinstance(value, bool) or not isinstance(value, (int, float, Decimal, Fraction)):
        raise SchemaError(f"{keyword} must be a number", code="invalid-schema", keyword=keyword)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise SchemaError(f"{keyword} must be finite", code="invalid-schema", keyword=keyword)
        # The shortest decimal that round-trips: what the JSON text said.
        return Fraction(Decimal(repr(value)))
    return Fraction(value)


def _lcm(a: Fraction, b: Fraction) -> Fraction:
    return Fraction(
        a.numerator * b.numerator // math.gcd(a.numerator, b.numerator),
        math.gcd(a.denominator, b.denominator),
    )


def _is_finite_decimal(t: Fraction) -> bool:
    q = t.denominator
    for p in (2, 5):
        while q % p == 0:
            q //= p
    return q == 1


def _decimal_text(t: Fraction) -> str:
    """Exact plain decimal text of a finite decimal ``t`` (no exponent, any length)."""
    places = 0
    while (10**places) % t.denominator:
        places += 1
    digits = str(abs(t.numerator) * (10**places // t.denominator)).rjust(places + 1, "0")
    sign = "-" if t < 0 else ""
    if not places:
        return sign + digits
    return f"{sign}{digits[:-places]}.{digits[-places:]}"


NativeArgs = tuple[list[tuple[str, int]], int, int, int, int, int, bool]


def _native_args(
    integer: bool,
    minimum: Number,
    maximum: Number,
    exclusive_minimum: Number,
    exclusive_maximum: Number,
    multiple_of: Number,
    not_multiple: bool,
) -> NativeArgs:
    """The constraints checked (``SchemaError`` for bad values) and put as the
    native builders take them (``number_dfa``, ``number_machine``)."""
    bounds: list[tuple[str, int]] = []
    for value, allowed, keyword in (
        (minimum, _EQUAL | _GREATER, "minimum"),
        (exclusive_minimum, _GREATER, "exclusiveMinimum"),
        (maximum, _LESS | _EQUAL, "maximum"),
        (exclusive_maximum, _LESS, "exclusiveMaximum"),
    ):
        if value is not None:
            t = _fraction(value, keyword)
            if not _is_finite_decimal(t):
                raise SchemaError(
                    f"{keyword} is not a decimal", code="invalid-schema", keyword=keyword
                )
            bounds.append((_decimal_text(t), allowed))
    multiple: Fraction | None = None
    if multiple_of is not None:
        multiple = _fraction(multiple_of, "multipleOf")
        if multiple <= 0:
            raise SchemaError("multipleOf must be > 0", code="invalid-schema", keyword="multipleOf")
    if integer:
        multiple = Fraction(1) if multiple is None else _lcm(multiple, Fraction(1))
    p, q = (0, 1) if multiple is None else (multiple.numerator, multiple.denominator)
    if p > MAX_MODULUS or q >= 2**64:
        raise SchemaError(
            "multipleOf needs too many remainder states",
            code="automaton-too-large",
            keyword="multipleOf",
        )
    if not_multiple and multiple is None:
        raise SchemaError(
            "not_multiple needs multiple_of or integer", code="invalid-schema", keyword="not"
        )
    return bounds, p, q, EXPONENT_LIMIT, MAX_REMAINDERS, MAX_STATES, not_multiple


def _too_many_states(args: NativeArgs) -> SchemaError:
    return SchemaError(
        "numeric constraints are too large to compile",
        code="automaton-too-large",
        keyword="multipleOf" if args[1] else "maximum",
    )


def number_dfa(
    *,
    integer: bool = False,
    minimum: Number = None,
    maximum: Number = None,
    exclusive_minimum: Number = None,
    exclusive_maximum: Number = None,
    multiple_of: Number = None,
    not_multiple: bool = False,
) -> CpDfa:
    """Minimal DFA (over ASCII) of the JSON number literals satisfying the constraints.

    ``not_multiple=True`` negates the divisibility check: the value must *not*
    be a multiple of ``multiple_of`` (with ``integer=True``, of its least
    common multiple with 1; ``integer`` alone: not an integer). The values are
    checked here; the automaton is built natively (``pse_core._core.number_dfa``).
    """
    args = _native_args(
        integer,
        minimum,
        maximum,
        exclusive_minimum,
        exclusive_maximum,
        multiple_of,
        not_multiple,
    )
    built = _native_number_dfa(*args)
    if built is None:
        raise _too_many_states(args)
    trans, accepting = built
    return CpDfa(trans, accepting)


def number_machine(
    *,
    integer: bool = False,
    minimum: Number = None,
    maximum: Number = None,
    exclusive_minimum: Number = None,
    exclusive_maximum: Number = None,
    multiple_of: Number = None,
    not_multiple: bool = False,
) -> StateMachine:
    """A machine matching one JSON number literal whose value meets the constraints.

    Draft 2020-12 semantics (``exclusive_*`` are numbers).  ``integer=True`` is
    the JSON Schema ``integer`` type: any number with a zero fractional part
    (``1.0`` and ``1e2`` included).  With any constraint given, exponents are
    limited to ``-EXPONENT_LIMIT..EXPONENT_LIMIT`` (see the module docstring).
    ``not_multiple``: see ``number_dfa``. Raises ``SchemaError``
    (``automaton-too-large``, ``unsatisfiable``, ``invalid-schema``).
    """
    constrained = any(
        v is not None for v in (minimum, maximum, exclusive_minimum, exclusive_maximum, multiple_of)
    )
    if not constrained and not integer:
        return NumberStateMachine()

    def build() -> StateMachine:  # the DFA, its rows and the machine in one native call
        args = _native_args(
            integer,
            minimum,
            maximum,
            exclusive_minimum,
            exclusive_maximum,
            multiple_of,
            not_multiple,
        )
        built = _native_number_machine(*args, MAX_BYTE_STATES)
        if built == "states":
            raise _too_many_states(args)
        if built == "empty":
            raise SchemaError(
                "no number satisfies the constraints", code="unsatisfiable", keyword="minimum"
            )
        if isinstance(built, str):
            raise too_large("number")
        return built

    if not constrained and not not_multiple:  # type integer alone: built once per process
        return built_in("type", "integer", build)
    return build()
