"""MaskBench: real-world schemas with valid and invalid instances.

A schema passes when it compiles and every valid instance is accepted and
every invalid one rejected (both ``json.dumps`` serialisations, any property
order). The default run takes a deterministic subset (every 25th schema);
``PSE_MASKBENCH_FULL=1`` runs all 5,653. Results ratchet against
``expected/maskbench*.json``; invalid-accepted must stay empty.
"""

from __future__ import annotations

import json
import os

import pytest
from conformance._harness import (
    EXPECTED,
    MASKBENCH,
    maskbench_entries,
    maskbench_table,
    run_maskbench,
)

FULL = os.environ.get("PSE_MASKBENCH_FULL") == "1"
SUBSET_EVERY = 25

pytestmark = pytest.mark.skipif(
    not MASKBENCH.is_file(), reason=f"the corpus {MASKBENCH} is absent (../shared next to the repo)"
)


def test_maskbench(update_baseline: bool) -> None:
    every = 1 if FULL else SUBSET_EVERY
    baseline = EXPECTED / ("maskbench_full.json" if FULL else "maskbench_subset.json")
    result = run_maskbench(maskbench_entries(every=every))
    print("\n" + maskbench_table(result))
    current = {
        "counts": result.counts(),
        "compile_errors": dict(sorted(result.compile_errors.items())),
        "valid_rejected": sorted(result.valid_rejected),
        "invalid_accepted": sorted(result.invalid_accepted),
    }
    if update_baseline or not baseline.is_file():
        baseline.write_text(json.dumps(current, indent=1, sort_keys=True) + "\n")
        return
    expected = json.loads(baseline.read_text())
    was_failing = (
        set(expected["compile_errors"])
        | set(expected["valid_rejected"])
        | set(expected["invalid_accepted"])
    )
    now_failing = (
        set(current["compile_errors"])
        | set(current["valid_rejected"])
        | set(current["invalid_accepted"])
    )
    assert not sorted(now_failing - was_failing), "regressions: " + ", ".join(
        sorted(now_failing - was_failing)
    )
    new_invalid = set(current["invalid_accepted"]) - set(expected["invalid_accepted"])
    assert not new_invalid, f"newly accepting invalid instances: {sorted(new_invalid)}"
