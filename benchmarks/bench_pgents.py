"""Repair throughput: pgents.repair_json vs the PyPI json-repair package.

Same inputs, same run, median of several repetitions, reported in MB/s of
input text. Input sets:

* ``corpus``: the 164 inputs of ../shared/data/json-repair/public.jsonl;
* ``corpus-broken``: those of them that ``json.loads`` rejects (the repair path);
* ``llm-broken``: the 47 LLM-written documents of
  ../shared/data/partial-json/prefix_sweep_public.jsonl, each made messy the
  way models do it (prose around a fence, single quotes, a trailing comma,
  Python literals, truncated at 80%).

Usage: ``python benchmarks/bench_pgents.py [--reps 7] [--json out.json]``
(needs ``pip install json-repair``).
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pgents.repair import repair_json

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"


def load(name: str) -> list[dict[str, Any]]:
    path = DATA / name
    if not path.is_file():
        raise SystemExit(f"needs ../shared/data/{name}")
    return [json.loads(line) for line in path.open(encoding="utf-8") if line.strip()]


def messy(doc: str) -> str:
    text = doc.replace('"', "'").replace("true", "True").replace("null", "None")
    text = text[:-1] + ",}" if text.endswith("}") else text
    text = f"Sure! Here is the JSON you asked for:\n```json\n{text}\n```\nLet me know."
    return text[: int(len(text) * 0.8)]


def input_sets() -> dict[str, list[str]]:
    corpus = [c["input"] for c in load("json-repair/public.jsonl")]
    broken = []
    for text in corpus:
        try:
            json.loads(text)
        except ValueError:
            broken.append(text)
    docs = [d["doc"] for d in load("partial-json/prefix_sweep_public.jsonl")]
    return {"corpus": corpus, "corpus-broken": broken, "llm-broken": [messy(d) for d in docs]}


def measure(fn: Callable[[str], Any], texts: list[str], reps: int) -> float:
    size = sum(len(t.encode("utf-8")) for t in texts) / 1e6
    runs = []
    inner = max(1, int(2e5 / max(1, size * 1e6)))
    for _ in range(reps):
        start = time.perf_counter()
        for _ in range(inner):
            for text in texts:
                fn(text)
        runs.append((time.perf_counter() - start) / inner)
    return size / statistics.median(runs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=7)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    try:
        import json_repair
    except ImportError as exc:
        raise SystemExit("pip install json-repair") from exc

    contenders: dict[str, Callable[[str], Any]] = {
        "pgents": lambda t: repair_json(t).value,
        "json_repair": lambda t: json_repair.loads(t),
    }
    rows = []
    header = ("inputs", "n", "KB", "pgents MB/s", "json_repair MB/s", "ratio")
    print("{:14} {:>4} {:>7} {:>12} {:>17} {:>6}".format(*header))
    for name, texts in input_sets().items():
        speeds = {k: measure(fn, texts, args.reps) for k, fn in contenders.items()}
        kb = sum(len(t.encode("utf-8")) for t in texts) / 1e3
        ratio = speeds["pgents"] / speeds["json_repair"]
        rows.append({"inputs": name, "n": len(texts), "kb": kb, **speeds, "ratio": ratio})
        print(
            f"{name:14} {len(texts):4} {kb:7.1f} {speeds['pgents']:12.2f} "
            f"{speeds['json_repair']:17.2f} {ratio:5.1f}x"
        )
    if args.json:
        args.json.write_text(json.dumps(rows, indent=2))


if __name__ == "__main__":
    main()
