"""Stack-balancing stream (Phase 2.1): close what is open, parse, repeat."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Any

from pgents.balance import BracketTracker
from pgents.confidence import BASE, with_repairs
from pgents.protocol import BaseParser, group_tokens
from pgents.result import ParseResult

__all__ = ["StackBalancingParser"]


def _loads(text: str) -> tuple[bool, Any]:
    try:
        return True, json.loads(text)
    except (ValueError, RecursionError):
        return False, None


class StackBalancingParser(BaseParser[Any]):
    """``buffer + closers`` parsed as JSON, per chunk: the classic live-JSON
    trick. The bracket stack is kept incrementally across chunks (each
    character is looked at once). When the balanced text is still invalid (a
    dangling ``"key":`` or ``tru``) the buffer is cut back to the last safe
    point, a comma or bracket. Confidence 0.75, lowered by repairs.
    """

    name = "stack-balancing"

    def _balance(self, text: str, tracker: BracketTracker) -> ParseResult[Any]:
        closers = tracker.closers()
        ok, value = _loads(text + closers)
        repairs = [f"appended {closers!r}"] if closers else []
        if not ok:
            cut = text[: tracker.safe_index].rstrip()
            tail = "".join(reversed(tracker.safe_stack))
            if cut.endswith(","):
                cut = cut[:-1]
            ok, value = _loads(cut + tail)
            repairs = [f"cut back to offset {tracker.safe_index}", f"appended {tail!r}"]
        if not ok:
            return ParseResult.fail("not balanceable JSON", self.name, repairs=repairs)
        return ParseResult.ok(
            value, with_repairs(BASE["stack-balancing"], len(repairs)), self.name, repairs=repairs
        )

    def _parse(self, text: str) -> ParseResult[Any]:
        tracker = BracketTracker()
        tracker.feed(text)
        return self._balance(text, tracker)

    def parse_stream(self, tokens: Iterable[str]) -> Iterator[ParseResult[Any]]:
        tracker = BracketTracker()
        parts: list[str] = []
        try:
            for chunk in group_tokens(tokens, self.config.stream_chunk_size):
                parts.append(chunk)
                tracker.feed(chunk)
                text = "".join(parts)
                parts = [text]
                if len(text) > self.config.max_input_chars:
                    yield ParseResult.fail(
                        "input too long", self.name, partial=True, stream_position=len(text)
                    )
                    return
                if self.config.allow_partial:
                    yield self._balance(text, tracker).as_partial(len(text))
        except Exception as exc:  # noqa: BLE001 - the token iterator failed
            yield ParseResult.fail(f"stream failed: {exc}", self.name)
            return
        text = "".join(parts)
        yield self.parse(text).replace(stream_position=len(text))
