"""PSE side by side with XGrammar, llguidance and outlines-core.

    python benchmarks/bench_peers.py                    # full run (~10 min on 2 cores)
    python benchmarks/bench_peers.py --quick --json peers.json
    python -m nox -s bench                              # installs the peers, runs this too

Workload: the 8 schemas of ../shared/bench/schemas.json; each schema's valid
instance is serialised as compact JSON (``separators=(",", ":")``), tokenized
by the tokenizer itself (no special tokens) and walked token by token through
every engine, for both tokenizers (SmolLM2 49k, Llama 3 128k). Every engine is
set to the same whitespace policy (compact JSON: no whitespace between tokens)
and must allow and accept every token and end in an accept state; failures
are reported as rejections, never hidden.

Measured per engine (each engine and tokenizer runs in its own subprocess, so
engines do not share caches, threads or memory):

* mask: one full-vocabulary bitmask fill per token (µs; mean, p50, p99 over
  all tokens of all instances). "warm" = walks 2..n with the same compiled
  grammar (the matcher reset), the headline numbers; "cold walk" = the first
  walk after compiling (lazy per-state work, e.g. PSE's mask cache or
  llguidance's lexer states, lands here). Consuming the token is timed
  separately and not included. PSE's mask cache belongs to the vocabulary,
  not to a schema: entries are keyed by a leaf's content (a string's bounds,
  a number's sign, a DFA's tables), so they outlive ``clear_cache`` and the
  schema that built them (classes of leaves no live schema holds stay known
  up to 4 MiB of signatures), and a schema's first walk builds entries only
  for leaf contents no earlier schema of the run used, as XGrammar keeps its
  tokenizer info. The schemas run in file order; PSE's first walks of the
  later ones profit from the earlier ones (each schema first in a fresh
  process walks about a third slower per token, measured at bd024c3).
* setup: building the engine's per-tokenizer state, once per process (ms,
  and the process RSS growth in MiB): PSE's vocabulary trie and the mask
  cache's preparation (the JSON string leaf's tokens, common character
  classes), XGrammar's tokenizer info, llguidance's token trie.
* compile: JSON Schema to a ready-to-mask grammar (ms). "cold" = the first
  compile of that schema in the process (the per-tokenizer setup is done, and
  reported apart as "setup"); "warm" = later compiles of the same schema with
  any compiled-grammar cache cleared (median of the repetitions). PSE keeps
  the automata of built-in types (``type: integer`` alone, each ``format``
  alone; ``pse.automata.built_in``) for the process, one per type or format:
  clearing its caches does not drop them, so only the first schema of a run
  that uses one pays for building it (up to ~12 ms for ``date-time``).
* new schema: what a schema the engine has not seen costs until its first
  output is done: the cold compile plus the first walk's masks and consumes
  (ms; median and max over the schemas that walked).
* memory: each engine's own measure where it has one (XGrammar
  ``CompiledGrammar.memory_size_bytes``; outlines-core: pickled ``Index``
  size; PSE: growth of the shared mask cache over compile + walks;
  llguidance: none), plus the process RSS growth (JSON only; coarse).

A compile that runs past ``--budget`` seconds is recorded as a timeout and the
engine's worker restarts on the next schema. Scaling curves (SmolLM2
tokenizer): compile and mask time vs schema size for objects with 10/100/1000
properties, enums of 10..10,000 members and nesting depth 1/10/50, generated
in code. Timing: ``time.perf_counter_ns``, gc disabled in timed loops.
"""

from __future__ import annotations

import argparse
import gc
import json
import math
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
SHARED = ROOT.parent / "shared"
SCHEMAS = SHARED / "bench" / "schemas.json"
TOKENIZERS = {
    "smollm2-49k": SHARED / "tokenizers" / "smollm2-49k",
    "llama3-128k": SHARED / "tokenizers" / "llama3-128k",
}
ENGINES = ["pse", "xgrammar", "llguidance", "outlines-core"]
SHORT = {"pse": "pse", "xgrammar": "xg", "llguidance": "llg", "outlines-core": "oc"}
RESULT_PREFIX = "@@peers "
TIMEOUT_EXIT = 3

if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))


# ---------------------------------------------------------------- statistics


def percentile(samples: list[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..100)."""
    ordered = sorted(samples)
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return ordered[rank - 1]


def summarise_ns(samples_ns: list[int]) -> dict[str, Any] | None:
    if not samples_ns:
        return None
    micros = [s / 1e3 for s in samples_ns]
    return {
        "n": len(micros),
        "mean_us": statistics.fmean(micros),
        "p50_us": percentile(micros, 50),
        "p99_us": percentile(micros, 99),
        "max_us": max(micros),
    }


def _weighted_mean(means: list[float], counts: list[int]) -> float | None:
    total = sum(counts)
    return sum(m * n for m, n in zip(means, counts, strict=True)) / total if total else None


def median(values: list[float]) -> float | None:
    return statistics.median(values) if values else None


# ------------------------------------------------------------ scaling schemas


def _object_case(n: int) -> dict[str, Any]:
    kinds = [("string", "v"), ("integer", 7), ("boolean", True), ("number", 2.5)]
    properties: dict[str, Any] = {}
    instance: dict[str, Any] = {}
    for i in range(n):
        kind, value = kinds[i % len(kinds)]
        key = f"field_{i:04d}_{kind}"
        properties[key] = {"type": kind}
        instance[key] = value
    schema = {
        "type": "object",
        "properties": properties,
        "required": list(properties),
        "additionalProperties": False,
    }
    return {
        "name": f"object-{n}-props",
        "family": "object",
        "size": n,
        "schema": schema,
        "instance": instance,
    }


def _enum_case(n: int) -> dict[str, Any]:
    words = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel"]
    members = [f"{words[i % len(words)]}_{i}" for i in range(n)]
    schema = {
        "type": "object",
        "properties": {"value": {"enum": members}},
        "required": ["value"],
        "additionalProperties": False,
    }
    # The last member: the worst case for anything that scans the members.
    return {
        "name": f"enum-{n}",
        "family": "enum",
        "size": n,
        "schema": schema,
        "instance": {"value": members[-1]},
    }


def _nesting_case(depth: int) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "integer"}
    instance: Any = 1
    for level in range(depth):
        schema = {
            "type": "object",
            "properties": {"id": {"type": "integer"}, "child": schema},
            "required": ["id", "child"],
            "additionalProperties": False,
        }
        instance = {"id": level, "child": instance}
    return {
        "name": f"depth-{depth}",
        "family": "nesting",
        "size": depth,
        "schema": schema,
        "instance": instance,
    }


def scaling_cases() -> list[dict[str, Any]]:
    return (
        [_object_case(n) for n in (10, 100, 1000)]
        + [_enum_case(n) for n in (10, 100, 1000, 10000)]
        + [_nesting_case(d) for d in (1, 10, 50)]
    )


# -------------------------------------------------------------------- worker


def _rss_bytes() -> int | None:
    try:
        with open("/proc/self/statm") as handle:
            return int(handle.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return None


def _emit(record: dict[str, Any]) -> None:
    sys.stdout.write(RESULT_PREFIX + json.dumps(record) + "\n")
    sys.stdout.flush()


def _compile_with_budget(adapter: Any, schema: Any, budget_s: float) -> tuple[str, Any, int]:
    """Compile in a helper thread; ("ok"|"error"|"timeout", compiled-or-error, ns)."""
    box: dict[str, Any] = {}

    def target() -> None:
        start = time.perf_counter_ns()
        try:
            box["value"] = adapter.compile(schema)
            box["status"] = "ok"
        except BaseException as exc:  # noqa: BLE001 - reported, not raised
            box["value"] = f"{type(exc).__name__}: {exc}"
            box["status"] = "error"
        box["ns"] = time.perf_counter_ns() - start

    gc.collect()
    gc.disable()
    try:
        thread = threading.Thread(target=target, daemon=True)
        thread.start()
        thread.join(budget_s)
    finally:
        gc.enable()
    if thread.is_alive():
        return "timeout", None, int(budget_s * 1e9)
    return box["status"], box["value"], box["ns"]


def _walk(
    adapter: Any,
    matcher: Any,
    ids: list[int],
    tokenizer: Any,
    mask_ns: list[int],
    consume_ns: list[int],
) -> dict[str, Any] | None:
    """Walk ``ids``; None if every token was allowed and accepted, else the rejection."""
    flat = adapter.mask.reshape(-1)
    clock = time.perf_counter_ns
    fill, consume = adapter.fill, adapter.consume
    local_mask: list[int] = []
    local_consume: list[int] = []
    rejection = None
    gc.disable()
    try:
        for step, token_id in enumerate(ids):
            t0 = clock()
            fill(matcher)
            t1 = clock()
            if not (int(flat[token_id >> 5]) >> (token_id & 31)) & 1:
                rejection = {"step": step, "reason": "masked out"}
                break
            ok = consume(matcher, token_id)
            t2 = clock()
            if not ok:
                rejection = {"step": step, "reason": "consume refused"}
                break
            local_mask.append(t1 - t0)
            local_consume.append(t2 - t1)
    finally:
        gc.enable()
    if rejection is None and not adapter.accepting(matcher):
        rejection = {"step": len(ids), "reason": "no accept state at the end"}
    if rejection is not None:
        step = rejection["step"]
        if step < len(ids):
            rejection["token"] = tokenizer.decode([ids[step]])
            rejection["token_id"] = ids[step]
        rejection["prefix"] = tokenizer.decode(ids[:step])[-40:]
        return rejection
    mask_ns.extend(local_mask)
    consume_ns.extend(local_consume)
    return None


def _run_case(
    adapter: Any, tokenizer: Any, case: dict[str, Any], args: argparse.Namespace
) -> dict[str, Any]:
    text = json.dumps(case["instance"], separators=(",", ":"))
    ids = tokenizer.encode(text, add_special_tokens=False)
    result: dict[str, Any] = {"case": case["name"], "tokens": len(ids), "chars": len(text)}
    if tokenizer.decode(ids) != text:
        result["note"] = "tokenizer round trip differs from the instance text"

    rss_before = _rss_bytes()
    if hasattr(adapter, "mark_memory"):
        adapter.mark_memory()
    status, compiled, cold_ns = _compile_with_budget(adapter, case["schema"], args.budget)
    result["compile_cold_ms"] = cold_ns / 1e6
    if status == "timeout":
        result["status"] = "timeout"
        return result
    if status == "error":
        result["status"] = "compile error"
        result["error"] = str(compiled)[:300]
        return result

    # Cold walk: the first walk after compiling.
    cold_mask: list[int] = []
    cold_consume: list[int] = []
    matcher = adapter.start(compiled)
    rejection = _walk(adapter, matcher, ids, tokenizer, cold_mask, cold_consume)
    result["mask_cold"] = summarise_ns(cold_mask)
    if rejection is None:  # what a new schema costs until its first output is done
        result["new_schema_ms"] = (
            result["compile_cold_ms"] + (sum(cold_mask) + sum(cold_consume)) / 1e6
        )
    if rejection is not None:
        result["status"] = "rejected"
        result["rejection"] = rejection
    else:
        # Warm walks: the same compiled grammar, the matcher reset.
        warm_mask: list[int] = []
        warm_consume: list[int] = []
        deadline = time.perf_counter() + args.walk_budget
        for _ in range(args.walks):
            matcher = adapter.reset(matcher)
            rejection = _walk(adapter, matcher, ids, tokenizer, warm_mask, warm_consume)
            if rejection is not None:
                result["status"] = "rejected"
                result["rejection"] = dict(rejection, walk="warm")
                break
            if time.perf_counter() > deadline:
                break
        else:
            result["status"] = "ok"
        result.setdefault("status", "ok")
        result["mask_warm"] = summarise_ns(warm_mask)
        result["consume_warm"] = summarise_ns(warm_consume)
        result["warm_samples_ns"] = warm_mask if args.keep_samples else None

    result["memory_bytes"] = adapter.memory_bytes(compiled)
    rss_after = _rss_bytes()
    if rss_before is not None and rss_after is not None:
        result["rss_growth_bytes"] = rss_after - rss_before

    # Warm compiles: caches cleared, the process warmed up.
    warm_ms: list[float] = []
    spent = 0.0
    for _ in range(args.compiles):
        if spent > args.compile_budget:
            break
        adapter.clear_cache()
        gc.collect()
        gc.disable()
        start = time.perf_counter_ns()
        try:
            adapter.compile(case["schema"])
        finally:
            elapsed = time.perf_counter_ns() - start
            gc.enable()
        warm_ms.append(elapsed / 1e6)
        spent += elapsed / 1e9
    result["compile_warm_ms"] = warm_ms
    result["compile_warm_median_ms"] = median(warm_ms)
    del compiled, matcher
    return result


def worker_main(args: argparse.Namespace) -> int:
    from peers import load_adapter, version_of
    from transformers import AutoTokenizer

    cases = json.loads(Path(args.cases).read_text())
    tokenizer = AutoTokenizer.from_pretrained(str(TOKENIZERS[args.tokenizer]))
    adapter_class = load_adapter(args.worker)
    gc.collect()
    rss_before = _rss_bytes()
    start = time.perf_counter_ns()
    adapter = adapter_class(tokenizer)
    setup_ms = (time.perf_counter_ns() - start) / 1e6
    rss_after = _rss_bytes()
    _emit(
        {
            "kind": "setup",
            "setup_ms": setup_ms,
            "setup_rss_bytes": (
                rss_after - rss_before if rss_before is not None and rss_after is not None else None
            ),
            "vocab_size": adapter.vocab_size,
            "version": version_of(args.worker),
        }
    )
    for index in range(args.start, len(cases)):
        record = _run_case(adapter, tokenizer, cases[index], args)
        record.update(kind="case", index=index, notes=list(adapter.notes))
        _emit(record)
        if record["status"] == "timeout":
            sys.stdout.flush()
            os._exit(TIMEOUT_EXIT)  # the compile thread cannot be stopped otherwise
    return 0


# -------------------------------------------------------------------- parent


def run_engine(
    engine: str,
    tokenizer: str,
    cases: list[dict[str, Any]],
    args: argparse.Namespace,
    *,
    walks: int,
    compiles: int,
) -> dict[str, Any]:
    """Run one engine on one tokenizer in subprocesses; restart after a timeout."""
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as handle:
        json.dump(cases, handle)
        cases_path = handle.name
    out: dict[str, Any] = {"engine": engine, "tokenizer": tokenizer, "cases": [None] * len(cases)}
    start_index = 0
    retries = 2  # a worker that dies before reporting anything is retried
    began = time.perf_counter()
    try:
        while start_index < len(cases):
            command = [
                sys.executable, str(Path(__file__).resolve()),
                "--worker", engine, "--tokenizer", tokenizer, "--cases", cases_path,
                "--start", str(start_index), "--walks", str(walks),
                "--compiles", str(compiles), "--budget", str(args.budget),
                "--walk-budget", str(args.walk_budget),
                "--compile-budget", str(args.compile_budget),
            ]  # fmt: skip
            limit = 180 + (len(cases) - start_index) * (3 * args.budget + args.walk_budget)
            try:
                proc = subprocess.run(
                    command, capture_output=True, text=True, timeout=limit, cwd=str(HERE)
                )
                stdout, stderr, code = proc.stdout, proc.stderr, proc.returncode
            except subprocess.TimeoutExpired as exc:
                stdout = exc.stdout.decode() if isinstance(exc.stdout, bytes) else exc.stdout or ""
                stderr = exc.stderr.decode() if isinstance(exc.stderr, bytes) else exc.stderr or ""
                code = -9
            last = start_index - 1
            for line in stdout.splitlines():
                if not line.startswith(RESULT_PREFIX):
                    continue
                record = json.loads(line[len(RESULT_PREFIX) :])
                if record["kind"] == "setup":
                    if "setup_ms" not in out:  # keep the first (cold) setup
                        out.update({k: v for k, v in record.items() if k != "kind"})
                else:
                    out["cases"][record["index"]] = record
                    last = record["index"]
            if code == 0:
                break
            if code == TIMEOUT_EXIT:
                start_index = last + 1
                continue
            if last == start_index - 1 and retries > 0 and code != -9:
                retries -= 1
                print(f"    worker exited {code} before reporting; retrying", flush=True)
                continue
            # A crash or a hung worker: record it on the case it was on and go on.
            tail = (stderr or "").strip().splitlines()[-3:]
            failed = last + 1
            if failed < len(cases):
                out["cases"][failed] = {
                    "case": cases[failed]["name"], "index": failed,
                    "status": "worker failed" if code != -9 else "worker timeout",
                    "error": f"exit {code}: " + " | ".join(tail)[:300],
                }  # fmt: skip
            if "setup_ms" not in out and failed == 0:
                out["error"] = f"exit {code}: " + " | ".join(tail)[:300]
                break
            start_index = failed + 1
    finally:
        os.unlink(cases_path)
    out["wall_s"] = time.perf_counter() - began
    print(f"    {engine}: {out['wall_s']:.0f} s", flush=True)
    return out


def aggregate(run: dict[str, Any]) -> dict[str, Any]:
    """One table row: pooled mask stats, compile medians/maxima across schemas."""
    cases = [c for c in run["cases"] if c]
    ok = [c for c in cases if c.get("status") == "ok"]
    warm_means, cold_means = [], []
    pooled_warm: list[float] = []
    for c in ok:
        warm = c.get("mask_warm")
        if warm:
            warm_means.append(warm["mean_us"])
        if c.get("mask_cold"):
            cold_means.append(c["mask_cold"]["mean_us"])
        if c.get("warm_samples_ns"):
            pooled_warm.extend(s / 1e3 for s in c["warm_samples_ns"])
    n_tok = [c["mask_warm"]["n"] for c in ok if c.get("mask_warm")]
    cold_n = [c["mask_cold"]["n"] for c in ok if c.get("mask_cold")]
    compiled = [c for c in cases if c.get("compile_warm_median_ms") is not None]
    warm_compile = [c["compile_warm_median_ms"] for c in compiled]
    cold_compile = [c["compile_cold_ms"] for c in cases if c.get("status") not in
                    ("timeout", "compile error", "worker failed", "worker timeout")]  # fmt: skip
    new_schema = [c["new_schema_ms"] for c in ok if c.get("new_schema_ms") is not None]
    memory = [c["memory_bytes"] for c in cases if c.get("memory_bytes") is not None]
    row: dict[str, Any] = {
        "engine": run["engine"],
        "version": run.get("version"),
        "setup_ms": run.get("setup_ms"),
        "setup_mib": (
            run["setup_rss_bytes"] / 2**20 if run.get("setup_rss_bytes") is not None else None
        ),
        "ok": len(ok),
        "total": len(run["cases"]),
        "mask_mean_us": (
            statistics.fmean(pooled_warm) if pooled_warm else _weighted_mean(warm_means, n_tok)
        ),
        "mask_p50_us": percentile(pooled_warm, 50) if pooled_warm else None,
        "mask_p99_us": percentile(pooled_warm, 99) if pooled_warm else None,
        "mask_cold_mean_us": (_weighted_mean(cold_means, cold_n)),
        "compile_warm_median_ms": median(warm_compile),
        "compile_warm_max_ms": max(warm_compile) if warm_compile else None,
        "compile_cold_median_ms": median(cold_compile),
        "compile_cold_max_ms": max(cold_compile) if cold_compile else None,
        "new_schema_median_ms": median(new_schema),
        "new_schema_max_ms": max(new_schema) if new_schema else None,
        "memory_median_kb": median([m / 1024 for m in memory]),
        "problems": [
            f"{c['case']}: {c['status']}"
            + (
                f" at token {c['rejection'].get('step')} {c['rejection'].get('token')!r}"
                f" ({c['rejection'].get('reason')})"
                if c.get("rejection")
                else ""
            )
            + (f" ({c['error'][:160]})" if c.get("error") else "")
            for c in cases
            if c.get("status") != "ok"
        ]
        + [f"{i}: not run" for i, c in enumerate(run["cases"]) if c is None],  # fmt: skip
        "notes": sorted({n for c in cases for n in c.get("notes", [])}),
    }
    if run.get("error"):
        row["problems"].append(f"engine failed: {run['error']}")
    return row


COLUMNS = [
    ("mask_mean_us", "mask mean", "{:.1f}"),
    ("mask_p50_us", "p50", "{:.1f}"),
    ("mask_p99_us", "p99", "{:.1f}"),
    ("mask_cold_mean_us", "cold walk", "{:.1f}"),
    ("compile_warm_median_ms", "cmp warm med", "{:.2f}"),
    ("compile_warm_max_ms", "max", "{:.1f}"),
    ("compile_cold_median_ms", "cmp cold med", "{:.2f}"),
    ("compile_cold_max_ms", "max", "{:.1f}"),
    ("new_schema_median_ms", "new med", "{:.2f}"),
    ("new_schema_max_ms", "max", "{:.1f}"),
    ("memory_median_kb", "mem KB", "{:.0f}"),
    ("setup_ms", "setup ms", "{:.0f}"),
    ("setup_mib", "setup MiB", "{:.0f}"),
]
WIDTHS = [9, 7, 7, 9, 12, 8, 12, 8, 8, 8, 8, 9, 9]


def _cell(value: Any, fmt: str, width: int) -> str:
    return f"{'-' if value is None else fmt.format(value):>{width}}"


def print_table(tokenizer: str, vocab: Any, rows: list[dict[str, Any]], walks: int,
                compiles: int) -> None:  # fmt: skip
    print(
        f"\n== {tokenizer} (vocab {vocab}): 8 schemas, compact JSON; mask µs per token "
        f"(warm: {walks} walks after the first), compile ms per schema "
        f"(warm: median of {compiles}, caches cleared) =="
    )
    header = f"{'engine':<18} {'ok':>4} " + " ".join(
        f"{title:>{w}}" for (_, title, _), w in zip(COLUMNS, WIDTHS, strict=True)
    )
    print(header)
    print("-" * len(header))
    for row in rows:
        cells = " ".join(
            _cell(row.get(key), fmt, w) for (key, _, fmt), w in zip(COLUMNS, WIDTHS, strict=True)
        )
        label = row["engine"]
        if any("schema compiler pending" in note for note in row["notes"]):
            label += " (any-JSON)"
        print(f"{label:<18} {row['ok']:>2}/{row['total']:<1} {cells}")
    pse = next((r for r in rows if r["engine"] == "pse"), None)
    peers = [r for r in rows if r["engine"] != "pse"]
    if pse and peers:
        cells = []
        for (key, _, _), w in zip(COLUMNS, WIDTHS, strict=True):
            candidates = [(r[key], r["engine"]) for r in peers if r.get(key) is not None]
            if pse.get(key) is None or not candidates:
                cells.append(f"{'-':>{w}}")
                continue
            best, who = min(candidates)
            ratio = pse[key] / best if best > 0 else float("inf")
            cells.append(f"{f'{ratio:.2f} {SHORT[who]}':>{w}}")
        print(f"{'ratio to best peer':<18} {'':>4} " + " ".join(cells))
        print("  (PSE value / lowest peer value per column; < 1 means PSE leads; "
              "xg=xgrammar llg=llguidance oc=outlines-core)")  # fmt: skip
    for row in rows:
        for problem in row["problems"]:
            print(f"  ! {row['engine']}: {problem}")
        for note in row["notes"]:
            print(f"  note {row['engine']}: {note}")


def save_peers_table(
    tokenizer: str, rows: list[dict[str, Any]], versions: dict[str, Any], walks: int, compiles: int
) -> None:
    """The README's table for ``tokenizer`` as ``benchmarks/results/peers-<tokenizer>.json``."""
    from bench_results import save_table

    def cell(value: Any, digits: int = 1) -> str | None:
        return None if value is None else f"{value:,.{digits}f}"

    table = [
        {
            "engine": f"{row['engine']} {versions.get(row['engine']) or ''}".strip(),
            "ok": f"{row['ok']}/{row['total']}",
            "mask mean µs": cell(row["mask_mean_us"]),
            "p50": cell(row["mask_p50_us"]),
            "p99": cell(row["mask_p99_us"]),
            "first walk mean µs": cell(row["mask_cold_mean_us"]),
            "compile median ms": cell(row["compile_warm_median_ms"], 2),
            "compile max ms": cell(row["compile_warm_max_ms"]),
            "new schema median ms": cell(row["new_schema_median_ms"], 2),
            "new schema max ms": cell(row["new_schema_max_ms"]),
        }
        for row in rows
    ]
    setup = ", ".join(
        f"{row['engine']} {cell(row['setup_ms'], 0)} ms / {cell(row['setup_mib'], 0)} MiB"
        for row in rows
        if row.get("setup_ms") is not None and row.get("setup_mib") is not None
    )
    save_table(
        f"peers-{tokenizer}",
        table,
        notes=(
            f"{tokenizer}: the 8 bench schemas, compact JSON; mask per token, full vocabulary, "
            f"{walks} warm walks after the first (pooled samples); first walk = the walk right "
            f"after compiling, in schema order (PSE's mask cache is per vocabulary: entries "
            f"of earlier schemas' leaves serve later ones); compile = median of {compiles} "
            "with caches cleared (PSE keeps the automata of type integer and of each format "
            "alone for the process); per-tokenizer setup, once per process (time, RSS growth): "
            f"{setup or 'not measured'}"
        ),
    )


def print_per_schema(runs: list[dict[str, Any]], names: list[str]) -> None:
    print("  per schema: warm mask mean µs / warm compile ms (x = not ok)")
    header = f"  {'schema':<15} {'tok':>4} " + " ".join(f"{r['engine']:>19}" for r in runs)
    print(header)
    for i, name in enumerate(names):
        cells = []
        tokens = "-"
        for run in runs:
            c = run["cases"][i]
            if not c:
                cells.append(f"{'not run':>19}")
                continue
            tokens = c.get("tokens", tokens)
            mask = c.get("mask_warm") or {}
            compile_ms = c.get("compile_warm_median_ms")
            if c.get("status") == "ok":
                cell = f"{mask.get('mean_us', 0):.1f} / " + (
                    f"{compile_ms:.2f}" if compile_ms is not None else "-"
                )
            else:
                cell = f"x {c.get('status')}"
            cells.append(f"{cell:>19}")
        print(f"  {name:<15} {tokens:>4} " + " ".join(cells))


def print_scaling(runs: list[dict[str, Any]], cases: list[dict[str, Any]]) -> None:
    print("\n== scaling (smollm2-49k): compile cold / warm ms, warm mask mean µs per token ==")
    header = f"{'case':<16} {'tok':>5} " + " ".join(f"{r['engine']:>26}" for r in runs)
    print(header)
    print("-" * len(header))
    for i, case in enumerate(cases):
        cells = []
        tokens: Any = "-"
        for run in runs:
            c = run["cases"][i]
            if not c:
                cells.append(f"{'not run':>26}")
                continue
            tokens = c.get("tokens", tokens)
            if c.get("status") == "timeout":
                seconds = c["compile_cold_ms"] / 1e3
                cells.append(f"{f'timeout >{seconds:.0f}s':>26}")
                continue
            if c.get("status") in ("compile error", "worker failed", "worker timeout"):
                cells.append(f"{c['status']:>26}")
                continue
            warm = c.get("compile_warm_median_ms")
            mask = (c.get("mask_warm") or c.get("mask_cold") or {}).get("mean_us")
            text = f"{c['compile_cold_ms']:.1f}/" + (f"{warm:.1f}" if warm is not None else "-")
            text += f" {mask:.1f}µs" if mask is not None else ""
            if c.get("status") != "ok":
                text += " REJ"
            cells.append(f"{text:>26}")
        print(f"{case['name']:<16} {tokens:>5} " + " ".join(cells))
    for run in runs:
        for c in run["cases"]:
            if c and c.get("status") not in ("ok", "timeout"):
                detail = c.get("rejection") or c.get("error")
                print(f"  ! {run['engine']}: {c['case']}: {c['status']} {detail}")


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--json", type=Path, help="save everything as JSON to this path")
    parser.add_argument("--quick", action="store_true", help="fewer repetitions (~3-5 min)")
    parser.add_argument("--engines", default=",".join(ENGINES), help="comma-separated")
    parser.add_argument("--tokenizers", default=",".join(TOKENIZERS), help="comma-separated")
    parser.add_argument("--schemas", type=Path, default=SCHEMAS, help="the workload file")
    parser.add_argument("--walks", type=int, help="warm walks per instance (default 5; quick 2)")
    parser.add_argument("--compiles", type=int, help="warm compiles (default 3; quick 1)")
    parser.add_argument("--budget", type=float, default=60.0,
                        help="seconds one compile may take before it is a timeout")  # fmt: skip
    parser.add_argument("--walk-budget", type=float, default=20.0,
                        help="seconds of warm walks per instance at most")  # fmt: skip
    parser.add_argument("--compile-budget", type=float,
                        help="warm-compile seconds per schema (default 10; quick 4)")  # fmt: skip
    parser.add_argument("--save", action="store_true",
                        help="write results/peers-<tokenizer>.json")  # fmt: skip
    parser.add_argument("--no-scaling", action="store_true", help="skip the scaling curves")
    parser.add_argument("--scaling-engines", default=",".join(ENGINES),
                        help="engines for the scaling curves (comma-separated)")  # fmt: skip
    parser.add_argument("--scaling-budget", type=float, default=20.0,
                        help="compile budget (s) for the scaling schemas")  # fmt: skip
    # worker mode (internal)
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--tokenizer", help=argparse.SUPPRESS)
    parser.add_argument("--cases", help=argparse.SUPPRESS)
    parser.add_argument("--start", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--keep-samples", action="store_true", default=True,
                        help=argparse.SUPPRESS)  # fmt: skip
    args = parser.parse_args()

    if args.worker:
        return worker_main(args)

    if args.compile_budget is None:
        args.compile_budget = 4.0 if args.quick else 10.0
    walks = args.walks if args.walks is not None else (2 if args.quick else 5)
    compiles = args.compiles if args.compiles is not None else (1 if args.quick else 3)
    engines = [e for e in args.engines.split(",") if e]
    unknown = set(engines) - set(ENGINES)
    if unknown:
        parser.error(f"unknown engine(s) {sorted(unknown)}; choose from {ENGINES}")
    if not args.schemas.is_file():
        print(f"error: workload {args.schemas} not found (expected ../shared next to the repo)")
        return 2
    workload = json.loads(args.schemas.read_text())
    tokenizers = [t for t in args.tokenizers.split(",") if t]
    missing = [t for t in tokenizers if not (TOKENIZERS.get(t, Path("/nonexistent")) /
                                             "tokenizer.json").is_file()]  # fmt: skip
    for name in missing:
        print(f"note: tokenizer {name} not found; skipped")
    tokenizers = [t for t in tokenizers if t not in missing]
    if not tokenizers:
        print("error: no tokenizer available")
        return 2

    from peers import version_of

    versions = {e: version_of(e) for e in engines}
    print("engines: " + ", ".join(f"{e} {v}" for e, v in versions.items()), flush=True)
    began = time.perf_counter()
    result: dict[str, Any] = {
        "python": sys.version.split()[0],
        "platform": platform.platform(),
        "cpu_count": os.cpu_count(),
        "versions": versions,
        "settings": {
            "walks": walks,
            "compiles": compiles,
            "budget_s": args.budget,
            "quick": args.quick,
        },  # fmt: skip
        "tokenizers": {},
    }
    names = [case["name"] for case in workload]
    for tokenizer in tokenizers:
        runs = []
        for engine in engines:
            print(f"  {tokenizer}: {engine} ...", flush=True)
            runs.append(run_engine(engine, tokenizer, workload, args, walks=walks,
                                   compiles=compiles))  # fmt: skip
        rows = [aggregate(run) for run in runs]
        vocab = next((r.get("vocab_size") for r in runs if r.get("vocab_size")), "?")
        print_table(tokenizer, vocab, rows, walks, compiles)
        print_per_schema(runs, names)
        for run in runs:
            for c in run["cases"]:
                if c:
                    c.pop("warm_samples_ns", None)
        result["tokenizers"][tokenizer] = {"rows": rows, "runs": runs}
        if args.save:
            save_peers_table(tokenizer, rows, versions, walks, compiles)

    if not args.no_scaling:
        cases = scaling_cases()
        scaling_engines = [e for e in args.scaling_engines.split(",") if e in engines]
        scaling_args = argparse.Namespace(**vars(args))
        scaling_args.budget = args.scaling_budget
        runs = []
        tokenizer = "smollm2-49k" if "smollm2-49k" in tokenizers else tokenizers[0]
        for engine in scaling_engines:
            print(f"  scaling: {engine} ...", flush=True)
            runs.append(run_engine(engine, tokenizer, cases, scaling_args,
                                   walks=1 if args.quick else 2,
                                   compiles=0 if args.quick else 1))  # fmt: skip
        print_scaling(runs, cases)
        for run in runs:
            for c in run["cases"]:
                if c:
                    c.pop("warm_samples_ns", None)
        result["scaling"] = {
            "tokenizer": tokenizer,
            "cases": [{k: c[k] for k in ("name", "family", "size")} for c in cases],
            "runs": runs,
        }

    result["wall_s"] = time.perf_counter() - began
    print(f"\ntotal {result['wall_s']:.0f} s")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(result, indent=2) + "\n")
        print(f"saved {args.json}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
