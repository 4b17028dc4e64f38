"""``agent`` imports no ML framework; a frontend imports its adapter only when chosen."""

from __future__ import annotations

import subprocess
import sys

FRAMEWORKS = ("torch", "transformers", "tensorflow", "jax", "mlx")
MODULES = [
    "agent",
    "agent.agent",
    "agent.__main__",
    "agent.state_machine",
    "agent.llm.local",
    "agent.llm.frontend",
    "agent.llm.tokenizer",
    "agent.interface.cli_interface",
    "agent.interface.setup_wizard",
]


def test_agent_imports_no_framework() -> None:
    code = (
        "import importlib, sys\n"
        f"for name in {MODULES!r}: importlib.import_module(name)\n"
        f"print(sorted(m for m in sys.modules if m.split('.')[0] in {FRAMEWORKS!r}))\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "[]", run.stdout
