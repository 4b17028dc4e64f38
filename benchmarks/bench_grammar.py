"""Grammar masks: latency while walking real code token by token, and compile time.

    python benchmarks/bench_grammar.py [--max-tokens 4000] [--json out.json]

For each tokenizer in ../shared/tokenizers/ (SmolLM2 49k, Llama 3 128k) and each
workload, the text is tokenized (no special tokens) and walked through a
``pse.StructuringEngine`` configured with the grammar's state machine: at every
step the mask is filled (``fill_bitmask``, timed) and the token consumed. Every
token must be allowed and the walk must end in an accept state. The first walk
uses a new state machine (its mask-cache entries start empty: "cold"); a second
walk of the same machine is "warm" (its entries are there; the engine's memo
of whole masks starts over first, so that no mask is recalled from the first
walk, only from positions of the same shape earlier in the same walk).

Workloads: Python = this repository's own source files (PythonGrammar, the
native "python" lexer hook), alone and, as "python-fenced", each file inside a
```python fence (EncapsulatedStateMachine, as the agent writes code); Bash = the Bash snippets of
../shared/data/code-snippets that BashGrammar accepts, joined into one script;
JSON = a Lark JSON grammar on JSON documents (../shared/bench/schemas.json
instances). llguidance (PyPI) runs the same Lark text where it accepts it, on
the same tokens, side by side.

``--clock cpu`` times masks with the thread's CPU clock instead of the wall
clock (for a machine shared with other work).

Compile time: ``LarkGrammar(...).compiled()`` the first time in the process
without the disk cache (for Python and Bash, from the tables shipped in the
package: what a fresh machine pays), the full lowering that a grammar of that
size without shipped tables pays (lark reads the text, terminals become
automata, the native grammar is built), the first time with the disk cache
filled (the lowered tables read back), again on a fresh object (the
process-wide cache of native grammars), and the native part alone
(``pse_core.Grammar`` from the lowered tables). ``--compile-only`` measures
and saves only these.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
TOKENIZERS = {
    "smollm2-49k": SHARED / "tokenizers" / "smollm2-49k",
    "llama3-128k": SHARED / "tokenizers" / "llama3-128k",
}
SNIPPETS = SHARED / "data" / "code-snippets" / "public.jsonl"
SCHEMAS = SHARED / "bench" / "schemas.json"

JSON_LARK = r"""
?start: value
?value: object | array | STRING | NUMBER | "true" | "false" | "null"
array: "[" [value ("," value)*] "]"
object: "{" [pair ("," pair)*] "}"
pair: STRING ":" value
STRING: /"([^"\\\x00-\x1f]|\\["\\\/bfnrt]|\\u[0-9a-fA-F]{4})*"/
NUMBER: /-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/
%ignore /[ \t\n\r]+/
"""


CLOCK = time.perf_counter_ns


def row(*cells: object) -> None:
    print("| " + " | ".join(str(c) for c in cells) + " |")


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[max(1, math.ceil(q / 100 * len(ordered))) - 1]


def summary(ns: list[int]) -> dict[str, float]:
    us = [s / 1e3 for s in ns]
    return {
        "mean_us": statistics.fmean(us),
        "p50_us": percentile(us, 50),
        "p99_us": percentile(us, 99),
        "max_us": max(us),
        "steps": len(us),
    }


def python_texts() -> list[str]:
    from pse.types.grammar.default_grammars.python import PythonGrammar

    grammar = PythonGrammar()
    files = sorted((ROOT / "packages" / "pse" / "src" / "pse").rglob("*.py"))
    texts = [p.read_text() for p in files]
    return [t for t in texts if t.strip() and grammar.validate(t, strict=True)]


def bash_texts() -> list[str]:
    from pse.types.grammar.default_grammars.bash import BashGrammar

    grammar = BashGrammar()
    rows = [json.loads(line) for line in SNIPPETS.read_text().splitlines()]
    codes = [r["code"] for r in rows if "bash" in r["source"] and r.get("bash_n_ok")]
    script = "".join(
        c if c.endswith("\n") else c + "\n" for c in codes if grammar.validate(c, True)
    )
    return [script] if grammar.validate(script, strict=True) else []


def json_texts() -> list[str]:
    docs = json.loads(SCHEMAS.read_text())
    items = docs if isinstance(docs, list) else list(docs.values())
    out = []
    for item in items:
        instance = item.get("instance", item) if isinstance(item, dict) else item
        out.append(json.dumps(instance, indent=1))
    return out


#: The fence of the "python-fenced" workload, as the agent writes code.
FENCE = ("```python\n", "```")


def workloads() -> dict[str, tuple[Any, str, list[str]]]:
    """name -> (LarkGrammar, its Lark text, texts). "python-fenced" walks the
    Python texts inside FENCE (see ``machine``)."""
    from pse.types.grammar import LarkGrammar
    from pse.types.grammar.default_grammars.bash import BashGrammar
    from pse.types.grammar.default_grammars.python import PythonGrammar

    py, sh = PythonGrammar(), BashGrammar()
    code = python_texts()
    # python-fenced last: the engine is shared, and the rows before it keep
    # the order (and the process state) of earlier runs.
    return {
        "python": (py, py.lark_grammar, code),
        "bash": (sh, sh.lark_grammar, bash_texts()),
        "json": (LarkGrammar("json", JSON_LARK), JSON_LARK, json_texts()),
        "python-fenced": (py, py.lark_grammar, [FENCE[0] + t + FENCE[1] for t in code]),
    }


def machine(name: str, grammar: Any) -> Any:
    """The state machine a workload walks: the grammar's, fenced for "python-fenced"."""
    from pse.types.base.encapsulated import EncapsulatedStateMachine
    from pse.types.grammar import LarkGrammarStateMachine

    inner = LarkGrammarStateMachine(grammar)
    return EncapsulatedStateMachine(inner, FENCE) if name.endswith("-fenced") else inner


def walk_pse(engine: Any, machine: Any, ids: list[int]) -> list[int]:
    engine.configure(machine)
    mask = np.zeros((engine.vocab_size + 31) // 32, dtype=np.int32)
    times = []
    for tid in ids:
        t0 = CLOCK()
        engine.fill_bitmask(mask)
        times.append(CLOCK() - t0)
        if not (mask.view(np.uint32)[tid >> 5] >> np.uint32(tid & 31)) & 1:
            raise AssertionError(f"token {tid} not allowed")
        engine.consume_token(tid)
    t0 = CLOCK()
    engine.fill_bitmask(mask)
    times.append(CLOCK() - t0)
    if not engine.has_reached_accept_state:
        raise AssertionError("walk did not end in an accept state")
    return times


def forget_masks(engine: Any) -> None:
    """Make the engine's memo of whole masks start over (it does on a switch
    to another machine), so that a warm walk recalls no mask of the first
    walk: it keeps the mask-cache entries, and recalls only masks of
    positions shaped like ones it filled earlier in the same walk."""
    from pse.types.base.phrase import PhraseStateMachine

    engine.configure(PhraseStateMachine("x"))


def walk_llg(llg: Any, tokenizer: Any, grammar: str, ids: list[int]) -> list[int] | str:
    matcher = llg.LLMatcher(tokenizer, grammar, log_level=0)
    if matcher.is_error():
        return matcher.get_error().splitlines()[0][:60]
    mask = np.zeros((tokenizer.vocab_size + 31) // 32, dtype=np.int32)
    times = []
    for tid in ids:
        t0 = CLOCK()
        matcher.unsafe_compute_mask_ptr(mask.ctypes.data, mask.nbytes)
        times.append(CLOCK() - t0)
        if not matcher.consume_token(tid) or matcher.is_error():
            return f"rejected a token: {matcher.get_error()[:50]}"
    return times


def compile_times(name: str, text: str, lexer: str | None) -> dict[str, float]:
    from pse_core._core import Grammar

    from pse.types.grammar import LarkGrammar, lark

    def first() -> float:
        lark._COMPILED.clear()
        t0 = time.perf_counter()
        LarkGrammar(name, text, lexer=lexer).compiled()
        return time.perf_counter() - t0

    full, disk, native, lowered = [], [], [], []
    saved = os.environ.get("PSE_GRAMMAR_CACHE")
    with tempfile.TemporaryDirectory() as cache:
        os.environ["PSE_GRAMMAR_CACHE"] = "off"
        full.append(first())
        for _ in range(3):
            t0 = time.perf_counter()
            Grammar(*lark.lower_tables(LarkGrammar(name, text, lexer=lexer), "start"))
            lowered.append(time.perf_counter() - t0)
        os.environ["PSE_GRAMMAR_CACHE"] = cache
        first()  # fills the disk cache
        disk = [first() for _ in range(3)]
    if saved is None:
        del os.environ["PSE_GRAMMAR_CACHE"]
    else:
        os.environ["PSE_GRAMMAR_CACHE"] = saved
    for _ in range(2):
        t0 = time.perf_counter()
        LarkGrammar(name, text, lexer=lexer).compiled()
        full.append(time.perf_counter() - t0)
    # The native part: the same tables handed to pse_core.Grammar again.
    captured: dict[str, Any] = {}
    original = lark.Grammar

    def capture(*args: Any) -> Any:
        captured["args"] = args
        return original(*args)

    lark.Grammar = capture  # type: ignore[misc]
    lark._COMPILED.clear()
    try:
        LarkGrammar(name, text, lexer=lexer).compiled()
    finally:
        lark.Grammar = original  # type: ignore[misc]
    for _ in range(3):
        t0 = time.perf_counter()
        Grammar(*captured["args"])
        native.append(time.perf_counter() - t0)
    return {
        "first_ms": full[0] * 1e3,
        "lower_ms": min(lowered) * 1e3,
        "disk_ms": min(disk) * 1e3,
        "again_ms": min(full[1:]) * 1e3,
        "native_ms": min(native) * 1e3,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-tokens", type=int, default=4000, help="tokens per workload")
    parser.add_argument("--json", type=Path, help="write the results here")
    parser.add_argument("--no-llguidance", action="store_true")
    parser.add_argument("--clock", choices=["wall", "cpu"], default="wall")
    parser.add_argument("--compile-only", action="store_true", help="only the compile table")
    args = parser.parse_args()
    global CLOCK
    CLOCK = time.thread_time_ns if args.clock == "cpu" else time.perf_counter_ns
    if not all((p / "tokenizer.json").is_file() for p in TOKENIZERS.values()):
        sys.exit(f"needs the tokenizers in {SHARED / 'tokenizers'}")
    from transformers import AutoTokenizer

    from pse.structuring_engine import StructuringEngine

    llg = None
    if not args.no_llguidance:
        try:
            import llguidance
            import llguidance.hf

            llg = llguidance
        except ImportError:
            print("llguidance not installed: pip install llguidance")
    work = workloads()
    results: dict[str, Any] = {"compile": {}, "masks": []}
    print("## Compile time (ms)\n")
    print(
        "| grammar | first, no disk cache | lowering (lark + automata + native) "
        "| first, disk cache | again (process cache) | native only |"
    )
    print("|---|---:|---:|---:|---:|---:|")
    for name, (grammar, text, _) in work.items():
        if name.endswith("-fenced"):
            continue  # the grammar's compile time is its unfenced row's
        c = compile_times(name, text, grammar.lexer)
        results["compile"][name] = c
        print(
            f"| {name} | {c['first_ms']:.1f} | {c['lower_ms']:.1f} | {c['disk_ms']:.1f} "
            f"| {c['again_ms']:.1f} "
            f"| {c['native_ms']:.2f} |"
        )
    if args.compile_only:
        save(results, args.clock)
        return
    print("\n## Mask latency (µs), walking the text token by token\n")
    head = ["cold mean", "cold p50", "cold p99", "warm mean", "warm p50", "warm p99", "cache MiB"]
    row("tokenizer", "grammar", "tokens", "engine", *head)
    row("---", "---", "---:", "---", "---:", "---:", "---:", "---:", "---:", "---:", "---:")
    for tok_name, path in TOKENIZERS.items():
        tokenizer = AutoTokenizer.from_pretrained(str(path))
        engine = StructuringEngine(tokenizer)
        llg_tok = llg.hf.from_tokenizer(tokenizer, n_vocab=len(tokenizer)) if llg else None
        for name, (grammar, text, texts) in work.items():
            ids_per_text, total = [], 0
            for t in texts:
                if total >= args.max_tokens:
                    break
                ids = tokenizer.encode(t, add_special_tokens=False)
                ids_per_text.append(ids)
                total += len(ids)
            walked = machine(name, grammar)
            cache_before = engine.native_vocabulary.mask_cache_bytes
            cold = [x for ids in ids_per_text for x in walk_pse(engine, walked, ids)]
            forget_masks(engine)
            warm = [x for ids in ids_per_text for x in walk_pse(engine, walked, ids)]
            cache_mib = (engine.native_vocabulary.mask_cache_bytes - cache_before) / 2**20
            c, w = summary(cold), summary(warm)
            record = {"tokenizer": tok_name, "grammar": name, "engine": "pse", "tokens": total}
            record["cache_mib"] = cache_mib
            record |= {f"cold_{k}": v for k, v in c.items()} | {
                f"warm_{k}": v for k, v in w.items()
            }
            results["masks"].append(record)
            figures = [f"{x[k]:.0f}" for x in (c, w) for k in ("mean_us", "p50_us", "p99_us")]
            row(tok_name, name, total, "pse", *figures, f"{cache_mib:.1f}")
            if llg is None or name.endswith("-fenced"):
                continue
            lark_text = llg.grammar_from("lark", text)
            error = llg.LLMatcher.validate_grammar(lark_text, llg_tok)
            if error:
                row(tok_name, name, "", "llguidance", "declined: " + error.splitlines()[0][:70])
                continue
            runs = [walk_llg(llg, llg_tok, lark_text, ids) for ids in ids_per_text]
            bad = [r for r in runs if isinstance(r, str)]
            if bad:
                row(tok_name, name, "", "llguidance", f"failed: {bad[0]}")
                continue
            times = [x for r in runs for x in r if not isinstance(r, str)]
            s = summary(times)
            llg_record = {"tokenizer": tok_name, "grammar": name, "engine": "llg", "tokens": total}
            results["masks"].append(llg_record | s)
            figures = [f"{s[k]:.0f}" for k in ("mean_us", "p50_us", "p99_us")]
            row(tok_name, name, total, "llguidance", *figures, "", "", "", "")
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))
    save(results, args.clock)


def save(results: dict[str, Any], clock: str) -> None:
    """The tables as benchmarks/results/grammar-compile.json and, if walked, grammar-masks.json."""
    from bench_results import save_table

    compile_rows = [
        {"grammar": name} | {k: round(v, 2) for k, v in c.items()}
        for name, c in results["compile"].items()
    ]
    save_table(
        "grammar-compile",
        compile_rows,
        notes="milliseconds, wall clock; first: Python and Bash from the tables shipped in the "
        "package; lower: lark + automata + native, what a grammar without them pays",
    )
    if not results["masks"]:
        return
    mask_rows = []
    for r in results["masks"]:
        warm = "warm_" if r["engine"] == "pse" else ""
        row = {k: r[k] for k in ("tokenizer", "grammar", "engine")} | {"tokens": r.get("tokens")}
        for k in ("mean_us", "p50_us", "p99_us"):
            row[k] = round(r[warm + k])
            row["cold_" + k] = round(r["cold_" + k]) if warm else None
        row["cache_mib"] = round(r["cache_mib"], 1) if warm else None
        mask_rows.append(row)
    save_table(
        "grammar-masks",
        mask_rows,
        notes=f"µs per mask walking real code ({clock} clock); pse: warm cache, cold_*: first "
        "walk, cache_mib: the mask-cache entries the two walks built",
    )


if __name__ == "__main__":
    main()
