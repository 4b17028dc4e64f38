"""Exceptions raised by the structuring engine (re-exported from ``pse_core.errors``)."""

from pse_core.errors import (
    BudgetError,
    GrammarError,
    NoValidTokenError,
    PseError,
    SamplingError,
    SchemaError,
    TokenRejectedError,
    VocabularyError,
)

__all__ = [
    "BudgetError",
    "GrammarError",
    "NoValidTokenError",
    "PseError",
    "SamplingError",
    "SchemaError",
    "TokenRejectedError",
    "VocabularyError",
]
