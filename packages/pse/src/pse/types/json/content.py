"""Draft 7 ``contentMediaType: application/json`` (and ``contentEncoding: base64``).

Draft 7 lets a validator assert that a string holds a document of a media
type, possibly encoded. The JSON media type, plain or base64-encoded, is
checked by a Python stepper (``checked_string.py``): a complete string must
decode (strict base64: the alphabet, padding only at the end) to UTF-8 text
that ``json.loads`` accepts; a prefix is kept while the bytes decoded so far
are a prefix of some JSON text (walked through the native JSON value machine).
Other media types and encodings stay declined. From 2019-09 on both keywords
are annotations.
"""

from __future__ import annotations

import base64
import codecs
import functools
import json

from pse_core._core import StateMachine

from pse.types.json.checked_string import CheckedStringStateMachine, JsonText

#: ``format`` names the string alternative carries for the two supported forms.
JSON_TEXT = "content:application/json"
JSON_BASE64 = "content:application/json;base64"
FORMATS = frozenset({JSON_TEXT, JSON_BASE64})
_B64 = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
_WS = " \t\n\r"


def format_of(media_type: object, encoding: object) -> str | None:
    """The checked format for a pair of keyword values, or ``None`` (declined)."""
    if media_type != "application/json" or encoding not in (None, "base64"):
        return None
    return JSON_BASE64 if encoding == "base64" else JSON_TEXT


@functools.cache
def _json_machine() -> StateMachine:
    from pse.types.json.schema_machine import schema_to_state_machine  # noqa: PLC0415

    return schema_to_state_machine(True, whitespace="free", ordered_properties=False)


def _is_json(text: str) -> bool:
    try:
        json.loads(text)
    except ValueError:
        return False
    return True


def json_prefix(text: str) -> bool:
    """Whether ``text`` can be completed into a JSON text."""
    body = text.lstrip(_WS)
    if not body or _is_json(body):
        return True
    steppers = StateMachine.advance_all_basic(_json_machine().get_steppers(), body)
    return any(not s.remaining_input for s in steppers)


def _decoded(text: str) -> tuple[str, bool] | None:
    """The UTF-8 text of the complete base64 groups of ``text`` and whether the
    string is final (padded); ``None`` when no valid base64 of UTF-8 begins so."""
    body = text.rstrip("=")
    pad = len(text) - len(body)
    if not _B64.issuperset(body) or pad > 2:
        return None
    if pad and (len(body) % 4 not in (2, 3) or len(body) % 4 + pad > 4):
        return None
    final = pad > 0 and len(text) % 4 == 0
    whole = text if final else body[: len(body) - len(body) % 4]
    try:
        raw = base64.b64decode(whole, validate=True)
        return codecs.getincrementaldecoder("utf-8")().decode(raw, final=final), final
    except ValueError:  # binascii.Error, UnicodeDecodeError
        return None


class ContentStateMachine(CheckedStringStateMachine):
    """A JSON string holding a JSON document, plain or base64-encoded."""

    def __init__(self, fmt: str) -> None:
        super().__init__()
        self.base64 = fmt == JSON_BASE64

    def complete(self, text: str) -> bool:
        if not self.base64:
            return _is_json(text)
        try:
            raw = base64.b64decode(text, validate=True)
            return _is_json(raw.decode("utf-8"))
        except ValueError:  # binascii.Error, UnicodeDecodeError, non-ASCII text
            return False

    def prefix_ok(self, content: JsonText) -> bool:
        if not self.base64:
            return json_prefix(content.text)
        decoded = _decoded(content.text)
        if decoded is None:
            return False
        text, final = decoded
        return _is_json(text) if final else json_prefix(text)


def valid(fmt: str, text: str) -> bool:
    """Whether the decoded string ``text`` satisfies the content format ``fmt``."""
    return ContentStateMachine(fmt).complete(text)


__all__ = ["FORMATS", "ContentStateMachine", "format_of", "json_prefix", "valid"]
