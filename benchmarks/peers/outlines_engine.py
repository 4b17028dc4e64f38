"""outlines-core: ``build_regex_from_schema`` + ``Index`` + ``Guide``.

The vocabulary maps each token's exact bytes to its ids (byte-level BPE
decoded by ``peers._vocab``, the same bytes PSE derives); special tokens
are left out, EOS is given separately. ``build_regex_from_schema`` keeps its
default ``max_recursion_depth=3``: deeper recursive instances are rejected.
Compact JSON: ``whitespace_pattern=""``. The mask is written with
``Guide.write_mask_into`` (what ``outlines_core.kernels.numpy`` calls, minus
its numba import). The whole token automaton is built at compile time.
"""

from __future__ import annotations

import json
import pickle
from typing import Any

import numpy as np
import outlines_core

from peers._vocab import token_bytes


class OutlinesCoreAdapter:
    name = "outlines-core"

    def __init__(self, tokenizer: Any) -> None:
        self.oc = outlines_core
        tokens = token_bytes(tokenizer)
        eos = int(tokenizer.eos_token_id)
        mapping: dict[bytes, list[int]] = {}
        for token_id, data in enumerate(tokens):
            if data is not None and token_id != eos:
                mapping.setdefault(data, []).append(token_id)
        self.vocabulary = outlines_core.Vocabulary(eos, mapping)
        self.vocab_size = len(tokens)
        self.mask = np.zeros((1, (self.vocab_size + 31) // 32), dtype=np.int32)
        self.notes: list[str] = []

    def compile(self, schema: dict[str, Any]) -> Any:
        regex = self.oc.json_schema.build_regex_from_schema(
            json.dumps(schema), whitespace_pattern=""
        )
        return self.oc.Index(regex, self.vocabulary)

    def clear_cache(self) -> None:
        """outlines-core keeps no cache: every Index is built anew."""

    def start(self, compiled: Any) -> Any:
        return self.oc.Guide(compiled)

    def reset(self, matcher: Any) -> Any:
        matcher.reset()
        return matcher

    def fill(self, matcher: Any) -> None:
        matcher.write_mask_into(self.mask.ctypes.data, self.mask.size, self.mask.itemsize)

    def consume(self, matcher: Any, token_id: int) -> bool:
        try:
            matcher.advance(token_id, return_tokens=False)
        except ValueError:
            return False
        return True

    def accepting(self, matcher: Any) -> bool:
        return bool(matcher.is_finished())

    def memory_bytes(self, compiled: Any) -> int | None:
        try:
            return len(pickle.dumps(compiled))  # serialized size of the token automaton
        except Exception:  # noqa: BLE001
            return None
