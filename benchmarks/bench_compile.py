"""Configure time of the JSON Schema compiler on the canonical schemas.

    python benchmarks/bench_compile.py                 # table
    python benchmarks/bench_compile.py --json out.json --repeat 5
    python benchmarks/bench_compile.py --ab OLD NEW --rounds 3   # two builds, interleaved

For each tokenizer in ../shared/tokenizers/ (SmolLM2 49k, Llama 3 128k) and each
schema in ../shared/bench/schemas.json, times ``engine.configure(schema)`` (the
whole compile: schema algebra, automata, graph) in CPU time (the machine may be
loaded), in both property-order modes, and checks that the schema's valid
instance (compact JSON) is accepted afterwards. Before every repeat PSE's
process-wide compile caches (``functools`` caches in ``pse.automata`` and
``pse.types``) are cleared, as bench_peers' warm compile does, so each repeat
does the whole work; ``--cached`` keeps them (a server seeing a schema again).
As in bench_peers, a ``gc.collect()`` precedes each timed compile and the
collector is off while it runs. A full collection walks the whole heap, which
leaves the CPU caches cold: the compile after it pays for reloading the
compiler's code and data (measured at 128k on a loaded 2-core machine: a
``{"type": "boolean"}`` compile 0.04 ms back to back, 0.20 ms after a
collection; ``union`` 0.72 / 1.18 ms; a 64 MB memory sweep instead of the
collection costs about the same, ``gc.freeze()`` before it nothing; over the
8 schemas, both orders, at 95ff592: median 1.38 ms after a collection, 0.88
back to back), so these figures, like bench_peers' compile columns, are
cold-cache figures.
``--no-collect`` leaves the collection out (compiles back to back, warm caches).
The automata of built-in types (``type: integer`` alone, each ``format``
alone; ``pse.automata.built_in``) are kept for the process either way: the
first schema that uses one pays for it, and its repeats are in the max column.
The compile does not depend on the tokenizer; the column shows it is measured
through each engine. The last lines give the median and max over schemas of
the per-schema medians.

``--ab OLD NEW`` compares two builds on a loaded machine: each side is an
interpreter (with its own ``pse_core``) and, after a colon, an optional
PYTHONPATH for its ``pse`` sources; this benchmark runs in child processes,
alternating old and new ``--rounds`` times, and each per-schema median is the
median over rounds.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import statistics
import subprocess
import sys
import tempfile
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
    parser.add_argument(
        "--no-collect", action="store_true", help="no gc.collect() before each compile"
    )
    parser.add_argument("--ab", nargs=2, metavar=("OLD", "NEW"), help="python[:PYTHONPATH] x2")
    parser.add_argument("--rounds", type=int, default=3, help="--ab rounds per side")
    args = parser.parse_args()
    if args.ab:
        compare(args)
        return

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
                    if not args.no_collect:
                        gc.collect()
                    gc.disable()
                    start = time.process_time()
                    try:
                        engine.configure(entry["schema"], ordered_properties=ordered)
                    finally:
                        times.append((time.process_time() - start) * 1000)
                        gc.enable()
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


def compare(args: argparse.Namespace) -> None:
    """``--ab``: both sides alternately in child processes; medians over rounds."""
    runs: dict[str, list[list[dict[str, Any]]]] = {side: [] for side in args.ab}
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "rows.json"
        for _ in range(args.rounds):
            for side in args.ab:
                python, _, path = side.partition(":")
                env = dict(os.environ, PYTHONPATH=path) if path else dict(os.environ)
                command = [python, __file__, "--repeat", str(args.repeat), "--json", str(out)]
                if args.cached:
                    command.append("--cached")
                if args.no_collect:
                    command.append("--no-collect")
                subprocess.run(command, env=env, check=True, stdout=subprocess.DEVNULL)
                runs[side].append(json.loads(out.read_text()))
    old, new = (
        {
            (r["tokenizer"], r["schema"], r["ordered"]): statistics.median(
                run[i]["configure_ms_median"] for run in runs[side]
            )
            for i, r in enumerate(runs[side][0])
        }
        for side in args.ab
    )
    print(f"{'tokenizer':12} {'schema':22} {'order':7} {'old ms':>8} {'new ms':>8} {'change':>7}")
    for key, before in old.items():
        after = new[key]
        order = "schema" if key[2] else "any"
        change = f"{(after / before - 1) * 100:+.0f}%"
        print(f"{key[0]:12} {key[1]:22} {order:7} {before:8.2f} {after:8.2f} {change:>7}")
    for tok_name in TOKENIZERS:
        for label, side in (("old", old), ("new", new)):
            values = [v for k, v in side.items() if k[0] == tok_name]
            if values:
                print(
                    f"{tok_name} {label}: median {statistics.median(values):.2f} ms, "
                    f"max {max(values):.2f} ms over {len(values)} schema/order pairs"
                )


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
