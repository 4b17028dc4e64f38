"""Schema sources to state machines: the entry point ``StructuringEngine.configure`` uses.

``schema_to_state_machine(structure, **options)`` accepts

* a ``StateMachine`` (returned as is),
* a JSON Schema ``dict`` (draft 7 or 2020-12), a JSON string of one, or an
  envelope with the schema under ``"schema"`` (``{"name": ..., "schema": {...}}``),
* a Pydantic model class (``pydantic_to_schema``),
* a callable (``callable_to_schema``: its signature and docstring),
* a ``list``/``tuple`` of these: the output must match one of them.

Options: ``ordered_properties`` (default ``True``: properties in schema order;
``False``: any order), ``strict_properties`` (default ``True``: an object
schema generates only the properties it declares unless it speaks about
others; ``False``: JSON Schema's reading, any other key), ``whitespace``
(default ``"standard"``: compact, ``json.dumps`` spacing or a newline and at
most ``max_indent`` spaces (default 16); ``"compact"``: none; ``"free"``: any
JSON whitespace, ``max_whitespace`` characters per gap, default 20; giving
``max_whitespace`` alone selects ``"free"``; see docs/generation_defaults.md),
``lenient`` (default ``False``: refused keywords raise ``SchemaError``; ``True``
ignores them and lists them in ``ignored_keywords``), ``max_object_states``
(default 2048: property-set states of an object in any-order mode), ``draft``
(``"7"`` or ``"2020-12"``; default: from ``$schema``, else 2020-12),
``registry`` (other documents ``$ref`` may reach: a mapping from URI to schema
or a ``referencing.Registry``; nothing is fetched, and a reference to a
document that is not there is a ``SchemaError`` naming its URI).
"""

from __future__ import annotations

import inspect
import json
from collections.abc import Sequence
from typing import Any

from pse_core._core import StateMachine, Stepper
from pse_core.errors import SchemaError

from pse.types.base.encapsulated import encapsulate
from pse.types.json.compiler import Compiler, compiler_for
from pse.types.json.machines import AlternativesStateMachine, NeverStateMachine, parsed_value
from pse.types.json.schema_sources.from_function import callable_to_schema
from pse.types.json.schema_sources.from_pydantic import is_pydantic_model, pydantic_to_schema

_SCHEMA_HINTS = frozenset(
    {"type", "properties", "$ref", "anyOf", "oneOf", "allOf", "items", "enum", "const", "$defs"}
)


class JsonSchemaStateMachine(StateMachine):
    """The compiled root of one schema source.

    ``ignored_keywords`` lists ``(keyword, pointer)`` pairs a lenient
    compilation did not enforce; ``unknown_formats`` the ``format`` values that
    were treated as annotations; ``notes`` anything else worth knowing (e.g. an
    object compiled in schema order). The value is the parsed JSON.
    """

    def __init__(
        self,
        machine: StateMachine,
        schema: Any = None,
        *,
        ignored_keywords: Sequence[tuple[str, str]] = (),
        unknown_formats: Sequence[tuple[str, str]] = (),
        notes: Sequence[str] = (),
        identifier: str | None = None,
    ) -> None:
        super().__init__(
            {0: [(machine, "$")]}, start_state=0, end_states=["$"], identifier=identifier
        )
        self.machine = machine
        self.schema = schema
        self.ignored_keywords = list(ignored_keywords)
        self.unknown_formats = list(unknown_formats)
        self.notes = list(notes)

    def stepper_value(self, stepper: Stepper) -> Any:
        """The parsed JSON value once complete, else the raw text."""
        return parsed_value(stepper)


def to_json_schema(structure: Any) -> Any:
    """The JSON Schema of one schema source (dicts are returned as given)."""
    if isinstance(structure, str):
        try:
            structure = json.loads(structure)
        except ValueError as exc:
            raise SchemaError(
                f"the schema string is not JSON: {exc}", code="invalid-schema"
            ) from exc
    if isinstance(structure, bool):
        return structure
    if isinstance(structure, dict):
        inner = structure.get("schema")
        if isinstance(inner, dict | bool) and not (_SCHEMA_HINTS & structure.keys()):
            return inner
        return structure
    if is_pydantic_model(structure):
        return pydantic_to_schema(structure)
    if callable(structure) and not inspect.isclass(structure) or inspect.isfunction(structure):
        return callable_to_schema(structure)
    raise SchemaError(
        f"unsupported schema source: {type(structure).__name__} (expected a JSON Schema dict, "
        "a JSON string, a Pydantic model, a callable, a StateMachine or a list of these)",
        code="unsupported-source",
    )


def _compile_one(schema: Any, options: dict[str, Any]) -> tuple[StateMachine, Compiler]:
    comp = compiler_for(schema, None, **options)
    return comp.compile_root(), comp


def schema_to_state_machine(structure: Any, **options: Any) -> StateMachine:
    """Compile a schema source (see the module docstring) to a state machine."""
    if isinstance(structure, StateMachine):
        return structure
    unknown = set(options) - {
        "ordered_properties",
        "strict_properties",
        "whitespace",
        "max_indent",
        "max_whitespace",
        "lenient",
        "max_object_states",
        "draft",
        "registry",
    }
    if unknown:
        raise TypeError(f"unknown schema option(s): {', '.join(sorted(unknown))}")
    sources = list(structure) if isinstance(structure, list | tuple) else [structure]
    if not sources:
        raise SchemaError("an empty list of schemas matches nothing", code="invalid-schema")
    machines: list[StateMachine] = []
    ignored: list[tuple[str, str]] = []
    formats: list[tuple[str, str]] = []
    notes: list[str] = []
    schemas: list[Any] = []
    for source in sources:
        if isinstance(source, StateMachine):
            machines.append(source)
            schemas.append(None)
            continue
        schema = to_json_schema(source)
        machine, comp = _compile_one(schema, options)
        if not isinstance(machine, NeverStateMachine) or len(sources) == 1:
            machines.append(machine)
        schemas.append(schema)
        ignored += comp.ctx.ignored
        formats += comp.ctx.unknown_formats
        notes += comp.notes
    root = machines[0] if len(machines) == 1 else AlternativesStateMachine(machines)
    return JsonSchemaStateMachine(
        root,
        schemas[0] if len(schemas) == 1 else schemas,
        ignored_keywords=ignored,
        unknown_formats=formats,
        notes=notes,
    )


def json_schema_state_machine(
    schema: Any,
    delimiters: tuple[str, str] | None = None,
    buffer_length: int = -1,
    **options: Any,
) -> tuple[Any, StateMachine]:
    """The original helper: ``(json_schema, state_machine)`` for a schema source.

    ``json_schema`` is the JSON Schema the source stands for (a list of them
    for a list of sources; ``None`` for a ``StateMachine``); ``state_machine``
    is ``schema_to_state_machine(schema, **options)`` placed in free text by
    ``pse.types.base.encapsulated.encapsulate(..., delimiters, buffer_length)``.
    """
    machine = schema_to_state_machine(schema, **options)
    json_schema = machine.schema if isinstance(machine, JsonSchemaStateMachine) else None
    return json_schema, encapsulate(machine, delimiters, buffer_length)


__all__ = [
    "JsonSchemaStateMachine",
    "json_schema_state_machine",
    "schema_to_state_machine",
    "to_json_schema",
]
