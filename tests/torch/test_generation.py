"""The decoding loop, processor and custom_generate entry on a tiny random Llama.

The tiny model's logits are noise: whatever it produces under a structure is
the structure's doing, which is what these tests check.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
import torch
from pse_core.errors import NoValidTokenError
from pse_torch import PSELogitsProcessor, make_custom_generate
from transformers import LogitsProcessorList
from transformers.generation.streamers import BaseStreamer

from pse import StructuringEngine
from pse.errors import BudgetError
from pse.types.base.chain import ChainStateMachine
from pse.types.base.phrase import PhraseStateMachine
from pse.types.json.json_value import JsonStateMachine
from pse.types.string import StringStateMachine

PHRASE = '{"greeting": "hello world", "answer": 42}'


def _prompt(tok: Any, text: str = "Say it.") -> torch.Tensor:
    ids = tok.apply_chat_template(
        [{"role": "user", "content": text}], add_generation_prompt=True, return_dict=False
    )
    return torch.tensor([ids])


def _new_text(tok: Any, out: torch.Tensor, prompt: torch.Tensor, row: int = 0) -> str:
    return str(tok.decode(out[row, prompt.shape[1] :], skip_special_tokens=True))


def _key_then_string() -> ChainStateMachine:
    return ChainStateMachine(
        [
            PhraseStateMachine('{"name": '),
            StringStateMachine(max_length=12),
            PhraseStateMachine("}"),
        ]
    )


class _Collect(BaseStreamer):
    def __init__(self) -> None:
        self.tokens: list[int] = []
        self.chunks: list[int] = []
        self.ended = False
        self.prompt_seen = False

    def put(self, value: torch.Tensor) -> None:
        if not self.prompt_seen:
            self.prompt_seen = True
            return
        self.tokens.extend(value.reshape(-1).tolist())
        self.chunks.append(value.reshape(-1).numel())

    def end(self) -> None:
        self.ended = True


def test_reexport_at_documented_path() -> None:
    import pse_torch

    from pse.util.torch_mixin import PSETorchMixin

    assert PSETorchMixin is pse_torch.PSETorchMixin


@pytest.mark.parametrize("multi_token", [False, True])
@pytest.mark.parametrize("do_sample", [False, True])
def test_mixin_forces_phrase_and_stops(
    tiny_model: Any, tokenizer: Any, multi_token: bool, do_sample: bool
) -> None:
    tiny_model.engine = StructuringEngine(tokenizer, multi_token_sampling=multi_token)
    tiny_model.engine.configure(PhraseStateMachine(PHRASE))
    prompt = _prompt(tokenizer)
    torch.manual_seed(1)
    out = tiny_model.generate(prompt, max_new_tokens=60, do_sample=do_sample)
    assert _new_text(tokenizer, out, prompt) == PHRASE
    assert out[0, -1].item() == tokenizer.eos_token_id  # ended at once, by the structure
    assert tiny_model.engine.get_structured_output() == json.loads(PHRASE)


def test_multi_token_takes_fewer_forward_passes(tiny_model: Any, tokenizer: Any) -> None:
    calls: list[int] = []
    tiny_model.register_forward_hook(lambda module, args, kwargs: calls.append(1))
    prompt = _prompt(tokenizer)
    counts = []
    for multi_token in (False, True):
        calls.clear()
        tiny_model.engine = StructuringEngine(tokenizer, multi_token_sampling=multi_token)
        tiny_model.engine.configure(PhraseStateMachine(PHRASE))
        out = tiny_model.generate(prompt, max_new_tokens=60)
        assert _new_text(tokenizer, out, prompt) == PHRASE
        counts.append(len(calls))
    assert counts[1] == 1  # the whole phrase is forced after the first token
    assert counts[0] > 5


@pytest.mark.parametrize("multi_token", [False, True])
def test_logits_match_uncached_forward(tiny_model: Any, tokenizer: Any, multi_token: bool) -> None:
    """Cache, positions and attention mask stay right when several tokens land at once."""
    tiny_model.engine = StructuringEngine(tokenizer, multi_token_sampling=multi_token)
    tiny_model.engine.configure(_key_then_string())
    prompt = _prompt(tokenizer)
    streamer = _Collect()
    torch.manual_seed(0)
    result = tiny_model.generate(
        prompt,
        max_new_tokens=25,
        do_sample=True,
        return_dict_in_generate=True,
        output_logits=True,
        streamer=streamer,
    )
    sequence = result.sequences[0]
    assert len(streamer.chunks) == len(result.logits)
    position = prompt.shape[1]
    for step_logits, emitted in zip(result.logits, streamer.chunks, strict=True):
        full = tiny_model(sequence[None, :position]).logits[0, -1]
        torch.testing.assert_close(step_logits[0], full, rtol=1e-4, atol=1e-4)
        position += emitted
    assert position == sequence.shape[0]
    if multi_token:
        assert max(streamer.chunks) > 1


def test_batch_rows_have_their_own_engines(tiny_model: Any, tokenizer: Any) -> None:
    tokenizer.padding_side = "left"
    texts = ["Name a cat.", "Name a very fast dog, please, right now."]
    batch = tokenizer.apply_chat_template(
        [[{"role": "user", "content": t}] for t in texts],
        add_generation_prompt=True,
        return_dict=True,
        return_tensors="pt",
        padding=True,
    )
    single = []
    for multi_token in (False, True):
        tiny_model.engine = StructuringEngine(tokenizer, multi_token_sampling=multi_token)
        tiny_model.engine.configure(_key_then_string())
        for text in texts:
            prompt = _prompt(tokenizer, text)
            out = tiny_model.generate(prompt, max_new_tokens=30)
            single.append(_new_text(tokenizer, out, prompt))
        out = tiny_model.generate(**batch, max_new_tokens=30)
        width = batch["input_ids"].shape[1]
        rows = [str(tokenizer.decode(out[r, width:], skip_special_tokens=True)) for r in range(2)]
        assert rows == single[-2:]
        assert len(tiny_model.engines) == 2
        assert [e.get_structured_output() for e in tiny_model.engines] == [
            json.loads(r) if r.endswith("}") else e.get_structured_output()
            for r, e in zip(rows, tiny_model.engines, strict=True)
        ]
        for row, engine in zip(rows, tiny_model.engines, strict=True):
            assert engine.raw_output.startswith(row[: len(engine.raw_output)])


def test_sampling_settings_and_streamer(tiny_model: Any, tokenizer: Any) -> None:
    tiny_model.engine = StructuringEngine(tokenizer, multi_token_sampling=True)
    tiny_model.engine.configure(PhraseStateMachine(PHRASE))
    prompt = _prompt(tokenizer)
    streamer = _Collect()
    out = tiny_model.generate(
        prompt,
        max_new_tokens=60,
        do_sample=True,
        temperature=0.7,
        top_k=20,
        top_p=0.9,
        min_p=0.05,
        streamer=streamer,
    )
    assert _new_text(tokenizer, out, prompt) == PHRASE
    assert streamer.tokens == out[0, prompt.shape[1] :].tolist()
    assert streamer.ended


@pytest.mark.parametrize("multi_token", [False, True])
def test_max_new_tokens_is_honoured(tiny_model: Any, tokenizer: Any, multi_token: bool) -> None:
    """Without budget awareness, max_new_tokens cuts the output (a valid prefix)."""
    tiny_model.engine = StructuringEngine(tokenizer, multi_token_sampling=multi_token)
    tiny_model.engine.budget_aware = False
    tiny_model.engine.configure(PhraseStateMachine(PHRASE))
    prompt = _prompt(tokenizer)
    out = tiny_model.generate(prompt, max_new_tokens=3)
    assert out.shape[1] == prompt.shape[1] + 3
    assert PHRASE.startswith(_new_text(tokenizer, out, prompt))


def test_budget_below_the_minimum_is_refused(tiny_model: Any, tokenizer: Any) -> None:
    """With budget awareness (the default) a budget that cannot complete the
    structure is refused before any token is generated."""
    tiny_model.engine = StructuringEngine(tokenizer)
    tiny_model.engine.configure(PhraseStateMachine(PHRASE))
    with pytest.raises(BudgetError, match="shortest completion"):
        tiny_model.generate(_prompt(tokenizer), max_new_tokens=3)


def test_budget_completes_the_structure(tiny_model: Any, tokenizer: Any) -> None:
    """A random model with just enough budget still ends with the whole structure."""
    tiny_model.engine = StructuringEngine(tokenizer)
    tiny_model.engine.configure(JsonStateMachine())
    prompt = _prompt(tokenizer)
    for budget in (2, 3, 6, 12):
        out = tiny_model.generate(prompt, max_new_tokens=budget, do_sample=True)
        assert out.shape[1] - prompt.shape[1] <= budget
        assert tiny_model.engine.has_reached_accept_state
        json.loads(_new_text(tokenizer, out, prompt))


def test_nothing_allowed_raises(tiny_model: Any, tokenizer: Any) -> None:
    class Stuck(StructuringEngine):
        def fill_bitmask(self, out: Any) -> int:
            out[:] = 0
            return 0

    tiny_model.engine = Stuck(tokenizer)
    tiny_model.engine.configure(PhraseStateMachine(PHRASE))
    with pytest.raises(NoValidTokenError, match="no token is allowed"):
        tiny_model.generate(_prompt(tokenizer), max_new_tokens=5)


def test_without_engine_the_stock_loop_runs(
    tiny_model: Any, tiny_plain: Any, tokenizer: Any
) -> None:
    prompt = _prompt(tokenizer)
    tiny_model.engine = None
    expected = tiny_plain.generate(prompt, max_new_tokens=8, do_sample=False)
    assert torch.equal(tiny_model.generate(prompt, max_new_tokens=8, do_sample=False), expected)


@pytest.mark.parametrize("multi_token", [False, True])
def test_logits_processor_with_stock_loop(
    tiny_plain: Any, tokenizer: Any, multi_token: bool
) -> None:
    engine = StructuringEngine(tokenizer, multi_token_sampling=multi_token)
    engine.configure(PhraseStateMachine(PHRASE))
    prompt = _prompt(tokenizer)
    processor = PSELogitsProcessor(engine)
    out = tiny_plain.generate(
        prompt, max_new_tokens=60, do_sample=True, logits_processor=LogitsProcessorList([processor])
    )
    assert _new_text(tokenizer, out, prompt) == PHRASE
    assert engine.get_structured_output() == json.loads(PHRASE)


def test_custom_generate_entry(tiny_plain: Any, tokenizer: Any) -> None:
    engine = StructuringEngine(tokenizer, multi_token_sampling=True)
    engine.configure(JsonStateMachine())
    prompt = _prompt(tokenizer)
    torch.manual_seed(3)
    out = tiny_plain.generate(
        prompt, max_new_tokens=40, do_sample=True, custom_generate=make_custom_generate(engine)
    )
    text = _new_text(tokenizer, out, prompt)
    if out[0, -1].item() == tokenizer.eos_token_id:  # the noise model finished a value
        assert json.loads(text) == engine.get_structured_output()
    assert engine.raw_output == text or text.startswith(engine.raw_output[: len(text)])


@pytest.mark.parametrize("multi_token", [False, True])
def test_engine_process_logits_in_stock_generate(
    tiny_plain: Any, tokenizer: Any, multi_token: bool
) -> None:
    """The documented manual hook: ``logits_processor=[engine.process_logits]`` on
    stock transformers, with torch tensors in and out."""
    engine = StructuringEngine(tokenizer, multi_token_sampling=multi_token)
    engine.configure(PhraseStateMachine(PHRASE))
    prompt = _prompt(tokenizer)
    torch.manual_seed(2)
    out = tiny_plain.generate(
        prompt, max_new_tokens=60, do_sample=True, logits_processor=[engine.process_logits]
    )
    assert _new_text(tokenizer, out, prompt) == PHRASE
    assert engine.get_structured_output() == json.loads(PHRASE)


def test_process_logits_and_sample_return_tensors(tokenizer: Any) -> None:
    engine = StructuringEngine(tokenizer)
    engine.configure(PhraseStateMachine(PHRASE))
    scores = torch.zeros((1, len(tokenizer)), dtype=torch.bfloat16)
    masked = engine.process_logits(None, scores)
    assert isinstance(masked, torch.Tensor) and masked.dtype == torch.bfloat16
    allowed = torch.isfinite(masked[0]).nonzero().reshape(-1).tolist()
    assert allowed == engine.allowed_token_ids()
    ids = engine.sample(masked[0], lambda row: torch.argmax(row))
    assert isinstance(ids, torch.Tensor) and ids.dtype == torch.long
    assert ids.tolist() == [allowed[0]]
