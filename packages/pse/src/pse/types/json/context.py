"""One compilation's schema context: options, node interning, the IR memo, declines.

``SchemaContext.ir(node)`` computes the alternatives of one schema node once
(``schema_keywords.apply_keywords`` for schema objects); a node met again
while it is being computed, without entering an object or array, is a
circular schema.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from pse_core.errors import SchemaError

from pse.automata import SUPPORTED_FORMATS
from pse.types.json.algebra import alt_empty, by_type, intersect, negate
from pse.types.json.limits import (
    FRAMES_PER_LEVEL,
    MAX_ALTERNATIVES,
    MAX_DEPTH,
    MAX_OBJECT_STATES,
)
from pse.types.json.references import (
    References,
    draft_of,
    escape_pointer,
    registry_documents,
    schema_uri_of,
)
from pse.types.json.schema_ir import TRUE, Alt, Node, Scope, Sub, all_alts
from pse.types.json.schema_keywords import apply_keywords
from pse.types.json.values import value_alts


class _RecursionRoom:
    """Room on the interpreter's stack for ``MAX_DEPTH`` nested schema levels.

    Compiling recurses once per nesting level (about ``FRAMES_PER_LEVEL``
    Python frames), more than the default recursion limit allows at
    ``MAX_DEPTH``; the limit is raised while compilations run (in any thread)
    and put back when the last one ends, unless someone else changed it since.
    """

    lock = threading.Lock()
    users = 0
    saved = 0
    raised_to = 0


@contextmanager
def recursion_room() -> Iterator[None]:
    need = MAX_DEPTH * FRAMES_PER_LEVEL + 1000  # + the caller's frames
    with _RecursionRoom.lock:
        if _RecursionRoom.users == 0:
            _RecursionRoom.saved = sys.getrecursionlimit()
            _RecursionRoom.raised_to = 0
            if _RecursionRoom.saved < need:
                sys.setrecursionlimit(need)
                _RecursionRoom.raised_to = need
        _RecursionRoom.users += 1
    try:
        yield
    finally:
        with _RecursionRoom.lock:
            _RecursionRoom.users -= 1
            ours = _RecursionRoom.raised_to and sys.getrecursionlimit() == _RecursionRoom.raised_to
            if _RecursionRoom.users == 0 and ours:
                sys.setrecursionlimit(_RecursionRoom.saved)


def too_deep(pointer: str) -> SchemaError:
    """The error of a schema nested deeper than ``MAX_DEPTH`` levels at ``pointer``."""
    return SchemaError(
        f"the schema nests deeper than {MAX_DEPTH} levels (the compile limit MAX_DEPTH, "
        "pse.types.json.limits)",
        code="too-complex",
        pointer=pointer,
    )


def uses_keywords(names: tuple[str, ...], documents: Iterable[Any]) -> bool:
    """Whether any schema object in ``documents`` has one of the keywords ``names``."""
    wanted = frozenset(names)
    stack = list(documents)
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            if not wanted.isdisjoint(value):
                return True
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
    return False


_SCALARS = frozenset({str, int, float, bool, type(None)})


def leaf_key(schema: Any) -> tuple[Any, ...] | None:
    """A key by content for a schema object whose keywords all hold scalars or
    lists of scalars (``{"type": "string"}``, ``{"enum": [...]}``), with no
    ``$``-keyword (identifiers, anchors, references) and no ``format`` that
    is only an annotation (its pointer is listed): such a schema means the
    same wherever it stands. ``None`` for any other schema. Values are keyed
    with their types, so ``1``, ``1.0`` and ``true`` differ."""
    if not isinstance(schema, dict):
        return None
    key: list[tuple[Any, ...]] = []
    for name, value in schema.items():
        if not isinstance(name, str) or name[:1] == "$" and name != "$comment" or name == "id":
            return None
        kind = type(value)
        if kind is list:
            if not all(type(x) in _SCALARS for x in value):
                return None
            value = tuple((type(x), x) for x in value)
        elif kind not in _SCALARS or name == "format" and value not in SUPPORTED_FORMATS:
            return None
        key.append((name, kind, value))
    return tuple(key)


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
    max_object_states: int = MAX_OBJECT_STATES
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
        self._nodes: dict[tuple[int, str, Scope], Node] = {}
        self._keep: list[Any] = []
        self._ir: dict[Node, list[Alt]] = {}
        self._in_progress: set[Node] = set()
        # Complements are interned by what they complement, so that negating a
        # recursive schema meets the same node again (a cycle, like a $ref)
        # instead of building new complements forever.
        self._complements: dict[Sub, Node] = {}
        self._sub_ir: dict[Sub, list[Alt]] = {}
        #: Leaf schemas by content (``leaf_key``): equal ones share one node, so
        #: their alternatives and machine are computed once per compilation.
        self._leaves: dict[tuple[Any, str, Scope, str], Node] = {}
        #: ``sub_empty``'s answers: the greatest depth an emptiness was proved
        #: at, or -1 for a sub proved to allow some value.
        self._empty: dict[Sub, int] = {}
        #: How often ``alt_empty`` stopped at ``EMPTINESS_DEPTH`` (unsure).
        self.emptiness_cutoffs = 0
        #: Whether this compilation holds ``recursion_room`` (entered once, by
        #: its outermost call, not per schema node).
        self.room_held = False
        uri = schema_uri_of(self.root)
        if self.options.draft is None:
            self.options.draft = draft_of(uri)
        #: The draft whose keyword set applies: "6" for a draft-06 schema
        #: (compiled as draft 7, but without if/then/else).
        draft6 = self.options.draft == "7" and "draft-06" in uri
        self.dialect = "6" if draft6 else self.options.draft
        #: The dialect the root's ``$schema`` names ("2019-09" is compiled as 2020-12).
        self.declared = (
            "2019-09" if self.dialect == "2020-12" and "2019-09" in uri else self.dialect
        )
        self.refs = References(self.root, self.options.draft, self.declared, self.options.registry)
        #: Whether alternatives record what they evaluate (``unevaluated.py``).
        self.tracks_evaluation = self.dialect not in ("4", "6", "7") and uses_keywords(
            ("unevaluatedProperties", "unevaluatedItems"),
            [self.root, *registry_documents(self.options.registry).values()],
        )
        root_scope = self.refs.enter((), self.refs.root_base)
        self.root_node = self.node(self.root, self.refs.root_base, "", root_scope)
        self.false_node = self.node(False, "", "")

    @contextmanager
    def stack_room(self) -> Iterator[None]:
        """``recursion_room`` for this compilation, entered by the outermost caller only."""
        if self.room_held:
            yield
            return
        with recursion_room():
            self.room_held = True
            try:
                yield
            finally:
                self.room_held = False

    # -------------------------------------------------------------- nodes
    def node(self, schema: Any, base: str, pointer: str, scope: Scope = ()) -> Node:
        key = (id(schema), base, scope)
        found = self._nodes.get(key)
        if found is None:
            found = Node(schema, base, pointer, scope=scope)
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
        base = self.refs.base_of(schema, parent.base)
        scope = parent.scope if base == parent.base else self.refs.enter(parent.scope, base)
        leaf = leaf_key(schema) if not self.options.lenient else None
        if leaf is None:
            return frozenset({self.node(schema, base, pointer, scope)})
        where = (leaf, base, scope, self.dialect_at(parent))
        found = self._leaves.get(where)
        if found is None:
            found = self._leaves[where] = self.node(schema, base, pointer, scope)
        return frozenset({found})

    def declared_at(self, node: Node) -> str:
        """The dialect the document of ``node`` declares (2019-09 apart from 2020-12)."""
        if "#" in node.pointer:
            return self.refs.dialects.get(node.pointer.split("#", 1)[0], self.declared)
        return self.declared

    def dialect_at(self, node: Node) -> str:
        """The dialect of the document ``node`` lies in: a registry document that
        declares another draft is read by that draft's keyword set."""
        if self.refs.dialects and "#" in node.pointer:
            return self.refs.dialects.get(node.pointer.split("#", 1)[0], self.dialect)
        return self.dialect

    def resolve(self, ref: str, node: Node, keyword: str = "$ref") -> Node:
        """The node a ``$ref`` (``$dynamicRef``, ``$recursiveRef``) of ``node``
        names, in the dynamic scope of ``node`` with the target's resource entered."""
        if keyword == "$dynamicRef":
            target = self.refs.resolve_dynamic(ref, node.base, node.pointer, node.scope)
        elif keyword == "$recursiveRef":
            target = self.refs.resolve_recursive(ref, node.base, node.pointer, node.scope)
        else:
            target = self.refs.resolve(ref, node.base, node.pointer)
        schema, base, pointer = target
        return self.node(schema, base, pointer, self.refs.enter(node.scope, base))

    def complement(self, sub: Sub, pointer: str) -> Sub:
        """The synthetic schema ``not sub`` (computed now, to decline early)."""
        bad = frozenset({self.synthetic("not", {}, pointer, inner=sub)})
        self.precompute(bad)
        return bad

    def sub_is_true(self, sub: Sub) -> bool:
        """Whether ``sub`` allows every value."""
        if not sub:
            return True
        alts = self.sub_ir(sub)
        return all(a in alts for a in all_alts())

    def sub_empty(self, sub: Sub, depth: int = 0) -> bool:
        """Whether ``sub`` provably allows no value (``False`` when unsure).

        Memoised: the search is monotone in its depth budget (``alt_empty``
        answers "unsure" past ``EMPTINESS_DEPTH``), so an emptiness proved at
        ``depth`` holds at every smaller one, and a "no" reached without
        hitting the depth limit (``emptiness_cutoffs`` unchanged) holds at all."""
        known = self._empty.get(sub)
        if known is not None and (known < 0 or depth <= known):
            return known >= 0
        cutoffs = self.emptiness_cutoffs
        try:
            alts = self.sub_ir(sub)
        except SchemaError:
            self._empty[sub] = -1
            return False
        empty = all(alt_empty(self, a, depth) for a in alts)
        if empty:
            self._empty[sub] = max(depth, known or 0)
        elif self.emptiness_cutoffs == cutoffs:
            self._empty[sub] = -1
        return empty

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
        alts = by_type(self.ir(next(iter(sub)))) if len(sub) == 1 else None
        if alts is None or len(alts) > MAX_ALTERNATIVES:  # the latter: intersect raises
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
        if len(self._in_progress) > MAX_DEPTH:
            raise too_deep(node.pointer)
        self._in_progress.add(node)
        try:
            if self.room_held:
                alts = self._compute(node)
            else:
                with self.stack_room():
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
        return apply_keywords(self, node, schema)


__all__ = [
    "CompileOptions",
    "SchemaContext",
    "recursion_room",
    "leaf_key",
    "too_deep",
    "uses_keywords",
]
