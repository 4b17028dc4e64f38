"""The agent on the real model: scripted conversations and BFCL calls through ToolCallState.

    python benchmarks/bench_agent.py [--messages N] [--bfcl-limit N] [--parts turns,bfcl]
                                     [--max-tokens N] [--threads N] [--json out.json]

SmolLM2-135M-Instruct (bf16, embedded), greedy, on the torch frontend.

a. **Turns**: scripted user messages (weather, arithmetic, time, small talk),
   each answered from a fresh conversation by ``Agent.respond`` with the tools
   ``get_weather``, ``calculator`` (the custom-tools guide's example),
   ``get_time`` and ``send_message``; at most ``--max-steps`` steps per turn.
   A turn has a *valid structure* when every step completed the agent's state
   machine and, checked independently, every step's exact token ids walk a
   fresh engine to an accept state and its tool call validates (``jsonschema``)
   against the tool it names. Columns: turns, % valid structure, % that called
   a tool other than ``send_message``, % that ended with ``send_message``,
   median and p90 seconds per turn, mean steps per turn.

b. **BFCL simple_python** through ``ToolCallState``: each task's functions
   become ``Tool``s (their parameter schemas as given), the engine is
   configured with the state's machine (```json fence, ``intention``, ``name``,
   ``arguments``), the prompt is the state's prompt plus the question. Matching
   as in ``bench_model.py`` (BFCL's checker: lenient and exact strings). The
   table is saved as ``benchmarks/results/bfcl-agent.json`` (``bench_results``)
   in the columns of ``bench_model.py``'s ``bfcl-torch``, so the two show together.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import jsonschema
from rich.console import Console

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _support import model_sweep  # noqa: E402
from agent.agent import Agent  # noqa: E402
from agent.interface.cli_interface import ScriptedInterface  # noqa: E402
from agent.llm.local import LocalInference  # noqa: E402
from agent.state.action.tool_call import ToolCallState  # noqa: E402
from agent.state_machine import AgentStateMachine  # noqa: E402
from agent.step import Step  # noqa: E402
from agent.tools import Tool, ToolCall  # noqa: E402
from bench_model import arguments_match, as_call  # noqa: E402
from bench_results import save_table  # noqa: E402

from pse import StructuringEngine  # noqa: E402

MESSAGES = [
    "What is the weather in Paris?",
    "Is it raining in London right now?",
    "How warm is it in Tokyo?",
    "Should I take an umbrella in Berlin today?",
    "Tell me the weather in Cairo.",
    "What's the temperature in Toronto?",
    "What is 12 times 7?",
    "Add 3.5 and 4.25.",
    "Divide 100 by 8.",
    "What is 1000 minus 337?",
    "Multiply 6 by 9 for me.",
    "What is 15 plus 27?",
    "What time is it in Lima?",
    "What time is it in Sydney?",
    "Tell me the current time in New York.",
    "Hello!",
    "Who are you?",
    "Thank you for your help.",
    "Can you tell me a short joke?",
    "What can you do?",
    "Good morning, how are you today?",
    "Give me one tip for learning Python.",
    "What is the capital of Italy?",
    "Name three colours of the rainbow.",
    "How many days are in a week?",
    "I need the weather in Madrid and the time there.",
    "Compute 2 to the power of 8, please.",
    "Say goodbye to me.",
    "What should I cook tonight?",
    "Summarise what a language model is in one sentence.",
    "What is the weather like in Oslo this afternoon?",
    "What is 81 divided by 9?",
]


def get_weather(self: Any, city: str) -> str:
    """Get the current weather in a city.

    Args:
        city: The name of the city.
    """
    return f"The weather in {city}: sunny, 21 degrees Celsius."


def get_time(self: Any, city: str) -> str:
    """Get the current local time in a city.

    Args:
        city: The name of the city.
    """
    return f"It is 14:05 in {city}."


def calculator(self: Any, num1: float, num2: float, operation: str = "add") -> str:
    """Performs basic arithmetic operations (add, subtract, multiply, divide).

    Args:
        num1: The first number.
        num2: The second number.
        operation: The operation to perform ('add', 'subtract', 'multiply', 'divide').
    """
    ops = {"add": num1 + num2, "subtract": num1 - num2, "multiply": num1 * num2}
    if operation == "divide":
        return "Cannot divide by zero." if num2 == 0 else f"{num1 / num2}"
    if operation not in ops:
        return f"Unsupported operation: {operation}"
    return f"{ops[operation]}"


def step_is_valid(step: Step, tools: list[Tool], options: dict[str, Any], tokenizer: Any) -> bool:
    """The step's exact tokens walk a fresh engine to the end; its call validates."""
    if not step.complete:
        return False
    engine = StructuringEngine(tokenizer)
    engine.configure(
        AgentStateMachine(
            tools=tools,
            max_planning_loops=options["max_planning_loops"],
            character_max=options["character_max"],
        )
    )
    eos = set(engine.native_vocabulary.eos_token_ids)
    for token_id in step.token_ids:
        if token_id in eos:
            break
        if not engine.is_token_allowed(token_id):
            return False
        engine.consume_token(token_id)
    if not engine.has_reached_accept_state or step.tool_call is None:
        return False
    by_name = {tool.name: tool for tool in tools}
    call = step.tool_call.model_dump()
    if call["name"] not in by_name:
        return False
    try:
        jsonschema.validate(call, by_name[call["name"]].to_dict())
    except jsonschema.ValidationError:
        return False
    return True


def run_turns(inference: LocalInference, args: argparse.Namespace) -> dict[str, Any]:
    tools = [
        Tool("get_weather", callable=get_weather),
        Tool("calculator", callable=calculator),
        Tool("get_time", callable=get_time),
        *Tool.load(file_name="send_message"),
    ]
    options = {"max_planning_loops": 1, "character_max": args.character_max}
    agent = Agent(
        "Proxy",
        "base",
        ScriptedInterface([], console=Console(quiet=True)),
        inference,
        seed=0,
        tools=tools,
        include_pause_button=False,
        max_tokens=args.max_tokens,
        temp=0.0,
        **options,
    )
    agent.max_steps = args.max_steps
    system_prompt = agent.memory[0]
    tokenizer = inference.frontend.tokenizer.hf
    rows = []
    messages = (MESSAGES * (1 + args.messages // len(MESSAGES)))[: args.messages]
    for n, message in enumerate(messages, 1):
        agent.memory = [system_prompt]
        started = time.perf_counter()
        steps = asyncio.run(agent.respond(message))
        seconds = time.perf_counter() - started
        names = [step.tool_call.name for step in steps if step.tool_call]
        row = {
            "message": message,
            "valid": all(step_is_valid(step, tools, options, tokenizer) for step in steps),
            "tool": any(name != "send_message" for name in names),
            "replied": bool(names) and names[-1] == "send_message",
            "steps": len(steps),
            "calls": names,
            "seconds": seconds,
        }
        rows.append(row)
        print(
            f"   [{n}/{len(messages)}] {seconds:5.1f}s valid={row['valid']} calls={names}",
            flush=True,
        )
    count = len(rows)
    seconds = sorted(row["seconds"] for row in rows)
    table = {
        "turns": count,
        "valid structure": f"{100 * sum(r['valid'] for r in rows) / count:.1f}%",
        "called a tool": f"{100 * sum(r['tool'] for r in rows) / count:.1f}%",
        "ended with send_message": f"{100 * sum(r['replied'] for r in rows) / count:.1f}%",
        "median s/turn": f"{statistics.median(seconds):.1f}",
        "p90 s/turn": f"{seconds[max(0, math.ceil(0.9 * count) - 1)]:.1f}",
        "mean steps/turn": f"{statistics.mean(r['steps'] for r in rows):.2f}",
    }
    return {"table": table, "rows": rows}


def run_bfcl(inference: LocalInference, args: argparse.Namespace) -> dict[str, Any]:
    tasks = model_sweep.bfcl_tasks()
    if args.bfcl_limit:
        tasks = tasks[: args.bfcl_limit]
    tokenizer = inference.frontend.tokenizer
    engine = inference.engine
    outcomes = []
    refused = []
    for n, task in enumerate(tasks, 1):
        tools = [
            Tool(fn["name"], description=fn.get("description"), schema=fn["parameters"])
            for fn in task["functions_jsonschema"]
        ]
        ((truth_name, truth_args),) = task["ground_truth"][0].items()
        state = ToolCallState(tools)
        try:
            engine.configure(state.state_machine)
        except Exception as exc:  # noqa: BLE001 - the engine refuses the schema: counted
            refused.append((task["id"], f"{type(exc).__name__}: {exc}"))
            continue
        prompt = [
            {"role": "system", "content": state.state_prompt},
            {"role": "user", "content": model_sweep.bfcl_question(task)},
        ]
        started = time.perf_counter()
        ids = list(inference.run_inference(prompt, max_tokens=args.bfcl_tokens, temp=0.0))
        seconds = time.perf_counter() - started
        outcome: dict[str, Any] = {
            "id": task["id"],
            "seconds": seconds,
            "tokens": len(ids),
            "complete": False,
        }
        segments = dict(engine.get_stateful_structured_output())
        if engine.has_reached_accept_state and "tool_call" in segments:
            outcome["complete"] = True
            call = ToolCall.model_validate(as_call(segments["tool_call"]))
            outcome["name"] = call.name == truth_name
            outcome["args"] = arguments_match(call.arguments, truth_args, exact=False)
            outcome["args_exact"] = arguments_match(call.arguments, truth_args, exact=True)
            outcome["whole"] = outcome["name"] and outcome["args"]
        outcome["text"] = tokenizer.decode(ids)
        outcomes.append(outcome)
        marks = " ".join(f"{key}={outcome.get(key, False)}" for key in ("complete", "name", "args"))
        print(f"   [{n}/{len(tasks)}] {task['id']} {seconds:.1f}s {marks}", flush=True)
    total = len(tasks)

    def pct(key: str) -> str:
        return f"{100 * sum(bool(o.get(key)) for o in outcomes) / total:.1f}%"

    table = {
        "tasks": total,
        "refused": len(refused),
        "valid calls": pct("complete"),
        "name right": pct("name"),
        "args right (lenient)": pct("args"),
        "args right (exact)": pct("args_exact"),
        "whole call right": pct("whole"),
        "median s/task": f"{statistics.median(o['seconds'] for o in outcomes):.1f}",
    }
    saved = {  # the columns of bench_model.py's "bfcl-torch", so the docs show them together
        "variant": "agent ToolCallState greedy",
        "tasks": total,
        "valid call": pct("complete"),
        "name": pct("name"),
        "arguments (BFCL-lenient)": pct("args"),
        "arguments (exact)": pct("args_exact"),
        "mean new tokens": round(statistics.mean(o["tokens"] for o in outcomes), 1),
    }
    return {"table": table, "saved": saved, "refused": refused, "outcomes": outcomes}


def _print_table(title: str, table: dict[str, Any]) -> None:
    print(f"\n{title}")
    print("| " + " | ".join(table) + " |")
    print("|" + "---|" * len(table))
    print("| " + " | ".join(str(v) for v in table.values()) + " |")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--messages", type=int, default=len(MESSAGES))
    parser.add_argument("--max-steps", type=int, default=2)
    parser.add_argument("--max-tokens", type=int, default=100)
    parser.add_argument("--character-max", type=int, default=120)
    parser.add_argument("--bfcl-limit", type=int, default=50, help="0: all tasks")
    parser.add_argument("--bfcl-tokens", type=int, default=160)
    parser.add_argument("--parts", default="turns,bfcl")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    inference = LocalInference(num_threads=args.threads)
    results: dict[str, Any] = {}
    parts = args.parts.split(",")
    if "turns" in parts:
        print(f"a. {args.messages} scripted turns (greedy, max {args.max_steps} steps/turn)")
        results["turns"] = run_turns(inference, args)
        _print_table("Turns:", results["turns"]["table"])
    if "bfcl" in parts:
        print(f"\nb. BFCL {model_sweep.BFCL_CATEGORY} through ToolCallState (greedy)")
        results["bfcl"] = run_bfcl(inference, args)
        _print_table("BFCL simple_python via ToolCallState:", results["bfcl"]["table"])
        save_table(
            "bfcl-agent",
            [results["bfcl"]["saved"]],
            notes=(
                f"BFCL {model_sweep.BFCL_CATEGORY}, first {args.bfcl_limit or 'all'} tasks, "
                "greedy, the agent's ToolCallState on pse-torch; valid call: the state machine "
                "completed with a tool call."
            ),
        )
    if args.json:
        args.json.write_text(json.dumps(results, indent=2, default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main())
