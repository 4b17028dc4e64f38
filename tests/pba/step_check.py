"""An independent check of a generated step, and a random walk through the agent's machine.

``check_step`` judges a step's text without PSE: each segment must appear in
order, fenced by its state's delimiters, separated only by whitespace; the
planning blocks must respect their count and character limits; the last
block must be the action, and a tool call must be JSON that validates
(``jsonschema``) against exactly the tool it names.
"""

from __future__ import annotations

import json
from typing import Any

import jsonschema
import numpy as np
from agent.state.planning import PlanningState
from agent.state_machine import AgentStateMachine


def check_step(
    text: str,
    segments: list[tuple[str, Any]],
    machine: AgentStateMachine,
    force_planning: bool = True,
    max_planning_loops: int = 3,
) -> None:
    """Raise AssertionError unless ``text`` is a valid step segmented as ``segments``."""
    assert segments, "no segments"
    *planning, (action_id, action_value) = segments
    assert int(force_planning) <= len(planning) <= max_planning_loops, planning
    position = 0
    for identifier, value in segments:
        state = machine.states[identifier]
        gap = len(text[position:]) - len(text[position:].lstrip())
        position += gap
        opening, closing = state.delimiters
        assert text.startswith(opening, position), (identifier, text[position:])
        position += len(opening)
        if isinstance(state, PlanningState):
            assert isinstance(value, str)
            assert state.char_min <= len(value) <= state.character_max, (identifier, len(value))
            body = value
            assert text.startswith(body + closing, position), (identifier, text[position:])
        else:
            end = text.rindex(closing)
            body = text[position:end]
        position += len(body) + len(closing)
    assert position == len(text.rstrip()) or not text[position:].strip(), text[position:]
    assert action_id == "tool_call", action_id
    call = json.loads(body)
    assert call == action_value
    tools = {tool.name: tool for tool in machine.states["tool_call"].tools}  # type: ignore[attr-defined]
    assert call["name"] in tools, call
    jsonschema.validate(call, tools[call["name"]].to_dict())


def random_step(engine: Any, seed: int, random_steps: int = 150) -> str:
    """Random allowed tokens (now and then one towards the end), then the shortest completion."""
    rng = np.random.default_rng(seed)
    emitted: list[int] = []
    for _ in range(random_steps):
        if engine.has_reached_accept_state:
            break
        allowed = list(engine.allowed_token_ids())
        assert allowed, "no token allowed before the step is complete"
        plan = list(engine.completion_token_ids() or [])
        token = plan[0] if plan and rng.random() < 0.3 else int(rng.choice(allowed))
        emitted += list(engine.consume_token(token))
    for token in engine.completion_token_ids() or []:
        emitted += list(engine.consume_token(token))
    assert engine.has_reached_accept_state
    return str(engine.tokenizer.decode(emitted))
