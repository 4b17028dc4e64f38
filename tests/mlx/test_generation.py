"""The real SmolLM2-135M-Instruct under PSE in mlx-lm's own loops (``model`` marker).

Every output validates with ``jsonschema``. MLX runs on the CPU here (a few
tokens per second), so CI uses two of the bench schemas
(``../shared/bench/schemas.json``, skipped without it; ``-m slow`` runs all
eight) plus short inline ones;
``benchmarks/bench_e2e.py --framework mlx`` measures speed.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import mlx.core as mx
import pytest
from _support import model_sweep
from _support.adapter_cases import StuckEngine
from mlx_lm import generate, stream_generate
from mlx_lm.generate import generate_step
from mlx_lm.models.cache import load_prompt_cache, make_prompt_cache, save_prompt_cache
from mlx_lm.sample_utils import make_sampler
from pse_core.errors import BudgetError, NoValidTokenError
from pse_mlx import PSELogitsProcessor, PSESampler

from pse import StructuringEngine

pytestmark = pytest.mark.model

# CI runs two bench schemas; `-m slow` adds the other six (the full validity run).
# (schema name, max_tokens): the small ones fit in 90 tokens, large_30 needs more.
BENCH = [
    ("flat", 90),
    ("enum_const", 90),
    *(
        pytest.param(name, 240, marks=pytest.mark.slow)
        for name in ("nested", "array_objs", "string_fmt", "union", "recursive_tree", "large_30")
    ),
]

BENCH_SCHEMAS = model_sweep.SHARED / "bench" / "schemas.json"
NAME_SCHEMA = {
    "type": "object",
    "properties": {"name": {"type": "string", "maxLength": 12}},
    "required": ["name"],
    "additionalProperties": False,
}


def _bench(name: str) -> dict[str, Any]:
    if not BENCH_SCHEMAS.is_file():
        pytest.skip(f"needs {BENCH_SCHEMAS} (the shared bench schemas next to the repository)")
    for case in json.loads(BENCH_SCHEMAS.read_text()):
        if case["name"] == name:
            return dict(case["schema"])
    raise LookupError(name)


def _prompt(tok: Any, schema: dict[str, Any]) -> list[int]:
    return model_sweep.chat_ids(
        tok, f"Reply with one JSON object for this schema: {json.dumps(schema)}"
    )


def _valid(text: str, schema: dict[str, Any]) -> Any:
    value = json.loads(text)
    jsonschema.validate(value, schema)
    return value


def _engine(tok: Any, schema: dict[str, Any], multi_token: bool = False) -> StructuringEngine:
    engine = StructuringEngine(tok, multi_token_sampling=multi_token)
    engine.configure(schema)
    return engine


@pytest.mark.parametrize(("name", "max_tokens"), BENCH)
def test_bench_schema_greedy_streamed(smollm: tuple[Any, Any], name: str, max_tokens: int) -> None:
    """mlx_lm.stream_generate with the processor and sampler: streamed text is the output."""
    model, tok = smollm
    schema = _bench(name)
    engine = _engine(tok, schema)
    processor = PSELogitsProcessor(engine)
    pieces = []
    last = None
    for last in stream_generate(
        model,
        tok,
        _prompt(tok, schema),
        max_tokens=max_tokens,
        sampler=PSESampler(processor, max_tokens=max_tokens),
        logits_processors=[processor],
    ):
        pieces.append(last.text)
    assert last is not None and last.finish_reason == "stop"
    text = "".join(pieces)
    assert _valid(text, schema) == engine.get_structured_output()


@pytest.mark.parametrize(("name", "max_tokens"), BENCH)
def test_bench_schema_sampled_through_mixin(
    smollm: tuple[Any, Any], name: str, max_tokens: int
) -> None:
    model, tok = smollm
    schema = _bench(name)
    model.engine = _engine(tok, schema, multi_token=True)
    mx.random.seed(7)
    ids = model.generate(
        _prompt(tok, schema), max_tokens=max_tokens, sampler=make_sampler(temp=0.8)
    )
    assert ids[-1] in model.engine.native_vocabulary.eos_token_ids and len(ids) <= max_tokens
    assert _valid(tok.decode(ids[:-1]), schema) == model.engine.get_structured_output()


def test_batch_of_two_rows_with_different_prompts(smollm: tuple[Any, Any]) -> None:
    model, tok = smollm
    model.engine = _engine(tok, NAME_SCHEMA)
    prompts = [
        model_sweep.chat_ids(tok, 'Give a cat\'s name as {"name": ...}.'),
        model_sweep.chat_ids(tok, "Name a famous scientist, in JSON, please."),
    ]
    rows = model.generate_batch(prompts, max_tokens=30)
    assert len(rows) == 2 and len(model.engines) == 2
    for ids, engine in zip(rows, model.engines, strict=True):
        assert ids[-1] in engine.native_vocabulary.eos_token_ids
        assert _valid(tok.decode(ids[:-1]), NAME_SCHEMA) == engine.get_structured_output()
    alone = model.generate(prompts[1], max_tokens=30)
    assert alone == rows[1]  # greedy: a row of the batch is what it would be alone


def test_budget_completes_within_max_tokens(smollm: tuple[Any, Any]) -> None:
    model, tok = smollm
    schema = {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}
    model.engine = _engine(tok, schema)
    prompt = model_sweep.chat_ids(tok, "Write a long story about a dragon as JSON.")
    ids = model.generate(prompt, max_tokens=12)
    assert len(ids) <= 12 and ids[-1] in model.engine.native_vocabulary.eos_token_ids
    _valid(tok.decode(ids[:-1]), schema)
    with pytest.raises(BudgetError, match="shortest completion"):
        model.generate(prompt, max_tokens=3)


def test_prompt_cache_file_reuse(smollm: tuple[Any, Any], tmp_path: Path) -> None:
    """A prefix cached, saved and loaded gives the same structured output as no cache."""
    model, tok = smollm
    model.engine = _engine(tok, NAME_SCHEMA)
    prompt = model_sweep.chat_ids(tok, "Name a dog in JSON.")
    expected = model.generate(prompt, max_tokens=30)
    cache = make_prompt_cache(model)
    prefix = mx.array(prompt[:-1])[None]
    mx.eval(model(prefix, cache=cache))
    path = tmp_path / "prefix.safetensors"
    save_prompt_cache(str(path), cache, {"tokens": str(len(prompt) - 1)})
    loaded, metadata = load_prompt_cache(str(path), return_metadata=True)
    assert int(metadata["tokens"]) == len(prompt) - 1
    got = model.generate(prompt[-1:], max_tokens=30, prompt_cache=loaded)
    assert got == expected
    _valid(tok.decode(got[:-1]), NAME_SCHEMA)


def test_documented_manual_hooks(smollm: tuple[Any, Any]) -> None:
    """logits_processors=[engine.process_logits], sampler wrapping engine.sample."""
    model, tok = smollm
    engine = _engine(tok, NAME_SCHEMA)
    base = make_sampler(temp=0.0)
    text = generate(
        model,
        tok,
        model_sweep.chat_ids(tok, "Name a bird in JSON."),
        max_tokens=30,
        logits_processors=[engine.process_logits],
        sampler=lambda logprobs: engine.sample(logprobs, base),
    )
    assert _valid(text, NAME_SCHEMA) == engine.get_structured_output()


@pytest.mark.parametrize("configured", [False, True], ids=["no-engine", "nothing-configured"])
def test_without_structure_mlx_lm_runs_unchanged(smollm: tuple[Any, Any], configured: bool) -> None:
    model, tok = smollm
    model.engine = StructuringEngine(tok) if configured else None
    prompt = model_sweep.chat_ids(tok, "Say hi.")
    plain = [int(t) for t, _ in generate_step(mx.array(prompt), model, max_tokens=5)]
    got = model.generate(prompt, max_tokens=5)
    assert got == plain[: len(got)] and len(got) >= 1


def test_no_token_allowed_raises(smollm: tuple[Any, Any]) -> None:
    model, tok = smollm
    model.engine = StuckEngine(tok)
    model.engine.configure(NAME_SCHEMA)
    with pytest.raises(NoValidTokenError, match="no token is allowed"):
        model.generate(model_sweep.chat_ids(tok, "Hi."), max_tokens=5)


def test_load_pretrained_mixes_into_the_architecture_class(smollm: tuple[Any, Any]) -> None:
    """Any mlx-lm model directory: here the embedded model's, found as mlx-lm's Llama."""
    from mlx_lm.models import llama
    from pse_mlx import PSEMLXMixin
    from pse_mlx.model import load_pretrained, model_directory

    model, tok = load_pretrained(model_directory(), dtype=mx.bfloat16)
    assert isinstance(model, PSEMLXMixin) and isinstance(model, llama.Model)
    ids = mx.array(model_sweep.chat_ids(tok, "Hi."))[None]
    assert mx.array_equal(model(ids), smollm[0](ids)).item()
