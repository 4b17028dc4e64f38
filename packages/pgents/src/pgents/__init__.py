"""P-gents: fault-tolerant, confidence-scored parsers for LLM output.

Every parser maps text to a :class:`ParseResult` and never raises on its
input. Strategies live in :mod:`pgents.strategies`, compositions in
:mod:`pgents.compose`, the JSON repair scanner in :mod:`pgents.repair` and
prefix (streaming) parsing in :mod:`pgents.stream`.
"""

from __future__ import annotations

from pgents.compose import FallbackParser, FusionParser, SequentialParser, SwitchParser
from pgents.confidence import BASE, critical_path, parallel, sequential, with_repairs
from pgents.config import ParserConfig
from pgents.identity import IdentityParser
from pgents.protocol import BaseParser, Parser
from pgents.repair import RepairOutcome, repair_json
from pgents.result import InvariantError, ParseResult
from pgents.strategies import (
    AnchorBasedParser,
    CFGConstrainedParser,
    DiffBasedParser,
    EvolvingParser,
    FIMParser,
    GraduatedPromptingParser,
    IncrementalNode,
    IncrementalParser,
    JsonRepairParser,
    LazyValidatedDict,
    LazyValidationParser,
    ProbabilisticASTNode,
    ProbabilisticASTParser,
    PydanticParser,
    ReflectionParser,
    StackBalancingParser,
    StructuralDecouplingParser,
)
from pgents.stream import parse_partial_json

__version__ = "0.1.0"

__all__ = [
    "BASE",
    "AnchorBasedParser",
    "BaseParser",
    "CFGConstrainedParser",
    "DiffBasedParser",
    "EvolvingParser",
    "FIMParser",
    "FallbackParser",
    "FusionParser",
    "GraduatedPromptingParser",
    "IdentityParser",
    "IncrementalNode",
    "IncrementalParser",
    "InvariantError",
    "JsonRepairParser",
    "LazyValidatedDict",
    "LazyValidationParser",
    "ParseResult",
    "Parser",
    "ParserConfig",
    "ProbabilisticASTNode",
    "ProbabilisticASTParser",
    "PydanticParser",
    "ReflectionParser",
    "RepairOutcome",
    "SequentialParser",
    "StackBalancingParser",
    "StructuralDecouplingParser",
    "SwitchParser",
    "critical_path",
    "parallel",
    "parse_partial_json",
    "repair_json",
    "sequential",
    "with_repairs",
]
