"""Run the engine to the end on random logits and check its promise.

Shared by the property tests in this folder and ``benchmarks/fuzz_engine.py``
(the long run). One *case* is a compiled schema, a seed, a sampler (greedy or
sampled), a logit bias towards closing tokens, multi-token sampling on or off
and an optional token budget. :func:`run_case` generates until the engine emits
an end-of-sequence token, the budget is spent or ``max_tokens`` pass, and
:func:`check_case` says what is wrong with the result:

* a completed output (end token sampled, or budget spent) must parse as JSON
  and validate against the schema (``jsonschema``, formats checked);
* with a budget, the output must be complete within it (never cut off), or
  the budget must have been refused up front (``BudgetError`` before any token);
* the engine's own parsed output must equal the decoded text's value.

Numbers are judged by their exact values (:func:`exact_json`, and an exact
``multipleOf``): ``json`` decodes ``347149876472999636E+4`` to a float whose
remainder modulo 5 is 3, so plain jsonschema rejects a multiple of 5 that JSON
Schema (which is about the numbers written, not their doubles) accepts.
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Iterator
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from typing import Any

import numpy as np
from hardening.ecma_pattern import ecma_schema
from jsonschema import ValidationError
from jsonschema.validators import extend, validator_for
from pse_core.errors import BudgetError, NoValidTokenError

from pse import StructuringEngine

#: Token texts whose logits a biased case raises: they close and separate JSON
#: values, so random logits finish strings, arrays and objects.
CLOSERS = ('"', '"}', '"]', "}", "]", ",", '",', "0", "1", "true", "null")


@dataclass
class Outcome:
    """What one generation produced."""

    tokens: list[int] = field(default_factory=list)
    ended: bool = False  # an end-of-sequence token was chosen
    refused: bool = False  # BudgetError before the first token
    stuck: bool = False  # NoValidTokenError: no token allowed, structure unfinished
    completable: bool = True  # a completion was known when generation started
    accepted: bool = False  # the engine was in an accept state at the end
    text: str = ""
    engine_value: Any = None


class LogitSource:
    """Random logits from a fixed pool (cheap per step), biased towards closers."""

    def __init__(self, engine: StructuringEngine, pool: int = 32, seed: int = 0) -> None:
        rng = np.random.default_rng(seed)
        size = engine.vocab_size
        self.pool = rng.standard_normal((pool, size), dtype=np.float32)
        self.gumbel = rng.gumbel(size=(pool, size)).astype(np.float32)
        tokenizer = engine.tokenizer
        ids = {tokenizer.encode(t, add_special_tokens=False)[0] for t in CLOSERS}
        ids |= set(engine.native_vocabulary.eos_token_ids)
        self.closer_ids = np.array(sorted(i for i in ids if i < size), dtype=np.int64)

    def logits(self, rng: np.random.Generator, bias: float) -> np.ndarray:
        row = self.pool[int(rng.integers(len(self.pool)))].copy()
        if bias:
            row[self.closer_ids] += bias
        return row

    def sampler(self, rng: np.random.Generator, greedy: bool) -> Any:
        """argmax, or a draw from softmax(logits) (Gumbel-max with pooled noise)."""
        if greedy:
            return lambda scores: int(np.argmax(scores))
        pool = self.gumbel
        return lambda scores: int(np.argmax(scores + pool[int(rng.integers(len(pool)))]))


def run_case(
    engine: StructuringEngine,
    source: LogitSource,
    seed: int,
    *,
    greedy: bool,
    bias: float,
    budget: int | None,
    max_tokens: int = 200,
) -> Outcome:
    """Generate from the configured engine (reset first) and return what came out."""
    engine.reset(False)
    rng = np.random.default_rng(seed)
    eos = set(engine.native_vocabulary.eos_token_ids)
    sampler = source.sampler(rng, greedy)
    out = Outcome()
    limit = budget if budget is not None else max_tokens
    out.completable = engine.shortest_completion() is not None
    # Where no completion is known the budget is not enforced, as documented (the
    # engine warns once); check_case holds such runs to what remains promised.
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", "the token budget cannot be enforced", RuntimeWarning)
        while len(out.tokens) < limit:
            try:
                masked = engine.process_logits(None, source.logits(rng, bias))
            except NoValidTokenError:
                out.stuck = True
                break
            left = None if budget is None else budget - len(out.tokens)
            try:
                emitted = [int(t) for t in engine.sample(masked, sampler, left)]
            except BudgetError:
                if out.tokens:
                    raise
                out.refused = True
                return out
            if any(t in eos for t in emitted):
                out.tokens += [t for t in emitted if t not in eos]
                out.ended = True
                break
            out.tokens += emitted
    out.accepted = engine.has_reached_accept_state
    out.text = engine.tokenizer.decode(out.tokens)
    if out.accepted:
        out.engine_value = engine.get_structured_output()
    return out


def _exact(number: Any) -> Fraction:
    """The decimal a JSON number was written as (a float by its shortest repr)."""
    return Fraction(repr(number)) if isinstance(number, float) else Fraction(number)


def _multiple_of(validator: Any, divisor: Any, instance: Any, schema: Any) -> Iterator[Any]:
    """``multipleOf`` in exact arithmetic (jsonschema divides floats)."""
    if validator.is_type(instance, "number") and _exact(instance) % _exact(divisor):
        yield ValidationError(f"{instance!r} is not a multiple of {divisor}")


#: Numbers whose decimal exponent is larger in magnitude are not read exactly:
#: ``1e999999999`` is an integer, but as an ``int`` it would not fit in memory
#: (reading it so stalled the long fuzz run). An output holding one is judged
#: on everything but its schema (see ``check_case``).
MAX_EXACT_EXPONENT = 1_000


class Unjudged(ValueError):
    """A number too large (or small) to read exactly."""


def exact_json(text: str) -> Any:
    """``text`` decoded with integral numbers as exact ints (``1E+30`` included)
    and the others as floats, but for a fraction that a double rounds to an
    integer (``1e29 + 0.1``): a ``Decimal``, a number that is no integer;
    raises ``Unjudged`` past ``MAX_EXACT_EXPONENT``."""

    def number(literal: str) -> Any:
        if abs(Decimal(literal).adjusted()) > MAX_EXACT_EXPONENT:
            raise Unjudged(f"{literal[:40]}: exponent beyond {MAX_EXACT_EXPONENT}")
        value = Fraction(literal)
        if value.denominator == 1:
            return value.numerator
        rounded = float(literal)
        return Decimal(literal) if rounded.is_integer() else rounded

    return json.loads(text, parse_float=number)


def validator(schema: Any) -> Any:
    """A jsonschema validator for ``schema`` (its own draft, 2020-12 when it names
    none or an unknown one; that draft's formats checked; ``multipleOf`` exact;
    patterns with their ECMA-262 meaning, see :mod:`hardening.ecma_pattern`).
    Give it values decoded by :func:`exact_json`."""
    with warnings.catch_warnings():  # an unknown $schema: the latest draft, as documented
        warnings.simplefilter("ignore", DeprecationWarning)
        cls = validator_for(schema)
    exact = extend(cls, {"multipleOf": _multiple_of})
    return exact(ecma_schema(_integral_exact(schema)), format_checker=cls.FORMAT_CHECKER)


def _integral_exact(value: Any) -> Any:
    """``value`` with each float written as an integer (``-6.962470053370995e+16``)
    made the exact int its decimal means, as :func:`exact_json` reads instances:
    a float ``const`` then equals the output that spells it in full."""
    if isinstance(value, dict):
        return {key: _integral_exact(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_integral_exact(item) for item in value]
    if isinstance(value, float) and value.is_integer():
        exact = _exact(value)
        if abs(Decimal(repr(value)).adjusted()) <= MAX_EXACT_EXPONENT:
            return exact.numerator
    return value


def check_case(outcome: Outcome, check: Any, budget: int | None) -> list[str]:
    """Problems with ``outcome`` (empty: the promise held)."""
    if outcome.refused:
        return [] if budget is not None else ["BudgetError without a budget"]
    if outcome.stuck:  # allowed only where no valid output exists at all
        return [] if not outcome.completable else [f"dead end after {outcome.text!r}"]
    problems = []
    if budget is not None and len(outcome.tokens) > budget:
        problems.append(f"{len(outcome.tokens)} tokens for a budget of {budget}")
    complete = outcome.ended or budget is not None
    if outcome.ended and not outcome.accepted:
        problems.append(f"end token chosen outside an accept state: {outcome.text!r}")
    # Without a known completion at the start (native checks such as uniqueItems, Python
    # steppers) the budget cannot be enforced (docs/budget.md; the engine warns).
    if budget is not None and not outcome.accepted and outcome.completable:
        problems.append(f"budget {budget} spent on an unfinished output: {outcome.text!r}")
    if not complete or not outcome.accepted:
        return problems
    try:
        value = json.loads(outcome.text)
    except ValueError as exc:
        return [*problems, f"not JSON ({exc}): {outcome.text!r}"]
    try:
        errors = [e.message for e in check.iter_errors(exact_json(outcome.text))]
    except Unjudged:
        errors = []
    if errors:
        problems.append(f"invalid {outcome.text!r}: {errors[0]}")
    if outcome.engine_value != value:
        problems.append(f"engine output {outcome.engine_value!r} != decoded {value!r}")
    return problems
