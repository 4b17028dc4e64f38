"""One instance of every parser, for the law tests."""

from __future__ import annotations

import json
from typing import Any

import pgents
from pgents import (
    AnchorBasedParser,
    DiffBasedParser,
    EvolvingParser,
    FallbackParser,
    FIMParser,
    FusionParser,
    GraduatedPromptingParser,
    IdentityParser,
    IncrementalParser,
    JsonRepairParser,
    LazyValidationParser,
    ProbabilisticASTParser,
    PydanticParser,
    ReflectionParser,
    SequentialParser,
    StackBalancingParser,
    StructuralDecouplingParser,
    SwitchParser,
)
from pydantic import BaseModel


class Person(BaseModel):
    name: str
    age: int


def _fix(text: str, error: str, context: dict[str, Any]) -> str:
    return text + "}"


def _validate(value: Any) -> pgents.ParseResult[Any]:
    if isinstance(value, dict):
        return pgents.ParseResult.ok(value, 0.9, "validate")
    return pgents.ParseResult.fail("not an object", "validate")


def all_parsers() -> list[pgents.BaseParser[Any]]:
    json_parser = JsonRepairParser()
    return [
        IdentityParser(),
        json_parser,
        JsonRepairParser(schema={"type": "object", "properties": {"a": {"type": "integer"}}}),
        StackBalancingParser(),
        IncrementalParser(),
        ProbabilisticASTParser(),
        AnchorBasedParser(),
        FIMParser('{"name": "', '", "age": 42}'),
        PydanticParser(Person),
        LazyValidationParser(Person),
        GraduatedPromptingParser({"name": str, "age": int}),
        DiffBasedParser("<p>hello</p>"),
        EvolvingParser({"json": JsonRepairParser(), "anchor": AnchorBasedParser()}),
        ReflectionParser(base_parser=PydanticParser(Person), llm_fix_fn=_fix),
        StructuralDecouplingParser({"name": str, "age": int}, lambda p, k: json.dumps(p)[-8:]),
        FallbackParser(PydanticParser(Person), json_parser, AnchorBasedParser()),
        FusionParser(json_parser, StackBalancingParser()),
        SwitchParser({lambda t: t.startswith("{"): json_parser}, AnchorBasedParser()),
        SequentialParser(json_parser, _validate),
    ]
