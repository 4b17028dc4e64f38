"""The documented states: AgentState, the planning states, ToolCallState, Python."""

from __future__ import annotations

import json
from typing import Any

import jsonschema
import pytest
from agent.state import AgentState
from agent.state.action.python import Python, python_grammar_error
from agent.state.action.tool_call import ToolCallState
from agent.state.planning.inner_monologue import InnerMonologue
from agent.state.planning.scratchpad import Scratchpad
from agent.state.planning.thinking import Thinking
from agent.tools import Tool
from pse_core.state_machine import StateMachine

from pse import StructuringEngine
from pse.types.misc.fenced_freeform import FencedFreeformStateMachine


def accepts(tokenizer: Any, machine: StateMachine, text: str) -> bool:
    """Whether ``text``, token by token with the real tokenizer, completes ``machine``."""
    engine = StructuringEngine(tokenizer)
    engine.configure(machine)
    for token_id in tokenizer.encode(text, add_special_tokens=False):
        if not engine.is_token_allowed(token_id):
            return False
        engine.consume_token(token_id)
    return bool(engine.has_reached_accept_state)


def test_agent_state_is_the_documented_abc() -> None:
    with pytest.raises(TypeError):
        AgentState("x", "X", ("<", ">"), "red", "x")  # type: ignore[abstract]

    class Echo(AgentState):
        @property
        def state_machine(self) -> StateMachine:
            return FencedFreeformStateMachine(self.identifier, self.delimiters)

        @property
        def state_prompt(self) -> str:
            return "say it"

    state = Echo("echo", "echo state", ("<e>", "</e>"), "red", "x")
    assert (state.identifier, state.readable_name, state.color, state.emoji) == (
        "echo",
        "echo state",
        "red",
        "x",
    )
    assert state.format("hi") == "<e>hi</e>"
    assert state.readable_format("hi") == "```markdown\nhi\n```"
    assert str(state) == "Echo State: say it"


@pytest.mark.parametrize(
    ("cls", "identifier", "fence"),
    [
        (Thinking, "thinking", "```thinking\n"),
        (Scratchpad, "scratchpad", "```scratchpad\n"),
        (InnerMonologue, "inner_monologue", "```inner_monologue\n"),
    ],
)
def test_planning_states_fence_freeform_text(
    tokenizer: Any, cls: type[Any], identifier: str, fence: str
) -> None:
    state = cls(character_max=40)
    assert state.identifier == identifier
    assert state.delimiters == (fence, "\n```")
    machine = state.state_machine
    assert machine.identifier == identifier
    assert accepts(tokenizer, machine, state.format("Plan: look it up, then reply."))
    assert not accepts(tokenizer, machine, state.format("x" * 41))  # over character_max
    assert not accepts(tokenizer, machine, state.format(""))  # below the minimum
    assert not accepts(tokenizer, machine, "```other\nhello\n```")
    assert str(state).startswith(f"{state.readable_name.title()}: ")


def test_custom_delimiters_and_character_max() -> None:
    state = Thinking(delimiters=("<think>", "</think>"), character_max=10)
    assert state.delimiters == ("<think>", "</think>") and state.character_max == 10
    with pytest.raises(ValueError, match="character_max"):
        Thinking(character_max=0)


def _call(name: str, arguments: dict[str, Any]) -> str:
    body = {"intention": "to test", "name": name, "arguments": arguments}
    return "```json\n" + json.dumps(body) + "\n```"


def test_tool_call_state_matches_one_tool(tokenizer: Any, weather_tool: Tool) -> None:
    def add(self: Any, a: int, b: int = 0) -> int:
        """Add two integers."""
        return a + b

    state = ToolCallState([weather_tool, Tool("add", callable=add)])
    assert (state.identifier, state.delimiters) == ("tool_call", ("```json\n", "\n```"))
    machine = state.state_machine
    assert machine.identifier == "tool_call"
    assert accepts(tokenizer, machine, _call("get_weather", {"city": "Paris"}))
    assert accepts(tokenizer, machine, _call("add", {"a": 1}))
    assert not accepts(tokenizer, machine, _call("get_weather", {"city": 3}))
    assert not accepts(tokenizer, machine, _call("add", {"a": "one"}))
    assert not accepts(tokenizer, machine, _call("remove", {"a": 1}))  # no such tool
    assert not accepts(tokenizer, machine, _call("get_weather", {"town": "Paris"}))
    assert "get_weather" in state.state_prompt and "add" in state.state_prompt


def test_tool_call_state_value_is_the_parsed_call(tokenizer: Any, weather_tool: Tool) -> None:
    engine = StructuringEngine(tokenizer)
    engine.configure(ToolCallState([weather_tool]).state_machine)
    assert engine.consume_text(_call("get_weather", {"city": "Oslo"}))
    [(identifier, value)] = list(engine.get_stateful_structured_output())
    assert identifier == "tool_call"
    jsonschema.validate(value, weather_tool.to_dict())
    assert value["arguments"] == {"city": "Oslo"}


def test_tool_call_state_needs_a_tool() -> None:
    with pytest.raises(ValueError, match="at least one tool"):
        ToolCallState([])


@pytest.mark.skipif(python_grammar_error() is None, reason="PSE's Python grammar is available")
def test_python_state_without_the_grammar_says_why() -> None:
    problem = python_grammar_error()
    assert problem is not None and "pse.types.grammar.default_grammars.python" in problem
    with pytest.raises(RuntimeError, match="PythonStateMachine"):
        Python()


@pytest.mark.skipif(python_grammar_error() is not None, reason=str(python_grammar_error()))
def test_python_state_accepts_valid_code_only(tokenizer: Any) -> None:
    state = Python()
    machine = state.state_machine
    assert machine.identifier == "python"
    assert accepts(tokenizer, machine, state.format("x = [i * i for i in range(3)]\nprint(x)"))
    assert not accepts(tokenizer, machine, state.format("x = = 1"))
