"""Two builds of PSE side by side on the mask benchmark, for a loaded machine.

    python benchmarks/bench_ab.py --old /venvs/old/bin/python:/src/old/packages/pse/src \\
        --new /venvs/new/bin/python:/src/new/packages/pse/src --rounds 5 --repeat 20

Each side is an interpreter (with its own ``pse_core`` build) and, after a
colon, an optional PYTHONPATH for its ``pse`` sources. ``bench_mask.py`` runs in
child processes, alternating old and new ``--rounds`` times, with its timer
replaced by the calling thread's CPU clock (``time.thread_time_ns``), so other
processes on the machine do not inflate the figures. Printed per tokenizer: the
token-weighted mean over the 8 workload schemas of the per-schema mask mean
and p99 (warm and cold walks) and of consume, the median over rounds of each
side, and the change.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
CPU_CLOCK = (
    "import runpy, sys, time; time.perf_counter_ns = time.thread_time_ns; "
    f"sys.argv = ['bench_mask.py', *sys.argv[1:]]; "
    f"runpy.run_path({str(HERE / 'bench_mask.py')!r}, run_name='__main__')"
)


def run_side(side: str, out: Path, repeat: int) -> dict[tuple[str, str, str], float]:
    python, _, path = side.partition(":")
    env = dict(os.environ, PYTHONPATH=path) if path else dict(os.environ)
    command = [python, "-c", CPU_CLOCK, "--repeat", str(repeat), "--json", str(out)]
    subprocess.run(command, env=env, check=True, stdout=subprocess.DEVNULL)
    return summarise(json.loads(out.read_text()))


def summarise(result: dict[str, Any]) -> dict[tuple[str, str, str], float]:
    """Token-weighted means of the per-schema mean and p99, per tokenizer."""
    out: dict[tuple[str, str, str], float] = {}
    for tokenizer in sorted({row["tokenizer"] for row in result["results"]}):
        rows = [row for row in result["results"] if row["tokenizer"] == tokenizer]
        tokens = sum(row["tokens"] for row in rows)
        for kind in ("mask_warm", "mask_cold", "consume"):
            for stat in ("mean", "p99"):
                weighted = sum(row[kind][f"{stat}_us"] * row["tokens"] for row in rows)
                out[(tokenizer, kind, stat)] = weighted / tokens
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--old", required=True, help="PYTHON[:PYTHONPATH] of the baseline")
    parser.add_argument("--new", required=True, help="PYTHON[:PYTHONPATH] of the candidate")
    parser.add_argument("--rounds", type=int, default=5, help="old/new pairs, interleaved")
    parser.add_argument("--repeat", type=int, default=20, help="warm walks per instance")
    args = parser.parse_args()

    runs: dict[str, list[dict[tuple[str, str, str], float]]] = {"old": [], "new": []}
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(args.rounds):
            for name in ("old", "new"):
                out = Path(tmp) / f"{name}-{i}.json"
                runs[name].append(run_side(getattr(args, name), out, args.repeat))
                print(f"round {i + 1}/{args.rounds}: {name} done", file=sys.stderr)

    print(f"{args.rounds} interleaved rounds per side, thread CPU clock, µs per token")
    print(f"{'tokenizer':12} {'metric':10} {'stat':5} {'old':>8} {'new':>8} {'change':>8}")
    for key in runs["old"][0]:
        old = statistics.median(run[key] for run in runs["old"])
        new = statistics.median(run[key] for run in runs["new"])
        change = 100 * (new - old) / old
        print(f"{key[0]:12} {key[1]:10} {key[2]:5} {old:8.2f} {new:8.2f} {change:+7.1f}%")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
