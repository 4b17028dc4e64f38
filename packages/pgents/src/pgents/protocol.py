"""The Parser[A] protocol and BaseParser, the safety net every P-gent shares."""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Iterable, Iterator
from typing import Any, Generic, Protocol, TypeVar, runtime_checkable

from pgents.config import ParserConfig
from pgents.result import ParseResult

__all__ = ["BaseParser", "Parser", "group_tokens"]

A = TypeVar("A")
P = TypeVar("P", bound="BaseParser[Any]")


@runtime_checkable
class Parser(Protocol[A]):
    """A morphism ``Text -> ParseResult[A]``; also a stream transducer."""

    def parse(self, text: str) -> ParseResult[A]:
        """Parse one whole text."""
        ...

    def parse_stream(self, tokens: Iterable[str]) -> Iterator[ParseResult[A]]:
        """Yield a partial result per chunk, then the final result."""
        ...

    def configure(self, **config: Any) -> Parser[A]:
        """A copy with ``ParserConfig`` fields changed."""
        ...


class BaseParser(Generic[A]):
    """Shared behaviour: subclasses implement ``_parse`` (and may override
    ``_parse_prefix`` for cheaper stream updates).

    ``parse`` enforces the laws whatever ``_parse`` does: non-``str`` input,
    input over ``config.max_input_chars`` and any exception become failed
    results (Law 1, graceful degradation).
    """

    name: str = "parser"
    config: ParserConfig = ParserConfig()

    def _parse(self, text: str) -> ParseResult[A]:
        raise NotImplementedError

    def _parse_prefix(self, text: str) -> ParseResult[A]:
        """The value of a stream prefix; by default the whole-text parse."""
        return self._parse(text)

    def _guard(self, text: Any) -> ParseResult[A] | None:
        if not isinstance(text, str):
            return ParseResult.fail(f"expected str, got {type(text).__name__}", self.name)
        if len(text) > self.config.max_input_chars:
            return ParseResult.fail(
                f"input of {len(text)} chars exceeds max_input_chars "
                f"({self.config.max_input_chars})",
                self.name,
            )
        return None

    def parse(self, text: str) -> ParseResult[A]:
        """Parse ``text``; never raises."""
        guard = self._guard(text)
        if guard is not None:
            return guard
        try:
            return self._parse(text)
        except Exception as exc:  # noqa: BLE001 - Law 1: never raise on input
            return ParseResult.fail(f"{type(exc).__name__}: {exc}", self.name)

    def parse_stream(self, tokens: Iterable[str]) -> Iterator[ParseResult[A]]:
        """One partial result per ``config.stream_chunk_size`` tokens
        (``partial=True``, ``stream_position`` = characters seen), then the
        complete result of the whole text."""
        buffer: list[str] = []
        size = 0
        try:
            for chunk in group_tokens(tokens, self.config.stream_chunk_size):
                buffer.append(chunk)
                size += len(chunk)
                text = "".join(buffer) if len(buffer) > 1 else chunk
                buffer = [text]
                if not self.config.allow_partial:
                    continue
                guard = self._guard(text)
                if guard is not None:
                    yield guard.as_partial(size)
                    continue
                try:
                    result = self._parse_prefix(text)
                except Exception as exc:  # noqa: BLE001
                    result = ParseResult.fail(f"{type(exc).__name__}: {exc}", self.name)
                yield result.as_partial(size)
        except Exception as exc:  # noqa: BLE001 - the token iterator itself failed
            yield ParseResult.fail(f"stream failed: {exc}", self.name, stream_position=size)
            return
        final = self.parse("".join(buffer))
        yield final.replace(stream_position=size)

    def configure(self: P, **config: Any) -> P:
        """A copy of this parser with ``ParserConfig`` fields replaced."""
        clone = copy.copy(self)
        clone.config = dataclasses.replace(self.config, **config)
        return clone


def _as_text(item: object) -> str:
    """A stream chunk as text (streams of non-str junk must not crash a parser)."""
    return item if isinstance(item, str) else str(item)


def group_tokens(tokens: Iterable[object], size: int) -> Iterator[str]:
    """The stream's tokens joined ``size`` at a time (``ParserConfig.stream_chunk_size``);
    the last group may be shorter. Non-str tokens are turned into text."""
    group: list[str] = []
    for token in tokens:
        group.append(_as_text(token))
        if len(group) >= size:
            yield "".join(group)
            group = []
    if group:
        yield "".join(group)
