"""The schema algebra: a JSON Schema as a union of typed alternatives.

Every (sub)schema is normalised into a list of *alternatives*, each constraining
one JSON type (``NullAlt``, ``BoolAlt``, ``NumAlt``, ``StrAlt``, ``ArrAlt``,
``ObjAlt``). ``anyOf`` is concatenation, ``allOf`` the pairwise intersection,
``not`` the complement where it is tractable. Child schemas (items, property
values) stay unexpanded as ``Sub`` conjunctions of schema nodes, so recursive
schemas are finite: the compiler expands a ``Sub`` lazily and memoises it.

Whatever cannot be represented exactly raises ``SchemaError`` naming the
keyword and the JSON pointer.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from decimal import Decimal
from fractions import Fraction
from functools import cached_property
from typing import Any, Union

from pse_core.errors import SchemaError

from pse.types.json.keywords import BY_NAME, DECLINED, Handling
from pse.types.json.references import (
    References,
    draft_of,
    escape_pointer,
    registry_documents,
    schema_uri_of,
)

MAX_ALTERNATIVES = 1024


# ---------------------------------------------------------------------- nodes


class Node:
    """One schema (dict or bool) at a JSON pointer, with its base URI.

    Interned by the context: the same subschema gives the same node. ``kind``
    is ``"schema"`` for real schemas, ``"not"`` for a synthetic complement of
    ``inner`` and ``"value"`` for a synthetic ``const``.
    """

    __slots__ = ("base", "inner", "kind", "pointer", "schema")

    def __init__(
        self,
        schema: Any,
        base: str,
        pointer: str,
        kind: str = "schema",
        inner: Sub | None = None,
    ) -> None:
        self.schema = schema
        self.base = base
        self.pointer = pointer
        self.kind = kind
        self.inner = inner

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

    @property
    def modulus(self) -> Decimal | None:
        """What every value is a multiple of (``integer``: 1), or ``None``."""
        if not self.integer and not self.multiples:
            return None
        return decimal_lcm((*self.multiples, Decimal(1)) if self.integer else self.multiples)


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
        return self == StrAlt()


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


def all_alts() -> list[Alt]:
    """The ``true`` schema: every type, unconstrained."""
    return [NullAlt(), BoolAlt(), NumAlt(), StrAlt(), ArrAlt(), ObjAlt()]


TYPE_OF: dict[type, str] = {
    NullAlt: "null",
    BoolAlt: "boolean",
    NumAlt: "number",
    StrAlt: "string",
    ArrAlt: "array",
    ObjAlt: "object",
}


# ----------------------------------------------------------------- numbers


def to_decimal(value: Any, keyword: str, pointer: str) -> Decimal:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise SchemaError(
            f"{keyword} must be a number, got {value!r}",
            code="invalid-schema",
            keyword=keyword,
            pointer=pointer,
        )
    if isinstance(value, float) and not math.isfinite(value):
        raise SchemaError(f"{keyword} must be finite", keyword=keyword, pointer=pointer)
    return Decimal(value) if isinstance(value, int) else Decimal(repr(value))


def decimal_lcm(values: Iterable[Decimal]) -> Decimal:
    result: Fraction | None = None
    for v in values:
        f = Fraction(v)
        if result is None:
            result = f
            continue
        num = math.lcm(result.numerator * f.denominator, f.numerator * result.denominator)
        result = Fraction(num, result.denominator * f.denominator)
    assert result is not None
    return Decimal(result.numerator) / Decimal(result.denominator)


def _max_lo(a: NumAlt, b: NumAlt) -> tuple[Decimal | None, bool]:
    if a.lo is None:
        return b.lo, b.lo_excl
    if b.lo is None or a.lo > b.lo:
        return a.lo, a.lo_excl
    if b.lo > a.lo:
        return b.lo, b.lo_excl
    return a.lo, a.lo_excl or b.lo_excl


def _min_hi(a: NumAlt, b: NumAlt) -> tuple[Decimal | None, bool]:
    if a.hi is None:
        return b.hi, b.hi_excl
    if b.hi is None or a.hi < b.hi:
        return a.hi, a.hi_excl
    if b.hi < a.hi:
        return b.hi, b.hi_excl
    return a.hi, a.hi_excl or b.hi_excl


def num_empty(a: NumAlt) -> bool:
    if a.lo is not None and a.hi is not None:
        if a.lo > a.hi or (a.lo == a.hi and (a.lo_excl or a.hi_excl)):
            return True
        if a.lo == a.hi:
            return not num_accepts(a, a.lo)
        if a.integer:
            lo = math.floor(a.lo) + 1 if a.lo_excl or a.lo != math.floor(a.lo) else int(a.lo)
            hi = math.ceil(a.hi) - 1 if a.hi_excl or a.hi != math.ceil(a.hi) else int(a.hi)
            if lo > hi:
                return True
    return False


def num_accepts(a: NumAlt, v: Decimal) -> bool:
    if a.lo is not None and (v < a.lo or (a.lo_excl and v == a.lo)):
        return False
    if a.hi is not None and (v > a.hi or (a.hi_excl and v == a.hi)):
        return False
    if a.integer and v != v.to_integral_value():
        return False
    return all(v % m == 0 for m in a.multiples) and all(v % m != 0 for m in a.excluded)


# ------------------------------------------------------------ intersection


def _conj(a: Sub, b: Sub) -> Sub:
    return a | b


def intersect_alt(a: Alt, b: Alt) -> Alt | None:
    """The intersection of two alternatives; ``None`` when the types differ."""
    if type(a) is not type(b):
        return None
    if isinstance(a, NullAlt):
        return a
    if isinstance(a, BoolAlt):
        assert isinstance(b, BoolAlt)
        vals = a.values & b.values
        return BoolAlt(vals) if vals else None
    if isinstance(a, NumAlt):
        assert isinstance(b, NumAlt)
        lo, lo_excl = _max_lo(a, b)
        hi, hi_excl = _min_hi(a, b)
        multiples = tuple(dict.fromkeys(a.multiples + b.multiples))
        excluded = tuple(dict.fromkeys(a.excluded + b.excluded))
        n = NumAlt(a.integer or b.integer, lo, lo_excl, hi, hi_excl, multiples, excluded)
        modulus = n.modulus
        if modulus is not None and any(modulus % m == 0 for m in excluded):
            return None  # every allowed multiple is an excluded one
        return None if num_empty(n) else n
    if isinstance(a, StrAlt):
        assert isinstance(b, StrAlt)
        literals = a.literals
        if b.literals is not None:
            literals = b.literals if literals is None else literals & b.literals
        max_length = a.max_length
        if b.max_length is not None:
            max_length = b.max_length if max_length is None else min(max_length, b.max_length)
        s = StrAlt(
            max(a.min_length, b.min_length),
            max_length,
            tuple(dict.fromkeys(a.patterns + b.patterns)),
            tuple(dict.fromkeys(a.formats + b.formats)),
            literals,
            a.excluded | b.excluded,
            a.negated | b.negated,
        )
        if s.literals is not None:
            lits = frozenset(
                x
                for x in s.literals
                if x not in s.excluded
                and len(x) >= s.min_length
                and (s.max_length is None or len(x) <= s.max_length)
            )
            s = replace(s, literals=lits, excluded=frozenset(), min_length=0, max_length=None)
            if not lits:
                return None
        if s.max_length is not None and s.min_length > s.max_length:
            return None
        return s
    if isinstance(a, ArrAlt):
        assert isinstance(b, ArrAlt)
        width = max(len(a.prefix), len(b.prefix))
        pa = a.prefix + (a.items,) * (width - len(a.prefix))
        pb = b.prefix + (b.items,) * (width - len(b.prefix))
        max_items = a.max_items
        if b.max_items is not None:
            max_items = b.max_items if max_items is None else min(max_items, b.max_items)
        arr = ArrAlt(
            tuple(_conj(x, y) for x, y in zip(pa, pb, strict=True)),
            _conj(a.items, b.items),
            max(a.min_items, b.min_items),
            max_items,
            a.contains + b.contains,
            a.unique or b.unique,
            a.evaluated | b.evaluated,
        )
        if arr.max_items is not None and arr.min_items > arr.max_items:
            return None
        return arr
    assert isinstance(a, ObjAlt) and isinstance(b, ObjAlt)
    names = list(dict.fromkeys([k for k, _ in a.props] + [k for k, _ in b.props]))
    props = tuple((k, _conj(_obj_value(a, k), _obj_value(b, k))) for k in names)
    max_props = a.max_props
    if b.max_props is not None:
        max_props = b.max_props if max_props is None else min(max_props, b.max_props)
    deps = dict(a.dependent)
    for k, v in b.dependent:
        deps[k] = deps.get(k, frozenset()) | v
    o = ObjAlt(
        props,
        tuple(r for r in a.rules + b.rules if r != ObjRule()),
        a.required | b.required,
        max(a.min_props, b.min_props),
        max_props,
        _conj(a.names, b.names),
        a.forbid_all + b.forbid_all,
        tuple(deps.items()),
        a.open or b.open,
        a.evaluated | b.evaluated,
    )
    if o.max_props is not None and o.min_props > o.max_props:
        return None
    if any(r <= o.required for r in o.forbid_all):
        return None
    return o


def _obj_value(o: ObjAlt, key: str) -> Sub:
    """The conjunction a value under ``key`` must satisfy in ``o`` (patterns tested with ``re``)."""
    named = o.prop(key)
    out: Sub = named if named is not None else TRUE
    for rule in o.rules:
        matched = False
        for pattern, psub in rule.patterns:
            if ecma_search(pattern, key):
                out = out | psub
                matched = True
        if not matched and named is None:
            out = out | rule.additional
    return out


obj_value = _obj_value


def intersect(xs: list[Alt], ys: list[Alt], keyword: str, pointer: str) -> list[Alt]:
    out: list[Alt] = []
    for x in xs:
        for y in ys:
            try:
                z = intersect_alt(x, y)
            except SchemaError as exc:  # raised without a location: give it this one
                if exc.pointer:
                    raise
                raise SchemaError(
                    exc.message, code=exc.code, keyword=exc.keyword, pointer=pointer
                ) from exc
            if z is not None and z not in out:
                out.append(z)
                if len(out) > MAX_ALTERNATIVES:
                    raise SchemaError(
                        f"{keyword} expands to more than {MAX_ALTERNATIVES} alternatives",
                        code="too-complex",
                        keyword=keyword,
                        pointer=pointer,
                    )
    return out


def union(xs: list[Alt], ys: list[Alt]) -> list[Alt]:
    out = list(xs)
    for y in ys:
        if y not in out:
            out.append(y)
    return out


# -------------------------------------------------------------- regex helper

_RE_CACHE: dict[str, re.Pattern[str] | None] = {}
_ECMA_CLASSES = {r"\d": "[0-9]", r"\D": "[^0-9]", r"\w": "[A-Za-z0-9_]", r"\W": "[^A-Za-z0-9_]"}


def python_regex(pattern: str) -> re.Pattern[str] | None:
    """An approximation of an ECMA-262 regex in Python ``re`` (``None``: cannot translate)."""
    if pattern in _RE_CACHE:
        return _RE_CACHE[pattern]
    text = pattern
    for k, v in _ECMA_CLASSES.items():
        text = text.replace(k, v)
    try:
        compiled: re.Pattern[str] | None = re.compile(text)
    except re.error:
        compiled = None
    _RE_CACHE[pattern] = compiled
    return compiled


def ecma_search(pattern: str, text: str) -> bool:
    compiled = python_regex(pattern)
    if compiled is None:
        raise SchemaError(
            f"cannot evaluate pattern {pattern!r} on property names",
            code="unsupported-pattern",
            keyword="patternProperties",
        )
    return compiled.search(text) is not None


# ------------------------------------------------------------------ context


def uses_keywords(names: tuple[str, ...], documents: Iterable[Any]) -> bool:
    """Whether any schema object in ``documents`` has one of the keywords ``names``."""
    stack = list(documents)
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            if any(k in value for k in names):
                return True
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
    return False


@dataclass
class CompileOptions:
    """Options of one compilation (``schema_to_state_machine`` keyword arguments)."""

    ordered_properties: bool = True
    #: Generate only the properties an object schema declares, unless it says
    #: otherwise (``additionalProperties``, ``patternProperties``,
    #: ``propertyNames``). ``False``: JSON Schema's reading (any other key).
    strict_properties: bool = True
    #: ``"standard"``: the layouts models learnt (compact, ``json.dumps`` spacing,
    #: newline + at most ``max_indent`` spaces); ``"compact"``: none; ``"free"``:
    #: any JSON whitespace, ``max_whitespace`` characters per gap. ``None``:
    #: ``"free"`` when ``max_whitespace`` is given, else ``"standard"``.
    whitespace: str | None = None
    max_indent: int = 16
    max_whitespace: int | None = None
    lenient: bool = False
    max_object_states: int = 2048
    draft: str | None = None
    #: Other documents that ``$ref`` may reach: a mapping from URI to schema or
    #: a ``referencing.Registry``. Nothing is ever fetched.
    registry: Mapping[str, Any] | None = None


@dataclass
class SchemaContext:
    """Ref resolution, node interning, IR memo and the ``ignored`` list of a compilation."""

    root: Any
    options: CompileOptions = field(default_factory=CompileOptions)
    ignored: list[tuple[str, str]] = field(default_factory=list)
    unknown_formats: list[tuple[str, str]] = field(default_factory=list)
    pattern_pointers: dict[str, str] = field(default_factory=dict)
    format_pointers: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._nodes: dict[tuple[int, str], Node] = {}
        self._keep: list[Any] = []
        self._ir: dict[Node, list[Alt]] = {}
        self._in_progress: set[Node] = set()
        # Complements are interned by what they complement, so that negating a
        # recursive schema meets the same node again (a cycle, like a $ref)
        # instead of building new complements forever.
        self._complements: dict[Sub, Node] = {}
        self._sub_ir: dict[Sub, list[Alt]] = {}
        uri = schema_uri_of(self.root)
        if self.options.draft is None:
            self.options.draft = draft_of(uri)
        #: The draft whose keyword set applies: "6" for a draft-06 schema
        #: (compiled as draft 7, but without if/then/else).
        draft6 = self.options.draft == "7" and "draft-06" in uri
        self.dialect = "6" if draft6 else self.options.draft
        declared = "2019-09" if self.dialect == "2020-12" and "2019-09" in uri else self.dialect
        self.refs = References(self.root, self.options.draft, declared, self.options.registry)
        #: Whether alternatives record what they evaluate (``unevaluated.py``).
        self.tracks_evaluation = self.dialect not in ("4", "6", "7") and uses_keywords(
            ("unevaluatedProperties", "unevaluatedItems"),
            [self.root, *registry_documents(self.options.registry).values()],
        )
        self.root_node = self.node(self.root, self.refs.root_base, "")
        self.false_node = self.node(False, "", "")

    # -------------------------------------------------------------- nodes
    def node(self, schema: Any, base: str, pointer: str) -> Node:
        key = (id(schema), base)
        found = self._nodes.get(key)
        if found is None:
            found = Node(schema, base, pointer)
            self._nodes[key] = found
            self._keep.append(schema)
        return found

    def synthetic(self, kind: str, schema: Any, pointer: str, inner: Sub | None = None) -> Node:
        if kind == "not" and inner is not None:
            found = self._complements.get(inner)
            if found is not None:
                return found
        self._keep.append(schema)
        node = Node(schema, "", pointer, kind=kind, inner=inner)
        if kind == "not" and inner is not None:
            self._complements[inner] = node
        return node

    def precompute(self, sub: Sub) -> None:
        """Compute ``sub`` now (to decline early) unless that is already under way
        (a recursive schema): then it is computed when a machine needs it."""
        if not any(node in self._in_progress for node in sub):
            self.sub_ir(sub)

    def const_sub(self, value: Any, pointer: str) -> Sub:
        return frozenset({self.synthetic("value", {"const": value}, pointer)})

    def child(self, parent: Node, schema: Any, *path: str | int) -> Sub:
        pointer = parent.pointer + "".join(f"/{escape_pointer(str(p))}" for p in path)
        if schema is True or schema == {}:
            return TRUE
        if not isinstance(schema, dict | bool):
            raise SchemaError(
                f"a schema must be an object or a boolean, got {type(schema).__name__}",
                code="invalid-schema",
                keyword=str(path[0]) if path else None,
                pointer=pointer,
            )
        return frozenset({self.node(schema, self.refs.base_of(schema, parent.base), pointer)})

    def dialect_at(self, node: Node) -> str:
        """The dialect of the document ``node`` lies in: a registry document that
        declares another draft is read by that draft's keyword set."""
        if self.refs.dialects and "#" in node.pointer:
            return self.refs.dialects.get(node.pointer.split("#", 1)[0], self.dialect)
        return self.dialect

    def resolve(self, ref: str, node: Node) -> Node:
        """The node a ``$ref`` of ``node`` names."""
        return self.node(*self.refs.resolve(ref, node.base, node.pointer))

    # ----------------------------------------------------------- declines
    def note_ignored_format(self, fmt: str, pointer: str) -> None:
        """Unknown formats are annotations (JSON Schema 2020-12); they are listed, not refused."""
        self.unknown_formats.append((fmt, pointer))

    def decline(
        self, message: str, keyword: str, pointer: str, code: str = "unsupported-keyword"
    ) -> None:
        """Raise ``SchemaError`` (or record the keyword as ignored when lenient)."""
        if self.options.lenient:
            if (keyword, pointer) not in self.ignored:
                self.ignored.append((keyword, pointer))
            return
        raise SchemaError(message, code=code, keyword=keyword, pointer=pointer)

    # ----------------------------------------------------------------- IR
    def sub_ir(self, sub: Sub) -> list[Alt]:
        found = self._sub_ir.get(sub)
        if found is not None:
            return found
        alts = all_alts()
        for node in sorted(sub, key=lambda n: n.pointer):
            alts = intersect(alts, self.ir(node), "allOf", node.pointer)
            if not alts:
                break
        self._sub_ir[sub] = alts
        return alts

    def ir(self, node: Node) -> list[Alt]:
        found = self._ir.get(node)
        if found is not None:
            return found
        if node in self._in_progress:
            raise SchemaError(
                "circular schema: a $ref or applicator refers to itself without "
                "entering an object or array",
                code="circular-ref",
                keyword="$ref",
                pointer=node.pointer,
            )
        self._in_progress.add(node)
        try:
            alts = self._compute(node)
        finally:
            self._in_progress.discard(node)
        self._ir[node] = alts
        return alts

    def _compute(self, node: Node) -> list[Alt]:
        if node.kind == "not":
            assert node.inner is not None
            return negate(self, self.sub_ir(node.inner), node.pointer)
        if node.kind == "value":
            return value_alts(self, node.schema["const"], node.pointer)
        schema = node.schema
        if schema is True:
            return all_alts()
        if schema is False:
            return []
        if not isinstance(schema, dict):
            raise SchemaError("a schema must be an object or a boolean", pointer=node.pointer)
        from pse.types.json.schema_keywords import apply_keywords  # noqa: PLC0415

        return apply_keywords(self, node, schema)


# ------------------------------------------------------------------ values


def json_equal_key(value: Any) -> Any:
    """A hashable key under which JSON-equal values (1 == 1.0, any key order) coincide."""
    if isinstance(value, bool) or value is None:
        return ("b", value)
    if isinstance(value, int | float):
        return ("n", Fraction(value))
    if isinstance(value, str):
        return ("s", value)
    if isinstance(value, list):
        return ("a", tuple(json_equal_key(v) for v in value))
    if isinstance(value, dict):
        return ("o", frozenset((k, json_equal_key(v)) for k, v in value.items()))
    raise TypeError(type(value).__name__)


def value_alts(ctx: SchemaContext, value: Any, pointer: str) -> list[Alt]:
    """The alternatives matching exactly the JSON value ``value``."""
    if value is None:
        return [NullAlt()]
    if isinstance(value, bool):
        return [BoolAlt(frozenset({value}))]
    if isinstance(value, int | float):
        d = to_decimal(value, "const", pointer)
        return [NumAlt(False, d, False, d, False)]
    if isinstance(value, str):
        return [StrAlt(literals=frozenset({value}))]
    if isinstance(value, list):
        return [
            ArrAlt(
                prefix=tuple(ctx.const_sub(v, f"{pointer}/{i}") for i, v in enumerate(value)),
                items=frozenset({ctx.false_node}),
                min_items=len(value),
                max_items=len(value),
            )
        ]
    if isinstance(value, dict):
        return [
            ObjAlt(
                props=tuple(
                    (k, ctx.const_sub(v, f"{pointer}/{escape_pointer(k)}"))
                    for k, v in value.items()
                ),
                rules=(ObjRule(additional=frozenset({ctx.false_node})),),
                required=frozenset(value),
            )
        ]
    raise SchemaError(f"not a JSON value: {value!r}", keyword="const", pointer=pointer)


# ---------------------------------------------------------------- negation


def _sub_is_true(ctx: SchemaContext, sub: Sub) -> bool:
    if not sub:
        return True
    alts = ctx.sub_ir(sub)
    return all(a in alts for a in all_alts())


def negate(ctx: SchemaContext, alts: list[Alt], pointer: str) -> list[Alt]:
    """The complement of a union of alternatives, where tractable."""
    result = all_alts()
    for alt in alts:
        result = intersect(result, negate_alt(ctx, alt, pointer), "not", pointer)
    return result


def negate_alt(ctx: SchemaContext, alt: Alt, pointer: str) -> list[Alt]:
    others: list[Alt] = [a for a in all_alts() if type(a) is not type(alt)]
    inside: list[Alt] | None = None
    if isinstance(alt, NullAlt):
        inside = []
    elif isinstance(alt, BoolAlt):
        rest = frozenset({True, False}) - alt.values
        inside = [BoolAlt(rest)] if rest else []
    elif isinstance(alt, NumAlt):
        # not (bounds and D) = (outside the bounds) or (inside them and not D)
        inside = []
        if alt.lo is not None:
            inside.append(NumAlt(hi=alt.lo, hi_excl=not alt.lo_excl))
        if alt.hi is not None:
            inside.append(NumAlt(lo=alt.hi, lo_excl=not alt.hi_excl))
        # ... and inside: not a multiple of the modulus, or a multiple of an excluded one
        within = replace(alt, integer=False, multiples=(), excluded=())
        modulus = alt.modulus
        if modulus is not None:
            inside.append(replace(within, excluded=(modulus,)))
        inside += [replace(within, multiples=(m,)) for m in alt.excluded]
    elif isinstance(alt, StrAlt):
        if alt.unconstrained:
            inside = []
        elif alt.literals is not None and not alt.patterns and not alt.formats:
            inside = [StrAlt(excluded=alt.literals)]
        elif alt.excluded and alt == StrAlt(excluded=alt.excluded):
            inside = [StrAlt(literals=alt.excluded)]
        elif not alt.patterns and not alt.formats and not alt.excluded:
            inside = []
            if alt.min_length > 0:
                inside.append(StrAlt(max_length=alt.min_length - 1))
            if alt.max_length is not None:
                inside.append(StrAlt(min_length=alt.max_length + 1))
        else:  # patterns, formats, exclusions: the complement automaton
            inside = [StrAlt(negated=frozenset({alt}))]
    elif isinstance(alt, ArrAlt):
        inside = _negate_array(ctx, alt, pointer)
    else:
        inside = _negate_object(ctx, alt, pointer)
    if inside is None:
        ctx.decline(
            f"cannot negate this {TYPE_OF[type(alt)]} schema exactly",
            "not",
            pointer,
        )
        return all_alts()  # lenient: the negation is dropped
    return others + inside


def _complement(ctx: SchemaContext, sub: Sub, pointer: str) -> Sub:
    bad = frozenset({ctx.synthetic("not", {}, pointer, inner=sub)})
    ctx.precompute(bad)
    return bad


def _negate_array(ctx: SchemaContext, alt: ArrAlt, pointer: str) -> list[Alt] | None:
    """not(c1 and c2 and ...) = not c1 or not c2 or ...: one alternative per
    constraint of ``alt`` (``None`` where one has no complement here)."""
    if alt.unique or alt.contains:
        return None
    inside: list[Alt] = []
    for i, sub in enumerate(alt.prefix):
        if not _sub_is_true(ctx, sub):
            bad = _complement(ctx, sub, pointer)
            inside.append(ArrAlt(prefix=(TRUE,) * i + (bad,), min_items=i + 1))
    if not _sub_is_true(ctx, alt.items):
        if alt.prefix:
            return None  # "an item after the prefix fails": no contains with an offset
        inside.append(ArrAlt(contains=((_complement(ctx, alt.items, pointer), 1, None),)))
    if alt.min_items > 0:
        inside.append(ArrAlt(max_items=alt.min_items - 1))
    if alt.max_items is not None:
        inside.append(ArrAlt(min_items=alt.max_items + 1))
    return inside


def _negate_object(ctx: SchemaContext, alt: ObjAlt, pointer: str) -> list[Alt] | None:
    """De Morgan over the constraints of ``alt`` (as ``_negate_array``): a missing
    required key, a present forbidden set, a present key whose value fails, a
    count outside the bounds, a dependency broken."""
    rules_true = all(
        _sub_is_true(ctx, r.additional) and all(_sub_is_true(ctx, s) for _, s in r.patterns)
        for r in alt.rules
    )
    if not rules_true or not _sub_is_true(ctx, alt.names):
        return None
    inside: list[Alt] = []
    if alt.required:
        inside.append(ObjAlt(forbid_all=(alt.required,)))
    inside += [ObjAlt(required=keys) for keys in alt.forbid_all]
    for key, deps in alt.dependent:
        for dep in sorted(deps):
            inside.append(ObjAlt(required=frozenset({key}), forbid_all=(frozenset({dep}),)))
    for key, sub in alt.props:
        if not _sub_is_true(ctx, sub):
            bad = _complement(ctx, sub, pointer)
            inside.append(ObjAlt(props=((key, bad),), required=frozenset({key})))
    if alt.min_props > 0:
        inside.append(ObjAlt(max_props=alt.min_props - 1))
    if alt.max_props is not None:
        inside.append(ObjAlt(min_props=alt.max_props + 1))
    return inside


# --------------------------------------------------------------- emptiness


def alt_empty(ctx: SchemaContext, alt: Alt, depth: int = 0) -> bool:
    """Whether ``alt`` provably matches nothing (may answer ``False`` when unsure)."""
    if depth > 8:
        return False
    if isinstance(alt, NumAlt):
        return num_empty(alt)
    if isinstance(alt, StrAlt):
        if alt.literals is not None and not alt.literals:
            return True
        if not alt.negated and len(alt.patterns) + len(alt.formats) < 2:
            return False  # one pattern or format: left to the compiler
        from pse.types.json.json_string import str_alt_dfa  # noqa: PLC0415

        try:
            return str_alt_dfa(alt).is_empty()
        except SchemaError:
            return False
    if isinstance(alt, ArrAlt):
        if any(sub_empty(ctx, p, depth + 1) for p in alt.prefix[: alt.min_items]):
            return True
        return alt.min_items > len(alt.prefix) and sub_empty(ctx, alt.items, depth + 1)
    if isinstance(alt, ObjAlt):
        for name in alt.required:
            if sub_empty(ctx, _obj_value(alt, name), depth + 1):
                return True
        return any(r <= alt.required for r in alt.forbid_all)
    return False


def sub_empty(ctx: SchemaContext, sub: Sub, depth: int = 0) -> bool:
    try:
        alts = ctx.sub_ir(sub)
    except SchemaError:
        return False
    return all(alt_empty(ctx, a, depth) for a in alts)


def disjoint(ctx: SchemaContext, xs: list[Alt], ys: list[Alt]) -> bool:
    for x in xs:
        for y in ys:
            z = intersect_alt(x, y)
            if z is not None and not alt_empty(ctx, z):
                return False
    return True


def known_keyword(name: str) -> bool:
    return name in BY_NAME


def declined_keywords(schema: Mapping[str, Any]) -> list[str]:
    return [k for k in schema if k in DECLINED]


def annotation(name: str) -> bool:
    kw = BY_NAME.get(name)
    return kw is None or kw.handling is Handling.ANNOTATION


__all__ = [
    "TRUE",
    "Alt",
    "ArrAlt",
    "BoolAlt",
    "CompileOptions",
    "Node",
    "NullAlt",
    "NumAlt",
    "ObjAlt",
    "ObjRule",
    "SchemaContext",
    "StrAlt",
    "Sub",
    "alt_empty",
    "all_alts",
    "decimal_lcm",
    "disjoint",
    "intersect",
    "intersect_alt",
    "json_equal_key",
    "negate",
    "num_accepts",
    "sub_empty",
    "to_decimal",
    "union",
    "value_alts",
]
