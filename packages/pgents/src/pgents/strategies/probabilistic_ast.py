"""Probabilistic AST (Phase 4.3): a confidence on every node, explainable repairs."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any, Final

from pgents.confidence import BASE, critical_path, repair_factor, sequential
from pgents.protocol import BaseParser
from pgents.repair.scanner import SpanScanner, TooDeep
from pgents.result import ParseResult

__all__ = ["ProbabilisticASTNode", "ProbabilisticASTParser"]

_AT: Final = re.compile(r" at (\d+)$")


@dataclass
class ProbabilisticASTNode:
    """One JSON node: its type, value, own confidence and the repairs inside it."""

    type: str
    value: Any
    confidence: float
    repair_applied: str | None = None
    path: str = "$"
    children: list[ProbabilisticASTNode] = field(default_factory=list)

    def walk(self) -> list[ProbabilisticASTNode]:
        out = [self]
        for child in self.children:
            out.extend(child.walk())
        return out

    def find(self, path: str) -> ProbabilisticASTNode | None:
        return next((n for n in self.walk() if n.path == path), None)


def _type(value: Any) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, dict):
        return "object"
    if isinstance(value, list):
        return "array"
    return "string" if isinstance(value, str) else "null"


def _build(value: Any, path: str) -> ProbabilisticASTNode:
    node = ProbabilisticASTNode(_type(value), value, 1.0, path=path)
    if isinstance(value, dict):
        node.children = [_build(v, f"{path}.{k}") for k, v in value.items()]
    elif isinstance(value, list):
        node.children = [_build(v, f"{path}[{i}]") for i, v in enumerate(value)]
    return node


def _post_order(node: ProbabilisticASTNode) -> list[ProbabilisticASTNode]:
    out: list[ProbabilisticASTNode] = []
    for child in node.children:
        out.extend(_post_order(child))
    out.append(node)
    return out


class ProbabilisticASTParser(BaseParser[ProbabilisticASTNode]):
    """JSON to a tree of :class:`ProbabilisticASTNode`.

    Each repair is attributed to the innermost node whose text span holds it;
    a node with one repair scores 0.6/0.85, with several 0.4/0.85 (repairs
    outside every node go to the root). The result's confidence is 0.85 times
    the minimum over the critical path: every node, or only the nodes on the
    ``critical`` paths (e.g. ``["$.name"]``) and their ancestors.
    """

    name = "probabilistic-ast"

    def __init__(self, critical: list[str] | None = None) -> None:
        self.critical = critical

    def _parse(self, text: str) -> ParseResult[ProbabilisticASTNode]:
        try:
            return self._tree(json.loads(text), [], [])
        except (ValueError, RecursionError):
            pass
        scanner = SpanScanner(text)
        try:
            values = scanner.parse_top()
        except (TooDeep, RecursionError):
            return ParseResult.fail("nesting too deep", self.name)
        if not values or values[0] is None:
            return ParseResult.fail("no JSON value found", self.name, repairs=scanner.repairs)
        if len(values) > 1:
            scanner.repairs.append(f"kept the first of {len(values)} values at 0")
        return self._tree(values[0], scanner.repairs, scanner.spans)

    def _tree(
        self, value: Any, repairs: list[str], spans: list[tuple[int, int]]
    ) -> ParseResult[ProbabilisticASTNode]:
        root = _build(value, "$")
        nodes = _post_order(root)
        own: dict[int, list[str]] = {}
        if len(spans) == len(nodes) - 1:
            spans = [*spans, (0, 1 << 62)]  # the root container is not a nested value
        if len(spans) != len(nodes):
            spans = []
        for repair in repairs:
            m = _AT.search(repair)
            best = len(nodes) - 1
            if m is not None and spans:
                pos = int(m.group(1))
                width = None
                for k, (start, end) in enumerate(spans):
                    if start <= pos <= end and (width is None or end - start < width):
                        best, width = k, end - start
            own.setdefault(best, []).append(repair)
        for k, node in enumerate(nodes):
            if k in own:
                node.confidence = repair_factor(len(own[k]))
                node.repair_applied = "; ".join(own[k])
        if self.critical is None:
            chosen = nodes
        else:
            chosen = [n for n in nodes if any(c.startswith(n.path) for c in self.critical)]
        return ParseResult.ok(
            root,
            sequential(BASE["direct"], critical_path(n.confidence for n in chosen)),
            self.name,
            repairs=repairs,
        )
