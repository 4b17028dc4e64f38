"""Schema sources: Pydantic models and callables as JSON Schema."""

from pse.types.json.schema_sources.from_function import callable_to_schema
from pse.types.json.schema_sources.from_pydantic import pydantic_to_schema

__all__ = ["callable_to_schema", "pydantic_to_schema"]
