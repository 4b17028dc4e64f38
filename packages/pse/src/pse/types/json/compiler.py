"""The JSON Schema compiler: schema alternatives to native state machines.

``Compiler.compile_sub`` expands a ``Sub`` (a conjunction of schema nodes) into
its alternatives and builds one machine per alternative, memoised per ``Sub``;
a ``Sub`` met again while it is being built becomes a ``RefStateMachine``, so
recursive schemas give finite graphs.
"""

from __future__ import annotations

from typing import Any

from pse_core._core import RefStateMachine, StateMachine
from pse_core.errors import SchemaError

from pse.types.base.phrase import PhraseStateMachine
from pse.types.boolean import BooleanStateMachine
from pse.types.json.schema_ir import (
    Alt,
    ArrAlt,
    BoolAlt,
    CompileOptions,
    NullAlt,
    NumAlt,
    ObjAlt,
    SchemaContext,
    StrAlt,
    Sub,
    alt_empty,
)
from pse.types.whitespace import WhitespaceStateMachine


class NeverStateMachine(StateMachine):
    """Matches nothing: the compiled form of an unsatisfiable schema (``false``)."""

    def __init__(self) -> None:
        super().__init__({0: []}, start_state=0, end_states=["$"])


class Compiler:
    """One compilation: a ``SchemaContext`` plus the machine memo and shared leaves."""

    def __init__(self, root: Any, options: CompileOptions | None = None) -> None:
        self.ctx = SchemaContext(root, options or CompileOptions())
        self.options = self.ctx.options
        self._memo: dict[Sub, StateMachine] = {}
        self._refs: dict[Sub, RefStateMachine | None] = {}
        self._ws: WhitespaceStateMachine | None = None
        self.notes: list[str] = []

    # ------------------------------------------------------------- leaves
    def ws(self) -> WhitespaceStateMachine:
        """The shared optional whitespace gap (``max_whitespace`` characters at most)."""
        if self._ws is None:
            self._ws = WhitespaceStateMachine(max_whitespace=self.options.max_whitespace)
        return self._ws

    # ------------------------------------------------------------ compile
    def compile_root(self) -> StateMachine:
        return self.compile_sub(frozenset({self.ctx.root_node}))

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
        if isinstance(alt, StrAlt):
            from pse.types.json.json_string import build_string  # noqa: PLC0415

            return build_string(self, alt)
        if isinstance(alt, ArrAlt):
            from pse.types.json.json_array import ArraySchemaStateMachine  # noqa: PLC0415

            return ArraySchemaStateMachine.from_alt(self, alt)
        assert isinstance(alt, ObjAlt)
        from pse.types.json.json_object import ObjectSchemaStateMachine  # noqa: PLC0415

        return ObjectSchemaStateMachine.from_alt(self, alt)

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
