"""``Python``: a Python snippet, syntactically valid by construction.

The content is PSE's ``PythonStateMachine``
(``pse.types.grammar.default_grammars.python``) between the delimiters. That
grammar module is optional here: :func:`python_grammar_error` says why it is
unavailable, and the agent refuses ``python_interpreter=True`` with that
message rather than offering an unconstrained stand-in.
"""

from __future__ import annotations

import importlib
from typing import Any

from pse_core.state_machine import StateMachine

from agent.state import AgentState
from pse.types.base.encapsulated import EncapsulatedStateMachine

__all__ = ["Python", "python_grammar_error"]

GRAMMAR_MODULE = "pse.types.grammar.default_grammars.python"


def _python_state_machine() -> Any:
    return importlib.import_module(GRAMMAR_MODULE).PythonStateMachine


def python_grammar_error() -> str | None:
    """``None`` when the Python grammar can be used, else the reason it cannot."""
    try:
        machine = _python_state_machine()
    except Exception as exc:  # noqa: BLE001 - any failure means "not usable"
        return (
            f"the Python action state needs {GRAMMAR_MODULE} (PythonStateMachine), "
            f"which is not available in this pse: {type(exc).__name__}: {exc}"
        )
    if not isinstance(machine, StateMachine):
        return f"{GRAMMAR_MODULE}.PythonStateMachine is not a StateMachine ({machine!r})"
    return None


class Python(AgentState):
    """Python code between ``"```python\\n"`` and ``"\\n```"``, run in the sandbox."""

    def __init__(self, delimiters: tuple[str, str] | None = None) -> None:
        error = python_grammar_error()
        if error is not None:
            raise RuntimeError(error)
        super().__init__(
            identifier="python",
            readable_name="Python Interpreter",
            delimiters=delimiters or ("```python\n", "\n```"),
            color="yellow",
            emoji="🐍",
        )

    @property
    def state_machine(self) -> StateMachine:
        machine = EncapsulatedStateMachine(
            _python_state_machine(), delimiters=self.delimiters, identifier=self.identifier
        )
        machine.identifier = self.identifier
        return machine

    @property
    def state_prompt(self) -> str:
        return (
            "Write a Python program between "
            f"{self.delimiters[0]!r} and {self.delimiters[1]!r}. It runs in a separate "
            "process with a time and memory limit, in an empty temporary directory and "
            "without network credentials; what it prints comes back to you. Print the "
            "results you need."
        )
