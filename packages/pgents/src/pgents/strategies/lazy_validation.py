"""Lazy validation (Phase 2.4): validate a field only when it is read."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from pydantic import BaseModel, TypeAdapter

from pgents.confidence import BASE, with_repairs
from pgents.protocol import BaseParser
from pgents.repair import repair_json
from pgents.result import ParseResult

__all__ = ["LazyValidatedDict", "LazyValidationParser"]


class LazyValidatedDict(Mapping[str, Any]):
    """A read-only mapping whose values are validated on first access.

    ``d[key]`` validates that one field (and caches it); a bad field raises
    ``pydantic.ValidationError`` at access time, the others stay usable.
    ``validated`` lists what has been checked so far.
    """

    def __init__(self, raw: dict[str, Any], types: Mapping[str, Any]) -> None:
        self._raw = raw
        self._adapters = {k: TypeAdapter(t) for k, t in types.items()}
        self._cache: dict[str, Any] = {}

    def __getitem__(self, key: str) -> Any:
        if key in self._cache:
            return self._cache[key]
        raw = self._raw[key]
        adapter = self._adapters.get(key)
        value = adapter.validate_python(raw) if adapter is not None else raw
        self._cache[key] = value
        return value

    def __iter__(self) -> Iterator[str]:
        return iter(self._raw)

    def __len__(self) -> int:
        return len(self._raw)

    @property
    def validated(self) -> list[str]:
        return list(self._cache)

    def raw(self) -> dict[str, Any]:
        """The unvalidated data."""
        return dict(self._raw)


class LazyValidationParser(BaseParser[LazyValidatedDict]):
    """Repaired JSON object to a :class:`LazyValidatedDict` checked against
    ``types`` (field name to type) or a Pydantic model's field annotations.
    Only the shape (an object with the required keys) is checked up front.
    """

    name = "lazy"

    def __init__(self, types: Mapping[str, Any] | type[BaseModel]) -> None:
        if isinstance(types, type) and issubclass(types, BaseModel):
            fields = types.model_fields
            self.types: dict[str, Any] = {k: f.annotation for k, f in fields.items()}
            self.required = [k for k, f in fields.items() if f.is_required()]
        else:
            self.types = dict(types)
            self.required = list(self.types)

    def _parse(self, text: str) -> ParseResult[LazyValidatedDict]:
        out = repair_json(text)
        if not out.found or not isinstance(out.value, dict):
            return ParseResult.fail(out.error or "not a JSON object", self.name)
        missing = [k for k in self.required if k not in out.value]
        if missing:
            return ParseResult.fail(f"missing fields {missing}", self.name, repairs=out.repairs)
        return ParseResult.ok(
            LazyValidatedDict(out.value, self.types),
            with_repairs(BASE["direct"], len(out.repairs)),
            self.name,
            repairs=out.repairs,
            metadata={"lazy_fields": list(self.types)},
        )
