"""Differential repair benchmark: pgents vs PyPI json-repair (and fast-json-repair).

On the damage corpus of ``bench_repair_damage.py`` (real documents from
../shared/data broken one way per kind, fixed seed), per kind of damage:

* ``exact``: the repair returned the expected value (JSON equality);
* ``valid``: the repair returned some JSON value at all (json-repair's ``""``
  for "nothing found" counts as no value);
* ``pg-only`` / ``jr-only``: cases only pgents / only json-repair got right.

Then throughput (MB/s of input, median of ``--reps``) on the corpus and on
long documents (about 100 KB and 1 MB, damaged), with the time per KB at each
size to show that repair time grows linearly.

Usage: ``python benchmarks/bench_repair_corpus.py [--per-kind 300] [--seed N] [--show KIND]
[--disagree KIND]``
(needs ``pip install json-repair``; fast-json-repair is used when installed).
"""

from __future__ import annotations

import argparse
import importlib.metadata
import json
import math
import statistics
import time
from collections.abc import Callable
from typing import Any

from bench_repair_damage import DAMAGES, SEED, Case, corpus, documents, render, same, tokenize
from bench_results import save_table
from pgents.repair import repair_json

Repair = Callable[[str], "tuple[bool, Any]"]


def _pgents(text: str) -> tuple[bool, Any]:
    out = repair_json(text)
    return out.found, out.value


def contenders() -> dict[str, Repair]:
    found: dict[str, Repair] = {"pgents": _pgents}
    try:
        import json_repair
    except ImportError as exc:
        raise SystemExit("pip install json-repair") from exc

    def jr(text: str) -> tuple[bool, Any]:
        value = json_repair.loads(text)
        return value != "" and value is not None, value

    found["json_repair"] = jr
    try:
        import fast_json_repair
    except ImportError:
        return found

    def fjr(text: str) -> tuple[bool, Any]:
        try:
            value = fast_json_repair.loads(text)
        except Exception:  # noqa: BLE001 - a failure of the contender is a data point
            return False, None
        return value != "" and value is not None, value

    found["fast_json_repair"] = fjr
    return found


def valid_json(found: bool, value: Any) -> bool:
    if not found:
        return False
    try:
        json.dumps(value, allow_nan=False)
    except (TypeError, ValueError):
        return False
    return True


def accuracy(
    cases: list[Case], fns: dict[str, Repair], show: str | None, disagree: str | None
) -> list[dict[str, Any]]:
    """Print exact-recovery and valid-JSON % per damage kind; return the table rows."""
    names = list(fns)
    kinds = list(DAMAGES)
    exact = {(k, n): 0 for k in kinds for n in names}
    valid = {(k, n): 0 for k in kinds for n in names}
    only = {(k, n): 0 for k in kinds for n in ("pg", "jr")}
    total = dict.fromkeys(kinds, 0)
    for case in cases:
        total[case.kind] += 1
        right = {}
        got = {}
        for name, fn in fns.items():
            ok, value = fn(case.text)
            got[name] = value
            right[name] = ok and same(value, case.expected)
            exact[case.kind, name] += right[name]
            valid[case.kind, name] += valid_json(ok, value)
            if name == "pgents" and not right[name] and show in (case.kind, "all"):
                print(f"--- {case.kind} {case.source}\n{case.text}")
                print(f"=> {value!r}\n!= {case.expected!r}")
        if disagree in (case.kind, "all") and right["pgents"] != right["json_repair"]:
            print(f"--- {case.kind} {case.source}\n{case.text}")
            print(f"pgents      {got['pgents']!r}\njson_repair {got['json_repair']!r}")
        only[case.kind, "pg"] += right["pgents"] and not right["json_repair"]
        only[case.kind, "jr"] += right["json_repair"] and not right["pgents"]
    head = "".join(f" {n[:12]:>12} exact  valid" for n in names)
    print(f"{'damage':22} {'n':>4}{head}  pg-only jr-only")
    table: list[dict[str, Any]] = []
    for kind in [*kinds, "ALL"]:
        ks = kinds if kind == "ALL" else [kind]
        n = sum(total[k] for k in ks)
        if not n:
            continue
        label = f"**all {n:,}**" if kind == "ALL" else kind
        table.append({"damage": label, "cases": n})
        for m in names:
            cell = (
                f"{100 * sum(exact[k, m] for k in ks) / n:.1f} / "
                f"{100 * sum(valid[k, m] for k in ks) / n:.0f}"
            )
            table[-1][m.replace("_", "-")] = f"**{cell}**" if kind == "ALL" else cell
        cells = "".join(
            f" {100 * sum(exact[k, m] for k in ks) / n:18.1f}"
            f" {100 * sum(valid[k, m] for k in ks) / n:6.1f}"
            for m in names
        )
        pg = sum(only[k, "pg"] for k in ks)
        jr = sum(only[k, "jr"] for k in ks)
        print(f"{kind:22} {n:4}{cells}  {pg:7} {jr:7}")
    return table


def long_document(size: int) -> str:
    """About ``size`` characters: real documents in one array, damaged
    (single quotes, Python literals, a trailing comma, cut before the end)."""
    items: list[Any] = []
    length = 0
    for _, doc in documents():
        items.append(doc)
        length += len(json.dumps(doc)) + 2
        if length >= size:
            break
    toks = tokenize(items)
    for t in toks:
        if t.kind in ("key", "str") and "'" not in t.value and "\\" not in t.value:
            t.text = "'" + json.dumps(t.value, ensure_ascii=False)[1:-1] + "'"
        elif t.kind == "lit":
            t.text = repr(t.value)
    text = render(toks, True)
    return text[: int(len(text) * 0.995)]


def throughput(fn: Repair, texts: list[str], reps: int) -> float:
    mb = sum(len(t.encode("utf-8")) for t in texts) / 1e6
    runs = []
    for _ in range(reps):
        start = time.perf_counter()
        for text in texts:
            fn(text)
        runs.append(time.perf_counter() - start)
    return mb / statistics.median(runs)


def speed(cases: list[Case], fns: dict[str, Repair], reps: int) -> list[dict[str, Any]]:
    """Print MB/s of input per contender and input set; return the table rows."""
    sets = {"corpus": [c.text for c in cases]}
    for size in (10_000, 100_000, 1_000_000):
        sets[f"long {size // 1000} KB"] = [long_document(size)]
    print(f"\n{'inputs':14} {'KB':>8}" + "".join(f" {n[:16]:>16} MB/s" for n in fns))
    table: list[dict[str, Any]] = []
    for name, texts in sets.items():
        kb = sum(len(t.encode("utf-8")) for t in texts) / 1e3
        r = max(1, min(reps, math.ceil(2e6 / (kb * 1e3))))
        rates = {n.replace("_", "-"): round(throughput(fn, texts, r), 2) for n, fn in fns.items()}
        print(f"{name:14} {kb:8.0f}" + "".join(f" {rate:21.2f}" for rate in rates.values()))
        table.append({"inputs": f"{name} ({len(texts):,} texts, {kb:,.0f} KB)", **rates})
    return table


def _version(module: str) -> str:
    try:
        return importlib.metadata.version(module.replace("_", "-"))
    except importlib.metadata.PackageNotFoundError:
        return "(not installed)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-kind", type=int, default=300)
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--reps", type=int, default=5)
    parser.add_argument("--show", help="print pgents' misses of this kind ('all' for every kind)")
    parser.add_argument(
        "--disagree",
        help="print the cases of this kind ('all') that only one of the two gets right",
    )
    parser.add_argument("--no-speed", action="store_true")
    args = parser.parse_args()
    try:
        cases = corpus(args.per_kind, args.seed)
    except FileNotFoundError as exc:
        raise SystemExit(str(exc)) from exc
    fns = contenders()
    versions = ", ".join(f"{name} {_version(name)}" for name in fns if name != "pgents")
    setup = f"{args.per_kind} cases per kind, seed {args.seed}; {versions}."
    table = accuracy(cases, fns, args.show, args.disagree)
    if not (args.show or args.disagree):
        save_table("repair-damage", table, notes=f"Exact recovery % / valid JSON %; {setup}")
    if not args.no_speed:
        rates = speed(cases, fns, args.reps)
        save_table("repair-speed", rates, notes=f"MB/s of input, median of runs; {setup}")


if __name__ == "__main__":
    main()
