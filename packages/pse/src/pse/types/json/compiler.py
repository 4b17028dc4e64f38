"""The JSON Schema compiler: schema alternatives to native state machines.

``Compiler.compile_sub`` expands a ``Sub`` (a conjunction of schema nodes) into
its alternatives and builds one machine per alternative, memoised per ``Sub``;
a ``Sub`` met again while it is being built becomes a ``RefStateMachine``, so
recursive schemas give finite graphs.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from pse_core._core import RefStateMachine, StateMachine
from pse_core.errors import SchemaError

from pse.types.base.phrase import PhraseStateMachine
from pse.types.boolean import BooleanStateMachine
from pse.types.json import unique_items
from pse.types.json.algebra import alt_empty
from pse.types.json.array_graph import ArrayGraphStateMachine
from pse.types.json.context import CompileOptions, SchemaContext, too_deep
from pse.types.json.limits import MAX_DEPTH
from pse.types.json.machines import (
    AlternativesStateMachine,
    LayoutWhitespaceStateMachine,
    NeverStateMachine,
    seal_grammar,
)
from pse.types.json.numbers import build_number
from pse.types.json.object_graph import ObjectGraphStateMachine
from pse.types.json.schema_ir import (
    Alt,
    ArrAlt,
    BoolAlt,
    NullAlt,
    NumAlt,
    ObjAlt,
    ObjRule,
    StrAlt,
    Sub,
)
from pse.types.json.strings import build_string
from pse.types.whitespace import WhitespaceStateMachine

WHITESPACE_MODES = ("standard", "compact", "free")


class Compiler:
    """One compilation: a ``SchemaContext`` plus the machine memo and shared leaves."""

    def __init__(self, root: Any, options: CompileOptions | None = None) -> None:
        self.ctx = SchemaContext(root, options or CompileOptions())
        self.options = self.ctx.options
        self._memo: dict[Sub, StateMachine] = {}
        self._refs: dict[Sub, RefStateMachine | None] = {}
        #: The first ``Sub`` compiled with each list of alternatives.
        self._by_alts: dict[tuple[Alt, ...], Sub] = {}
        self._ws: StateMachine | None = None
        self._ws_pair: StateMachine | None = None
        self._phrases: dict[str, StateMachine] = {}
        #: Whether a recursion made a ``RefStateMachine`` (a cycle ``release`` seals).
        self._made_refs = False
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

    def phrase(self, text: str) -> StateMachine:
        """The compilation's one ``PhraseStateMachine(text)`` (punctuation shared by
        every object and pair)."""
        found = self._phrases.get(text)
        if found is None:
            found = self._phrases[text] = PhraseStateMachine(text)
        return found

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
            with self.ctx.stack_room():
                machine = self.compile_sub(frozenset({self.ctx.root_node}))
            seal_grammar(machine)
        finally:
            self.release()
        return machine

    def release(self) -> None:
        """Free what the grammar does not use: machines built and then dropped (or
        all of them, when compilation failed) may hold recursive references
        (cycles); sealing them under a throwaway root makes those back-edges,
        so dropping the memo frees them. Without a recursion there is no cycle."""
        if self._memo and self._made_refs:
            edges: list[tuple[StateMachine, int | str]] = [(m, "$") for m in self._memo.values()]
            seal_grammar(StateMachine({0: edges}, start_state=0, end_states=["$"]))
        self._memo.clear()

    def compile_sub(self, sub: Sub) -> StateMachine:
        found = self._memo.get(sub)
        if found is not None:
            return found
        if self.ctx.room_held:
            return self._compile_new(sub)
        with self.ctx.stack_room():
            return self._compile_new(sub)

    def _compile_new(self, sub: Sub) -> StateMachine:
        """``sub``'s machine, built unless it is being built (a recursion: a
        ``RefStateMachine``) or another ``Sub`` with the same alternatives has
        one (a ``$ref`` and its target, equal subschemas): it is shared."""
        if sub in self._refs:
            ref = self._refs[sub]
            if ref is None:
                ref = RefStateMachine()
                self._refs[sub] = ref
                self._made_refs = True
            return ref
        if len(self._refs) > MAX_DEPTH:
            raise too_deep(min(node.pointer for node in sub))
        alts = self.ctx.sub_ir(sub)
        same = self._by_alts.setdefault(tuple(alts), sub)
        if same is not sub:
            return self.compile_sub(same)
        self._refs[sub] = None
        try:
            machine = self.compile_alts(alts)
        finally:
            ref = self._refs.pop(sub, None)
        if ref is not None:
            ref.set_target(machine)
            if self._ends_nowhere(machine):
                seal_grammar(machine)  # its recursion is a cycle: a back-edge once sealed
                machine = NeverStateMachine()
        self._memo[sub] = machine
        return machine

    def _ends_nowhere(self, machine: StateMachine) -> bool:
        """Whether the machine of a recursion (a ``Sub`` met again while it was
        built) matches nothing: a required part that holds its own schema with
        no way out. It then compiles to ``NeverStateMachine``, which the
        alternatives, properties and items that use it drop (kept, it would let
        generation enter a value it cannot finish). Asked once per recursion,
        when no other recursive reference is pending (a machine holding one
        whose target is still being built would look empty)."""
        if any(ref is not None for ref in self._refs.values()):
            return False
        return machine.accepts_nothing()

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
        return AlternativesStateMachine(machines)

    def compile_alt(self, alt: Alt) -> StateMachine:
        if isinstance(alt, NullAlt):
            return PhraseStateMachine("null")
        if isinstance(alt, BoolAlt):
            if len(alt.values) == 2:
                return BooleanStateMachine()
            return PhraseStateMachine("true" if True in alt.values else "false")
        if isinstance(alt, NumAlt):
            return build_number(self, alt)
        if isinstance(alt, StrAlt):
            return build_string(self, alt)
        if isinstance(alt, ArrAlt) and unique_items.needs_stepper(self, alt):
            return unique_items.build_unique(self, alt)
        if isinstance(alt, ArrAlt):
            return ArrayGraphStateMachine.from_alt(self, alt)
        assert isinstance(alt, ObjAlt)
        return ObjectGraphStateMachine.from_alt(self, self.strict_object(alt))

    # ------------------------------------------------------------- errors
    def reraise(self, exc: SchemaError, keyword: str | None, pointer: str) -> SchemaError:
        """``exc`` with the keyword and JSON pointer filled in."""
        return SchemaError(
            exc.message,
            code=exc.code,
            keyword=exc.keyword or keyword,
            pointer=exc.pointer or pointer,
        )


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
