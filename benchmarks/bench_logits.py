"""The framework-neutral path: ``StructuringEngine.process_logits`` on NumPy logits.

    python benchmarks/bench_logits.py                 # Llama 3 128k, schema 'nested'
    python benchmarks/bench_logits.py --tokenizer smollm2-49k --walks 5

Walks the schema's valid instance (compact JSON) token by token; at each step
``engine.process_logits(None, scores)`` masks a fresh ``(1, vocab)`` float32
array in place, then the token is consumed. Timed in CPU time of this thread
(the machine may be shared): process_logits per step (mask fill + masking),
and, for scale, one ``scores.max()`` pass over the same array.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

import numpy as np

SHARED = Path(__file__).resolve().parents[2] / "shared"
SCHEMAS = SHARED / "bench" / "schemas.json"
TOKENIZERS = {
    "smollm2-49k": SHARED / "tokenizers" / "smollm2-49k",
    "llama3-128k": SHARED / "tokenizers" / "llama3-128k",
}


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--tokenizer", choices=list(TOKENIZERS), default="llama3-128k")
    parser.add_argument("--schema", default="nested", help="a schema name of the workload")
    parser.add_argument("--walks", type=int, default=10)
    args = parser.parse_args()
    if not SCHEMAS.is_file():
        print(f"needs {SCHEMAS} (the shared bench schemas); not found")
        return 1
    from transformers import AutoTokenizer

    from pse import StructuringEngine

    tokenizer = AutoTokenizer.from_pretrained(str(TOKENIZERS[args.tokenizer]))
    case = next(c for c in json.loads(SCHEMAS.read_text()) if c["name"] == args.schema)
    ids = tokenizer.encode(
        json.dumps(case["instance"], separators=(",", ":")), add_special_tokens=False
    )
    engine = StructuringEngine(tokenizer)
    engine.configure(case["schema"], max_whitespace=0)
    width = len(tokenizer)
    base = np.random.default_rng(0).standard_normal((1, width)).astype(np.float32)
    scores = base.copy()
    clock = time.thread_time_ns
    step_ns: list[int] = []
    pass_ns: list[int] = []
    for _ in range(args.walks):
        engine.configure(engine.state_machine)
        for token in ids:
            np.copyto(scores, base)
            start = clock()
            engine.process_logits(None, scores)
            step_ns.append(clock() - start)
            start = clock()
            scores.max()
            pass_ns.append(clock() - start)
            engine.consume_token(token)
    for label, samples in (("process_logits", step_ns), ("one max() pass", pass_ns)):
        micros = [s / 1e3 for s in samples]
        print(
            f"{label:<16} p50 {statistics.median(micros):7.1f} µs   "
            f"mean {statistics.fmean(micros):7.1f} µs   ({len(micros)} steps, "
            f"{args.tokenizer}, (1, {width}) float32, CPU time)"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
