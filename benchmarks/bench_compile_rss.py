"""Resident memory over repeated compiles of one bench schema (default: the recursive one).

A compiled grammar must be freed when dropped, recursive or not, so RSS stays
flat after warm-up. Prints RSS every ``--every`` compiles; table:
benchmarks/results/compile-rss.json (not written with ``--no-save``).

    python benchmarks/bench_compile_rss.py [--schema recursive_tree] [--count 10000] [--no-save]
"""

from __future__ import annotations

import argparse
import gc
import json
import sys
import time
from pathlib import Path
from typing import Any

from bench_results import save_table

from pse.types.json.schema_machine import schema_to_state_machine

SCHEMAS = Path(__file__).resolve().parents[2] / "shared" / "bench" / "schemas.json"


def rss_mib() -> float:
    """Current resident set size (Linux /proc; the peak from getrusage elsewhere)."""
    status = Path("/proc/self/status")
    if status.is_file():
        for line in status.read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    import resource  # noqa: PLC0415 - only where /proc is absent

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--schema", default="recursive_tree", help="name in schemas.json")
    parser.add_argument("--count", type=int, default=10_000)
    parser.add_argument("--every", type=int, default=1_000)
    parser.add_argument("--warmup", type=int, default=200)
    parser.add_argument("--no-save", action="store_true")
    args = parser.parse_args()
    if not SCHEMAS.is_file():
        print(f"skipped: {SCHEMAS} is absent (../shared next to the repo)")
        return 0
    schemas = {s["name"]: s["schema"] for s in json.loads(SCHEMAS.read_text())}
    schema = schemas[args.schema]
    for _ in range(args.warmup):
        schema_to_state_machine(schema)
    gc.collect()
    start = rss_mib()
    clock = time.process_time()
    print(f"schema {args.schema}: {args.count} compiles after {args.warmup} warm-up")
    print(f"{'compiles':>9} {'RSS MiB':>9} {'growth MiB':>11} {'CPU s':>7}")
    rows: list[dict[str, Any]] = []
    for i in range(args.count + 1):
        if i:
            schema_to_state_machine(schema)
        if i % args.every == 0:
            gc.collect()
            now = rss_mib()
            cpu = time.process_time() - clock
            rows.append(
                {
                    "compiles": i,
                    "RSS MiB": round(now, 1),
                    "growth MiB": round(now - start, 1),
                    "CPU s": round(cpu, 1),
                }
            )
            print(f"{i:>9} {now:>9.1f} {now - start:>11.1f} {cpu:>7.1f}", flush=True)
    if not args.no_save:
        notes = f"schema {args.schema}, {args.warmup} warm-up compiles first."
        save_table("compile-rss", rows, notes=notes)
    return 0


if __name__ == "__main__":
    sys.exit(main())
