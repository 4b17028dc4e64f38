"""JSON number literals whose value satisfies numeric constraints, as DFAs.

The grammar is ``-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][+-]?[0-9]+)?``.  Values are
compared exactly (``fractions.Fraction``).  A literal ``M e X`` has value
``M * 10**X``; the automaton reads the mantissa ``M`` once while tracking, for
every allowed exponent ``X``, whether ``M * 10**X`` can still satisfy the
constraints (digit-by-digit comparison against each bound, remainders modulo
each ``multipleOf``), then reads the exponent.

Exponents are bounded to stay regular: when any constraint is given, an
exponent is accepted only if its value lies in ``-EXPONENT_LIMIT ..
EXPONENT_LIMIT`` (leading zeros allowed), and an exponent is left out when its
remainder check would need more than ``MAX_REMAINDERS`` states (large negative
exponents with ``multipleOf``/``integer``).  Without constraints the native
``NumberStateMachine`` accepts every JSON number.
"""

from __future__ import annotations

import math
from decimal import Decimal
from fractions import Fraction

from pse_core._core import NumberStateMachine, StateMachine
from pse_core.errors import SchemaError

from .dfa import CpDfa, lower_utf8, minimize

EXPONENT_LIMIT = 4
MAX_REMAINDERS = 100
MAX_STATES = 20_000

Number = float | int | Decimal | Fraction | None


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


def _digits(t: Fraction) -> tuple[str, str]:
    """Integer and fraction digits of a non-negative finite decimal ``t``."""
    d = Decimal(t.numerator) / Decimal(t.denominator)
    text = format(d, "f")
    int_part, _, frac_part = text.partition(".")
    return int_part, frac_part.rstrip("0")


def _is_finite_decimal(t: Fraction) -> bool:
    q = t.denominator
    for p in (2, 5):
        while q % p == 0:
            q //= p
    return q == 1


class _Comparator:
    """Compares the unsigned mantissa ``u`` with a threshold ``t >= 0``."""

    def __init__(self, t: Fraction, allowed: frozenset[int]) -> None:
        self.t_int, self.t_frac = _digits(t)
        self.allowed = allowed
        self.start: object = ("I", 0, 0)

    def step(self, state: object, ch: str) -> object:
        if state in ("G", "L"):
            return state
        if state == "Z":
            return "Z" if ch in "0." else "G"
        assert isinstance(state, tuple)
        T, Tf = self.t_int, self.t_frac
        if state[0] == "I":
            _, k, rel = state
            if ch == ".":
                if k < len(T) or rel < 0:
                    return "L"
                if rel > 0:
                    return "G"
                return ("F", 0) if Tf else "Z"
            if k >= len(T):
                return "G"
            if rel == 0:
                rel = (ch > T[k]) - (ch < T[k])
            return ("I", k + 1, rel)
        j = state[1]
        c = (ch > Tf[j]) - (ch < Tf[j])
        if c < 0:
            return "L"
        if c > 0:
            return "G"
        return ("F", j + 1) if j + 1 < len(Tf) else "Z"

    def result(self, state: object) -> int:
        if state == "G":
            return 1
        if state == "L":
            return -1
        if state == "Z":
            return 0
        assert isinstance(state, tuple)
        if state[0] == "I":
            if state[1] < len(self.t_int):
                return -1
            rel = int(state[2])
            return -1 if rel == 0 and self.t_frac else rel
        return -1  # ("F", j): u's fraction is a proper prefix of t's

    def dead(self, state: object) -> bool:
        """Definitely outside the allowed relation, whatever follows."""
        if state == "G":
            return 1 not in self.allowed
        if state == "L":
            return -1 not in self.allowed
        return False


class _Remainder:
    """Tracks ``u mod d`` (``d = p/q > 0``) of the unsigned mantissa ``u``.

    With ``f`` fraction digits read, the state holds ``R = (u * q * 10**f) mod
    (p * 10**f)``, an integer (``u mod d == R / (q * 10**f)``).
    """

    def __init__(self, d: Fraction) -> None:
        self.p, self.q = d.numerator, d.denominator
        self.cap = len(_digits(d)[1])
        self.start: object = ("I", 0)

    def step(self, state: object, ch: str) -> object:
        assert isinstance(state, tuple)
        if state[0] == "I":
            if ch == ".":
                return ("F", state[1], 0)
            return ("I", (state[1] * 10 + int(ch) * self.q) % self.p)
        _, r, f = state
        f += 1
        modulus = self.p * 10**f
        r = (r * 10 + int(ch) * self.q) % modulus
        if (-r) % modulus >= self.q:
            return None  # no digits that follow can bring the remainder to 0
        if r == 0:
            f = min(f, self.cap)
        return ("F", r, f)

    def accepts(self, state: object) -> bool:
        assert isinstance(state, tuple)
        return bool(state[1] == 0)


class _Branch:
    """All checks on the mantissa for one (sign, exponent) pair."""

    def __init__(self, comparators: list[_Comparator], remainder: _Remainder | None) -> None:
        self.comparators = comparators
        self.remainder = remainder
        self.start: tuple[object, ...] = tuple(c.start for c in comparators) + (
            (remainder.start,) if remainder else ()
        )

    def step(self, state: tuple[object, ...], ch: str) -> tuple[object, ...] | None:
        out: list[object] = []
        for comp, s in zip(self.comparators, state, strict=False):
            nxt = comp.step(s, ch)
            if comp.dead(nxt):
                return None
            out.append(nxt)
        if self.remainder is not None:
            nxt = self.remainder.step(state[-1], ch)
            if nxt is None:
                return None
            out.append(nxt)
        return tuple(out)

    def accepts(self, state: tuple[object, ...]) -> bool:
        for comp, s in zip(self.comparators, state, strict=False):
            if comp.result(s) not in comp.allowed:
                return False
        return self.remainder is None or self.remainder.accepts(state[-1])


def _branch(
    sign: int,
    scale: int,
    bounds: list[tuple[Fraction, frozenset[int]]],
    multiple: Fraction | None,
) -> _Branch | None:
    """Checks on ``u`` such that ``sign * u * 10**scale`` meets the constraints."""
    comparators: list[_Comparator] = []
    factor = Fraction(10) ** -scale
    for bound, allowed in bounds:
        t = bound * factor * sign
        rel = allowed if sign > 0 else frozenset(-r for r in allowed)
        if t < 0:
            if 1 in rel:
                continue  # u >= 0 > t always
            return None
        comparators.append(_Comparator(t, rel))
    remainder = None
    if multiple is not None:
        d = multiple * factor
        if d.numerator > MAX_REMAINDERS:
            if scale == 0:
                raise SchemaError(
                    "multipleOf needs too many remainder states",
                    code="automaton-too-large",
                    keyword="multipleOf",
                )
            return None
        remainder = _Remainder(d)
    return _Branch(comparators, remainder)


def number_dfa(
    *,
    integer: bool = False,
    minimum: Number = None,
    maximum: Number = None,
    exclusive_minimum: Number = None,
    exclusive_maximum: Number = None,
    multiple_of: Number = None,
) -> CpDfa:
    """Minimal DFA (over ASCII) of the JSON number literals satisfying the constraints."""
    bounds: list[tuple[Fraction, frozenset[int]]] = []
    for value, allowed, keyword in (
        (minimum, frozenset({0, 1}), "minimum"),
        (exclusive_minimum, frozenset({1}), "exclusiveMinimum"),
        (maximum, frozenset({-1, 0}), "maximum"),
        (exclusive_maximum, frozenset({-1}), "exclusiveMaximum"),
    ):
        if value is not None:
            t = _fraction(value, keyword)
            if not _is_finite_decimal(t):
                raise SchemaError(
                    f"{keyword} is not a decimal", code="invalid-schema", keyword=keyword
                )
            bounds.append((t, allowed))
    multiple: Fraction | None = None
    if multiple_of is not None:
        multiple = _fraction(multiple_of, "multipleOf")
        if multiple <= 0:
            raise SchemaError("multipleOf must be > 0", code="invalid-schema", keyword="multipleOf")
    if integer:
        multiple = Fraction(1) if multiple is None else _lcm(multiple, Fraction(1))
    scales = list(range(-EXPONENT_LIMIT, EXPONENT_LIMIT + 1))
    branches: dict[int, list[_Branch | None]] = {
        sign: [_branch(sign, x, bounds, multiple) for x in scales] for sign in (1, -1)
    }
    zero = scales.index(0)

    ids: dict[object, int] = {}
    order: list[object] = []
    trans: list[list[tuple[int, int, int]]] = []
    accepting: list[bool] = []

    def intern(state: object) -> int:
        sid = ids.get(state)
        if sid is None:
            if len(order) >= MAX_STATES:
                raise SchemaError(
                    "numeric constraints are too large to compile",
                    code="automaton-too-large",
                    keyword="multipleOf" if multiple is not None else "maximum",
                )
            sid = ids[state] = len(order)
            order.append(state)
        return sid

    def mantissa(sign: int, syntax: str, comps: tuple[object, ...], ch: str) -> object:
        new = tuple(
            None if c is None or b is None else b.step(c, ch)  # type: ignore[arg-type]
            for b, c in zip(branches[sign], comps, strict=False)
        )
        if all(c is None for c in new):
            return None
        return ("M", sign, syntax, new)

    def start_comps(sign: int) -> tuple[object, ...]:
        return tuple(None if b is None else b.start for b in branches[sign])

    intern(("S",))
    digits = "0123456789"
    i = 0
    while i < len(order):
        state = order[i]
        i += 1
        assert isinstance(state, tuple)
        moves: dict[str, object] = {}
        accept = False
        kind = state[0]
        if kind in ("S", "N"):
            sign = -1 if kind == "N" else 1
            comps = start_comps(sign)
            if kind == "S":
                moves["-"] = ("N",)
            for ch in digits:
                moves[ch] = mantissa(sign, "Z" if ch == "0" else "I", comps, ch)
        elif kind == "M":
            _, sign, syntax, comps = state
            if syntax in ("I", "F"):
                for ch in digits:
                    moves[ch] = mantissa(sign, syntax, comps, ch)
            if syntax == "D":
                for ch in digits:
                    moves[ch] = mantissa(sign, "F", comps, ch)
            if syntax in ("Z", "I"):
                moves["."] = mantissa(sign, "D", comps, ".")
            if syntax in ("Z", "I", "F"):
                ok = frozenset(
                    x
                    for x, b, c in zip(scales, branches[sign], comps, strict=False)
                    if b is not None and c is not None and b.accepts(c)
                )
                accept = 0 in ok
                if ok:
                    moves["e"] = moves["E"] = ("X", ok)
        elif kind == "X":
            ok = state[1]
            moves["+"] = ("Y", ok, 1)
            moves["-"] = ("Y", ok, -1)
            for ch in digits:
                moves[ch] = ("V", ok, 1, int(ch))
        elif kind == "Y":
            _, ok, sign = state
            for ch in digits:
                moves[ch] = ("V", ok, sign, int(ch))
        else:
            _, ok, sign, v = state
            accept = sign * v in ok
            for ch in digits:
                nv = v * 10 + int(ch)
                if nv <= EXPONENT_LIMIT and any(abs(x) >= nv and x * sign >= 0 for x in ok):
                    moves[ch] = ("V", ok, sign, nv)
        row = sorted((ord(ch), ord(ch), intern(t)) for ch, t in moves.items() if t is not None)
        trans.append(row)
        accepting.append(accept)
    del zero
    return minimize(CpDfa(trans, accepting))


def number_machine(
    *,
    integer: bool = False,
    minimum: Number = None,
    maximum: Number = None,
    exclusive_minimum: Number = None,
    exclusive_maximum: Number = None,
    multiple_of: Number = None,
) -> StateMachine:
    """A machine matching one JSON number literal whose value meets the constraints.

    Draft 2020-12 semantics (``exclusive_*`` are numbers).  ``integer=True`` is
    the JSON Schema ``integer`` type: any number with a zero fractional part
    (``1.0`` and ``1e2`` included).  With any constraint given, exponents are
    limited to ``-EXPONENT_LIMIT..EXPONENT_LIMIT`` (see the module docstring).
    Raises ``SchemaError`` (``automaton-too-large``, ``unsatisfiable``,
    ``invalid-schema``).
    """
    constrained = any(
        v is not None for v in (minimum, maximum, exclusive_minimum, exclusive_maximum, multiple_of)
    )
    if not constrained and not integer:
        return NumberStateMachine()
    dfa = number_dfa(
        integer=integer,
        minimum=minimum,
        maximum=maximum,
        exclusive_minimum=exclusive_minimum,
        exclusive_maximum=exclusive_maximum,
        multiple_of=multiple_of,
    )
    if dfa.is_empty():
        raise SchemaError(
            "no number satisfies the constraints", code="unsatisfiable", keyword="minimum"
        )
    return lower_utf8(dfa, "number").machine(0)
