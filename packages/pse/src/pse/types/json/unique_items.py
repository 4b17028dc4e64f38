"""``uniqueItems`` for any item schema: a stepper that masks the duplicate item.

No automaton can remember which items an array already holds, but a stepper
can. The array is compiled as usual without ``uniqueItems`` (items, prefix
items, counts, ``contains``), and a Python stepper (the core's documented slow
path) wraps its native steppers: after every token it scans the raw text of
the array and, when an item is complete, compares it in JSON equality with
the earlier ones (numbers by value, ``1 == 1.0``; objects in any key order).
A token that completes a duplicate is masked. An item is complete when the
text can only end there: a closed string, object or array, a full ``true``,
``false`` or ``null``; a number when the ``,`` or ``]`` after it arrives.

Small finite item sets keep the exact explicit graph of ``json_array.py``;
for larger finite sets the array is capped at the size of the set. A prefix
of an item that can only complete to a used value is not masked before the
token that completes it (the item schema is an automaton over one value, not
over the set of values left).
"""

from __future__ import annotations

import json
from dataclasses import replace
from decimal import Decimal
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from pse_core._core import StateMachine, Stepper

from pse.types.json.schema_ir import ArrAlt

if TYPE_CHECKING:
    from pse.types.json.compiler import Compiler

_WS = " \t\n\r"


def equality_key(value: Any) -> Any:
    """A hashable key under which JSON-equal values coincide (numbers as fractions)."""
    if isinstance(value, bool) or value is None:
        return ("b", value)
    if isinstance(value, int | Decimal):
        return ("n", Fraction(value))
    if isinstance(value, str):
        return ("s", value)
    if isinstance(value, list):
        return ("a", tuple(equality_key(v) for v in value))
    return ("o", frozenset((k, equality_key(v)) for k, v in value.items()))


class _Scan:
    """The items of an array text read so far: keys of the complete ones and the
    position inside the current one."""

    __slots__ = ("depth", "escape", "keys", "quoted", "read", "start")

    def __init__(self) -> None:
        self.read = 0  # characters of the raw text scanned
        self.depth = 0
        self.quoted = False
        self.escape = False
        self.start = -1  # where the current item starts, -1 between items
        self.keys: frozenset[Any] = frozenset()

    def copy(self) -> _Scan:
        other = _Scan()
        other.read, other.depth, other.quoted = self.read, self.depth, self.quoted
        other.escape, other.start, other.keys = self.escape, self.start, self.keys
        return other

    def feed(self, raw: str) -> bool:
        """Scan ``raw`` from where the last call stopped; ``False`` on a duplicate."""
        for i in range(self.read, len(raw)):
            c = raw[i]
            self.read = i + 1
            if self.quoted:
                if self.escape:
                    self.escape = False
                elif c == "\\":
                    self.escape = True
                elif c == '"':
                    self.quoted = False
                    if self.depth == 1 and not self._close(raw, i + 1):
                        return False
                continue
            ends = self.depth == 1 and self.start >= 0 and self._scalar_ends(raw, c)
            if ends and not self._close(raw, i):
                return False
            if c == '"':
                self.quoted = True
                if self.depth == 1:
                    self.start = i
            elif c in "[{":
                if self.depth == 1 and self.start < 0:
                    self.start = i
                self.depth += 1
            elif c in "]}":
                self.depth -= 1
                if self.depth == 1 and self.start >= 0 and not self._close(raw, i + 1):
                    return False
            elif self.depth == 1 and self.start < 0 and c not in _WS and c != ",":
                self.start = i
                if not self._literal_done(raw, i + 1):
                    return False
            elif self.depth == 1 and self.start >= 0 and not self._literal_done(raw, i + 1):
                return False
        return True

    def _scalar_ends(self, raw: str, c: str) -> bool:
        """A number (or literal) item ends at whitespace, ``,`` or ``]``."""
        return (c in _WS or c in ",]") and raw[self.start] not in '"[{'

    def _literal_done(self, raw: str, end: int) -> bool:
        """Close a ``true``/``false``/``null`` item as soon as it is spelt out."""
        if raw[self.start : end] in ("true", "false", "null"):
            return self._close(raw, end)
        return True

    def _close(self, raw: str, end: int) -> bool:
        text = raw[self.start : end]
        self.start = -1
        key = equality_key(json.loads(text, parse_float=Decimal, parse_int=Decimal))
        if key in self.keys:
            return False
        self.keys = self.keys | {key}
        return True


class UniqueItemsStepper(Stepper):
    """Native steppers of the array without ``uniqueItems``, and the scan of their text."""

    def __init__(
        self,
        machine: UniqueItemsStateMachine,
        inner: list[Stepper],
        scan: _Scan,
        rest: str | None = None,
    ) -> None:
        super().__init__(machine)
        self.machine = machine
        self.inner = inner
        self.scan = scan
        self.rest = rest

    @property
    def remaining_input(self) -> str | None:  # type: ignore[override]
        return self.rest

    def has_reached_accept_state(self) -> bool:
        return any(s.has_reached_accept_state() for s in self.inner)

    def get_current_value(self) -> Any:
        return self.inner[0].get_raw_value() if self.inner else None

    def consume(self, token: str) -> list[Stepper]:
        if self.rest is not None:
            return []
        out: list[Stepper] = []
        # Stepper.consume keeps the steppers that finished the array and left the
        # rest of the token (StateMachine.advance_all_basic drops those).
        for stepper in (n for s in self.inner for n in s.consume(token)):
            scan = self.scan.copy()
            if not scan.feed(stepper.get_raw_value()):
                continue
            out.append(UniqueItemsStepper(self.machine, [stepper], scan, stepper.remaining_input))
        return out


class UniqueItemsStateMachine(StateMachine):
    """An array machine whose items must be pairwise distinct (JSON equality)."""

    def __init__(self, array: StateMachine) -> None:
        # The array is also an edge (never stepped natively: get_new_stepper is
        # overridden) so that sealing the grammar reaches its references.
        super().__init__({0: [(array, "$")]}, start_state=0, end_states=["$"])
        self.array = array

    def get_new_stepper(self, state: int | str | None = None) -> Stepper:
        return UniqueItemsStepper(self, self.array.get_steppers(), _Scan())


def needs_stepper(comp: Compiler, alt: ArrAlt) -> bool:
    """Whether ``alt`` has ``uniqueItems`` that the explicit graph cannot enforce."""
    from pse.types.json.json_array import MAX_UNIQUE_DOMAIN, _domain  # noqa: PLC0415

    if not alt.unique or (alt.max_items is not None and alt.max_items <= 1):
        return False
    domain = None if alt.prefix else _domain(comp, alt.items)
    return domain is None or len(domain) > MAX_UNIQUE_DOMAIN


def build_unique(comp: Compiler, alt: ArrAlt) -> StateMachine:
    """The array of ``alt`` under the uniqueness stepper, inside a native graph."""
    from pse.types.json.json_array import ArraySchemaStateMachine, _domain  # noqa: PLC0415

    plain = replace(alt, unique=False)
    domain = None if alt.prefix else _domain(comp, alt.items)
    if domain is not None and (plain.max_items is None or plain.max_items > len(domain)):
        plain = replace(plain, max_items=len(domain))
        if plain.min_items > len(domain):
            from pse.types.json.compiler import NeverStateMachine  # noqa: PLC0415

            return NeverStateMachine()
    inner = UniqueItemsStateMachine(ArraySchemaStateMachine.from_alt(comp, plain))
    return StateMachine({0: [(inner, "$")]}, start_state=0, end_states=["$"])


__all__ = [
    "UniqueItemsStateMachine",
    "UniqueItemsStepper",
    "build_unique",
    "equality_key",
    "needs_stepper",
]
