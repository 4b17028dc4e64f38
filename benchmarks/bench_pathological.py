"""Pathological inputs: each works or fails fast with a clear error.

    python benchmarks/bench_pathological.py [--case NAME] [--timeout 300] [--no-save]

Each case runs in a child process (so its peak memory is its own): configure
the schema, compute the first mask, feed a valid instance with
``consume_text`` (or, for the free-form case, token by token), compute the
last mask, and check the output against the instance. Times are CPU seconds
of the child (the machine is shared); peak RSS is the child's high-water mark
during the case (reset before it) minus the RSS it had before the case
(interpreter, tokenizer, vocabulary).
The table is saved as ``benchmarks/results/pathological.json``.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
TOKENIZER = ROOT.parent / "shared" / "tokenizers" / "smollm2-49k"
sys.path.insert(0, str(ROOT / "benchmarks"))

Case = Callable[[], tuple[Any, Any, str]]  # () -> (schema, instance, how to feed it)


def enum_10k() -> tuple[Any, Any, str]:
    members = [f"member-{i:05d}-{'xyz'[i % 3]}" for i in range(10_000)]
    return {"enum": members}, members[7_777], "text"


def properties_1k() -> tuple[Any, Any, str]:
    props = {f"field_{i}": {"type": "integer"} for i in range(1_000)}
    instance = {f"field_{i}": i for i in range(1_000)}
    return {"type": "object", "properties": props, "required": list(props)}, instance, "text"


def nesting(depth: int) -> Case:
    def case() -> tuple[Any, Any, str]:
        schema: Any = {"type": "integer"}
        instance: Any = 1
        for _ in range(depth):
            schema = {"type": "object", "properties": {"a": schema}, "required": ["a"]}
            instance = {"a": instance}
        return schema, instance, "text"

    return case


def ambiguous_pattern() -> tuple[Any, Any, str]:
    return {"type": "string", "pattern": "^(a|aa)*b$"}, "a" * 5_000 + "b", "text"


def tools_128() -> tuple[Any, Any, str]:
    kinds: list[Any] = [{"type": "string"}, {"type": "integer"}, {"enum": ["x", "y"]}]
    values = ["text", 42, "y"]

    def arguments(i: int) -> dict[str, Any]:
        return {f"arg_{j}": kinds[(i + j) % 3] for j in range(4)}

    tools = [
        {
            "type": "object",
            "properties": {
                "name": {"const": f"tool_{i:03d}"},
                "arguments": {
                    "type": "object",
                    "properties": arguments(i),
                    "required": ["arg_0", "arg_1"],
                },
            },
            "required": ["name", "arguments"],
        }
        for i in range(128)
    ]
    instance = {
        "name": "tool_127",
        "arguments": {f"arg_{j}": values[(127 + j) % 3] for j in range(2)},
    }
    return {"anyOf": tools}, instance, "text"


def free_string_100k() -> tuple[Any, Any, str]:
    words = ["lorem", "ipsum", "dolor", "sit", "amet", "consectetur", "adipiscing", "elit"]
    text = " ".join(words[i % len(words)] for i in range(20_000))[:100_000]
    return {"type": "string"}, text, "tokens"


CASES: dict[str, tuple[str, Case]] = {
    "enum-10k": ("enum of 10,000 strings", enum_10k),
    "properties-1k": ("object with 1,000 required properties", properties_1k),
    "depth-200": ("objects nested 200 deep", nesting(200)),
    "depth-5000": ("objects nested 5,000 deep (beyond the limit)", nesting(5_000)),
    "pattern-(a|aa)*b": ("pattern ^(a|aa)*b$, 5,001-character instance", ambiguous_pattern),
    "anyof-128-tools": ("anyOf of 128 tool-call schemas", tools_128),
    "string-100kb": ("free-form string of 100 KB, a mask per token", free_string_100k),
}


def status_kib(field: str) -> int:
    """``VmRSS`` or ``VmHWM`` (peak RSS) of this process from /proc, in KiB."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    return 0


def reset_peak() -> None:
    """Start the peak-RSS count afresh (Linux: 5 to clear_refs resets VmHWM)."""
    Path("/proc/self/clear_refs").write_text("5")


def run_child(name: str) -> dict[str, Any]:
    """Measure one case in this process (the child); returns its row."""
    from transformers import AutoTokenizer

    from pse import StructuringEngine
    from pse.errors import PseError

    engine = StructuringEngine(AutoTokenizer.from_pretrained(str(TOKENIZER)))
    engine.configure({"type": "boolean"})  # vocabulary and trie built before the baseline
    engine.token_bitmask()
    base_kib = status_kib("VmRSS")
    reset_peak()
    schema, instance, feed = CASES[name][1]()
    row: dict[str, Any] = {"case": name}
    clock = time.process_time
    try:
        start = clock()
        engine.configure(schema)
        row["compile s"] = round(clock() - start, 3)
        start = clock()
        engine.token_bitmask()
        row["first mask ms"] = round((clock() - start) * 1000, 2)
        start = clock()
        if feed == "text":
            ok = engine.consume_text(json.dumps(instance))
            steps = 1
        else:  # the tokens a model would emit, each checked against the mask first
            ids = engine.tokenizer.encode(json.dumps(instance), add_special_tokens=False)
            ok = True
            for i in ids:  # a mask per step, as in generation
                mask = engine.token_bitmask()
                if not (mask[i >> 5] >> (i & 31)) & 1 or not engine.consume_token(i):
                    ok = False
                    break
            steps = len(ids)
        row["consume s"] = round(clock() - start, 3)
        row["steps"] = steps
        start = clock()
        engine.token_bitmask()
        row["last mask ms"] = round((clock() - start) * 1000, 2)
        done = ok and engine.has_reached_accept_state
        same = done and engine.get_structured_output() == instance
        row["result"] = "ok" if same else "REJECTED valid instance" if not done else "WRONG output"
    except (PseError, RecursionError) as exc:
        row["result"] = f"{type(exc).__name__}: {str(exc)[:90]}"
    peak_kib = status_kib("VmHWM")
    row["peak MiB"] = round(max(peak_kib - base_kib, 0) / 1024, 1)
    return row


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--case", choices=sorted(CASES), action="append")
    parser.add_argument("--timeout", type=float, default=300.0)
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--no-save", action="store_true")
    args = parser.parse_args()
    if args.child:
        print(json.dumps(run_child(args.child)))
        return 0
    if not (TOKENIZER / "tokenizer.json").is_file():
        print(f"skipped: {TOKENIZER} is absent (../shared next to the repository)")
        return 0
    columns = [
        "case",
        "what",
        "compile s",
        "first mask ms",
        "consume s",
        "steps",
        "last mask ms",
        "peak MiB",
        "result",
    ]
    print(" | ".join(columns))
    rows = []
    for name in args.case or list(CASES):
        try:
            done = subprocess.run(
                [sys.executable, __file__, "--child", name],
                capture_output=True,
                text=True,
                timeout=args.timeout,
                check=False,
            )
            lines = done.stdout.strip().splitlines()
            row = (
                json.loads(lines[-1])
                if done.returncode == 0 and lines
                else {
                    "case": name,
                    "result": f"child failed ({done.returncode}): {done.stderr[-200:]}",
                }
            )
        except subprocess.TimeoutExpired:
            row = {"case": name, "result": f"TIMEOUT after {args.timeout:.0f} s"}
        row["what"] = CASES[name][0]
        rows.append(row)
        print(" | ".join(str(row.get(c, "")) for c in columns), flush=True)
    if not args.no_save and not args.case:
        from bench_results import save_table

        save_table(
            "pathological",
            rows,
            columns=columns,
            notes="CPU seconds in a child process per case; peak MiB above the "
            "child's RSS after loading the tokenizer; machine shared (loaded).",
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
