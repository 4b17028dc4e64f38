"""What the adapters' mixins share before a PSE loop runs: which ``generate`` runs,
which hooks it replaces, the row engines of the last call, transformers' preamble."""

from __future__ import annotations

import copy
from typing import Any

from pse.batch import Sampler
from pse.stock_loop import StockProcessor

__all__ = [
    "engine_sampler",
    "generation_setup",
    "is_engine_hook",
    "row_engines",
    "runs_engine",
    "transformers_processors",
]


def row_engines(engine: Any, rows_attr: str) -> list[Any]:
    """``engine`` and the other rows' engines of its last generation (none without an engine)."""
    if engine is None:
        return []
    return [engine, *getattr(engine, rows_attr, [])]


def engine_sampler(sampler: Sampler | None, engine: Any) -> Sampler | None:
    """A mixin's ``generate(sampler=...)``: ``engine.sample`` (the documented manual
    hook, which the PSE loops already imply) is None, any other sampler replaces
    the default token choice."""
    bound = getattr(sampler, "__name__", "") == "sample"
    return None if bound and getattr(sampler, "__self__", None) is engine else sampler


def runs_engine(engine: Any, sampler: Sampler | None) -> bool:
    """A mixin's ``generate`` runs the PSE loop: an engine is attached and has a
    structure configured, or a sampler was given; otherwise the framework's own
    ``generate`` runs unchanged."""
    return engine is not None and (engine.state_machine is not None or sampler is not None)


def is_engine_hook(processor: Any) -> bool:
    """A logits processor the PSE loops replace (they mask the logits themselves): a
    PSE processor or an engine's own ``process_logits``."""
    if isinstance(processor, StockProcessor):
        return True
    owner = getattr(processor, "__self__", None)
    return getattr(processor, "__name__", "") == "process_logits" and hasattr(owner, "fill_bitmask")


def generation_setup(
    model: Any, generation_config: Any, kwargs: dict[str, Any]
) -> tuple[Any, Any, dict[str, Any]]:
    """transformers' ``generate`` preamble for a PSE loop: a copy of the generation
    config (the model's when None) updated with ``kwargs``; returns it, the
    ``streamer`` taken out of ``kwargs`` and the other model kwargs, which the
    model validates (``_validate_model_kwargs``)."""
    config = generation_config if generation_config is not None else model.generation_config
    config = copy.deepcopy(config)
    streamer = kwargs.pop("streamer", None)
    model_kwargs: dict[str, Any] = config.update(**kwargs)
    model._validate_model_kwargs(dict(model_kwargs))
    return config, streamer, model_kwargs


def transformers_processors(
    model: Any, config: Any, prompt_length: int, logits_processor: Any, list_type: type
) -> tuple[Any, Any]:
    """transformers 4.x TF/Flax: the generation config's logits processors (with the
    caller's, less the engine's hooks) and, when sampling, its warpers, as ``list_type``."""
    custom = list_type(p for p in logits_processor or [] if not is_engine_hook(p))
    processors = model._get_logits_processor(config, prompt_length, custom)
    warpers = model._get_logits_warper(config) if config.do_sample else list_type()
    return processors, warpers
