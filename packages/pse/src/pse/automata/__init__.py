"""Exact automata for JSON Schema string and number constraints.

``string_machine`` and ``number_machine`` return native state machines that
accept exactly the JSON literals satisfying ``pattern``/``minLength``/
``maxLength``/``format`` and ``minimum``/``maximum``/``exclusive*``/
``multipleOf``/``type: integer``.  Constraints that cannot be enforced exactly
raise :class:`pse_core.errors.SchemaError`.
"""

from __future__ import annotations

from pse_core._core import DfaStateMachine, StateMachine, StringStateMachine
from pse_core.errors import SchemaError

from pse.process_caches import process_cache

from . import charset as cs
from .built_in import built_in
from .dfa import CpDfa, complement, lower_utf8, product, with_length
from .formats import SUPPORTED_FORMATS, format_pattern
from .hostname import hostname_dfa, hostname_machine
from .json_string import lower_json_string
from .numbers import number_machine as _number_machine
from .regex import compile_pattern, pattern_string_machine

# Compiled automata are cached per process so that schemas seen again cost
# nothing; each cached machine holds its byte table natively (1 KiB per row, a
# pattern's JSON-string table has tens of rows), so the cache size is what
# bounds the memory held for a stream of ever new schemas.
CACHE_SIZE = 256

__all__ = [
    "SUPPORTED_FORMATS",
    "format_dfa",
    "number_machine",
    "pattern_dfa",
    "regex_dfa",
    "string_dfa",
    "string_machine",
]


@process_cache(maxsize=CACHE_SIZE)
def pattern_dfa(pattern: str, anchored: bool = False, keyword: str = "pattern") -> CpDfa:
    """Minimal code-point DFA of the strings ``pattern`` matches.

    Unanchored (JSON Schema semantics): the pattern may match anywhere;
    ``anchored=True`` requires it to match the whole string. Lookaheads right
    after a leading ``^`` (``^(?!x)(?=.{1,9}$)...``) constrain the whole
    string: each is intersected as "the string starts with a match" or its
    complement. Compiled natively in one call (``pse.automata.regex``).
    """
    (dfa, _), *looks = compile_pattern(pattern, anchored, keyword)
    for ahead, negative in looks:
        dfa = product(dfa, complement(ahead) if negative else ahead, keyword=keyword)
    return dfa


def regex_dfa(pattern: str, *, anchored: bool = False) -> DfaStateMachine:
    """The raw matcher (UTF-8 bytes of the string itself, no quotes or escapes)."""
    dfa = pattern_dfa(pattern, anchored)
    table = lower_utf8(dfa, "pattern")
    return table.machine(0, optional=dfa.accepting[0])


@process_cache(maxsize=CACHE_SIZE)
def string_dfa(
    pattern: str | None = None,
    min_length: int = 0,
    max_length: int | None = None,
    format: str | None = None,
) -> CpDfa:
    """Minimal code-point DFA of the decoded string values allowed.

    ``format="hostname"`` gives the hostnames of at most 63 characters (all of
    them when ``max_length <= 63``; a subset otherwise): the 253-character
    limit as a DFA needs ~24,000 states (see ``pse.automata.hostname``).
    """
    dfa: CpDfa | None = None
    if format == "hostname":
        dfa = hostname_dfa(max(min_length, 0), max_length)  # lengths included
        min_length, max_length = 0, None
    elif format is not None:
        dfa = format_dfa(format)
    if pattern is not None:
        p = pattern_dfa(pattern, False, "pattern")
        dfa = p if dfa is None else product(dfa, p, keyword="pattern")
    if dfa is None:
        dfa = CpDfa([[(lo, hi, 0) for lo, hi in cs.ANY]], [True])
    keyword = "maxLength" if max_length is not None else "minLength"
    return with_length(dfa, max(min_length, 0), max_length, keyword)


def format_dfa(name: str) -> CpDfa:
    """Minimal code-point DFA of a supported ``format`` (``hostname`` aside: see
    ``string_dfa``), built once per process (``pse.automata.built_in``)."""
    return built_in("format", name, lambda: pattern_dfa(format_pattern(name), True, "format"))


@process_cache(maxsize=CACHE_SIZE, typed=True)
def string_machine(
    *,
    pattern: str | None = None,
    min_length: int = 0,
    max_length: int | None = None,
    format: str | None = None,
    enum_exclusions: None = None,
) -> StateMachine:
    """A machine for one JSON string literal (quotes included) whose value satisfies
    ``pattern`` (ECMA-262, unanchored), ``min_length..max_length`` code points
    (as ``len()`` counts after ``json.loads``) and ``format``.

    Every JSON spelling of an allowed value is accepted: raw UTF-8, short
    escapes, ``\\uXXXX`` in either case and surrogate pairs.  Unpaired
    surrogate escapes are rejected when a pattern or format is given.
    ``format="hostname"`` without a pattern is the exception: its literals are
    read raw (see ``pse.automata.hostname``).

    Raises ``SchemaError`` with code ``unsupported-pattern``,
    ``unsupported-format`` or ``automaton-too-large``.
    """
    if max_length is not None and max_length < min_length:
        raise SchemaError(
            "maxLength is below minLength: no string is allowed",
            code="unsatisfiable",
            keyword="maxLength",
        )
    if pattern is None and format is None:
        return StringStateMachine(min_length=max(min_length, 0), max_length=max_length)
    if format == "hostname" and pattern is None:
        return hostname_machine(max(min_length, 0), max_length)
    if format is not None and pattern is None and min_length <= 0 and max_length is None:
        return built_in(  # a format alone: its machine is built once per process
            "format machine",
            format,
            lambda: lower_json_string(format_dfa(format), "format").machine(0),
        )
    if format is None and pattern is not None:  # a pattern alone: one native call
        machine = pattern_string_machine(pattern, min_length, max_length)
        if machine is not None:
            return machine
    dfa = string_dfa(pattern, min_length, max_length, format)
    if dfa.is_empty():
        raise SchemaError(
            "no string satisfies the constraints",
            code="unsatisfiable",
            keyword="pattern" if pattern is not None else "format",
        )
    keyword = "pattern" if pattern is not None else "format"
    return lower_json_string(dfa, keyword).machine(0)


# Machines are immutable leaves: equal constraints share one compiled machine
# (and its mask-cache entries), across schemas and engines.
number_machine = process_cache(maxsize=CACHE_SIZE, typed=True)(_number_machine)
