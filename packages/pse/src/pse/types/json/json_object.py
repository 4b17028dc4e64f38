"""ObjectSchemaStateMachine: a JSON object under a schema's object keywords
(the graph, and what the property order modes mean, are in ``object_graph.py``)."""

from __future__ import annotations

from typing import Any

from pse.types.json.compiler import compiler_for
from pse.types.json.machines import seal_grammar
from pse.types.json.object_graph import (
    ObjectGraphStateMachine,
    ObjectSchemaStepper,
    build_object_graph,
)
from pse.types.json.schema_ir import ObjAlt


class ObjectSchemaStateMachine(ObjectGraphStateMachine):
    """A JSON object valid against a schema's object keywords.

    ``ObjectSchemaStateMachine(schema, context)``; ``properties``,
    ``required_property_names`` and ``additional_properties`` override the
    schema's keywords, ``ordered_properties`` picks the property order mode.
    The value is the ``dict`` (parsed from the text read so far once complete).
    """

    def __init__(
        self,
        schema: dict[str, Any] | None = None,
        context: Any = None,
        properties: dict[str, Any] | None = None,
        required_property_names: list[str] | None = None,
        additional_properties: Any = None,
        ordered_properties: bool = True,
        *,
        is_optional: bool = False,
        identifier: str | None = None,
        **options: Any,
    ) -> None:
        full: dict[str, Any] = {"type": "object", **(schema or {})}
        if properties is not None:
            full["properties"] = properties
        if required_property_names is not None:
            full["required"] = list(required_property_names)
        if additional_properties is not None and additional_properties != {}:
            full["additionalProperties"] = additional_properties
        if full.get("orderedProperties") is False:
            ordered_properties = False
        comp = compiler_for(full, context, ordered_properties=ordered_properties, **options)
        alts = [
            a for a in comp.ctx.sub_ir(frozenset({comp.ctx.root_node})) if isinstance(a, ObjAlt)
        ]
        graph = build_object_graph(comp, alts[0]) if len(alts) == 1 else None
        if graph is None:
            graph = {0: [(comp.compile_alts(list(alts)), "$")]}
        super().__init__(graph, is_optional=is_optional, identifier=identifier)
        seal_grammar(self)  # a finished grammar of its own (see Compiler.compile_root)
        self.schema = schema


__all__ = ["ObjectSchemaStateMachine", "ObjectSchemaStepper", "build_object_graph"]
