"""Pydantic models as JSON Schema (``model_json_schema`` plus docstrings)."""

from __future__ import annotations

import inspect
from typing import Any

from docstring_parser import parse as parse_docstring


def is_pydantic_model(obj: Any) -> bool:
    """Whether ``obj`` is a Pydantic ``BaseModel`` subclass."""
    try:
        from pydantic import BaseModel  # noqa: PLC0415
    except ImportError:  # pragma: no cover - pydantic is a dependency
        return False
    return inspect.isclass(obj) and issubclass(obj, BaseModel)


def _strip_set_uniqueness(node: Any) -> None:
    """Drop ``uniqueItems`` that Pydantic emits for ``set`` fields.

    Pydantic validates a JSON array with duplicates into a set (it removes
    them), so for a Pydantic source the array need not be unique: dropping the
    keyword accepts exactly what the model accepts.
    """
    if isinstance(node, dict):
        if node.get("uniqueItems") is True and node.get("type") == "array":
            del node["uniqueItems"]
        for value in node.values():
            _strip_set_uniqueness(value)
    elif isinstance(node, list):
        for value in node:
            _strip_set_uniqueness(value)


def _describe(model: type[Any], schema: dict[str, Any]) -> None:
    doc = inspect.getdoc(model)
    if not doc or doc == inspect.getdoc(model.__mro__[1]):
        return
    parsed = parse_docstring(doc)
    description = "\n\n".join(
        part for part in (parsed.short_description, parsed.long_description) if part
    )
    if description and "description" not in schema:
        schema["description"] = description
    props = schema.get("properties", {})
    for param in parsed.params:
        prop = props.get(param.arg_name)
        if isinstance(prop, dict) and param.description and "description" not in prop:
            prop["description"] = param.description


def pydantic_to_schema(model: type[Any]) -> dict[str, Any]:
    """The JSON Schema of ``model`` in validation mode, by alias.

    Nested and recursive models come as ``$defs``/``$ref``; field and model
    docstrings (Google/NumPy/reST ``Args``/``Attributes``) become descriptions.
    """
    schema: dict[str, Any] = model.model_json_schema(by_alias=True, mode="validation")
    _describe(model, schema)
    _strip_set_uniqueness(schema)
    return schema


__all__ = ["is_pydantic_model", "pydantic_to_schema"]
