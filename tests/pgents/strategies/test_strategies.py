"""Each strategy on the inputs it is meant for."""

from __future__ import annotations

import json
from typing import Any

from pgents import (
    AnchorBasedParser,
    DiffBasedParser,
    EvolvingParser,
    FIMParser,
    GraduatedPromptingParser,
    IncrementalParser,
    JsonRepairParser,
    LazyValidationParser,
    ProbabilisticASTParser,
    PydanticParser,
    ReflectionParser,
    StackBalancingParser,
    StructuralDecouplingParser,
)
from pgents.balance import complete_json
from pydantic import BaseModel, ValidationError


class Person(BaseModel):
    name: str
    age: int


def test_fim() -> None:
    parser = FIMParser('{"name": "', '", "age": 42}')
    assert parser.parse("Ada").value == {"name": "Ada", "age": 42}
    assert parser.parse("Ada").confidence == 0.95
    echoed = parser.parse('Ada", "age": 42}')
    assert echoed.value == {"name": "Ada", "age": 42} and echoed.repairs
    quoted = parser.parse('Ada "the first"')
    assert quoted.value == {"name": 'Ada "the first"', "age": 42} and quoted.repairs


def test_pydantic_json_and_constructor() -> None:
    parser = PydanticParser(Person)
    assert parser.parse('{"name": "Ada", "age": 36}').value == Person(name="Ada", age=36)
    call = parser.parse('Sure: Person(name="Ada", age=36)')
    assert call.value == Person(name="Ada", age=36)
    coerced = parser.parse("{'name': 'Ada', 'age': '36'}")
    assert coerced.value == Person(name="Ada", age=36) and coerced.confidence < 0.9
    bad = parser.parse('{"name": "Ada"}')
    assert not bad.success and "age" in (bad.error or "")


def test_stack_balancing_stream() -> None:
    chunks = ['{"items": [1, ', '2, {"a": "x', 'yz"}], "done": tr', "ue}"]
    results = list(StackBalancingParser().configure(stream_chunk_size=1).parse_stream(iter(chunks)))
    assert [r.value for r in results] == [
        {"items": [1]},
        {"items": [1, 2, {"a": "x"}]},
        {"items": [1, 2, {"a": "xyz"}]},
        {"items": [1, 2, {"a": "xyz"}], "done": True},
        {"items": [1, 2, {"a": "xyz"}], "done": True},
    ]
    assert results[-1].confidence == 0.75 and not results[-1].partial


def test_structural_decoupling() -> None:
    prompts: list[str] = []

    def fill(prompt: str, field: str) -> str:
        prompts.append(prompt)
        return {"name": 'Ada", "extra": 1}', "age": " 36 years"}[field]

    result = StructuralDecouplingParser({"name": str, "age": int}, fill).parse("Person: ")
    assert result.value == {"name": "Ada", "age": 36}
    assert prompts[0] == 'Person: {"name": "'
    assert prompts[1] == 'Person: {"name": "Ada", "age": '


def test_incremental_ast() -> None:
    parser = IncrementalParser().configure(stream_chunk_size=1)
    results = list(parser.parse_stream(iter(['{"a": [1, 2', '], "b": "hel', 'lo"}'])))
    first = results[0].value
    assert first is not None and not first.complete
    assert first.to_value() == {"a": [1]}  # "2" may still grow
    assert results[1].value is not None and results[1].value.to_value() == {"a": [1, 2], "b": "hel"}
    final = results[-1].value
    assert final is not None and final.complete and final.to_value() == {"a": [1, 2], "b": "hello"}


def test_lazy_validation() -> None:
    result = LazyValidationParser(Person).parse('{"name": "Ada", "age": "old"}')
    lazy = result.value
    assert lazy is not None and lazy["name"] == "Ada" and lazy.validated == ["name"]
    try:
        lazy["age"]
    except ValidationError:
        pass
    else:
        raise AssertionError("age should fail validation on access")


def test_reflection() -> None:
    calls: list[str] = []

    seen: list[dict[str, Any]] = []

    def fix(text: str, error: str, context: dict[str, Any]) -> str:
        calls.append(error)
        seen.append(context)
        return '{"name": "Ada", "age": 36}' if context["attempt"] == 1 else text

    parser = ReflectionParser(
        base_parser=PydanticParser(Person), llm_fix_fn=fix, context={"task": "person"}
    )
    result = parser.parse("{}")
    assert result.success and result.metadata["retries"] == 2
    assert result.confidence == 0.9 * 0.5
    assert len(calls) == 2 and "name" in calls[0]
    assert seen[1]["task"] == "person" and len(seen[1]["history"]) == 2
    never = ReflectionParser(PydanticParser(Person), lambda t, e, c: t).parse("{}")
    assert not never.success
    # the config fields bound the loop
    off = parser.configure(enable_reflection=False).parse("{}")
    assert not off.success and "0 retries" in (off.error or "")
    one = parser.configure(max_reflection_retries=1).parse("{}")
    assert not one.success and "1 retries" in (one.error or "")
    capped = parser.configure(max_attempts=2).parse("{}")
    assert not capped.success and "max_attempts" in (capped.error or "")


def test_graduated() -> None:
    parser = GraduatedPromptingParser({"name": str, "age": int})
    assert parser.parse('{"name": "Ada", "age": 36}').confidence == 1.0
    assert parser.parse("{'name': 'Ada', 'age': '36'}").confidence == 0.8
    regex = parser.parse("The name: Ada\nand age = 36")
    assert regex.value == {"name": "Ada", "age": 36} and regex.confidence == 0.5


def test_diff_based() -> None:
    parser = DiffBasedParser("<h1>Hello</h1><p>old</p>")
    result = parser.parse("Here are the edits:\ns/Hello/Hi/\ns|old|new|\ns/missing/x/")
    assert result.value == "<h1>Hi</h1><p>new</p>"
    assert result.repairs and result.metadata["applied"] == 2


def test_anchor() -> None:
    text = "Sure! Here are my ideas.\n###ITEM: first\n###ITEM: second\nThanks!"
    result = AnchorBasedParser(end_marker="Thanks").parse(text)
    assert result.value == ["first", "second"] and result.confidence == 0.7


def test_probabilistic_ast() -> None:
    result = ProbabilisticASTParser().parse('{"ok": 1, "bad": [1, 2, tru}')
    root = result.value
    assert root is not None
    ok, bad = root.find("$.ok"), root.find("$.bad[2]")
    assert ok is not None and ok.confidence == 1.0
    assert bad is not None and bad.confidence < 1.0
    assert result.confidence < 0.85
    clean = ProbabilisticASTParser().parse('{"ok": 1}')
    assert clean.confidence == 0.85


def test_evolving_prefers_what_works() -> None:
    parser = EvolvingParser({"anchor": AnchorBasedParser(), "json": JsonRepairParser()})
    for _ in range(3):
        assert parser.parse('{"a": 1}').value == {"a": 1}
    assert parser.ranking()[0] == "json"
    assert parser.observed_formats["json"] == 3


def test_complete_json() -> None:
    for prefix in ['{"a": [1, 2', '{"a', '{"a": tr', "[1.", '{"a": 1,', "[", '"abc']:
        suffix = complete_json(prefix)
        assert suffix is not None
        json.loads(prefix + suffix)


def _unused(value: Any) -> None:
    del value
