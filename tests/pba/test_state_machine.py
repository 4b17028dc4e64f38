"""AgentStateMachine: the documented graph, its limits, and the extending guides' examples."""

from __future__ import annotations

import json
from typing import Any

import pytest
from agent.state import AgentState
from agent.state.action.python import python_grammar_error
from agent.state_machine import AgentStateMachine
from agent.tools import Tool
from pba.step_check import check_step, random_step
from pse_core.state_machine import StateMachine

from pse import StructuringEngine
from pse.types.base.any import AnyStateMachine
from pse.types.base.loop import LoopStateMachine
from pse.types.misc.fenced_freeform import FencedFreeformStateMachine

CALL = (
    '```json\n{"intention": "look it up", "name": "get_weather", '
    '"arguments": {"city": "Rome"}}\n```'
)
THINK = "```thinking\nThe user wants the weather: call the tool.\n```"
NOTE = "```scratchpad\nRome\n```"


def engine_for(tokenizer: Any, machine: StateMachine) -> StructuringEngine:
    engine = StructuringEngine(tokenizer)
    engine.configure(machine)
    return engine


def accepts(tokenizer: Any, machine: StateMachine, text: str) -> bool:
    engine = engine_for(tokenizer, machine)
    for token_id in tokenizer.encode(text, add_special_tokens=False):
        if not engine.is_token_allowed(token_id):
            return False
        engine.consume_token(token_id)
    return bool(engine.has_reached_accept_state)


def test_the_documented_graph(weather_tool: Tool) -> None:
    machine = AgentStateMachine(tools=[weather_tool])
    assert machine.start_state == "plan" and machine.end_states == ["done"]
    assert set(machine.state_graph) == {"plan", "take_action"}
    [(_, target)] = machine.state_graph["plan"]
    assert target == "take_action"
    assert [target for _, target in machine.state_graph["take_action"]] == ["done"]
    assert list(machine.states) == ["thinking", "scratchpad", "inner_monologue", "tool_call"]
    assert "get_weather" in machine.prompt


def test_plan_then_act(tokenizer: Any, weather_tool: Tool) -> None:
    # A block's text may contain a closing fence; a small character_max keeps
    # one block from reading as another's content here.
    machine = AgentStateMachine(tools=[weather_tool], max_planning_loops=2, character_max=12)
    think, note = "```thinking\nCall it.\n```", "```scratchpad\nRome\n```"
    assert accepts(tokenizer, machine, f"{think}\n\n{CALL}")
    assert accepts(tokenizer, machine, f"{think}\n{note}\n{CALL}")
    assert not accepts(tokenizer, machine, CALL)  # planning is forced
    assert not accepts(tokenizer, machine, f"{think}\n{note}\n{think}\n{CALL}")  # 3 > 2 loops
    assert not accepts(tokenizer, machine, f"{CALL}\n{think}")  # action last
    assert not accepts(tokenizer, machine, f"{think}\n{CALL}\n{CALL}")  # one action


def test_planning_may_be_skipped_when_not_forced(tokenizer: Any, weather_tool: Tool) -> None:
    machine = AgentStateMachine(tools=[weather_tool], force_planning=False)
    assert accepts(tokenizer, machine, CALL)
    assert accepts(tokenizer, machine, f"{THINK}\n{CALL}")


def test_segments_per_state(tokenizer: Any, weather_tool: Tool) -> None:
    machine = AgentStateMachine(tools=[weather_tool], character_max=12)
    engine = engine_for(tokenizer, machine)
    assert engine.consume_text(f"```thinking\nCall it.\n```\n{NOTE}\n\n{CALL}")
    assert list(engine.get_stateful_structured_output()) == [
        ("thinking", "Call it."),
        ("scratchpad", "Rome"),
        ("tool_call", json.loads(CALL.removeprefix("```json\n").removesuffix("\n```"))),
    ]


def test_bad_configurations(weather_tool: Tool) -> None:
    with pytest.raises(ValueError, match="needs an action"):
        AgentStateMachine(tools=[])
    with pytest.raises(ValueError, match="max_planning_loops"):
        AgentStateMachine(tools=[weather_tool], max_planning_loops=0)


@pytest.mark.parametrize("seed", range(12))
def test_random_walks_are_valid_steps(tokenizer: Any, weather_tool: Tool, seed: int) -> None:
    """Any path the engine allows is a valid step by an independent check."""

    def add(self: Any, a: int, b: float = 0.5, note: str | None = None) -> float:
        """Add."""
        return a + b

    tools = [weather_tool, Tool("add", callable=add)]
    loops = 1 + seed % 3
    forced = seed % 2 == 0
    machine = AgentStateMachine(
        tools=tools, force_planning=forced, max_planning_loops=loops, character_max=60
    )
    engine = engine_for(tokenizer, machine)
    text = random_step(engine, seed)
    segments = list(engine.get_stateful_structured_output())
    check_step(text, segments, machine, force_planning=forced, max_planning_loops=loops)


# ---------------------------------------------------------------- extending guides


class SummarizationState(AgentState):
    """The custom-states guide's example, as written there."""

    def __init__(self, delimiters: tuple[str, str] | None = None, character_max: int = 500):
        super().__init__(
            identifier="summarize",
            readable_name="Summarization",
            delimiters=delimiters or ("```summary\n", "\n```"),
            color="green",
            emoji="scroll",
        )
        self.character_max = character_max

    @property
    def state_machine(self) -> StateMachine:
        sm = FencedFreeformStateMachine(
            identifier=self.identifier,
            delimiters=self.delimiters,
            char_min=10,
            char_max=self.character_max,
        )
        sm.identifier = self.identifier
        return sm

    @property
    def state_prompt(self) -> str:
        return f"""
    The Summarization state is used to generate a concise summary of previous
    interactions or information.
    Keep the summary brief and to the point, adhering to the character limit ({self.character_max}).

    Always encapsulate the summary within {self.delimiters[0]!r} and {self.delimiters[1]!r} tags.
    This state's output might be shown to the user.
        """


class SummarizingAgentStateMachine(AgentStateMachine):
    """The custom-state-graphs guide: a "summarize" state between planning and the action."""

    def __init__(self, tools: list[Tool]) -> None:
        super().__init__(tools=tools, max_planning_loops=1)
        summary = SummarizationState()
        self.states[summary.identifier] = summary
        planning = [state.state_machine for state in self.planning_states]
        self.state_graph = {
            "plan": [(LoopStateMachine(AnyStateMachine(planning), 1, 1), "summarize")],
            "summarize": [(summary.state_machine, "take_action")],
            "take_action": [(state.state_machine, "done") for state in self.action_states],
        }


def test_custom_state_and_graph(tokenizer: Any, weather_tool: Tool) -> None:
    machine = SummarizingAgentStateMachine([weather_tool])
    summary = "```summary\nThe user asked about Rome.\n```"
    assert accepts(tokenizer, machine, THINK + summary + CALL)
    assert not accepts(tokenizer, machine, THINK + CALL)  # the summary is required
    assert not accepts(tokenizer, machine, THINK + "```summary\nshort\n```" + CALL)  # char_min
    engine = engine_for(tokenizer, machine)
    assert engine.consume_text(THINK + summary + CALL)
    identifiers = [identifier for identifier, _ in engine.get_stateful_structured_output()]
    assert identifiers == ["thinking", "summarize", "tool_call"]
    assert "Summarization:" in str(machine.states["summarize"])


@pytest.mark.skipif(python_grammar_error() is not None, reason=str(python_grammar_error()))
def test_python_action_in_the_graph(tokenizer: Any, weather_tool: Tool) -> None:
    machine = AgentStateMachine(tools=[weather_tool], use_python=True, character_max=12)
    assert list(machine.states)[-2:] == ["tool_call", "python"]
    think = "```thinking\nCompute it.\n```"
    code = "```python\nprint(sum(range(10)))\n```"
    assert accepts(tokenizer, machine, f"{think}\n{code}")
    assert accepts(tokenizer, machine, f"{think}\n{CALL}")
    assert not accepts(tokenizer, machine, f"{think}\n```python\nprint(sum(range(10))\n```")
    engine = engine_for(tokenizer, machine)
    assert engine.consume_text(f"{think}\n{code}")
    assert list(engine.get_stateful_structured_output())[-1] == (
        "python",
        "print(sum(range(10)))",
    )
