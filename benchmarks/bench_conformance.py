"""JSON Schema conformance as result tables: the test suite and MaskBench.

    python benchmarks/bench_conformance.py                    # suite + MaskBench (all)
    python benchmarks/bench_conformance.py --maskbench-every 25  # the CI subset

Runs the same walks as tests/conformance (each case's data serialised twice,
compiled with any property order, undeclared properties allowed and free
whitespace) and saves ``results/conformance-suite.json`` (JSON-Schema-Test-
Suite, required and optional cases of drafts 7 and 2020-12: right, wrong,
declined) and ``results/conformance-maskbench.json`` (schemas passing,
declined, valid rejected, invalid accepted). Needs ../shared/data.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "benchmarks"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--maskbench-every", type=int, default=1, help="every n-th schema")
    parser.add_argument("--no-maskbench", action="store_true")
    args = parser.parse_args()

    from bench_results import save_table
    from conformance._harness import (
        MASKBENCH,
        SUITE,
        maskbench_entries,
        maskbench_table,
        run_maskbench,
        run_suite,
    )

    if not SUITE.is_file():
        sys.exit(f"{SUITE} is absent (../shared next to the repository)")
    rows = run_suite()
    right = sum(r.passed for r in rows.values())
    wrong = sum(r.failed for r in rows.values())
    declined = sum(r.declined for r in rows.values())
    invalid = sum(1 for r in rows.values() for f in r.failures if f.startswith("invalid-accepted"))
    total = right + wrong + declined
    suite = {
        "cases": total,
        "right": right,
        "valid rejected": wrong - invalid,
        "invalid accepted": invalid,
        "declined": declined,
        "right %": round(100 * right / total, 2),
    }
    print("  ".join(f"{k}: {v}" for k, v in suite.items()))
    save_table(
        "conformance-suite",
        [suite],
        notes="JSON-Schema-Test-Suite drafts 7 and 2020-12 (public half); declines count as "
        "not right; the required format cases that label bad formats valid are left out "
        "(formats are asserted) and the optional/format files measure format",
    )
    if args.no_maskbench or not MASKBENCH.is_file():
        return
    result = run_maskbench(maskbench_entries(every=args.maskbench_every))
    print(maskbench_table(result))
    counts = result.counts()
    row = {
        "schemas": result.total,
        "passing": counts["passing"],
        "declined": counts["compile_errors"],
        "valid rejected": counts["valid_rejected"],
        "invalid accepted": counts["invalid_accepted"],
        "passing %": round(100 * counts["passing"] / max(result.total, 1), 2),
    }
    subset = "" if args.maskbench_every == 1 else f" (every {args.maskbench_every}th schema)"
    save_table(
        "conformance-maskbench",
        [row],
        notes=f"MaskBench public half{subset}: a schema passes when it compiles and every "
        "valid instance is accepted and every invalid one rejected",
    )


if __name__ == "__main__":
    main()
