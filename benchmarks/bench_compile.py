"""Configure time of the JSON Schema compiler on the canonical schemas.

    python benchmarks/bench_compile.py                 # table
    python benchmarks/bench_compile.py --json out.json --repeat 5

For each tokenizer in ../shared/tokenizers/ (SmolLM2 49k, Llama 3 128k) and each
schema in ../shared/bench/schemas.json, times ``engine.configure(schema)`` (the
whole compile: schema algebra, automata, graph) for a fresh compile every
repeat, in both property-order modes, and checks that the schema's valid
instance (compact JSON) is accepted afterwards. The compile does not depend on
the tokenizer; the column shows it is measured through each engine.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
SCHEMAS = SHARED / "bench" / "schemas.json"
TOKENIZERS = {
    "smollm2-49k": SHARED / "tokenizers" / "smollm2-49k",
    "llama3-128k": SHARED / "tokenizers" / "llama3-128k",
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()

    from transformers import AutoTokenizer

    from pse.structuring_engine import StructuringEngine

    schemas = json.loads(SCHEMAS.read_text())
    rows: list[dict[str, Any]] = []
    for tok_name, path in TOKENIZERS.items():
        if not (path / "tokenizer.json").is_file():
            print(f"skip {tok_name}: {path} is absent")
            continue
        engine = StructuringEngine(AutoTokenizer.from_pretrained(str(path)))
        for entry in schemas:
            for ordered in (True, False):
                times = []
                for _ in range(args.repeat):
                    start = time.perf_counter()
                    engine.configure(entry["schema"], ordered_properties=ordered)
                    times.append((time.perf_counter() - start) * 1000)
                text = json.dumps(entry["instance"], separators=(",", ":"))
                ok = engine.consume_text(text) and engine.has_reached_accept_state
                rows.append(
                    {
                        "tokenizer": tok_name,
                        "schema": entry["name"],
                        "ordered": ordered,
                        "configure_ms_median": statistics.median(times),
                        "configure_ms_max": max(times),
                        "instance_accepted": bool(ok),
                    }
                )
    print(f"{'tokenizer':12} {'schema':22} {'order':9} {'median ms':>10} {'max ms':>8} accepted")
    for r in rows:
        order = "schema" if r["ordered"] else "any"
        print(
            f"{r['tokenizer']:12} {r['schema']:22} {order:9} {r['configure_ms_median']:10.2f} "
            f"{r['configure_ms_max']:8.2f} {r['instance_accepted']}"
        )
    if args.json is not None:
        args.json.write_text(json.dumps(rows, indent=1) + "\n")


if __name__ == "__main__":
    main()
