"""PSE: ``pse.StructuringEngine`` configured with a JSON Schema dict.

A schema the compiler refuses (``SchemaError``) falls back to the any-JSON-value
machine, and the row is marked ``any-JSON (schema compiler pending)``.
"""

from __future__ import annotations

import contextlib
import sys
from typing import Any

import numpy as np

from pse import StructuringEngine

# Import the schema compiler and its automata up front, as the peers' imports
# do, so the first compile is not charged for loading Python modules.
with contextlib.suppress(ImportError):
    import pse.automata  # noqa: F401
    import pse.types.json.schema_machine  # noqa: F401

PENDING = "any-JSON (schema compiler pending)"


class PseAdapter:
    name = "pse"

    def __init__(self, tokenizer: Any) -> None:
        self.engine = StructuringEngine(tokenizer)
        self.vocab_size = int(self.engine.vocab_size)
        self.mask = np.zeros((self.vocab_size + 31) // 32, dtype=np.int32)
        self.notes: list[str] = []
        # Compact JSON, like the peers: no whitespace between tokens, if the
        # compiler has the option (``max_whitespace``); else its default.
        self._options: dict[str, Any] | None = {"max_whitespace": 0}
        self._cache_mark = 0

    def compile(self, schema: dict[str, Any]) -> Any:
        engine = self.engine
        if self._options is not None:
            try:
                engine.configure(schema, **self._options)
                return engine.state_machine
            except TypeError as exc:
                if "max_whitespace" not in str(exc) and "keyword" not in str(exc):
                    return self._fallback(exc)
                self._options = None
                self.notes.append("compiler has no max_whitespace option: default whitespace")
        try:
            engine.configure(schema)
            return engine.state_machine
        except Exception as exc:  # noqa: BLE001 - any failure means "pending"
            return self._fallback(exc)

    def _fallback(self, exc: BaseException) -> Any:
        from pse.types.json.json_value import JsonStateMachine

        note = f"{PENDING}: {type(exc).__name__}: {str(exc)[:120]}"
        if note not in self.notes:
            self.notes.append(note)
        machine = JsonStateMachine()
        self.engine.configure(machine)
        return machine

    def clear_cache(self) -> None:
        """Clear PSE's process-wide compile caches (``functools`` caches of compiled
        automata in ``pse.automata`` and ``pse.types``), as XGrammar's is cleared."""
        for module_name, module in list(sys.modules.items()):
            if module is None or not module_name.startswith(("pse.automata", "pse.types")):
                continue
            for value in list(vars(module).values()):
                clear = getattr(value, "cache_clear", None)
                if callable(clear):
                    clear()

    def start(self, compiled: Any) -> Any:
        self.engine.configure(compiled)  # a StateMachine: set and reset the steppers
        return self.engine

    def reset(self, matcher: Any) -> Any:
        return self.start(self.engine.state_machine)

    def fill(self, matcher: Any) -> None:
        matcher.fill_bitmask(self.mask)

    def consume(self, matcher: Any, token_id: int) -> bool:
        try:
            matcher.consume_token(token_id)
        except Exception:  # noqa: BLE001 - a rejected token
            return False
        return True

    def accepting(self, matcher: Any) -> bool:
        return bool(matcher.has_reached_accept_state)

    def mark_memory(self) -> None:
        self._cache_mark = int(self.engine.native_vocabulary.mask_cache_bytes)

    def memory_bytes(self, compiled: Any) -> int | None:
        """Growth of the vocabulary's shared mask cache since ``mark_memory``."""
        return int(self.engine.native_vocabulary.mask_cache_bytes) - self._cache_mark
