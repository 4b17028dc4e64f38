"""XGrammar: ``GrammarCompiler.compile_json_schema`` + ``GrammarMatcher``.

Compact JSON: ``any_whitespace=False, separators=(",", ":")``. The compiler's
grammar cache is cleared before every warm compile; ``max_threads`` is the
machine's core count.
"""

from __future__ import annotations

import json
import os
from typing import Any

import numpy as np
import xgrammar as xgr


class XGrammarAdapter:
    name = "xgrammar"

    def __init__(self, tokenizer: Any) -> None:
        self.xgr = xgr
        self.info = xgr.TokenizerInfo.from_huggingface(tokenizer, vocab_size=len(tokenizer))
        self.vocab_size = int(self.info.vocab_size)
        self.compiler = xgr.GrammarCompiler(self.info, max_threads=os.cpu_count() or 1)
        self.mask = np.zeros((1, (self.vocab_size + 31) // 32), dtype=np.int32)
        self.notes: list[str] = []

    def compile(self, schema: dict[str, Any]) -> Any:
        return self.compiler.compile_json_schema(
            json.dumps(schema), any_whitespace=False, separators=(",", ":")
        )

    def clear_cache(self) -> None:
        self.compiler.clear_cache()

    def start(self, compiled: Any) -> Any:
        return self.xgr.GrammarMatcher(compiled)

    def reset(self, matcher: Any) -> Any:
        matcher.reset()
        return matcher

    def fill(self, matcher: Any) -> None:
        matcher.fill_next_token_bitmask(self.mask)

    def consume(self, matcher: Any, token_id: int) -> bool:
        return bool(matcher.accept_token(token_id))

    def accepting(self, matcher: Any) -> bool:
        # Completed = the stop token would be accepted now (or was accepted).
        self.fill(matcher)
        stops = list(matcher.stop_token_ids)
        return bool(matcher.is_terminated()) or any(
            (int(self.mask[0, t >> 5]) >> (t & 31)) & 1 for t in stops
        )

    def memory_bytes(self, compiled: Any) -> int | None:
        return int(compiled.memory_size_bytes)
