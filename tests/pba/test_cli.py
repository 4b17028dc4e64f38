"""``python -m agent`` in a real terminal (tmux): the wizard, then a chat turn."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

pytestmark = [
    pytest.mark.model,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed"),
]


class Terminal:
    """A detached tmux session running one command."""

    def __init__(self, name: str, command: str) -> None:
        self.name = name
        subprocess.run(
            ["tmux", "new-session", "-d", "-s", name, "-x", "120", "-y", "50", command],
            check=True,
        )

    def screen(self) -> str:
        return subprocess.run(
            ["tmux", "capture-pane", "-p", "-S", "-200", "-t", self.name],
            capture_output=True,
            text=True,
            check=True,
        ).stdout

    def keys(self, *keys: str) -> None:
        subprocess.run(["tmux", "send-keys", "-t", self.name, *keys], check=True)

    def wait_for(self, text: str, timeout: float = 60.0) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            screen = self.screen()
            if text in screen:
                return screen
            time.sleep(0.3)
        raise AssertionError(f"{text!r} did not appear; the screen:\n{self.screen()}")

    def close(self) -> None:
        subprocess.run(["tmux", "kill-session", "-t", self.name], check=False)


@pytest.fixture
def terminal(tmp_path: Path) -> Iterator[Terminal]:
    log = tmp_path / "exit.txt"
    command = (
        f"cd {tmp_path} && {sys.executable} -m agent --threads 1 --max-tokens 80 "
        f"--character-max 100 --max-planning-loops 1 --max-steps 1; echo EXIT=$? > {log}; "
        "sleep 600"
    )
    term = Terminal(f"pba-test-{os.getpid()}", command)
    term.log = log  # type: ignore[attr-defined]
    yield term
    term.close()


def test_wizard_then_chat(terminal: Terminal) -> None:
    terminal.wait_for("Agent name:")
    terminal.keys("C-u", "Ada", "Enter")
    terminal.wait_for("System prompt template:")
    terminal.keys("Down", "Enter")  # concise
    terminal.wait_for("Language model:")
    terminal.keys("Enter")  # embedded SmolLM2
    terminal.wait_for("Inference backend:")
    terminal.keys("Enter")
    terminal.wait_for("Configuration:")
    terminal.keys("Down", "Enter")  # advanced
    deadline = time.monotonic() + 30
    screen = terminal.screen()
    while "Allow Python" not in screen and "Plan before" not in screen:
        assert time.monotonic() < deadline, screen
        time.sleep(0.3)
        screen = terminal.screen()
    if "Allow Python" in screen:  # offered only where PSE's Python grammar is available
        terminal.keys("n")
    for question in [
        "Plan before every action?",
        "Most planning blocks per step:",
        "Characters per planning block:",
        "Most tokens per step:",
        "Temperature",
    ]:
        terminal.wait_for(question)
        terminal.keys("Enter")
    screen = terminal.wait_for("Enter your message", timeout=120)
    assert "Ada is ready" in screen
    terminal.keys("Hello, who are you?", "Enter")
    screen = terminal.wait_for("Enter your message", timeout=10)
    deadline = time.monotonic() + 180
    while screen.count("Enter your message") < 2 and time.monotonic() < deadline:
        time.sleep(0.5)
        screen = terminal.screen()
    assert screen.count("Enter your message") >= 2, screen
    # Planning and action panels, with their emoji, were drawn.
    assert any(mark in screen for mark in ("🧠 Thinking", "📝 Scratchpad", "💭 Inner Monologue"))
    terminal.keys("C-c")
    log = terminal.log  # type: ignore[attr-defined]
    deadline = time.monotonic() + 20
    while not log.exists() and time.monotonic() < deadline:
        time.sleep(0.3)
    assert log.read_text().strip() in {"EXIT=0", "EXIT=130"}
    assert "Traceback" not in terminal.screen()


def test_message_flags_without_a_terminal(tmp_path: Path) -> None:
    run = subprocess.run(
        [
            sys.executable, "-m", "agent", "--message", "Say hello.", "--threads", "1",
            "--max-tokens", "60", "--character-max", "80", "--max-planning-loops", "1",
            "--max-steps", "1", "--tools", "send_message",
        ],
        capture_output=True, text=True, timeout=300, cwd=tmp_path,
        env={**os.environ, "COLUMNS": "120"},
    )  # fmt: skip
    assert run.returncode == 0, run.stdout + run.stderr
    assert "Say hello." in run.stdout
    assert "Proxy is ready with tools: send_message" in run.stdout
    assert "Traceback" not in run.stdout + run.stderr
