"""The JSON Schema compiler: schema alternatives to native state machines.

``Compiler.compile_sub`` expands a ``Sub`` (a conjunction of schema nodes) into
its alternatives and builds one machine per alternative, memoised per ``Sub``;
a ``Sub`` met again while it is being built becomes a ``RefStateMachine``, so
recursive schemas give finite graphs.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from pse_core._core import RefStateMachine, StateMachine
from pse_core.errors import SchemaError

from pse.types.base.character import CharacterStateMachine
from pse.types.base.phrase import PhraseStateMachine
from pse.types.boolean import BooleanStateMachine
from pse.types.json import content, ecma_regex, idn_hostname, unique_items
from pse.types.json.checked_string import CheckedStringStateMachine, in_graph
from pse.types.json.schema_ir import (
    Alt,
    ArrAlt,
    BoolAlt,
    CompileOptions,
    NullAlt,
    NumAlt,
    ObjAlt,
    ObjRule,
    SchemaContext,
    StrAlt,
    Sub,
    alt_empty,
)
from pse.types.json.string_set import string_set_machine
from pse.types.whitespace import WhitespaceStateMachine

if TYPE_CHECKING:
    from pse_core._core import Edge

WHITESPACE_MODES = ("standard", "compact", "free")
#: Formats judged by a Python check instead of an automaton.
CHECKED_FORMATS = frozenset({idn_hostname.FORMAT, ecma_regex.FORMAT, *content.FORMATS})


class NeverStateMachine(StateMachine):
    """Matches nothing: the compiled form of an unsatisfiable schema (``false``)."""

    def __init__(self) -> None:
        super().__init__({0: []}, start_state=0, end_states=["$"])


class LayoutWhitespaceStateMachine(StateMachine):
    """An optional gap as models lay JSON out: one space, or a newline and an indent.

    Matches ``""``, ``" "``, or ``"\n"`` followed by at most ``max_indent``
    spaces: compact JSON, ``json.dumps``' default spacing and indented JSON up
    to that depth, but no runs of blank lines, tabs or stray spaces.
    """

    def __init__(self, max_indent: int = 16, newline: bool = True) -> None:
        edges: list[Edge] = [(PhraseStateMachine(" "), 2)]
        if newline:
            edges.append((PhraseStateMachine("\n"), 1))
        indent = CharacterStateMachine(" ", char_min=0, char_limit=max_indent, is_optional=True)
        super().__init__(
            {0: edges, 1: [(indent, 2)]}, start_state=0, end_states=[1, 2], is_optional=True
        )
        self.max_indent = max_indent


class Compiler:
    """One compilation: a ``SchemaContext`` plus the machine memo and shared leaves."""

    def __init__(self, root: Any, options: CompileOptions | None = None) -> None:
        self.ctx = SchemaContext(root, options or CompileOptions())
        self.options = self.ctx.options
        self._memo: dict[Sub, StateMachine] = {}
        self._refs: dict[Sub, RefStateMachine | None] = {}
        self._ws: StateMachine | None = None
        self._ws_pair: StateMachine | None = None
        self.notes: list[str] = []
        if self.options.whitespace is None:
            free = self.options.max_whitespace is not None
            self.options.whitespace = "free" if free else "standard"
        if self.options.whitespace not in WHITESPACE_MODES:
            raise ValueError(
                f"whitespace must be one of {', '.join(WHITESPACE_MODES)}, "
                f"got {self.options.whitespace!r}"
            )

    # ------------------------------------------------------------- leaves
    def ws(self) -> StateMachine:
        """The shared optional gap between tokens of arrays and objects (``whitespace``)."""
        if self._ws is None:
            mode = self.options.whitespace
            if mode == "free":
                limit = self.options.max_whitespace
                self._ws = WhitespaceStateMachine(max_whitespace=20 if limit is None else limit)
            elif mode == "compact":  # an optional gap with nothing to match
                self._ws = StateMachine({0: []}, start_state=0, end_states=[0], is_optional=True)
            else:
                self._ws = LayoutWhitespaceStateMachine(self.options.max_indent)
        return self._ws

    def ws_pair(self) -> StateMachine:
        """The gap around a key's ``:``: at most one space in ``standard`` mode."""
        if self.options.whitespace != "standard":
            return self.ws()
        if self._ws_pair is None:
            self._ws_pair = LayoutWhitespaceStateMachine(0, newline=False)
        return self._ws_pair

    def strict_object(self, alt: ObjAlt) -> ObjAlt:
        """``alt`` without undeclared keys under ``strict_properties`` (when that keeps it valid).

        Left as is: objects whose schema speaks about other keys (``alt.open``),
        that declare no properties, or that need keys they do not declare
        (``required``, ``dependentRequired``, ``minProperties``).
        """
        if not self.options.strict_properties or alt.open or not alt.props:
            return alt
        declared = {key for key, _ in alt.props}
        needed = set(alt.required).union(*(deps | {key} for key, deps in alt.dependent))
        if not needed <= declared or alt.min_props > len(declared):
            return alt
        closed = ObjRule(additional=frozenset({self.ctx.false_node}))
        return replace(alt, rules=(*alt.rules, closed))

    # ------------------------------------------------------------ compile
    def compile_root(self) -> StateMachine:
        """The finished grammar, sealed: its recursive references are back-edges and
        the root owns their targets, so the grammar is freed when it is dropped."""
        try:
            machine = self.compile_sub(frozenset({self.ctx.root_node}))
            seal_grammar(machine)
        finally:
            self.release()
        return machine

    def release(self) -> None:
        """Free what the grammar does not use: machines built and then dropped (or
        all of them, when compilation failed) may hold recursive references
        (cycles); sealing them under a throwaway root makes those back-edges,
        so dropping the memo frees them."""
        if self._memo:
            edges: list[tuple[StateMachine, int | str]] = [(m, "$") for m in self._memo.values()]
            seal_grammar(StateMachine({0: edges}, start_state=0, end_states=["$"]))
        self._memo.clear()

    def compile_sub(self, sub: Sub) -> StateMachine:
        found = self._memo.get(sub)
        if found is not None:
            return found
        if sub in self._refs:
            ref = self._refs[sub]
            if ref is None:
                ref = RefStateMachine()
                self._refs[sub] = ref
            return ref
        self._refs[sub] = None
        try:
            alts = self.ctx.sub_ir(sub)
            machine = self.compile_alts(alts)
        finally:
            ref = self._refs.pop(sub, None)
        if ref is not None:
            ref.set_target(machine)
        self._memo[sub] = machine
        return machine

    def compile_alts(self, alts: list[Alt]) -> StateMachine:
        machines: list[StateMachine] = []
        for alt in alts:
            if alt_empty(self.ctx, alt):
                continue
            machine = self.compile_alt(alt)
            if not isinstance(machine, NeverStateMachine):
                machines.append(machine)
        if not machines:
            return NeverStateMachine()
        if len(machines) == 1:
            return machines[0]
        from pse.types.json.any_json_schema import AnySchemaStateMachine  # noqa: PLC0415

        return AnySchemaStateMachine.from_machines(machines)

    def compile_alt(self, alt: Alt) -> StateMachine:
        if isinstance(alt, NullAlt):
            return PhraseStateMachine("null")
        if isinstance(alt, BoolAlt):
            if len(alt.values) == 2:
                return BooleanStateMachine()
            return PhraseStateMachine("true" if True in alt.values else "false")
        if isinstance(alt, NumAlt):
            from pse.types.json.json_number import build_number  # noqa: PLC0415

            return build_number(self, alt)
        if isinstance(alt, StrAlt) and not CHECKED_FORMATS.isdisjoint(alt.formats):
            return self.build_checked(alt)
        if isinstance(alt, StrAlt):
            from pse.types.json.json_string import build_string  # noqa: PLC0415

            return build_string(self, alt)
        if isinstance(alt, ArrAlt) and unique_items.needs_stepper(self, alt):
            return unique_items.build_unique(self, alt)
        if isinstance(alt, ArrAlt):
            from pse.types.json.json_array import ArraySchemaStateMachine  # noqa: PLC0415

            return ArraySchemaStateMachine.from_alt(self, alt)
        assert isinstance(alt, ObjAlt)
        from pse.types.json.json_object import ObjectSchemaStateMachine  # noqa: PLC0415

        return ObjectSchemaStateMachine.from_alt(self, self.strict_object(alt))

    def build_checked(self, alt: StrAlt) -> StateMachine:
        """A format judged by a Python check (``idn-hostname``, ``regex``) with length
        bounds or a literal set; with other string keywords (patterns, other formats,
        negations) it is declined."""
        (fmt,) = [f for f in alt.formats if f in CHECKED_FORMATS][:1]
        if fmt in content.FORMATS:
            machine: CheckedStringStateMachine = content.ContentStateMachine(fmt)
            if alt.literals is not None:
                names = [x for x in sorted(alt.literals) if content.valid(fmt, x)]
                return string_set_machine(names) if names else NeverStateMachine()
            if alt.min_length or alt.max_length is not None or len(alt.formats) > 1:
                raise SchemaError(
                    "contentMediaType together with lengths, pattern or format",
                    code="unsupported-keyword",
                    keyword="contentMediaType",
                    pointer=self.ctx.format_pointers.get(fmt, ""),
                )
            return in_graph(machine)
        check = idn_hostname if fmt == idn_hostname.FORMAT else ecma_regex
        if alt.patterns or len(alt.formats) > 1 or alt.excluded or alt.negated:
            raise SchemaError(
                f"format {fmt!r} together with pattern, another format or not",
                code="unsupported-keyword",
                keyword="format",
                pointer=self.ctx.format_pointers.get(fmt, ""),
            )
        if alt.literals is not None:
            names = [x for x in sorted(alt.literals) if check.valid(x)]
            return string_set_machine(names) if names else NeverStateMachine()
        if check is idn_hostname:
            if alt.min_length > idn_hostname.MAX_NAME:
                return NeverStateMachine()
            return idn_hostname.idn_hostname_machine(alt.min_length, alt.max_length)
        return in_graph(ecma_regex.RegexStateMachine(alt.min_length, alt.max_length))

    # ------------------------------------------------------------- errors
    def reraise(self, exc: SchemaError, keyword: str | None, pointer: str) -> SchemaError:
        """``exc`` with the keyword and JSON pointer filled in."""
        return SchemaError(
            exc.message,
            code=exc.code,
            keyword=exc.keyword or keyword,
            pointer=exc.pointer or pointer,
        )


def seal_grammar(machine: StateMachine) -> None:
    """``machine.seal()``; a development pse-core built before ``seal`` existed
    (pse and pse-core are released together) keeps the reference cycles."""
    seal = getattr(machine, "seal", None)
    if seal is not None:
        seal()


def compiler_for(schema: Any, context: Any = None, **options: Any) -> Compiler:
    """A ``Compiler`` from the documented ``(schema, context)`` pair.

    ``context`` may be a ``Compiler`` (reused), ``None`` or a dict (``{"defs":
    {...}}`` adds definitions that ``$ref: "#/$defs/..."`` can reach; other
    keys are informational).
    """
    if isinstance(context, Compiler):
        return context
    root = schema
    if isinstance(context, dict) and isinstance(schema, dict):
        defs = context.get("defs") or context.get("$defs")
        if isinstance(defs, dict):
            root = {**schema, "$defs": {**defs, **schema.get("$defs", {})}}
    known = {k: v for k, v in options.items() if k in CompileOptions.__dataclass_fields__}
    return Compiler(root, CompileOptions(**known))


__all__ = ["Compiler", "NeverStateMachine", "compiler_for"]
