"""Draft 7 ``contentMediaType: application/json`` (and ``contentEncoding: base64``).

Draft 7 lets a validator assert that a string holds a document of a media
type, possibly encoded. The JSON media type, plain or base64-encoded, is
checked natively (``pse_core``: ``nodes/json_content.cc``, no Python per
token): a complete string must decode (strict base64: the alphabet, padding
only at the end) to UTF-8 text that is a JSON text (RFC 8259, so not ``NaN``
or ``Infinity``); a token is masked when the text decoded so far is no longer
a prefix of one. Other media types and encodings stay declined. From 2019-09
on both keywords are annotations.
"""

from __future__ import annotations

import base64
import json

from pse_core._core import StateMachine, StringStateMachine, checked_string

from pse.types.json.checked_string import in_graph

#: ``format`` names the string alternative carries for the two supported forms
#: (the native check knows them by these names).
JSON_TEXT = "content:application/json"
JSON_BASE64 = "content:application/json;base64"
FORMATS = frozenset({JSON_TEXT, JSON_BASE64})


def format_of(media_type: object, encoding: object) -> str | None:
    """The checked format for a pair of keyword values, or ``None`` (declined)."""
    if media_type != "application/json" or encoding not in (None, "base64"):
        return None
    return JSON_BASE64 if encoding == "base64" else JSON_TEXT


def _strict_json(text: str) -> bool:
    def constant(name: str) -> None:
        raise ValueError(name)  # NaN and Infinity are not JSON

    try:
        json.loads(text, parse_constant=constant)
    except ValueError:
        return False
    return True


def valid(fmt: str, text: str) -> bool:
    """Whether the decoded string ``text`` satisfies the content format ``fmt``
    (for literal sets, decided at compile time)."""
    if fmt != JSON_BASE64:
        return _strict_json(text)
    try:
        return _strict_json(base64.b64decode(text, validate=True).decode("utf-8"))
    except ValueError:  # binascii.Error, UnicodeDecodeError, non-ASCII text
        return False


def content_machine(fmt: str) -> StateMachine:
    """A JSON string holding a document of ``fmt``, inside a native graph (an
    external node cannot be a grammar's root)."""
    return in_graph(checked_string(StringStateMachine(), fmt))


__all__ = ["FORMATS", "JSON_BASE64", "JSON_TEXT", "content_machine", "format_of", "valid"]
