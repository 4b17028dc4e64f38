"""Token choice and the PSE decoding loop for ``transformers`` 5.x.

The stock ``GenerationMixin._sample`` picks tokens with ``torch.multinomial``
or ``argmax`` and has no sampler hook, and it appends exactly one token per
step. :func:`pse_sample` is a drop-in for ``_sample`` (same signature, plus
``engine``) that

* masks the logits with the engine (per batch row) *before* the other logits
  processors and warpers (temperature, top-k, top-p, min-p, ...), so those
  act on allowed tokens only;
* chooses each row's token through ``engine.sample(scores, sampler)``, which
  advances the engine and returns the ids to emit (several when multi-token
  processing forces a continuation);
* appends all of them in one step, extending the attention mask and position
  ids accordingly and feeding them to the next forward pass together;
* ends a row as soon as its structure is complete (EOS is appended without
  another forward pass);
* honours stopping criteria, ``max_new_tokens``/``max_length`` and streamers.

Use it through :class:`~pse_torch.mixin.PSETorchMixin`, or without the mixin
as ``model.generate(..., custom_generate=make_custom_generate(engine))``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import torch
from transformers import LogitsProcessorList, StoppingCriteriaList
from transformers.generation.utils import GenerateDecoderOnlyOutput

from pse.adapter_setup import is_engine_hook
from pse.batch import EngineBatch, token_budget
from pse.host_loop import choose_rows, end_ids, reuse_batch
from pse_torch.mask import allocate_token_bitmask, apply_token_bitmask_inplace

__all__ = ["make_custom_generate", "make_sampler", "pse_sample", "sample_token"]

Sampler = Callable[[torch.Tensor], Any]


def sample_token(scores: torch.Tensor, do_sample: bool) -> int:
    """Choose one token from a ``[vocab]`` row of processed scores."""
    if do_sample:
        probs = torch.softmax(scores, dim=-1)
        return int(torch.multinomial(probs, num_samples=1).item())
    return int(torch.argmax(scores, dim=-1).item())


def make_sampler(do_sample: bool) -> Sampler:
    """The default token choice: scores row -> token id (argmax, or multinomial)."""

    def sampler(scores: torch.Tensor) -> int:
        return sample_token(scores, do_sample)

    return sampler


class _RowMask:
    """Masks the rows the loop will sample this step; the loop advances the engines."""

    def __init__(self, batch: EngineBatch, bitmask: torch.Tensor) -> None:
        self.batch = batch
        self.bitmask = bitmask
        self.rows: list[int] = []

    def __call__(self, input_ids: torch.LongTensor, scores: torch.FloatTensor) -> torch.FloatTensor:
        rows = self.rows
        if not self.batch.constrained or not rows:
            return scores
        self.batch.fill(rows)
        if len(rows) == self.batch.size:
            return apply_token_bitmask_inplace(scores, self.bitmask)
        return apply_token_bitmask_inplace(scores, self.bitmask[rows], indices=rows)


def pse_sample(
    model: Any,
    input_ids: torch.LongTensor,
    logits_processor: LogitsProcessorList,
    stopping_criteria: StoppingCriteriaList,
    generation_config: Any,
    synced_gpus: bool = False,
    streamer: Any = None,
    *,
    engine: Any,
    sampler: Sampler | None = None,
    **model_kwargs: Any,
) -> GenerateDecoderOnlyOutput | torch.LongTensor:
    """Greedy or sampled decoding constrained by ``engine`` (see the module docs).

    ``sampler(scores_row) -> token id`` replaces the default choice
    (``argmax``, or ``multinomial`` when ``do_sample``). The engines are reset
    first; afterwards ``engine`` holds row 0's state and
    ``engine._pse_torch_rows`` the other rows' engines.

    Raises:
        NoValidTokenError: a row allows no token at all.
    """
    if model.config.is_encoder_decoder:
        raise NotImplementedError("pse-torch supports decoder-only models")
    del synced_gpus  # single-process decoding
    batch_size = input_ids.shape[0]
    bitmask = allocate_token_bitmask(batch_size, engine.vocab_size)
    batch = reuse_batch(engine, batch_size, "_pse_torch_rows", bitmask.numpy())
    choose = sampler or make_sampler(bool(generation_config.do_sample))
    row_mask = _RowMask(batch, bitmask)
    processors = LogitsProcessorList(
        [row_mask, *(p for p in (logits_processor or []) if not is_engine_hook(p))]
    )

    ends = end_ids(
        generation_config._eos_token_tensor, generation_config._pad_token_tensor, batch.eos_ids
    )
    max_length = getattr(stopping_criteria, "max_length", None)

    return_dict = generation_config.return_dict_in_generate
    scores_out: tuple[torch.Tensor, ...] | None = (
        () if return_dict and generation_config.output_scores else None
    )
    logits_out: tuple[torch.Tensor, ...] | None = (
        () if return_dict and generation_config.output_logits else None
    )

    device = input_ids.device
    unfinished = torch.ones(batch_size, dtype=torch.bool, device=device)
    use_cache = bool(model_kwargs.get("use_cache", True))

    outputs = model._prefill(
        input_ids,
        generation_config,
        model_kwargs,
        is_first_iteration=not generation_config.is_assistant,
    )
    step_tokens = 1
    first = True
    while True:
        if not first:
            model_inputs = model.prepare_inputs_for_generation(
                input_ids, next_sequence_length=step_tokens if use_cache else None, **model_kwargs
            )
            outputs = model(**model_inputs, return_dict=True)
        first = False
        logits = outputs.logits[:, -1].to(copy=True, dtype=torch.float32, device=device)

        row_mask.rows = batch.sampling_rows()
        scores = processors(input_ids, logits.clone() if logits_out is not None else logits)
        if scores_out is not None:
            scores_out += (scores,)
        if logits_out is not None:
            logits_out += (logits,)

        budget = token_budget(engine, max_length, input_ids.shape[1], ends.finish is not None)
        choose_rows(batch, row_mask.rows, scores, choose, budget, ends.finish)

        live = [r for r in range(batch_size) if not batch.done[r]]
        limit = max_length - input_ids.shape[1] if max_length is not None else None
        chunks = batch.take(live, limit)
        count = len(chunks[0])
        new_tokens = torch.full((batch_size, count), ends.pad, dtype=input_ids.dtype)
        for r, chunk in zip(live, chunks, strict=True):
            new_tokens[r] = torch.tensor(chunk, dtype=input_ids.dtype)
        new_tokens = new_tokens.to(device)
        input_ids = torch.cat([input_ids, new_tokens], dim=-1)
        model_kwargs = model._update_model_kwargs_for_generation(
            outputs, model_kwargs, is_encoder_decoder=False, num_new_tokens=count
        )
        step_tokens = count
        if streamer is not None:
            streamer.put((new_tokens[:, 0] if count == 1 else new_tokens).cpu())

        unfinished &= ~stopping_criteria(input_ids, scores).to(device)
        for r in live:
            if int(new_tokens[r, -1]) in ends.stop:
                batch.done[r] = True
        for r, alive in enumerate(unfinished.tolist()):
            if not alive:
                batch.done[r] = True
        unfinished &= torch.tensor([not d for d in batch.done], device=device)
        del outputs
        if all(batch.done):
            break

    if streamer is not None:
        streamer.end()
    if return_dict:
        cache = model_kwargs.get("past_key_values")
        return GenerateDecoderOnlyOutput(
            sequences=input_ids, scores=scores_out, logits=logits_out, past_key_values=cache
        )
    return input_ids


def make_custom_generate(engine: Any, sampler: Sampler | None = None) -> Callable[..., Any]:
    """A ``custom_generate`` callable for models without the mixin.

    ``model.generate(input_ids, custom_generate=make_custom_generate(engine), ...)``
    decodes with :func:`pse_sample` and ``engine``.
    """

    def custom_generate(
        model: Any,
        input_ids: torch.LongTensor,
        logits_processor: LogitsProcessorList,
        stopping_criteria: StoppingCriteriaList,
        generation_config: Any,
        synced_gpus: bool = False,
        streamer: Any = None,
        **model_kwargs: Any,
    ) -> Any:
        return pse_sample(
            model,
            input_ids,
            logits_processor,
            stopping_criteria,
            generation_config,
            synced_gpus,
            streamer,
            engine=engine,
            sampler=sampler,
            **model_kwargs,
        )

    return custom_generate
