"""The interactive setup wizard of ``python -m agent`` (questionary prompts)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

import questionary

from agent.llm.frontend import FRONTENDS, check_model_path
from agent.llm.prompts import available_prompts
from agent.state.action.python import python_grammar_error

__all__ = ["AgentConfig", "run_wizard"]

EMBEDDED_MODEL = "Embedded SmolLM2-135M-Instruct (default)"
LOCAL_MODEL = "A local model directory..."


@dataclass
class AgentConfig:
    """Everything the CLI needs to build an ``Agent``."""

    name: str = "Proxy"
    system_prompt_name: str = "base"
    model_path: str | None = None
    frontend: str = "torch"
    python_interpreter: bool = False
    max_planning_loops: int = 3
    force_planning: bool = True
    character_max: int | None = None
    tools: list[str] | None = None
    inference_kwargs: dict[str, Any] = field(
        default_factory=lambda: {"max_tokens": 400, "temp": 0.0}
    )


def _path_ok(text: str) -> bool | str:
    try:
        check_model_path(text)
    except FileNotFoundError as exc:
        return str(exc)
    return True


def _int_ok(text: str) -> bool | str:
    return text.strip().isdigit() or "a whole number, please"


def _float_ok(text: str) -> bool | str:
    try:
        float(text)
    except ValueError:
        return "a number, please"
    return True


def _ask(question: Any) -> Any:
    answer = question.ask()
    if answer is None:  # Ctrl+C in questionary
        raise KeyboardInterrupt
    return answer


def run_wizard(defaults: AgentConfig) -> AgentConfig:
    """Ask for the agent's name, prompt, model, frontend and options.

    Raises:
        KeyboardInterrupt: the user cancelled.
    """
    config = replace(defaults, inference_kwargs=dict(defaults.inference_kwargs))
    config.name = _ask(questionary.text("Agent name:", default=config.name)).strip() or "Proxy"
    prompts = available_prompts()
    config.system_prompt_name = _ask(
        questionary.select(
            "System prompt template:",
            choices=prompts,
            default=config.system_prompt_name if config.system_prompt_name in prompts else None,
        )
    )
    model = _ask(questionary.select("Language model:", choices=[EMBEDDED_MODEL, LOCAL_MODEL]))
    config.model_path = None
    if model == LOCAL_MODEL:
        config.model_path = _ask(questionary.path("Model directory:", validate=_path_ok))
    config.frontend = _ask(
        questionary.select("Inference backend:", choices=sorted(FRONTENDS), default="torch")
    )
    mode = _ask(questionary.select("Configuration:", choices=["Basic", "Advanced"]))
    if mode == "Advanced":
        _advanced(config)
    return config


def _advanced(config: AgentConfig) -> None:
    problem = python_grammar_error()
    if problem is None:
        config.python_interpreter = _ask(
            questionary.confirm("Allow Python code execution (sandboxed)?", default=False)
        )
    else:
        questionary.print(f"Python execution is unavailable: {problem}", style="fg:ansiyellow")
    config.force_planning = _ask(questionary.confirm("Plan before every action?", default=True))
    config.max_planning_loops = int(
        _ask(
            questionary.text(
                "Most planning blocks per step:",
                default=str(config.max_planning_loops),
                validate=_int_ok,
            )
        )
    )
    config.character_max = int(
        _ask(
            questionary.text(
                "Characters per planning block:",
                default=str(config.character_max or 1000),
                validate=_int_ok,
            )
        )
    )
    kwargs = config.inference_kwargs
    kwargs["max_tokens"] = int(
        _ask(
            questionary.text(
                "Most tokens per step:", default=str(kwargs["max_tokens"]), validate=_int_ok
            )
        )
    )
    kwargs["temp"] = float(
        _ask(
            questionary.text(
                "Temperature (0 = greedy):", default=str(kwargs["temp"]), validate=_float_ok
            )
        )
    )
