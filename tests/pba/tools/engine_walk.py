"""A random walk through a configured ``StructuringEngine``, shared by the tool and MCP tests."""

from __future__ import annotations

import numpy as np

from pse.structuring_engine import StructuringEngine


def walk(engine: StructuringEngine, seed: int, random_steps: int = 120) -> str:
    """Random allowed tokens, now and then a step towards the end; then the shortest completion.

    The steps towards the end (the first token of the shortest completion)
    close strings early enough that the walk reaches every part of the call.
    """
    rng = np.random.default_rng(seed)
    emitted: list[int] = []
    for _ in range(random_steps):
        if engine.has_reached_accept_state:
            break
        allowed = list(engine.allowed_token_ids())
        assert allowed, "the engine allows no token before the call is complete"
        plan = engine.completion_token_ids() or []
        token = plan[0] if plan and rng.random() < 0.3 else int(rng.choice(allowed))
        emitted += list(engine.consume_token(token))
    completion = engine.completion_token_ids()
    assert completion is not None, "the engine reports no way to complete the call"
    for token in completion:
        emitted += list(engine.consume_token(token))
    assert engine.has_reached_accept_state
    text: str = engine.tokenizer.decode(emitted)
    return text
