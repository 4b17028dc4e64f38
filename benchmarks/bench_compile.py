"""Configure time of the JSON Schema compiler on the canonical schemas.

    python benchmarks/bench_compile.py                 # table
    python benchmarks/bench_compile.py --json out.json --repeat 5

For each tokenizer in ../shared/tokenizers/ (SmolLM2 49k, Llama 3 128k) and each
schema in ../shared/bench/schemas.json, times ``engine.configure(schema)`` (the
whole compile: schema algebra, automata, graph) in CPU time (the machine may be
loaded), in both property-order modes, and checks that the schema's valid
instance (compact JSON) is accepted afterwards. Before every repeat PSE's
process-wide compile caches (``functools`` caches in ``pse.automata`` and
``pse.types``) are cleared, as bench_peers' warm compile does, so each repeat
does the whole work; ``--cached`` keeps them (a server seeing a schema again).
The automata of built-in types (``type: integer`` alone, each ``format``
alone; ``pse.automata.built_in``) are kept for the process either way: the
first schema that uses one pays for it, and its repeats are in the max column.
The compile does not depend on the tokenizer; the column shows it is measured
through each engine. The last lines give the median and max over schemas of
the per-schema medians.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
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
    parser.add_argument("--cached", action="store_true", help="keep the compile caches")
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
                    if not args.cached:
                        clear_compile_caches()
                    start = time.process_time()
                    engine.configure(entry["schema"], ordered_properties=ordered)
                    times.append((time.process_time() - start) * 1000)
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
    for tok_name in TOKENIZERS:
        medians = [r["configure_ms_median"] for r in rows if r["tokenizer"] == tok_name]
        if medians:
            print(
                f"{tok_name}: median {statistics.median(medians):.2f} ms, "
                f"max {max(medians):.2f} ms over {len(medians)} schema/order pairs"
            )
    if args.json is not None:
        args.json.write_text(json.dumps(rows, indent=1) + "\n")


def clear_compile_caches() -> None:
    """Clear the ``functools`` caches of ``pse.automata`` and ``pse.types`` modules."""
    for name, module in list(sys.modules.items()):
        if module is None or not name.startswith(("pse.automata", "pse.types")):
            continue
        for value in list(vars(module).values()):
            clear = getattr(value, "cache_clear", None)
            if callable(clear):
                clear()


if __name__ == "__main__":
    main()
