"""A JSON string judged by a Python check rather than an automaton.

``CheckedStringStateMachine`` is the core's documented slow path (a Python
stepper): it decodes the JSON string as tokens arrive (escapes included) and
asks its subclass two questions: whether a complete string is valid
(``complete``) and whether a prefix can still be completed into a valid one
(``prefix_ok``; a token after which it cannot is masked). ``idn_hostname.py``
and ``ecma_regex.py`` are its checks.
"""

from __future__ import annotations

from typing import Any

from pse_core._core import StateMachine, Stepper

_HEX = "0123456789abcdefABCDEF"
_ESCAPES = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}


class JsonText:
    """The decoded content of a JSON string read so far, and a pending escape."""

    __slots__ = ("escape", "text")

    def __init__(self, text: str = "", escape: str = "") -> None:
        self.text = text
        self.escape = escape  # "" or the escape read so far, from the backslash

    def feed(self, char: str) -> JsonText | None:
        """The state after ``char``; ``None`` for invalid JSON string content."""
        esc = self.escape
        if not esc:
            if char == "\\":
                return JsonText(self.text, "\\")
            if char < " ":
                return None
            return JsonText(self.text + char)
        if len(esc) == 1:
            if char == "u":
                return JsonText(self.text, "\\u")
            return JsonText(self.text + _ESCAPES[char]) if char in _ESCAPES else None
        if char not in _HEX:
            return None
        esc += char
        if len(esc) < 6:
            return JsonText(self.text, esc)
        code = int(esc[2:], 16)
        if 0xDC00 <= code <= 0xDFFF and self.text and "\ud800" <= self.text[-1] <= "\udbff":
            pair = (ord(self.text[-1]) - 0xD800) * 0x400 + (code - 0xDC00) + 0x10000
            return JsonText(self.text[:-1] + chr(pair))
        return JsonText(self.text + chr(code))

    def pending(self) -> bool:
        """An escape is open, or a high surrogate waits for its low half."""
        return bool(self.escape) or self.surrogate()

    def surrogate(self) -> bool:
        return bool(self.text) and "\ud800" <= self.text[-1] <= "\udfff"


class CheckedStringStepper(Stepper):
    """A position in a ``CheckedStringStateMachine``: before, inside or after the string."""

    def __init__(
        self,
        machine: CheckedStringStateMachine,
        content: JsonText | None = None,
        done: bool = False,
        rest: str | None = None,
    ) -> None:
        super().__init__(machine)
        self.machine = machine
        self.content = content
        self.done = done
        self.rest = rest

    @property
    def remaining_input(self) -> str | None:  # type: ignore[override]
        return self.rest

    def has_reached_accept_state(self) -> bool:
        return self.done

    def can_accept_more_input(self) -> bool:
        return not self.done

    def get_current_value(self) -> Any:
        return None if self.content is None else self.content.text

    def consume(self, token: str) -> list[Stepper]:
        if self.done or not token:
            return []
        content, i = self.content, 0
        if content is None:
            if token[0] != '"':
                return []
            content, i = JsonText(), 1
        for i in range(i, len(token)):  # noqa: B020 (continues from the opening quote)
            char = token[i]
            if char == '"' and not content.escape:
                if content.pending() or not self.machine.complete(content.text):
                    return []
                rest = token[i + 1 :] or None
                return [CheckedStringStepper(self.machine, content, True, rest)]
            following = content.feed(char)
            if following is None:
                return []
            content = following
        if not self.machine.prefix_ok(content):
            return []
        return [CheckedStringStepper(self.machine, content)]


class CheckedStringStateMachine(StateMachine):
    """A JSON string accepted by ``complete``, masked once ``prefix_ok`` fails."""

    def __init__(self) -> None:
        super().__init__({0: []}, start_state=0, end_states=["$"])

    def get_new_stepper(self, state: int | str | None = None) -> Stepper:
        return CheckedStringStepper(self)

    def complete(self, text: str) -> bool:
        """Whether the decoded string ``text`` is valid."""
        raise NotImplementedError

    def prefix_ok(self, content: JsonText) -> bool:
        """Whether some completion of ``content`` is valid."""
        raise NotImplementedError


def in_graph(machine: StateMachine) -> StateMachine:
    """``machine`` inside a native graph (a Python stepper cannot be a grammar's root)."""
    return StateMachine({0: [(machine, "$")]}, start_state=0, end_states=["$"])


__all__ = ["CheckedStringStateMachine", "CheckedStringStepper", "JsonText", "in_graph"]
