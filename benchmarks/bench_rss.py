"""Resident memory of one engine over many schemas and outputs (no model).

    python benchmarks/bench_rss.py [--count 10000] [--every 1000] [--distinct] [--no-save]

One StructuringEngine configures ``--count`` schemas in turn (a rotation of
recursive and flat shapes: trees through ``$ref``, objects, arrays, enums,
patterns, anyOf of tool calls) and generates one short output for each on
random logits (budget 24 tokens). RSS and the vocabulary's mask-cache size are
printed every ``--every`` schemas; after warm-up RSS must stay flat.

By default the rotation has 100 distinct schemas (a server that sees the same
schemas again). ``--distinct`` makes every schema new (its property names,
enum values and patterns carry the schema's number): RSS grows until the
bounded stores fill (the automata caches, the dormant leaf classes and their
mask-cache entries, see docs/concepts/hardening.md), then stays flat. Tables:
benchmarks/results/rss[-distinct].json.
"""

from __future__ import annotations

import argparse
import gc
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
TOKENIZER = ROOT.parent / "shared" / "tokenizers" / "smollm2-49k"
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(ROOT / "tests"))


def schema_for(i: int, distinct: bool) -> Any:
    """The ``i``-th schema of the rotation (100 distinct ones, or all distinct)."""
    tag = str(i if distinct else i % 100)
    shape = i % 5
    if shape == 0:  # recursive tree
        return {
            "$defs": {
                "node": {
                    "type": "object",
                    "properties": {
                        f"label_{tag}": {"type": "string", "maxLength": 8},
                        "children": {"type": "array", "items": {"$ref": "#/$defs/node"}},
                    },
                    "required": [f"label_{tag}"],
                }
            },
            "$ref": "#/$defs/node",
        }
    if shape == 1:  # flat object
        return {
            "type": "object",
            "properties": {
                f"name_{tag}": {"type": "string"},
                "age": {"type": "integer", "minimum": 0},
                "ok": {"type": "boolean"},
            },
            "required": [f"name_{tag}", "age"],
        }
    if shape == 2:  # enum and array
        return {
            "type": "array",
            "items": {"enum": [f"v{tag}_{k}" for k in range(5)]},
            "maxItems": 4,
        }
    if shape == 3:  # pattern and format
        return {
            "type": "object",
            "properties": {
                "code": {"type": "string", "pattern": f"^{tag}-[a-z]{{2,4}}$"},
                "when": {"type": "string", "format": "date"},
            },
            "required": ["code", "when"],
        }
    return {  # recursive JSON-ish value inside a tool call
        "anyOf": [
            {
                "type": "object",
                "properties": {"tool": {"const": f"t{tag}_{k}"}, "args": {"$ref": "#/$defs/v"}},
                "required": ["tool", "args"],
            }
            for k in range(3)
        ],
        "$defs": {
            "v": {"anyOf": [{"type": "integer"}, {"type": "array", "items": {"$ref": "#/$defs/v"}}]}
        },
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--count", type=int, default=10_000)
    parser.add_argument("--every", type=int, default=1_000)
    parser.add_argument("--distinct", action="store_true")
    parser.add_argument("--no-save", action="store_true")
    args = parser.parse_args()
    if not (TOKENIZER / "tokenizer.json").is_file():
        print(f"skipped: {TOKENIZER} is absent (../shared next to the repository)")
        return 0
    from bench_compile_rss import rss_mib
    from hardening.promise import LogitSource, run_case
    from transformers import AutoTokenizer

    from pse import StructuringEngine

    engine = StructuringEngine(AutoTokenizer.from_pretrained(str(TOKENIZER)))
    source = LogitSource(engine)
    vocabulary = engine.native_vocabulary
    rows: list[dict[str, Any]] = []
    tokens = 0
    start = time.process_time()
    print(
        f"{'schemas':>8} {'outputs':>8} {'tokens':>8} {'RSS MiB':>8} {'cache MiB':>9} {'CPU s':>7}"
    )
    for i in range(args.count + 1):
        if i % args.every == 0:
            gc.collect()
            row = {
                "schemas": i,
                "tokens": tokens,
                "RSS MiB": round(rss_mib(), 1),
                "mask cache MiB": round(vocabulary.mask_cache_bytes / 2**20, 1),
                "cache entries": vocabulary.mask_cache_entries,
                "CPU s": round(time.process_time() - start, 1),
            }
            rows.append(row)
            print(
                f"{i:>8} {i:>8} {tokens:>8} {row['RSS MiB']:>8} {row['mask cache MiB']:>9} "
                f"{row['CPU s']:>7}",
                flush=True,
            )
        if i == args.count:
            break
        engine.configure(schema_for(i, args.distinct))
        outcome = run_case(engine, source, i, greedy=i % 2 == 0, bias=3.0, budget=24)
        if not outcome.accepted:
            raise SystemExit(f"schema {i}: budgeted output unfinished: {outcome.text!r}")
        tokens += len(outcome.tokens)
    if not args.no_save:
        from bench_results import save_table

        name = "rss-distinct" if args.distinct else "rss"
        kind = "every schema distinct" if args.distinct else "100 distinct schemas in rotation"
        save_table(name, rows, notes=f"one engine, {kind}, one 24-token-budget output each.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
