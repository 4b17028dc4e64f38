"""The schema IR: a JSON Schema as a union of typed alternatives.

Every (sub)schema is normalised into a list of *alternatives*, each constraining
one JSON type (``NullAlt``, ``BoolAlt``, ``NumAlt``, ``StrAlt``, ``ArrAlt``,
``ObjAlt``). Child schemas (items, property values) stay unexpanded as ``Sub``
conjunctions of schema nodes, so recursive schemas are finite: the compiler
expands a ``Sub`` lazily and memoises it. The algebra over alternatives is in
``algebra.py`` and the keyword families (``numbers.py``, ``strings.py``,
``arrays.py``, ``objects.py``, ``combinators.py``, ``references.py``).
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from functools import cached_property
from typing import Any, Union

# ---------------------------------------------------------------------- nodes

Scope = tuple[tuple[str, str], ...]
"""A dynamic scope: each ``$dynamicAnchor`` name with the URI of its outermost
binding among the schema resources entered so far."""


class Node:
    """One schema (dict or bool) at a JSON pointer, with its base URI.

    Interned by the context: the same subschema gives the same node. ``kind``
    is ``"schema"`` for real schemas, ``"not"`` for a synthetic complement of
    ``inner`` and ``"value"`` for a synthetic ``const``. ``scope`` is the
    dynamic scope a ``$dynamicRef`` below it sees (see ``references.py``).
    """

    __slots__ = ("base", "inner", "kind", "pointer", "schema", "scope")

    def __init__(
        self,
        schema: Any,
        base: str,
        pointer: str,
        kind: str = "schema",
        inner: Sub | None = None,
        scope: Scope = (),
    ) -> None:
        self.schema = schema
        self.base = base
        self.pointer = pointer
        self.kind = kind
        self.inner = inner
        self.scope = scope

    def __repr__(self) -> str:
        return f"Node({self.kind} {self.pointer or '#'})"


Sub = frozenset[Node]
"""A conjunction of schema nodes; the empty set is the ``true`` schema."""

TRUE: Sub = frozenset()


# --------------------------------------------------------------- alternatives


@dataclass(frozen=True)
class EvaluatedItems:
    """Items evaluated by the keywords of a schema: the first ``upto``, all
    (``every``), and those matching a ``contains`` schema."""

    upto: int = 0
    every: bool = False
    contains: tuple[Sub, ...] = ()

    def __or__(self, other: EvaluatedItems) -> EvaluatedItems:
        return EvaluatedItems(
            max(self.upto, other.upto),
            self.every or other.every,
            tuple(dict.fromkeys(self.contains + other.contains)),
        )


@dataclass(frozen=True)
class EvaluatedProps:
    """Properties evaluated by the keywords of a schema: those ``names``, those
    matching one of ``patterns``, or all of them (``every``)."""

    names: frozenset[str] = frozenset()
    patterns: tuple[str, ...] = ()
    every: bool = False

    def __or__(self, other: EvaluatedProps) -> EvaluatedProps:
        return EvaluatedProps(
            self.names | other.names,
            tuple(dict.fromkeys(self.patterns + other.patterns)),
            self.every or other.every,
        )


NO_ITEMS = EvaluatedItems()
NO_PROPS = EvaluatedProps()


@dataclass(frozen=True)
class NullAlt:
    pass


@dataclass(frozen=True)
class BoolAlt:
    values: frozenset[bool] = frozenset({True, False})


@dataclass(frozen=True)
class NumAlt:
    """Numbers within the bounds that are multiples of every entry of
    ``multiples`` (and integers when ``integer``) and of no entry of
    ``excluded`` (negated divisibility: ``not``, ``oneOf``)."""

    integer: bool = False
    lo: Decimal | None = None
    lo_excl: bool = False
    hi: Decimal | None = None
    hi_excl: bool = False
    multiples: tuple[Decimal, ...] = ()
    excluded: tuple[Decimal, ...] = ()

    @property
    def unconstrained(self) -> bool:
        return self.lo is None and self.hi is None and not self.multiples and not self.excluded


@dataclass(frozen=True)
class StrAlt:
    min_length: int = 0
    max_length: int | None = None
    patterns: tuple[str, ...] = ()
    formats: tuple[str, ...] = ()
    literals: frozenset[str] | None = None
    excluded: frozenset[str] = frozenset()
    #: String alternatives the value must not satisfy (``not``, ``oneOf``).
    negated: frozenset[StrAlt] = frozenset()

    @property
    def unconstrained(self) -> bool:
        return self == _ANY_STR


@dataclass(frozen=True)
class ArrAlt:
    prefix: tuple[Sub, ...] = ()
    items: Sub = TRUE
    min_items: int = 0
    max_items: int | None = None
    contains: tuple[tuple[Sub, int, int | None], ...] = ()
    unique: bool = False
    #: The items that ``unevaluatedItems`` counts as evaluated (tracked only for
    #: schemas that use it; see ``unevaluated.py``).
    evaluated: EvaluatedItems = NO_ITEMS


_ANY_STR = StrAlt()


@dataclass(frozen=True)
class ObjRule:
    """How one conjunct treats keys that are not named in ``ObjAlt.props``."""

    patterns: tuple[tuple[str, Sub], ...] = ()
    additional: Sub = TRUE


@dataclass(frozen=True)
class ObjAlt:
    props: tuple[tuple[str, Sub], ...] = ()
    rules: tuple[ObjRule, ...] = ()
    required: frozenset[str] = frozenset()
    min_props: int = 0
    max_props: int | None = None
    names: Sub = TRUE
    forbid_all: tuple[frozenset[str], ...] = ()
    dependent: tuple[tuple[str, frozenset[str]], ...] = ()
    #: The schema itself speaks about undeclared keys (``additionalProperties``,
    #: ``patternProperties`` or ``propertyNames``), so ``strict_properties``
    #: leaves them as the schema says.
    open: bool = False
    #: The properties ``unevaluatedProperties`` counts as evaluated (tracked
    #: only for schemas that use it; see ``unevaluated.py``).
    evaluated: EvaluatedProps = NO_PROPS

    def prop(self, name: str) -> Sub | None:
        return self._prop_map.get(name)

    @cached_property
    def _prop_map(self) -> dict[str, Sub]:
        """``props`` by name (the first entry wins), built once per alternative."""
        out: dict[str, Sub] = {}
        for key, sub in self.props:
            out.setdefault(key, sub)
        return out


Alt = Union[NullAlt, BoolAlt, NumAlt, StrAlt, ArrAlt, ObjAlt]  # noqa: UP007 (runtime alias, py3.10)


#: The unconstrained alternative of each type (immutable, shared).
ALL_ALTS: tuple[Alt, ...] = (NullAlt(), BoolAlt(), NumAlt(), StrAlt(), ArrAlt(), ObjAlt())


def all_alts() -> list[Alt]:
    """The ``true`` schema: every type, unconstrained (a new list of shared,
    immutable alternatives)."""
    return list(ALL_ALTS)


TYPE_OF: dict[type, str] = {
    NullAlt: "null",
    BoolAlt: "boolean",
    NumAlt: "number",
    StrAlt: "string",
    ArrAlt: "array",
    ObjAlt: "object",
}


__all__ = [
    "ALL_ALTS",
    "NO_ITEMS",
    "NO_PROPS",
    "TRUE",
    "TYPE_OF",
    "Alt",
    "ArrAlt",
    "BoolAlt",
    "EvaluatedItems",
    "EvaluatedProps",
    "Node",
    "Scope",
    "NullAlt",
    "NumAlt",
    "ObjAlt",
    "ObjRule",
    "StrAlt",
    "Sub",
    "all_alts",
]
