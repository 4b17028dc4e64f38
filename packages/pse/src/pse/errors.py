"""Exceptions raised by the structuring engine (re-exported from ``pse_core.errors``)."""

from pse_core.errors import (
    GrammarError,
    NoValidTokenError,
    PseError,
    SamplingError,
    SchemaError,
    TokenRejectedError,
    VocabularyError,
)

__all__ = [
    "GrammarError",
    "NoValidTokenError",
    "PseError",
    "SamplingError",
    "SchemaError",
    "TokenRejectedError",
    "VocabularyError",
]
