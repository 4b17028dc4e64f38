"""Exception hierarchy shared by the native core and every Python package.

The native module raises these classes (registered as translators in
``cpp/bindings/bind_errors.cc``); ``pse.errors`` re-exports them.
"""

from __future__ import annotations


class PseError(Exception):
    """Base class of every error raised by the structuring engine."""


class GrammarError(PseError, ValueError):
    """A state machine is malformed: empty phrase, missing state, bad bounds."""


class SchemaError(PseError, ValueError):
    """A schema cannot be compiled or uses a keyword that is not enforced.

    ``code`` is a stable slug, ``keyword`` the offending keyword and ``pointer``
    the JSON pointer of the subschema that holds it.
    """

    def __init__(
        self,
        message: str,
        *,
        code: str = "invalid-schema",
        keyword: str | None = None,
        pointer: str = "",
    ) -> None:
        self.message = message
        self.code = code
        self.keyword = keyword
        self.pointer = pointer
        where = f" at '{pointer or '#'}'" if keyword is not None or pointer else ""
        super().__init__(f"{message}{where} [{code}]")


class VocabularyError(PseError, TypeError):
    """The object given as a tokenizer has no usable vocabulary."""


class TokenRejectedError(PseError, ValueError):
    """A token was fed to the engine that no active stepper can consume."""


class SamplingError(PseError, RuntimeError):
    """The sampler kept returning tokens the grammar forbids."""


class NoValidTokenError(PseError, RuntimeError):
    """No token is allowed and the structure is not complete."""


class BudgetError(PseError, ValueError):
    """The token budget is smaller than the shortest valid completion."""


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
