"""The Agent end to end on the real SmolLM2-135M-Instruct (greedy, short steps)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

import pytest
from agent.agent import Agent
from agent.interface.cli_interface import ScriptedInterface
from agent.state.action.python import python_grammar_error
from agent.state_machine import AgentStateMachine
from agent.step import Step
from agent.system.interaction import Interaction
from agent.tools import Tool, ToolCall
from pba.step_check import check_step

from pse import StructuringEngine

pytestmark = pytest.mark.model

OPTIONS: dict[str, Any] = {
    "max_tokens": 90,
    "temp": 0.0,
    "character_max": 120,
    "max_planning_loops": 1,
    "include_pause_button": False,
}


def make_agent(inference: Any, tools: list[Any], messages: list[str] | None = None) -> Agent:
    return Agent(
        "Proxy",
        "base",
        ScriptedInterface(messages or []),
        inference,
        seed=0,
        tools=tools,
        **OPTIONS,
    )


def assert_valid(step: Step, machine: AgentStateMachine, tokenizer: Any) -> None:
    """The step by the independent checker, and its exact tokens through a fresh engine."""
    assert step.complete, step.raw
    check_step(step.raw, step.segments, machine, max_planning_loops=1)
    engine = StructuringEngine(tokenizer)
    engine.configure(
        AgentStateMachine(
            tools=machine.states["tool_call"].tools,  # type: ignore[attr-defined]
            max_planning_loops=1,
            character_max=120,
        )
    )
    eos = set(engine.native_vocabulary.eos_token_ids)
    for token_id in step.token_ids:
        if token_id in eos:
            break
        assert engine.is_token_allowed(token_id), (token_id, step.raw)
        engine.consume_token(token_id)
    assert engine.has_reached_accept_state


def weather_session(
    inference: Any, weather_tool: Tool, after_second: Callable[[list[int]], None] | None = None
) -> Agent:
    """Plan, call get_weather, see its result in the next prompt, reply with send_message.

    ``after_second(prompt)`` runs once the second step is generated (before its action
    is taken), with the token ids of the prompt it was generated from.
    """
    frontend = inference.frontend
    tokenizer = frontend.tokenizer.hf
    agent = make_agent(inference, [weather_tool])
    agent.max_steps = 1

    first_machine = agent.state_machine
    [first] = asyncio.run(agent.respond("What is the weather in Paris?"))
    assert_valid(first, first_machine, tokenizer)
    assert first.identifiers()[0] in {"thinking", "scratchpad", "inner_monologue"}
    assert first.tool_call is not None and first.tool_call.name == "get_weather"
    [result] = first.results
    assert "sunny, 21 degrees" in result.content and not result.is_error
    assert agent.memory[-1] is result  # the result is part of the next prompt

    # At run time the tool set changes (as an MCP connection would change it).
    send_message = Tool.load(file_name="send_message")
    del agent.tools["get_weather"]
    agent.add_tools(send_message, reset_system_prompt=True)
    assert "send_message" in agent.memory[0].content
    second_machine = agent.state_machine
    prompt = frontend.tokenizer.encode([i.to_dict() for i in agent.memory])
    assert "sunny, 21 degrees" in frontend.tokenizer.decode(prompt)

    agent.can_act = True
    second = asyncio.run(agent.generate_action())
    if after_second is not None:
        after_second(prompt)
    asyncio.run(agent.take_action(second))
    assert_valid(second, second_machine, tokenizer)
    assert second.tool_call is not None and second.tool_call.name == "send_message"
    [reply] = second.results
    assert reply.role is Interaction.Role.ASSISTANT and reply.content
    assert agent.can_act is False  # send_message waits for the user
    assert [s.tool_call.name for s in agent.steps if s.tool_call] == ["get_weather", "send_message"]
    return agent


def test_plan_tool_call_then_reply(inference: Any, weather_tool: Tool) -> None:
    """Plan, call a tool, see its result in the next prompt, reply with send_message."""
    weather_session(inference, weather_tool)


def test_failing_tools_become_error_interactions(inference: Any) -> None:
    """A tool that raises gives an error interaction and the loop goes on to the next step."""

    def lookup(self: Any, query: str) -> str:
        """Look something up.

        Args:
            query: What to look up.
        """
        raise ConnectionError("the service is down")

    agent = make_agent(inference, [Tool("lookup", callable=lookup)], ["Find the capital of Peru."])
    agent.max_steps = 2
    asyncio.run(agent.loop())
    assert len(agent.steps) == 2
    for step in agent.steps:
        assert step.complete and step.tool_call is not None
        [error] = step.results
        assert error.is_error and "ConnectionError: the service is down" in error.content
    assert sum(1 for i in agent.memory if i.is_error) == 2


def test_use_tool_errors_without_generation(inference: Any) -> None:
    def slow(self: Any, seconds: float) -> str:
        """Sleep."""
        time.sleep(seconds)
        return "done"

    agent = make_agent(inference, [Tool("slow", callable=slow)])
    agent.tool_timeout = 0.2

    late = asyncio.run(
        agent.use_tool(ToolCall(intention="wait", name="slow", arguments={"seconds": 1}))
    )
    assert late.is_error and "did not finish within 0.2 s" in late.content
    unknown = asyncio.run(agent.use_tool(ToolCall(intention="x", name="nope", arguments={})))
    assert unknown.is_error and "no tool with this name" in unknown.content


@pytest.mark.skipif(python_grammar_error() is not None, reason=str(python_grammar_error()))
def test_python_action_runs_in_the_sandbox(inference: Any, weather_tool: Tool) -> None:
    agent = make_agent(inference, [weather_tool])
    agent.python_interpreter = True
    agent.configure(set_system_prompt=True)
    assert "python" in agent.state_machine.states and "```python" in agent.memory[0].content
    step = Step(
        raw="```thinking\nCompute.\n```\n```python\nprint(6 * 7)\n```",
        segments=[("thinking", "Compute."), ("python", "print(6 * 7)")],
        complete=True,
    )
    asyncio.run(agent.take_action(step))
    [result] = step.results
    assert result.role is Interaction.Role.TOOL and not result.is_error
    assert result.content.strip() == "42"
    assert agent.memory[-1] is result


def test_a_local_model_directory(inference: Any, weather_tool: Tool) -> None:
    """A Hugging Face directory loads through the path branch (here: the converted SmolLM2,
    which the ``inference`` fixture has made sure exists)."""
    from agent.llm.local import LocalInference
    from agent.state.action.tool_call import ToolCallState
    from pse_torch.model import cache_dir

    local = LocalInference(cache_dir(), num_threads=1)
    assert local.frontend.model_path == str(cache_dir())
    local.engine.configure(ToolCallState([weather_tool]).state_machine)
    prompt = [{"role": "user", "content": "Weather in Rome?"}]
    list(local.run_inference(prompt, max_tokens=40, temp=0.0))
    [(identifier, call)] = list(local.engine.get_stateful_structured_output())
    assert identifier == "tool_call" and call["name"] == "get_weather"
