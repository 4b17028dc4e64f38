"""``python -m agent``: the setup wizard, then the chat loop.

With ``--no-wizard`` (or when standard input is not a terminal, or with
``--message``) the options come from the flags. ``--message`` (repeatable)
runs those messages and exits, for scripts and tests.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys

from rich.console import Console
from rich.logging import RichHandler
from rich.markup import escape

from agent.interface.setup_wizard import AgentConfig, run_wizard

__all__ = ["main"]


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m agent", description="The Proxy Base Agent: a local LLM agent."
    )
    add = parser.add_argument
    add("--no-wizard", action="store_true", help="skip the setup wizard; use the flags")
    add("--name", default="Proxy", help="the agent's name (default: Proxy)")
    add("--prompt", default="base", help="system prompt template (default: base)")
    add("--model", default=None, help="a local model directory (default: embedded SmolLM2)")
    add("--frontend", default="torch", help="inference backend: torch or mlx (default: torch)")
    add("--message", action="append", help="a user message; repeat for several; then exit")
    add("--tools", nargs="+", default=None, help="tool names of agent/tools/ (default: all)")
    add("--python", action="store_true", help="enable the Python action state")
    add("--max-tokens", type=int, default=400, help="most tokens per step (default: 400)")
    add("--temp", type=float, default=0.0, help="sampling temperature; 0 is greedy")
    add("--seed", type=int, default=None, help="sampling seed")
    add("--max-planning-loops", type=int, default=3)
    add("--no-force-planning", action="store_true", help="allow acting without planning")
    add("--character-max", type=int, default=None, help="characters per planning block")
    add("--max-steps", type=int, default=5, help="steps per message before waiting (5)")
    add("--threads", type=int, default=None, help="CPU threads (torch frontend)")
    return parser


def _config(args: argparse.Namespace) -> AgentConfig:
    return AgentConfig(
        name=args.name,
        system_prompt_name=args.prompt,
        model_path=args.model,
        frontend=args.frontend,
        python_interpreter=args.python,
        max_planning_loops=args.max_planning_loops,
        force_planning=not args.no_force_planning,
        character_max=args.character_max,
        tools=args.tools,
        inference_kwargs={"max_tokens": args.max_tokens, "temp": args.temp},
    )


async def _run(config: AgentConfig, args: argparse.Namespace, console: Console) -> int:
    from agent.agent import Agent  # noqa: PLC0415 - after the wizard: imports MCP, pse
    from agent.interface.cli_interface import CLIInterface, ScriptedInterface  # noqa: PLC0415
    from agent.llm.local import LocalInference  # noqa: PLC0415

    if args.threads and config.frontend != "torch":
        raise ValueError(f"--threads applies to the torch frontend, not {config.frontend!r}")
    options = {"num_threads": args.threads} if args.threads else {}
    where = config.model_path or "the embedded SmolLM2-135M-Instruct"
    with console.status(f"Loading {where} with the {config.frontend} frontend ...") as status:

        def say(message: str) -> None:
            console.log(message)
            status.update(message)

        inference = LocalInference(config.model_path, config.frontend, say=say, **options)
    console.log("Model loaded.")
    interface = (
        CLIInterface(console) if args.message is None else ScriptedInterface(args.message, console)
    )
    agent = Agent(
        config.name,
        config.system_prompt_name,
        interface,
        inference,
        seed=args.seed,
        tools=config.tools,
        python_interpreter=config.python_interpreter,
        max_planning_loops=config.max_planning_loops,
        force_planning=config.force_planning,
        character_max=config.character_max,
        **config.inference_kwargs,
    )
    agent.max_steps = args.max_steps
    console.log(f"{agent.name} is ready with tools: {', '.join(agent.tools)}")
    await agent.loop()
    return 0


def main(argv: list[str] | None = None) -> int:
    """Run the CLI; returns the exit status (2 for a configuration error)."""
    args = _parser().parse_args(argv)
    console = Console()
    logging.basicConfig(
        level=logging.WARNING,
        format="%(message)s",
        handlers=[RichHandler(console=console, show_path=False)],
    )
    config = _config(args)
    try:
        if not args.no_wizard and args.message is None and sys.stdin.isatty():
            console.rule("[bold cyan]Proxy Base Agent setup")
            config = run_wizard(config)
        return asyncio.run(_run(config, args, console))
    except KeyboardInterrupt:
        console.print("[dim]Bye.[/]")
        return 130
    except (FileNotFoundError, ValueError, RuntimeError, ImportError) as exc:
        console.print(f"[bold red]Error:[/] {escape(str(exc))}")  # "[mlx]" is not markup
        return 2


if __name__ == "__main__":
    sys.exit(main())
