"""Every strategy of the P-gents taxonomy, one module each."""

from __future__ import annotations

from pgents.strategies.anchor import AnchorBasedParser
from pgents.strategies.cfg_constrained import CFGConstrainedParser
from pgents.strategies.diff_based import DiffBasedParser
from pgents.strategies.evolving import EvolvingParser
from pgents.strategies.fim import FIMParser
from pgents.strategies.graduated import GraduatedPromptingParser
from pgents.strategies.incremental_ast import IncrementalNode, IncrementalParser
from pgents.strategies.json_repair import JsonRepairParser
from pgents.strategies.lazy_validation import LazyValidatedDict, LazyValidationParser
from pgents.strategies.probabilistic_ast import ProbabilisticASTNode, ProbabilisticASTParser
from pgents.strategies.pydantic_guided import PydanticParser
from pgents.strategies.reflection import ReflectionParser
from pgents.strategies.stack_balancing import StackBalancingParser
from pgents.strategies.structural_decoupling import StructuralDecouplingParser

__all__ = [
    "AnchorBasedParser",
    "CFGConstrainedParser",
    "DiffBasedParser",
    "EvolvingParser",
    "FIMParser",
    "GraduatedPromptingParser",
    "IncrementalNode",
    "IncrementalParser",
    "JsonRepairParser",
    "LazyValidatedDict",
    "LazyValidationParser",
    "ProbabilisticASTNode",
    "ProbabilisticASTParser",
    "PydanticParser",
    "ReflectionParser",
    "StackBalancingParser",
    "StructuralDecouplingParser",
]
