"""Type-guided parsing with Pydantic (Phase 1.3)."""

from __future__ import annotations

import ast
from typing import Any, Generic, TypeVar

from pydantic import BaseModel, ValidationError

from pgents.confidence import BASE, with_repairs
from pgents.protocol import BaseParser
from pgents.repair import repair_json
from pgents.result import ParseResult

__all__ = ["PydanticParser"]

M = TypeVar("M", bound=BaseModel)


class PydanticParser(BaseParser[M], Generic[M]):
    """Text to a validated ``model`` instance.

    Reads JSON (repaired, with the model's JSON Schema guiding coercions) or
    the constructor-call form models also emit, ``Model(field="value")``
    (read with ``ast``, literals only: nothing is executed). Validation errors
    come back as precise ``error`` text. Confidence 0.9, lowered by repairs.
    """

    name = "pydantic"

    def __init__(self, model: type[M]) -> None:
        self.model = model
        self.schema = model.model_json_schema()

    def _parse(self, text: str) -> ParseResult[M]:
        call = _constructor_call(text, self.model.__name__)
        repairs: list[str] = []
        if call is not None:
            data: Any = call
            repairs.append("read a constructor call")
        else:
            out = repair_json(text, schema=self.schema)
            if not out.found:
                return ParseResult.fail(out.error or "no JSON found", self.name)
            data, repairs = out.value, out.repairs
        try:
            instance = self.model.model_validate(data)
        except ValidationError as exc:
            return ParseResult.fail(str(exc), self.name, repairs=repairs)
        return ParseResult.ok(
            instance, with_repairs(BASE["pydantic"], len(repairs)), self.name, repairs=repairs
        )


def _constructor_call(text: str, model_name: str) -> dict[str, Any] | None:
    start = text.find(model_name + "(")
    if start < 0:
        return None
    snippet = text[start:].strip()
    for end in range(len(snippet), 0, -1):
        if snippet[end - 1] != ")":
            continue
        try:
            tree = ast.parse(snippet[:end], mode="eval")
        except (SyntaxError, ValueError, RecursionError):
            continue
        node = tree.body
        if not isinstance(node, ast.Call) or node.args:
            return None
        try:
            return {kw.arg: ast.literal_eval(kw.value) for kw in node.keywords if kw.arg}
        except (ValueError, SyntaxError, TypeError, RecursionError):
            return None
    return None
