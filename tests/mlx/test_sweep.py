"""A deterministic MaskBench/BFCL sample on the real SmolLM2 in MLX (``model``, ``slow``).

The same cases as tests/tf and tests/jax (``model_sweep.select(maskbench=12,
bfcl=8)``: evenly spaced rows of ``../shared/data``, skipped when it is
absent), each generated greedy and sampled through ``PSEMLXMixin.generate``
with the budget the torch sweep uses. Every output must parse and validate
with ``jsonschema`` (the validator of the schema's own draft).
``nox -s tests-mlx -- -m slow`` runs it.
"""

from __future__ import annotations

from typing import Any

import mlx.core as mx
import pytest
from _support import model_sweep
from mlx_lm.sample_utils import make_sampler

from pse import StructuringEngine

pytestmark = [pytest.mark.model, pytest.mark.slow]

SWEEP = model_sweep.select(maskbench=12, bfcl=8)


def _cases() -> list[Any]:
    missing = model_sweep.shared_missing()
    if missing is not None:
        return [pytest.param(None, marks=pytest.mark.skip(reason=missing))]
    return [pytest.param(case, id=case.id) for case in SWEEP.cases]


@pytest.mark.parametrize("do_sample", [False, True], ids=["greedy", "sampled"])
@pytest.mark.parametrize("case", _cases())
def test_schema_sweep(
    smollm: tuple[Any, Any], case: model_sweep.SweepCase, do_sample: bool
) -> None:
    model, tok = smollm
    engine = StructuringEngine(tok, multi_token_sampling=True)
    engine.configure(case.schema)
    budget = model_sweep.sweep_budget(engine)
    model.engine = engine
    mx.random.seed(case.seed)
    sampler = make_sampler(temp=0.8) if do_sample else None
    ids = model.generate(model_sweep.chat_ids(tok, case.prompt), max_tokens=budget, sampler=sampler)
    assert ids and ids[-1] in engine.native_vocabulary.eos_token_ids, f"{case.id}: did not finish"
    assert len(ids) <= budget
    model_sweep.check_output(case.id, case.schema, tok.decode(ids[:-1]), engine)
