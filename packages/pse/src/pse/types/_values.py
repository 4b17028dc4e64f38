"""Helpers that compute Python values from stepper trees.

Only ``stepper_value`` methods use these, when a value is requested; nothing
here runs while tokens are consumed.
"""

from __future__ import annotations

import json
from typing import Any

from pse_core._core import RefStateMachine, StateMachine, Stepper


def children(stepper: Stepper) -> list[Stepper]:
    """The completed children of ``stepper`` (oldest first), then the active one."""
    kids = list(stepper.history)
    if stepper.sub_stepper is not None:
        kids.append(stepper.sub_stepper)
    return kids


def is_machine(machine: StateMachine | None, target: StateMachine | None) -> bool:
    """Whether ``machine`` is ``target``, looking through ``RefStateMachine`` links."""
    if machine is None or target is None:
        return False
    if machine is target:
        return True
    if isinstance(target, RefStateMachine):
        return is_machine(machine, target.target)
    if isinstance(machine, RefStateMachine):
        return is_machine(machine.target, target)
    return False


def children_of(stepper: Stepper, target: StateMachine) -> list[Stepper]:
    """The children of ``stepper`` that traverse ``target``."""
    return [c for c in children(stepper) if is_machine(c.state_machine, target)]


def decode_json_string(raw: str) -> str | None:
    """Decode a JSON string literal; a partial literal decodes as far as it goes."""
    if not raw:
        return None
    try:
        value = json.loads(raw)
    except ValueError:
        pass
    else:
        return value if isinstance(value, str) else None
    body = raw[1:] if raw.startswith('"') else raw
    # Cut an escape sequence that is not finished yet.
    i, end = 0, len(body)
    complete = 0
    while i < end:
        if body[i] == "\\":
            need = 6 if i + 1 < end and body[i + 1] == "u" else 2
            if i + need > end:
                break
            i += need
        else:
            i += 1
        complete = i
    try:
        value = json.loads('"' + body[:complete] + '"')
    except ValueError:
        return body[:complete]
    return value if isinstance(value, str) else None


def parse_number(raw: str) -> int | float | None:
    """Parse a JSON number; a partial number (``"1."``, ``"2e-"``) parses its valid prefix."""
    text = raw.strip()
    while text and text[-1] in ".eE+-":
        text = text[:-1]
    if not text:
        return None
    try:
        if any(c in text for c in ".eE"):
            return float(text)
        return int(text)
    except ValueError:
        return None


def raw_or_none(stepper: Stepper) -> Any:
    """The raw text of ``stepper``, or ``None`` when nothing was consumed."""
    raw = stepper.get_raw_value()
    return raw if raw else None
