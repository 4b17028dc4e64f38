"""``Agent``: the plan -> act loop over a local model, tools, memory and an interface."""

from __future__ import annotations

import asyncio
import random
import time
from pathlib import Path
from typing import Any

from agent.interface import INPUT_PROMPT, Interface
from agent.interface.pause import PauseKey
from agent.llm.local import LocalInference
from agent.llm.prompts import load_prompt, render_prompt
from agent.mcp import MCPHost
from agent.state.action.python import python_grammar_error
from agent.state_machine import AgentStateMachine
from agent.step import Step
from agent.system.interaction import Interaction
from agent.tools import Tool, ToolCall, invoke, tool_error

__all__ = ["Agent"]


class Agent:
    """An agent: each step it plans (planning states), then acts (a tool call or
    Python), with the structure of every step enforced by the engine.

    Args:
        name: the agent's name (in its system prompt and on screen).
        system_prompt_name: a template of ``agent/llm/prompts/`` (without ``.txt``).
        interface: where input comes from and output goes.
        inference: the model and its ``StructuringEngine``.
        seed: the sampling seed (default: random).
        tools: ``Tool`` objects, tool file names of ``agent/tools/``, or ``None`` for all.
        python_interpreter: add the ``python`` action state (needs PSE's Python grammar).
        max_planning_loops: at most this many planning blocks per step.
        force_planning: at least one planning block per step.
        character_max: the character limit of a planning block.
        include_pause_button: space pauses generation (in a POSIX terminal).
        **inference_kwargs: generation options (``max_tokens``, ``temp``, ``top_k``, ...).

    Attributes:
        max_steps: steps per user message before the agent must wait for the user.
        tool_timeout: seconds a tool call may take before it is abandoned.
        memory: the conversation as ``Interaction``s (the system prompt first).
        steps: every step generated so far.
    """

    max_steps = 5
    tool_timeout = 60.0

    def __init__(
        self,
        name: str,
        system_prompt_name: str,
        interface: Interface,
        inference: LocalInference,
        seed: int | None = None,
        tools: list[Tool] | list[str] | None = None,
        python_interpreter: bool = False,
        max_planning_loops: int = 3,
        force_planning: bool = True,
        character_max: int | None = None,
        include_pause_button: bool = True,
        **inference_kwargs: Any,
    ):
        if python_interpreter and (problem := python_grammar_error()) is not None:
            raise RuntimeError(f"python_interpreter=True is not available: {problem}")
        self.name = name
        self.system_prompt_name = system_prompt_name
        self.system_prompt_template = load_prompt(system_prompt_name)
        self.interface = interface
        self.inference = inference
        self.seed = seed if seed is not None else random.randint(0, 2**31 - 1)
        self.python_interpreter = python_interpreter
        self.max_planning_loops = max_planning_loops
        self.force_planning = force_planning
        self.character_max = character_max
        self.pause_key = PauseKey(enabled=include_pause_button)
        self.inference_kwargs = {"seed": self.seed, **inference_kwargs}
        self.tools: dict[str, Tool] = {tool.name: tool for tool in _load_tools(tools)}
        self.mcp_host = MCPHost()
        self.memory: list[Interaction] = []
        self.steps: list[Step] = []
        self.can_act = False
        self.step_number = 0
        self.configure(set_system_prompt=True)

    # -------------------------------------------------------------- configuration

    def configure(self, set_system_prompt: bool = False) -> None:
        """Rebuild the state machine from the current tools and configure the engine."""
        self.state_machine = AgentStateMachine(
            tools=list(self.tools.values()),
            use_python=self.python_interpreter,
            force_planning=self.force_planning,
            max_planning_loops=self.max_planning_loops,
            character_max=self.character_max,
        )
        self.inference.engine.configure(self.state_machine)
        if set_system_prompt:
            prompt = Interaction(
                Interaction.Role.SYSTEM,
                self.system_prompt,
                title="System prompt",
                metadata={"system_prompt": True},
            )
            if self.memory and self.memory[0].metadata.get("system_prompt"):
                self.memory[0] = prompt
            else:
                self.memory.insert(0, prompt)

    @property
    def system_prompt(self) -> str:
        """The rendered system prompt for the current states and tools."""
        return render_prompt(
            self.system_prompt_template, name=self.name, state_prompt=self.state_machine.prompt
        )

    def add_tools(self, new_tools: list[Tool], reset_system_prompt: bool = False) -> None:
        """Add (or replace, by name) tools and reconfigure; optionally refresh the prompt."""
        for tool in new_tools:
            self.tools[tool.name] = tool
        self.configure(set_system_prompt=reset_system_prompt)

    # ----------------------------------------------------------------------- loop

    async def loop(self) -> None:
        """Read a message, act on it until the agent waits for the user, repeat.

        Ends when the interface has no more input; MCP connections are closed then.
        """
        try:
            while (message := await self.interface.get_input(INPUT_PROMPT)) is not None:
                if message.strip():
                    await self.respond(message)
        finally:
            await self.mcp_host.close()

    async def respond(self, message: str) -> list[Step]:
        """Handle one user message: steps until the agent waits for the user or
        ``max_steps`` is reached. Returns the steps of this turn."""
        self.memory.append(Interaction(Interaction.Role.USER, message, title="User"))
        self.can_act = True
        self.step_number = 0
        turn: list[Step] = []
        while self.can_act:
            step = await self.generate_action()
            turn.append(step)
            await self.take_action(step)
            self.step_number += 1
            if self.can_act and self.step_number >= self.max_steps:
                await self.interface.show_status(
                    f"{self.max_steps} steps without a reply; waiting for the user"
                )
                self.can_act = False
        return turn

    async def generate_action(self) -> Step:
        """Generate one step with the engine configured for the agent's state machine."""
        engine = self.inference.engine
        prompt = [interaction.to_dict() for interaction in self.memory]
        token_ids: list[int] = []
        started = time.perf_counter()
        with self.pause_key:
            for token_id in self.inference.run_inference(prompt, **self.inference_kwargs):
                token_ids.append(token_id)
                while self.pause_key.paused.is_set():
                    await self.interface.show_status("paused: press space to resume")
                    while self.pause_key.paused.is_set():
                        await asyncio.sleep(0.1)
                live = engine.get_live_structured_output()
                if live is not None:
                    state = self.state_machine.states.get(live[0])
                    await self.interface.show_live_output(state, live[1])
        await self.interface.end_live_output()
        step = Step(
            raw=self.inference.frontend.tokenizer.decode(token_ids),
            segments=list(engine.get_stateful_structured_output()),
            complete=engine.has_reached_accept_state,
            token_ids=token_ids,
            seconds=time.perf_counter() - started,
        )
        self.steps.append(step)
        return step

    async def take_action(self, step: Step) -> None:
        """Record the step, show its blocks and run its action."""
        self.memory.append(
            Interaction(
                Interaction.Role.ASSISTANT,
                step.raw,
                title=self.name,
                metadata={"step": self.step_number, "segments": step.segments},
            )
        )
        if not step.complete:
            self.can_act = False
            await self.interface.show_error(
                "the step ended before its action was complete (stopped, or out of tokens); "
                "waiting for the user"
            )
            return
        for identifier, value in step.segments:
            state = self.state_machine.states.get(identifier)
            if identifier == "tool_call":
                step.tool_call = ToolCall.model_validate(value)
                await self._record(step, await self.use_tool(step.tool_call))
            elif identifier == "python":
                await self._record(step, await self.run_python(str(value)))
            elif state is not None:
                await self.interface.show_output(
                    Interaction(
                        Interaction.Role.ASSISTANT,
                        str(value),
                        title=state.readable_name,
                        color=state.color,
                        emoji=state.emoji,
                        metadata={"state": identifier},
                    )
                )

    async def _record(self, step: Step, result: Interaction) -> None:
        step.results.append(result)
        await self.interface.show_output(result)
        # What the agent said is already in its step; what the world said is new.
        if result.role is not Interaction.Role.ASSISTANT:
            self.memory.append(result)
        if result.metadata.get("wait_for_response"):
            self.can_act = False

    async def use_tool(self, tool_call: ToolCall) -> Interaction:
        """Run a tool call; a failure (unknown tool, exception, timeout) is an error interaction."""
        tool = self.tools.get(tool_call.name)
        if tool is None:
            return tool_error(tool_call.name, "there is no tool with this name")
        return await invoke(tool, self, tool_call.arguments, timeout=self.tool_timeout)

    async def run_python(self, code: str) -> Interaction:
        """Run generated code in the sandbox; its output is a tool interaction."""
        from agent.sandbox import run_python  # noqa: PLC0415 - only with python_interpreter

        result = await asyncio.to_thread(run_python, code)
        return Interaction(
            Interaction.Role.TOOL,
            result.summary(),
            title="Python",
            color="yellow" if result.ok else "red",
            emoji="🐍",
            metadata={"python": code, "error": not result.ok},
        )


def _load_tools(tools: list[Tool] | list[str] | None) -> list[Tool]:
    if tools is None:
        return Tool.load()
    loaded: list[Tool] = []
    names: list[str] = []
    for tool in tools:
        if isinstance(tool, Tool):
            loaded.append(tool)
        elif Path(tool).suffix == ".py" and Path(tool).is_file():
            found = Tool.from_file(tool)
            if found is None:
                raise ValueError(f"tool file {tool} defines no function named {Path(tool).stem!r}")
            loaded.append(found)
        else:
            names.append(tool)
    if names:
        found_tools = Tool.load(file_name=names)
        missing = set(names) - {tool.name for tool in found_tools}
        if missing:
            raise ValueError(
                f"no usable tool named {', '.join(sorted(missing))} in agent/tools/ "
                "(see the warnings above for files that failed to load)"
            )
        loaded.extend(found_tools)
    return loaded
