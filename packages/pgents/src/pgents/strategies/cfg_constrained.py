"""CFG-constrained generation (Phase 1.1) through ``pse``: the output is valid
by construction, whatever the model's logits."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from pgents.balance import complete_json
from pgents.confidence import BASE, with_repairs
from pgents.protocol import BaseParser
from pgents.result import ParseResult

__all__ = ["CFGConstrainedParser", "LogitsFunction"]

LogitsFunction = Callable[[Sequence[int]], Any]
"""``logits(input_ids) -> scores`` over the vocabulary (NumPy-compatible)."""


def _greedy(logprobs: Any) -> Any:
    return np.argmax(logprobs, axis=-1)


class CFGConstrainedParser(BaseParser[Any]):
    """Generates with ``logits_fn`` under the ``structure`` (a ``pse``
    StateMachine or anything ``StructuringEngine.configure`` accepts) and
    returns the decoded value with confidence 1.0.

    ``parse(prompt)`` tokenizes the prompt, then repeatedly masks the logits
    with the engine and samples (greedy by default). After ``max_tokens``
    steps it stops sampling and forces the shortest completion that closes
    the document (``complete_json``), so generation always ends. The
    engine is created lazily and reused; ``pse`` is the only dependency.
    """

    name = "cfg"

    def __init__(
        self,
        tokenizer: Any,
        logits_fn: LogitsFunction,
        structure: Any,
        *,
        max_tokens: int = 256,
        sampler: Callable[[Any], Any] = _greedy,
    ) -> None:
        self.tokenizer = tokenizer
        self.logits_fn = logits_fn
        self.structure = structure
        self.max_tokens = max_tokens
        self.sampler = sampler
        self._engine: Any = None

    def _new_engine(self) -> Any:
        if self._engine is None:
            from pse import StructuringEngine

            self._engine = StructuringEngine(self.tokenizer)
        self._engine.configure(self.structure)
        return self._engine

    def _parse(self, text: str) -> ParseResult[Any]:
        engine = self._new_engine()
        ids: list[int] = list(self.tokenizer.encode(text)) if text else []
        generated: list[int] = []
        forced = ""
        steps = 0
        while not engine.has_reached_accept_state and steps < self.max_tokens:
            scores = np.asarray(self.logits_fn(ids + generated), dtype=np.float32)
            masked = engine.process_logits(ids + generated, scores)
            if not np.isfinite(masked).any():
                break
            generated.extend(int(t) for t in engine.sample(masked, self.sampler).tolist())
            steps += 1
        if not engine.has_reached_accept_state:
            so_far = engine.raw_output
            suffix = complete_json(so_far)
            if suffix is None or not engine.consume_text(suffix, False):
                return ParseResult.fail(
                    f"no accept state after {steps} tokens", self.name, metadata={"text": so_far}
                )
            forced = suffix
        output = engine.raw_output
        try:
            value = json.loads(output)
        except ValueError:
            value = output
        if value is None:
            return ParseResult.fail(
                "generated JSON null (no value)", self.name, metadata={"text": output}
            )
        repairs = [f"forced completion {forced!r} after {steps} tokens"] if forced else []
        return ParseResult.ok(
            value,
            with_repairs(BASE["cfg"], len(repairs)),
            self.name,
            repairs=repairs,
            metadata={"text": output, "tokens": steps},
        )
