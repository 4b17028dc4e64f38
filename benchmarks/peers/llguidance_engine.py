"""llguidance: ``LLMatcher.grammar_from_json_schema`` + ``LLMatcher``.

Compact JSON: ``defaults={"whitespace_flexible": False}`` (separators default
to "," and ":"). Compiling = building the grammar string and an ``LLMatcher``
from it (the grammar is compiled in the constructor; lexer states are built
lazily while masking, so part of the work shows up in the cold-walk masks).
"""

from __future__ import annotations

from typing import Any

import llguidance
import llguidance.hf
import numpy as np


class LLGuidanceAdapter:
    name = "llguidance"

    def __init__(self, tokenizer: Any) -> None:
        self.llg = llguidance
        self.tokenizer = llguidance.hf.from_tokenizer(tokenizer, n_vocab=len(tokenizer))
        self.vocab_size = int(self.tokenizer.vocab_size)
        self.mask = np.zeros((1, (self.vocab_size + 31) // 32), dtype=np.int32)
        self.notes: list[str] = []

    def compile(self, schema: dict[str, Any]) -> Any:
        grammar = self.llg.LLMatcher.grammar_from_json_schema(
            schema, defaults={"whitespace_flexible": False}
        )
        matcher = self.llg.LLMatcher(self.tokenizer, grammar, log_level=0)
        if matcher.is_error():
            raise RuntimeError(matcher.get_error())
        return matcher

    def clear_cache(self) -> None:
        """Each LLMatcher compiles its grammar; there is no shared cache to clear."""

    def start(self, compiled: Any) -> Any:
        compiled.reset()
        return compiled

    def reset(self, matcher: Any) -> Any:
        matcher.reset()
        return matcher

    def fill(self, matcher: Any) -> None:
        row = self.mask[0]
        matcher.unsafe_compute_mask_ptr(row.ctypes.data, row.size * row.itemsize)

    def consume(self, matcher: Any, token_id: int) -> bool:
        return bool(matcher.consume_token(token_id)) and not matcher.is_error()

    def accepting(self, matcher: Any) -> bool:
        return bool(matcher.is_accepting())

    def memory_bytes(self, compiled: Any) -> int | None:
        return None
