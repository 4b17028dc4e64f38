"""Batch mask fill: PSE's ``fill_masks`` vs XGrammar's ``BatchGrammarMatcher``.

    python benchmarks/bench_batch.py                  # 16 and 64 rows, both tokenizers
    python benchmarks/bench_batch.py --rows 16 --tokenizers smollm2-49k --rounds 1
    python benchmarks/bench_batch.py --save           # also benchmarks/results/batch-fill.json

Workload: a batch of R rows, row i constrained by schema ``i % 8`` of
../shared/bench/schemas.json (so the rows hold different schemas) and walking
that schema's valid instance (compact JSON, tokenized by the tokenizer itself);
a row that reaches the end of its instance starts it again. Each step fills
the masks of all R rows in one call, then advances every row by its next
token. Measured: the wall time of the fill call per step (µs; median and mean
over the steps), after one untimed pass over every instance (warm caches),
with the engines' own thread pools (PSE ``fill_masks(threads=0)``: one thread
per CPU; XGrammar ``max_threads="auto"``). Also reported: PSE filling row by
row (one ``Engine.fill_mask`` per row, the GIL held), to show what the single
call saves. Advancing is not timed.

Each engine runs in its own child process, the engines interleaved, ``--rounds``
times; the table gives the median of the rounds. Every mask is checked to
allow the token the row takes next.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
SHARED = HERE.parent.parent / "shared"
SCHEMAS = SHARED / "bench" / "schemas.json"
TOKENIZERS = {
    "smollm2-49k": SHARED / "tokenizers" / "smollm2-49k",
    "llama3-128k": SHARED / "tokenizers" / "llama3-128k",
}
ENGINES = ["pse", "pse-per-row", "xgrammar"]
PREFIX = "@@batch "


def _instances(tokenizer: Any) -> tuple[list[dict[str, Any]], list[list[int]]]:
    cases = json.loads(SCHEMAS.read_text())
    ids = [
        tokenizer.encode(json.dumps(c["instance"], separators=(",", ":")), add_special_tokens=False)
        for c in cases
    ]
    return cases, ids


class PseRows:
    """One ``StructuringEngine`` per row; the masks filled by ``fill_masks``."""

    def __init__(self, tokenizer: Any, schemas: list[dict[str, Any]], per_row: bool) -> None:
        from pse_core._core import fill_masks

        from pse import StructuringEngine

        self.fill_masks = fill_masks
        self.per_row = per_row
        self.engines = []
        for schema in schemas:
            engine = StructuringEngine(tokenizer)
            engine.configure(schema, max_whitespace=0)
            self.engines.append(engine)
        self.vocab_size = int(self.engines[0].vocab_size)

    def fill(self, bitmask: Any) -> None:
        if self.per_row:
            for row, engine in enumerate(self.engines):
                engine.fill_mask(bitmask[row])
        else:
            self.fill_masks(self.engines, bitmask, list(range(len(self.engines))))

    def advance(self, row: int, token: int) -> None:
        self.engines[row].consume_token(token)

    def restart(self, row: int) -> None:
        self.engines[row].reset()


class XGrammarRows:
    """One ``GrammarMatcher`` per row; the masks filled by ``BatchGrammarMatcher``."""

    def __init__(self, tokenizer: Any, schemas: list[dict[str, Any]]) -> None:
        import xgrammar as xgr

        info = xgr.TokenizerInfo.from_huggingface(tokenizer, vocab_size=len(tokenizer))
        compiler = xgr.GrammarCompiler(info, max_threads=os.cpu_count() or 1)
        self.matchers = [
            xgr.GrammarMatcher(
                compiler.compile_json_schema(
                    json.dumps(s), any_whitespace=False, separators=(",", ":")
                )
            )
            for s in schemas
        ]
        self.batch = xgr.BatchGrammarMatcher(max_threads="auto")
        self.vocab_size = int(info.vocab_size)

    def fill(self, bitmask: Any) -> None:
        self.batch.batch_fill_next_token_bitmask(self.matchers, bitmask)

    def advance(self, row: int, token: int) -> None:
        if not self.matchers[row].accept_token(token):
            raise RuntimeError(f"xgrammar rejected token {token} in row {row}")

    def restart(self, row: int) -> None:
        self.matchers[row].reset()


def worker(engine: str, tokenizer_name: str, rows: int, steps: int) -> dict[str, Any]:
    import numpy as np
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(str(TOKENIZERS[tokenizer_name]))
    cases, ids = _instances(tokenizer)
    schemas = [cases[r % len(cases)]["schema"] for r in range(rows)]
    walks = [ids[r % len(ids)] for r in range(rows)]
    if engine == "xgrammar":
        batch: Any = XGrammarRows(tokenizer, schemas)
    else:
        batch = PseRows(tokenizer, schemas, per_row=engine == "pse-per-row")
    bitmask = np.zeros((rows, (batch.vocab_size + 31) // 32), dtype=np.int32)
    at = [0] * rows

    def step(timed: list[int] | None) -> None:
        start = time.perf_counter_ns()
        batch.fill(bitmask)
        if timed is not None:
            timed.append(time.perf_counter_ns() - start)
        for row in range(rows):
            token = walks[row][at[row]]
            if not (int(bitmask[row, token >> 5]) >> (token & 31)) & 1:
                raise RuntimeError(f"{engine}: row {row} masks out its next token {token}")
            batch.advance(row, token)
            at[row] += 1
            if at[row] == len(walks[row]):
                batch.restart(row)
                at[row] = 0

    for _ in range(max(len(w) for w in walks)):  # warm: every instance walked once
        step(None)
    timed: list[int] = []
    gc.collect()
    gc.disable()
    try:
        for _ in range(steps):
            step(timed)
    finally:
        gc.enable()
    micros = [t / 1e3 for t in timed]
    return {"p50_us": statistics.median(micros), "mean_us": statistics.fmean(micros)}


def run_child(engine: str, tokenizer: str, rows: int, steps: int) -> dict[str, Any]:
    command = [
        sys.executable, str(Path(__file__).resolve()), "--worker", engine,
        "--tokenizers", tokenizer, "--rows", str(rows), "--steps", str(steps),
    ]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, timeout=900, cwd=str(HERE))
    for line in done.stdout.splitlines():
        if line.startswith(PREFIX):
            result: dict[str, Any] = json.loads(line[len(PREFIX) :])
            return result
    return {"error": (done.stderr or done.stdout).strip().splitlines()[-1:]}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, nargs="+", default=[16, 64])
    parser.add_argument("--tokenizers", nargs="+", default=list(TOKENIZERS))
    parser.add_argument("--engines", nargs="+", default=ENGINES)
    parser.add_argument("--steps", type=int, default=200, help="timed steps per run")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved runs per engine")
    parser.add_argument("--save", action="store_true", help="write results/batch-fill.json")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        result = worker(args.worker, args.tokenizers[0], args.rows[0], args.steps)
        print(PREFIX + json.dumps(result), flush=True)
        return 0
    if not SCHEMAS.is_file():
        print(f"needs {SCHEMAS} (the shared bench schemas); not found")
        return 1

    samples: dict[tuple[str, int, str], list[dict[str, Any]]] = {}
    for tokenizer in args.tokenizers:
        for rows in args.rows:
            for _ in range(args.rounds):
                for engine in args.engines:
                    out = run_child(engine, tokenizer, rows, args.steps)
                    if "error" in out:
                        print(f"{engine} {tokenizer} {rows} rows failed: {out['error']}")
                        continue
                    samples.setdefault((tokenizer, rows, engine), []).append(out)

    table = []
    for tokenizer in args.tokenizers:
        for rows in args.rows:
            row: dict[str, Any] = {"tokenizer": tokenizer, "rows": rows}
            for engine in args.engines:
                runs = samples.get((tokenizer, rows, engine), [])
                p50 = statistics.median(r["p50_us"] for r in runs) if runs else None
                mean = statistics.median(r["mean_us"] for r in runs) if runs else None
                row[f"{engine} p50 µs"] = round(p50, 1) if p50 is not None else None
                row[f"{engine} mean µs"] = round(mean, 1) if mean is not None else None
            table.append(row)
    columns = list(table[0]) if table else []
    print(" | ".join(columns))
    for row in table:
        print(" | ".join("-" if row[c] is None else str(row[c]) for c in columns))
    if args.save:
        sys.path.insert(0, str(HERE))
        from bench_results import save_table

        save_table(
            "batch-fill",
            table,
            columns=columns,
            notes=(
                f"fill of all rows per step, wall µs, median of {args.rounds} interleaved "
                f"runs of {args.steps} steps; rows hold the 8 bench schemas in turn; "
                f"{os.cpu_count()} CPUs"
            ),
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
