"""``format: hostname``: labels of at most 63 characters, at most 253 in all.

A hostname (RFC 1123 section 2.1, RFC 1034 section 3.1) is a dot-separated
list of labels of 1..63 letters, digits and hyphens that neither start nor end
with a hyphen, at most 253 characters long, and not of the dotted-decimal
form ``#.#.#.#`` (RFC 1123: "a valid host name can never have the
dotted-decimal form"). Labels with ``--`` in positions 3-4 are rejected:
``xn--`` A-labels (RFC 5890) are valid only when their Punycode decodes to a
valid U-label (IDNA2008 code point and context rules), which no automaton
checks, and other such labels are reserved (RFC 5890 section 2.3.1).

**Why not one DFA.** A DFA that enforces both limits must tell apart every
pair (characters left in the name, characters left in the label): its minimal
form has about 24,000 states (27,600 as built directly), which takes 0.1-0.4 s
to build and hand to the native core, against ~15 ms for everything below.
Splitting the count across a graph of small automata (the graph counts
characters, each edge reads a piece of known length) is exact and builds in
milliseconds, but piece boundaries fall inside tokens and masks got 40x slower
(tokens like ``.com`` must be explored across machines). So the machine is a
**union of small whole-string DFAs**, each a subset of the valid hostnames
that needs only one counter:

* every hostname of at most 63 characters (counts characters; a label cannot
  be longer than the name);
* for each label cap ``m`` in :data:`LABEL_CAPS`: the hostnames of at most
  ``(253 + 1) // (m + 1)`` labels of at most ``m`` characters each (counts
  labels and the current label's length; the total cannot exceed 253).

The union accepts every valid hostname of up to 63 characters and the longer
ones that fit a cap (3 labels of any length, 4 of at most 62, 8 of at most 30,
50 of at most 4, 127 of one character, ...), and never an invalid one. The
hostnames it wrongly rejects are all longer than 63 characters, for instance
four labels one of which has 63 characters. About 6,600 states in 12
machines; masks stay leaf-cached (one cached mask per machine and state).
The literals are read raw: escaped spellings such as ``\\u0061`` of hostname
characters are rejected (no JSON encoder writes them).

The exact construction needs a DFA node with a native length counter in the
core: then the one label DFA (~125 states) plus ``max_length=253`` would do.
"""

from __future__ import annotations

import numpy as np
from pse_core._core import DfaStateMachine, StateMachine
from pse_core.errors import SchemaError

from pse.process_caches import process_cache

from .dfa import CpDfa

MAX_HOSTNAME = 253
MAX_LABEL = 63
#: Label caps of the long-hostname alternatives (see the module docstring).
LABEL_CAPS = (63, 62, 41, 30, 20, 14, 9, 6, 4, 2, 1)
#: A long-hostname alternative with more states than this is left out (a
#: minLength above 1 multiplies the count); the short-hostname one is refused.
MAX_STATES = 5_000

_DIGIT_BYTES = np.arange(0x30, 0x3A, dtype=np.intp)
_LETTER_BYTES = np.array([*range(0x41, 0x5B), *range(0x61, 0x7B)], dtype=np.intp)
_DIGIT, _LETTER, _HYPHEN, _DOT = 0, 1, 2, 3


class _Table:
    """A DFA over four symbols (digit, letter, ``-``, ``.``): ``moves[s]`` lists
    the target of each (-1: none); start state 0."""

    def __init__(self, moves: list[list[int]], accepting: list[bool]) -> None:
        self.moves = moves
        self.accepting = accepting

    def machine(self) -> DfaStateMachine:
        """The JSON string literals (quotes included, characters raw)."""
        n = len(self.moves)
        quote, final = n, n + 1  # rows 0..n-1: the states; n: before the quote; n+1: after
        moves = np.array(self.moves, dtype=np.int32).reshape(n, 4)
        rows = np.full((n + 2, 256), -1, dtype=np.int32)
        rows[:n, _DIGIT_BYTES] = moves[:, _DIGIT : _DIGIT + 1]
        rows[:n, _LETTER_BYTES] = moves[:, _LETTER : _LETTER + 1]
        rows[:n, ord("-")] = moves[:, _HYPHEN]
        rows[:n, ord(".")] = moves[:, _DOT]
        rows[:n, ord('"')] = np.where(np.array(self.accepting), final, -1)
        rows[quote, ord('"')] = 0
        accepting = [False] * (n + 2)
        accepting[final] = True
        return DfaStateMachine(rows.tobytes(), accepting, quote)

    def cp_dfa(self) -> CpDfa:
        """The same language as a code-point DFA (for products with patterns)."""
        trans: list[list[tuple[int, int, int]]] = []
        for digit, letter, hyphen, dot in self.moves:
            row = [
                (lo, hi, t)
                for lo, hi, t in (
                    (0x2D, 0x2D, hyphen),
                    (0x2E, 0x2E, dot),
                    (0x30, 0x39, digit),
                    (0x41, 0x5A, letter),
                    (0x61, 0x7A, letter),
                )
                if t >= 0
            ]
            trans.append(row)
        return CpDfa(trans, list(self.accepting))


# A state: (characters read, labels started, characters in the current label,
# last character a hyphen, dotted-decimal tracker). The tracker is the number
# of labels before the current one while every label so far is all digits
# (RFC 1123 section 2.1: "a valid host name can never have the dotted-decimal
# form #.#.#.#"), and -1 once that cannot happen.
_State = tuple[int, int, int, int, int]


class _TooLarge(Exception):
    pass


def _table(max_total: int, max_labels: int | None, max_label: int, min_total: int) -> _Table:
    """Hostnames of ``min_total..max_total`` characters, at most ``max_labels``
    labels (``None``: any number) of at most ``max_label`` characters."""
    binding_total = max_labels is None or max_labels * (max_label + 1) - 1 > max_total
    track_total = binding_total or min_total > 1
    track_label = max_label < max_total  # else a label cannot outgrow the name
    label_limit = max_labels if max_labels is not None else 1  # i stays 1 when unlimited
    # Each part of a state is kept only as far as a limit can still depend on
    # it: t exactly when the total can bind, else up to min_total (only "long
    # enough yet" matters) or not at all; p exactly when the label limit can
    # bind, else up to 4 (the '--' rule looks at positions 3-4).
    if binding_total:
        tick = list(range(1, max_total + 2))
    else:
        cap_t = min_total if track_total else 0
        tick = [min(t + 1, cap_t) for t in range(max_total + 2)]
    step = list(range(1, max_label + 2)) if track_label else [1, 2, 3, 4, 4, 4]
    first: _State = (0, 1, 0, 0, 0 if max_labels is None or max_labels >= 4 else -1)
    ids: dict[_State, int] = {first: 0}
    order: list[_State] = [first]
    moves: list[list[int]] = []
    accepting: list[bool] = []
    n = 0
    while n < len(order):
        t, i, p, h, num = order[n]
        n += 1
        room = not binding_total or t < max_total
        more = not binding_total or t + 1 < max_total  # room for one more after this
        t1, p1 = tick[t], step[p]
        succ: list[_State | None] = [None, None, None, None]
        if room and p < max_label:
            succ[_DIGIT] = (t1, i, p1, 0, num)
            succ[_LETTER] = (t1, i, p1, 0, -1)
        # A hyphen needs a letter or digit after it; no '--' in positions 3-4.
        if more and p >= 1 and p + 1 < max_label and not (p == 3 and h):
            succ[_HYPHEN] = (t1, i, p1, 1, -1)
        if more and p >= 1 and not h and (max_labels is None or i < label_limit):
            nxt = i + 1 if max_labels is not None else 1
            succ[_DOT] = (t1, nxt, 0, 0, num + 1 if 0 <= num < 3 else -1)
        row = [-1, -1, -1, -1]
        for sym, key in enumerate(succ):
            if key is None:
                continue
            sid = ids.get(key)
            if sid is None:
                if len(order) >= MAX_STATES:
                    raise _TooLarge
                sid = ids[key] = len(order)
                order.append(key)
            row[sym] = sid
        moves.append(row)
        accepting.append(p >= 1 and not h and num != 3 and (not track_total or t >= min_total))
    return _Table(moves, accepting)


def _bounds(min_length: int, max_length: int | None) -> tuple[int, int]:
    top = MAX_HOSTNAME if max_length is None else min(max_length, MAX_HOSTNAME)
    return max(min_length, 1), top


@process_cache()
def hostname_machine(min_length: int = 0, max_length: int | None = None) -> StateMachine:
    """The JSON string literals (quotes included) of the hostnames of
    ``min_length..max_length`` characters; ``SchemaError(code="unsatisfiable")``
    when there are none."""
    low, top = _bounds(min_length, max_length)
    if low > top:
        raise SchemaError("no hostname has these lengths", code="unsatisfiable", keyword="format")
    parts: list[DfaStateMachine] = []
    if low <= MAX_LABEL:
        parts.append(_table(min(top, MAX_LABEL), None, MAX_LABEL, low).machine())
    if top > MAX_LABEL:
        for cap in LABEL_CAPS:
            labels = (top + 1) // (cap + 1)
            if labels >= 2 and labels * (cap + 1) - 1 >= low:
                try:
                    parts.append(_table(top, labels, cap, low).machine())
                except _TooLarge:
                    continue  # a subset less: still sound
    if not parts:
        raise SchemaError(
            f"format 'hostname' with minLength {min_length} is too large to compile",
            code="automaton-too-large",
            keyword="format",
        )
    if len(parts) == 1:
        return parts[0]
    return StateMachine({0: [(part, "$") for part in parts]}, 0, ["$"])


@process_cache()
def hostname_dfa(min_length: int = 0, max_length: int | None = None) -> CpDfa:
    """A code-point DFA for combining ``hostname`` with a pattern (and as
    property names): the hostnames of ``min_length..max_length`` characters,
    and at most 63 (a subset when ``maxLength`` is larger)."""
    low, top = _bounds(min_length, max_length)
    if low > min(top, MAX_LABEL):
        return CpDfa([[]], [False])
    return _table(min(top, MAX_LABEL), None, MAX_LABEL, low).cp_dfa()


__all__ = ["LABEL_CAPS", "MAX_HOSTNAME", "hostname_dfa", "hostname_machine"]
