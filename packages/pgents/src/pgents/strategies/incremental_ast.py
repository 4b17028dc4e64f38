"""Incremental AST (Phase 2.3): a node tree that grows with the stream."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, Final

from pgents.confidence import BASE, with_repairs
from pgents.protocol import BaseParser, group_tokens
from pgents.result import ParseResult

__all__ = ["IncrementalNode", "IncrementalParser"]

_TOKEN: Final = re.compile(
    r'\s+|[{}\[\]:,]|"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?|true|false|null'
)


@dataclass
class IncrementalNode:
    """A node that may still be growing: ``complete`` once closed."""

    type: str
    value: Any = None
    complete: bool = False
    confidence: float = 0.5
    key: str | None = None
    children: list[IncrementalNode] = field(default_factory=list)

    def to_value(self) -> Any:
        if self.type == "object":
            return {c.key: c.to_value() for c in self.children if c.key is not None}
        if self.type == "array":
            return [c.to_value() for c in self.children]
        return self.value


class _Builder:
    """Consumes tokens; unfinished trailing text waits for the next chunk."""

    def __init__(self) -> None:
        self.root: IncrementalNode | None = None
        self.stack: list[IncrementalNode] = []
        self.pending_key: str | None = None
        self.expect_key = False
        self.tail = ""
        self.repairs: list[str] = []
        self.offset = 0

    def _add(self, node: IncrementalNode) -> None:
        if not self.stack:
            if self.root is None:
                self.root = node
            else:
                self.repairs.append(f"ignored a second top-level value at {self.offset}")
            return
        parent = self.stack[-1]
        if parent.type == "object":
            if self.pending_key is None:
                self.repairs.append(f"dropped a value without key at {self.offset}")
                return
            node.key = self.pending_key
            self.pending_key = None
        parent.children.append(node)

    def feed(self, chunk: str, final: bool = False) -> None:
        text = self.tail + chunk
        pos = 0
        while pos < len(text):
            m = _TOKEN.match(text, pos)
            at_end = m is not None and m.end() == len(text) and not final
            if m is None or (at_end and text[pos] in '"-0123456789tfn'):
                if m is None and not _could_continue(text, pos):
                    self.repairs.append(f"skipped {text[pos]!r} at {self.offset + pos}")
                    pos += 1
                    continue
                break
            tok = m.group()
            pos = m.end()
            if tok.isspace():
                continue
            self._token(tok)
        self.offset += pos
        self.tail = text[pos:]

    def _token(self, tok: str) -> None:
        top = self.stack[-1] if self.stack else None
        if tok in "{[":
            node = IncrementalNode("object" if tok == "{" else "array", confidence=0.5)
            self._add(node)
            self.stack.append(node)
            self.expect_key = tok == "{"
        elif tok in "}]":
            if top is not None:
                top.complete = True
                top.confidence = 1.0
                self.stack.pop()
            self.expect_key = False
        elif tok == ",":
            self.expect_key = top is not None and top.type == "object"
        elif tok == ":":
            self.expect_key = False
        else:
            try:
                value = json.loads(tok)
            except ValueError:  # a token shaped like JSON that is not (``00``)
                self.repairs.append(f"skipped {tok!r} at {self.offset}")
                return
            if top is not None and top.type == "object" and self.expect_key:
                self.pending_key = str(value)
                self.expect_key = False
                return
            self._add(IncrementalNode(_kind(value), value, True, 1.0))

    def snapshot(self) -> IncrementalNode | None:
        """The tree, with the unfinished tail (a string in progress) attached."""
        tail = self.tail
        if tail.startswith('"') and self.stack and not self.expect_key:
            try:
                partial = json.loads(tail.rstrip("\\") + '"')
            except ValueError:
                partial = None
            top = self.stack[-1]
            if isinstance(partial, str) and (top.type == "array" or self.pending_key):
                leaf = IncrementalNode("string", partial, False, 0.5, key=self.pending_key)
                return _with_leaf(self.root, top, leaf)
        return _copy(self.root)


def _with_leaf(
    root: IncrementalNode | None, parent: IncrementalNode, leaf: IncrementalNode
) -> IncrementalNode | None:
    parent.children.append(leaf)
    try:
        return _copy(root)
    finally:
        parent.children.pop()


def _copy(node: IncrementalNode | None) -> IncrementalNode | None:
    if node is None:
        return None
    return IncrementalNode(
        node.type,
        node.value,
        node.complete,
        node.confidence,
        node.key,
        [c for c in (_copy(ch) for ch in node.children) if c is not None],
    )


def _kind(value: Any) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    return "string" if isinstance(value, str) else "null"


def _could_continue(text: str, pos: int) -> bool:
    """Can more input turn ``text[pos:]`` into a token (a string, number or literal)?"""
    rest = text[pos : pos + 6]
    return rest[0] in '"-0123456789' or any(w.startswith(rest) for w in ("true", "false", "null"))


class IncrementalParser(BaseParser[IncrementalNode]):
    """JSON to an :class:`IncrementalNode` tree, built token by token.

    In ``parse_stream`` each chunk only tokenises the new text; every yielded
    tree marks which nodes are complete (confidence 1.0) and which are still
    open (0.5). Unknown characters are skipped and recorded. Confidence of
    the whole: 0.75 while open, 0.85 when the root is complete.
    """

    name = "incremental-ast"

    def _result(self, builder: _Builder, final: bool) -> ParseResult[IncrementalNode]:
        root = builder.snapshot()
        if root is None:
            return ParseResult.fail("no value yet", self.name, repairs=builder.repairs)
        base = BASE["direct"] if root.complete or root.type not in ("object", "array") else 0.75
        repairs = list(builder.repairs)
        if final and not root.complete and root.type in ("object", "array"):
            repairs.append("closed unfinished containers")
        return ParseResult.ok(root, with_repairs(base, len(repairs)), self.name, repairs=repairs)

    def _parse(self, text: str) -> ParseResult[IncrementalNode]:
        builder = _Builder()
        builder.feed(text, final=True)
        return self._result(builder, True)

    def parse_stream(self, tokens: Iterable[str]) -> Iterator[ParseResult[IncrementalNode]]:
        builder = _Builder()
        size = 0
        try:
            for chunk in group_tokens(tokens, self.config.stream_chunk_size):
                size += len(chunk)
                builder.feed(chunk)
                yield self._result(builder, False).as_partial(size)
        except Exception as exc:  # noqa: BLE001
            yield ParseResult.fail(f"stream failed: {exc}", self.name)
            return
        builder.feed("", final=True)
        yield self._result(builder, True).replace(stream_position=size)
