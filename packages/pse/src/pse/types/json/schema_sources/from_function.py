"""Callables as JSON Schema: the signature's parameters as an object."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any, get_type_hints

from docstring_parser import parse as parse_docstring

from pse.types.json.schema_sources.from_pydantic import _strip_set_uniqueness


def callable_to_schema(function: Callable[..., Any]) -> dict[str, Any]:
    """The JSON Schema of ``function``'s arguments, as one object.

    Parameters become properties (``self``/``cls``, ``*args`` and ``**kwargs``
    are skipped); type hints give their schemas (through Pydantic), defaults
    make them optional, and the docstring (parsed with ``docstring-parser``)
    gives the object's ``description`` and each property's. The object's
    ``title`` is the function's name; ``additionalProperties`` is false.
    """
    from pydantic import Field, create_model  # noqa: PLC0415

    signature = inspect.signature(function)
    try:
        hints = get_type_hints(function)
    except (NameError, TypeError):
        hints = {}
    doc = parse_docstring(inspect.getdoc(function) or "")
    descriptions = {p.arg_name: p.description for p in doc.params if p.description}
    fields: dict[str, Any] = {}
    for name, param in signature.parameters.items():
        if name in ("self", "cls") or param.kind in (
            inspect.Parameter.VAR_POSITIONAL,
            inspect.Parameter.VAR_KEYWORD,
        ):
            continue
        annotation = hints.get(
            name, Any if param.annotation is inspect.Parameter.empty else param.annotation
        )
        default = ... if param.default is inspect.Parameter.empty else param.default
        fields[name] = (annotation, Field(default, description=descriptions.get(name)))
    name = getattr(function, "__name__", type(function).__name__)
    model = create_model(name, **fields)
    schema: dict[str, Any] = model.model_json_schema(by_alias=True, mode="validation")
    _strip_set_uniqueness(schema)
    schema["title"] = name
    schema["additionalProperties"] = False
    description = "\n\n".join(
        part for part in (doc.short_description, doc.long_description) if part
    )
    if description:
        schema["description"] = description
    else:
        schema.pop("description", None)
    return schema


__all__ = ["callable_to_schema"]
