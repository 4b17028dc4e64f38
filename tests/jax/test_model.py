"""The real SmolLM2-135M-Instruct in Flax under PSE (``model`` marker).

Checked: the converted model computes what transformers' PyTorch Llama
computes; greedy and sampled outputs parse and validate with ``jsonschema``
and end within ``max_new_tokens``; a batch of two different prompts; the
budget; the bad inputs (no engine, nothing configured, nothing allowed, a
budget below the shortest completion); the ``FlaxLogitsProcessor`` inside
Flax's compiled loop. The 8 bench schemas and a MaskBench/BFCL sample are
``slow`` (``nox -s tests-jax -- -m slow``).
"""

from __future__ import annotations

import json
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from _support import model_sweep
from pse_core.errors import NoValidTokenError
from pse_jax import PSEFlaxLogitsProcessor
from pydantic import BaseModel
from transformers.generation.flax_logits_process import FlaxLogitsProcessorList

from pse import StructuringEngine
from pse.errors import BudgetError
from pse.types.base.phrase import PhraseStateMachine

pytestmark = pytest.mark.model

BENCH_SCHEMAS = model_sweep.SHARED / "bench" / "schemas.json"
PERSON = {
    "type": "object",
    "properties": {
        "name": {"type": "string", "maxLength": 20},
        "age": {"type": "integer", "minimum": 0},
    },
    "required": ["name", "age"],
    "additionalProperties": False,
}
CAT_PROMPT = "Give me a JSON object describing a cat."
# transformers' PyTorch LlamaForCausalLM (float32, the weights transformers' own
# GGUF loader produces) predicts these tokens at the last 12 positions of the
# chat-formatted CAT_PROMPT (teacher forcing; the last one is the first new token).
TORCH_TOP1 = [1569, 338, 253, 20110, 506, 2, 198, 1, 520, 9531, 198, 3725]


class UserProfile(BaseModel):
    user_id: int
    username: str
    is_active: bool
    roles: list[str]


def _ids(tok: Any, *prompts: str) -> tuple[np.ndarray, np.ndarray]:
    """Left-padded prompt ids and their attention mask."""
    rows = [model_sweep.chat_ids(tok, prompt) for prompt in prompts]
    width = max(len(row) for row in rows)
    ids = np.full((len(rows), width), tok.pad_token_id, dtype=np.int32)
    mask = np.zeros((len(rows), width), dtype=np.int32)
    for i, row in enumerate(rows):
        ids[i, width - len(row) :] = row
        mask[i, width - len(row) :] = 1
    return ids, mask


def _texts(model: Any, tok: Any, ids: np.ndarray, out: Any) -> list[str]:
    eos = set(model.engine.native_vocabulary.eos_token_ids)
    texts = []
    for row in np.asarray(out.sequences)[:, ids.shape[1] :]:
        assert eos & set(row.tolist()), "did not finish within max_new_tokens"
        texts.append(str(tok.decode(row, skip_special_tokens=True)))
    return texts


def _generate(
    model: Any, tok: Any, prompt: str, do_sample: bool, max_new_tokens: int = 96, seed: int = 0
) -> str:
    ids, mask = _ids(tok, prompt)
    out = model.generate(
        ids,
        attention_mask=mask,
        max_new_tokens=max_new_tokens,
        do_sample=do_sample,
        prng_key=jax.random.PRNGKey(seed),
    )
    return _texts(model, tok, ids, out)[0]


def test_reexport_at_documented_path() -> None:
    import pse_jax

    from pse.util.jax_mixin import PSEFlaxMixin

    assert PSEFlaxMixin is pse_jax.PSEFlaxMixin


def test_model_matches_pytorch_reference(smollm: tuple[Any, Any]) -> None:
    model, tok = smollm
    ids, _ = _ids(tok, CAT_PROMPT)
    logits = np.asarray(model(ids).logits)[0]
    assert logits.argmax(-1)[-len(TORCH_TOP1) :].tolist() == TORCH_TOP1


@pytest.mark.parametrize("do_sample", [False, True], ids=["greedy", "sampled"])
def test_schema_output_validates(smollm: tuple[Any, Any], do_sample: bool) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    model, tok = smollm
    model.engine = StructuringEngine(tok, multi_token_sampling=True)
    model.engine.configure(PERSON)
    text = _generate(model, tok, "Describe Alice, who is 30, as JSON.", do_sample, seed=3)
    jsonschema.validate(json.loads(text), PERSON)
    assert model.engine.get_structured_output() == json.loads(text)


def test_quickstart_user_profile(smollm: tuple[Any, Any]) -> None:
    model, tok = smollm
    model.engine = StructuringEngine(tok)
    model.engine.configure(UserProfile)
    prompt = (
        "Generate a user profile for user ID 999, username 'tester', active status true, "
        "roles ['qa', 'dev']. Output ONLY the JSON object."
    )
    text = _generate(model, tok, prompt, do_sample=True, max_new_tokens=120, seed=0)
    profile = model.engine.get_structured_output(UserProfile, raise_on_error=True)
    assert UserProfile.model_validate_json(text) == profile


def test_batch_rows_have_their_own_engines(smollm: tuple[Any, Any]) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    model, tok = smollm
    model.engine = StructuringEngine(tok, multi_token_sampling=True)
    model.engine.configure(PERSON)
    ids, mask = _ids(tok, "Describe Bob, aged 41, as JSON.", "Make up a person. JSON only.")
    out = model.generate(ids, attention_mask=mask, max_new_tokens=64, do_sample=False)
    texts = _texts(model, tok, ids, out)
    assert len(model.engines) == 2
    for engine, text in zip(model.engines, texts, strict=True):
        jsonschema.validate(json.loads(text), PERSON)
        assert engine.get_structured_output() == json.loads(text)


def test_budget_completes_the_structure(smollm: tuple[Any, Any]) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    model, tok = smollm
    model.engine = StructuringEngine(tok)
    model.engine.configure(PERSON)
    shortest = len(model.engine.completion_token_ids() or [])
    for budget in (shortest + 1, shortest + 4):
        text = _generate(model, tok, "Describe a person as JSON.", True, max_new_tokens=budget)
        jsonschema.validate(json.loads(text), PERSON)


def test_budget_below_the_minimum_is_refused(smollm: tuple[Any, Any]) -> None:
    model, tok = smollm
    model.engine = StructuringEngine(tok)
    model.engine.configure(PERSON)
    with pytest.raises(BudgetError, match="shortest completion"):
        _generate(model, tok, "Describe a person as JSON.", False, max_new_tokens=3)


def test_nothing_allowed_raises(smollm: tuple[Any, Any]) -> None:
    class Stuck(StructuringEngine):
        def fill_bitmask(self, out: Any) -> int:
            out[:] = 0
            return 0

    model, tok = smollm
    model.engine = Stuck(tok)
    model.engine.configure(PERSON)
    with pytest.raises(NoValidTokenError, match="no token is allowed"):
        _generate(model, tok, "Describe a person as JSON.", False, max_new_tokens=8)


# Each case compiles Flax's own generate loop (about a minute on 2 cores): the
# unconfigured engine, which takes the same fallback path, runs with `-m slow`.
@pytest.mark.parametrize("engine", ["none", pytest.param("unconfigured", marks=pytest.mark.slow)])
def test_without_a_structure_flax_generate_runs(smollm: tuple[Any, Any], engine: str) -> None:
    """No engine, or an engine with nothing configured: Flax's own loop, unchanged; it
    agrees with the PSE loop driven by an argmax sampler and no structure."""
    model, tok = smollm
    ids, _ = _ids(tok, CAT_PROMPT)
    model.engine = StructuringEngine(tok)
    ours = model.generate(ids, max_new_tokens=6, sampler=lambda s: int(jnp.argmax(s)))
    model.engine = None if engine == "none" else StructuringEngine(tok)
    stock = model.generate(ids, max_new_tokens=6, do_sample=False)
    assert np.array_equal(np.asarray(stock.sequences), np.asarray(ours.sequences))


def test_logits_processor_inside_flax_generate(smollm: tuple[Any, Any]) -> None:
    """The processor reaches the engine from Flax's compiled loop (io_callback)."""
    model, tok = smollm
    model.engine = None
    phrase = '{"ok": true}'
    engine = StructuringEngine(tok)
    engine.configure(PhraseStateMachine(phrase))
    ids, _ = _ids(tok, "Say ok.")
    out = model.generate(
        ids,
        max_new_tokens=12,
        logits_processor=FlaxLogitsProcessorList([PSEFlaxLogitsProcessor(engine)]),
    )
    new = np.asarray(out.sequences)[0, ids.shape[1] :]
    assert tok.decode(new, skip_special_tokens=True) == phrase


# ------------------------------------------------- the full validity suite (slow)


def _bench_cases() -> list[Any]:
    if not BENCH_SCHEMAS.is_file():
        reason = f"{BENCH_SCHEMAS} is absent (../shared next to the repository)"
        return [pytest.param(None, marks=pytest.mark.skip(reason=reason))]
    return [pytest.param(case, id=case["name"]) for case in json.loads(BENCH_SCHEMAS.read_text())]


@pytest.mark.slow
@pytest.mark.parametrize("do_sample", [False, True], ids=["greedy", "sampled"])
@pytest.mark.parametrize("case", _bench_cases())
def test_bench_schemas_validate(
    smollm: tuple[Any, Any], case: dict[str, Any], do_sample: bool
) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    model, tok = smollm
    model.engine = StructuringEngine(tok, multi_token_sampling=True)
    model.engine.configure(case["schema"])
    prompt = (
        f"Produce a JSON instance of this JSON Schema:\n{json.dumps(case['schema'])}\n"
        f"For example: {json.dumps(case['instance'])}"
    )
    text = _generate(model, tok, prompt, do_sample, max_new_tokens=400, seed=7)
    jsonschema.validate(json.loads(text), case["schema"])


SWEEP = model_sweep.select(maskbench=12, bfcl=8)


def _sweep_cases() -> list[Any]:
    missing = model_sweep.shared_missing()
    if missing is not None:
        return [pytest.param(None, marks=pytest.mark.skip(reason=missing))]
    return [pytest.param(case, id=case.id) for case in SWEEP.cases]


@pytest.mark.slow
@pytest.mark.parametrize("do_sample", [False, True], ids=["greedy", "sampled"])
@pytest.mark.parametrize("case", _sweep_cases())
def test_schema_sweep(
    smollm: tuple[Any, Any], case: model_sweep.SweepCase, do_sample: bool
) -> None:
    """A deterministic MaskBench/BFCL sample: every output parses and validates."""
    model, tok = smollm
    engine = StructuringEngine(tok, multi_token_sampling=True)
    engine.configure(case.schema)
    plan = engine.completion_token_ids()
    budget = model_sweep.new_token_budget(None if plan is None else len(plan))
    model.engine = engine
    text = _generate(model, tok, case.prompt, do_sample, max_new_tokens=budget, seed=case.seed)
    errors = list(model_sweep.validator(case.schema).iter_errors(json.loads(text)))
    assert not errors, f"{case.id}: {errors[0].message}: {text!r}"
