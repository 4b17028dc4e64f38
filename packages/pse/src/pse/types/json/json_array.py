"""ArraySchemaStateMachine: a JSON array under a schema's array keywords
(the graph is built by ``array_graph.py``)."""

from __future__ import annotations

from typing import Any

from pse.types.json.array_graph import (
    MAX_UNIQUE_DOMAIN,
    ArrayGraphStateMachine,
    ArraySchemaStepper,
    _domain,
    build_array_graph,
)
from pse.types.json.compiler import compiler_for
from pse.types.json.machines import seal_grammar
from pse.types.json.schema_ir import ArrAlt


class ArraySchemaStateMachine(ArrayGraphStateMachine):
    """A JSON array valid against a schema's array keywords.

    ``ArraySchemaStateMachine({"type": "array", "items": {"type": "string"}}, {})``.
    The value is the ``list`` (parsed from the text once complete).
    """

    def __init__(
        self,
        schema: dict[str, Any] | None = None,
        context: Any = None,
        *,
        is_optional: bool = False,
        identifier: str | None = None,
        **options: Any,
    ) -> None:
        comp = compiler_for({"type": "array", **(schema or {})}, context, **options)
        alts = [
            a for a in comp.ctx.sub_ir(frozenset({comp.ctx.root_node})) if isinstance(a, ArrAlt)
        ]
        graph = build_array_graph(comp, alts[0]) if len(alts) == 1 else None
        if graph is None:
            graph = {0: [(comp.compile_alts(list(alts)), "$")]}
        super().__init__(graph, is_optional=is_optional, identifier=identifier)
        seal_grammar(self)  # a finished grammar of its own (see Compiler.compile_root)
        self.schema = schema


__all__ = [
    "MAX_UNIQUE_DOMAIN",
    "ArraySchemaStateMachine",
    "ArraySchemaStepper",
    "_domain",
    "build_array_graph",
]
