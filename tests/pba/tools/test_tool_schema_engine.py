"""Tool schemas drive PSE: ``to_dict()`` compiles, and every call the engine lets through is valid.

Random allowed tokens are walked through a real ``StructuringEngine`` (SmolLM2's
tokenizer) configured with tool schemas; each generated call must parse as
JSON, validate against the tool's schema with ``jsonschema`` and parse as a
``ToolCall``.
"""

from __future__ import annotations

import json
from typing import Any, Literal

import jsonschema
import pytest
from _support.tokenizers import smollm2_tokenizer
from agent.tools import Tool, ToolCall
from pba.tools.engine_walk import walk
from pydantic import BaseModel

from pse.structuring_engine import StructuringEngine


def calculator(self: Any, num1: float, num2: float, operation: str = "add") -> str:
    """Performs basic arithmetic.

    Args:
        num1: The first number.
        num2: The second number.
        operation: The operation to perform.
    """
    return ""


class Address(BaseModel):
    street: str
    zip_code: int


def register(
    self: Any, name: str, tags: list[str], mode: Literal["fast", "safe"], home: Address
) -> str:
    """Register someone."""
    return ""


def local_tools() -> list[Tool]:
    return [
        *Tool.load(),
        Tool("calculator", callable=calculator),
        Tool("register", callable=register),
    ]


@pytest.fixture(scope="module")
def tokenizer() -> Any:
    return smollm2_tokenizer()


@pytest.mark.parametrize("tool", local_tools(), ids=lambda tool: tool.name)
def test_each_tool_schema_compiles_and_generates_valid_calls(tool: Tool, tokenizer: Any) -> None:
    schema = tool.to_dict()
    jsonschema.Draft202012Validator.check_schema(schema)
    engine = StructuringEngine(tokenizer)
    for seed in range(3):
        engine.configure(schema)
        text = walk(engine, seed)
        call = json.loads(text)
        jsonschema.validate(call, schema)
        parsed = ToolCall.model_validate(call)
        assert parsed.name == tool.name


def test_a_choice_between_all_tools_yields_a_call_of_one_of_them(tokenizer: Any) -> None:
    tools = {tool.name: tool for tool in local_tools()}
    schemas = [tool.to_dict() for tool in tools.values()]
    engine = StructuringEngine(tokenizer)
    names = set()
    for seed in range(6):
        engine.configure(schemas)
        call = json.loads(walk(engine, seed))
        jsonschema.validate(call, tools[call["name"]].to_dict())
        names.add(call["name"])
    assert names <= tools.keys()
