"""Property: for any typed tool signature, every call PSE lets through binds and runs.

Hypothesis draws signatures (parameter types from a pool, some with
defaults); each becomes a real function, its ``Tool.to_dict()`` drives a
``StructuringEngine`` walk, and the generated call must validate with
``jsonschema`` and run through ``invoke`` without an error, each argument
arriving as its annotated type (a Pydantic model, not a dict): the schema
describes exactly what the function accepts.
"""

from __future__ import annotations

import asyncio
import json
import keyword
from typing import Any, Literal

import jsonschema
import pytest
from _support.tokenizers import smollm2_tokenizer
from agent.tools import Tool, invoke
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pba.tools.engine_walk import walk
from pydantic import BaseModel

from pse.structuring_engine import StructuringEngine


class Item(BaseModel):
    label: str
    weight: float


TYPES: dict[str, Any] = {
    "int": int,
    "float": float,
    "str": str,
    "bool": bool,
    "list_int": list[int],
    "opt_str": str | None,
    "choice": Literal["red", "green"],
    "item": Item,
    "items": list[Item],
    "mapping": dict[str, int],
}

# The caller, names the function body uses, and BaseModel's attributes: pse builds the
# schema through a Pydantic model, which warns (an error under pytest) on a field that
# shadows one of them.
RESERVED = {"self", "cls", "json", "type_names", *dir(BaseModel)}

signatures = st.lists(
    st.tuples(st.from_regex(r"[a-z][a-z0-9]{0,7}", fullmatch=True), st.sampled_from(sorted(TYPES))),
    min_size=0,
    max_size=4,
    unique_by=lambda pair: pair[0],
).filter(lambda pairs: not any(name in RESERVED or keyword.iskeyword(name) for name, _ in pairs))


EXPECTED = {
    "int": {"int"},
    "float": {"float"},
    "str": {"str"},
    "bool": {"bool"},
    "list_int": {"list[int]"},
    "opt_str": {"str", "NoneType"},
    "choice": {"str"},
    "item": {"Item"},
    "items": {"list[Item]"},
    "mapping": {"dict"},
}


def type_names(values: dict[str, Any]) -> dict[str, str]:
    """What each argument arrived as (lists with their element types)."""
    names = {}
    for key, value in values.items():
        if isinstance(value, list):
            inner = {type(item).__name__ for item in value}
            names[key] = f"list[{inner.pop()}]" if len(inner) == 1 else "list"
        else:
            names[key] = type(value).__name__
    return names


def make_function(pairs: list[tuple[str, str]], defaults: int) -> Any:
    """A function ``tool(self, <pairs>)`` that returns the type of each argument as
    JSON; the last ``defaults`` parameters are optional (default None)."""
    namespace: dict[str, Any] = {"json": json, "type_names": type_names}
    parameters = []
    for index, (name, kind) in enumerate(pairs):
        namespace[f"T_{name}"] = TYPES[kind]
        optional = index >= len(pairs) - defaults
        parameters.append(f"{name}: T_{name}" + (" = None" if optional else ""))
    names = ", ".join(f"{name!r}: {name}" for name, _ in pairs)
    source = (
        f"def tool(self, {', '.join(parameters)}):\n"
        f'    """A generated tool."""\n'
        f"    return json.dumps(type_names({{{names}}}))\n"
    )
    exec(source, namespace)
    return namespace["tool"]


@pytest.fixture(scope="module")
def engine() -> StructuringEngine:
    return StructuringEngine(smollm2_tokenizer())


@settings(max_examples=25, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(pairs=signatures, defaults=st.integers(0, 2), seed=st.integers(0, 2**16))
def test_generated_calls_bind_and_run(
    engine: StructuringEngine, pairs: list[tuple[str, str]], defaults: int, seed: int
) -> None:
    tool = Tool("tool", callable=make_function(pairs, defaults))
    schema = tool.to_dict()
    engine.configure(schema)
    call = json.loads(walk(engine, seed))
    jsonschema.validate(call, schema)
    result = asyncio.run(invoke(tool, None, call["arguments"]))
    assert not result.is_error, result.content
    arrived = json.loads(result.content)
    kinds = dict(pairs)
    for name in call["arguments"]:
        expected = EXPECTED[kinds[name]]
        if kinds[name] in ("list_int", "items") and not call["arguments"][name]:
            expected = {"list"}  # an empty list has no element type
        assert arrived[name] in expected, (name, arrived[name], call["arguments"][name])
