"""Compile time of the JSON Schema compiler over MaskBench (CPU time per schema).

    python benchmarks/bench_compile_maskbench.py            # all 5,653 schemas
    python benchmarks/bench_compile_maskbench.py --every 10 # a deterministic subset

Compiles every schema of ../shared/data/maskbench/public.jsonl with
``schema_to_state_machine`` (the conformance options: any property order,
undeclared properties allowed, free whitespace) and prints the median, 90th
percentile and maximum of the per-schema CPU time (``time.process_time``, so a
loaded machine inflates the figures less than wall time), over the schemas that
compile and over all of them. Declined schemas are counted, not timed.
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
MASKBENCH = ROOT.parent / "shared" / "data" / "maskbench" / "public.jsonl"
OPTIONS: dict[str, Any] = {
    "ordered_properties": False,
    "strict_properties": False,
    "whitespace": "free",
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--every", type=int, default=1, help="every n-th schema")
    parser.add_argument("--save", action="store_true", help="save results/compile-maskbench")
    args = parser.parse_args()
    if not MASKBENCH.is_file():
        sys.exit(f"{MASKBENCH} is absent (../shared next to the repository)")

    from pse_core.errors import SchemaError

    from pse.types.json.schema_machine import schema_to_state_machine

    lines = MASKBENCH.read_text(encoding="utf-8").split("\n")
    entries = [json.loads(x) for i, x in enumerate(lines) if x.strip() and i % args.every == 0]
    compiled: list[float] = []
    declined = 0
    for entry in entries:
        start = time.process_time()
        try:
            schema_to_state_machine(entry["schema"], **OPTIONS)
        except (SchemaError, RecursionError):
            declined += 1
            continue
        compiled.append((time.process_time() - start) * 1000)
    compiled.sort()
    row = {
        "schemas": len(entries),
        "compiled": len(compiled),
        "declined": declined,
        "median ms": round(statistics.median(compiled), 2),
        "p90 ms": round(compiled[int(0.9 * (len(compiled) - 1))], 2),
        "max ms": round(compiled[-1], 1),
        "total s": round(sum(compiled) / 1000, 1),
    }
    print("  ".join(f"{k}: {v}" for k, v in row.items()))
    if args.save:
        sys.path.insert(0, str(ROOT / "benchmarks"))
        from bench_results import save_table

        save_table(
            "compile-maskbench",
            [row],
            notes="CPU time per schema compile (process_time), conformance options; "
            "the machine was shared with other jobs",
        )


if __name__ == "__main__":
    main()
