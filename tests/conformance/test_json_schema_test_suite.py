"""JSON-Schema-Test-Suite (drafts 7 and 2020-12) walked through the compiled machines.

Every case's ``data`` is serialised twice (``json.dumps`` default and compact)
and walked through the machine compiled with ``ordered_properties=False``:
valid data must be accepted, invalid data rejected. Schemas using a keyword
that is not enforced must be declined with ``SchemaError``. Results ratchet
against ``expected/json_schema_test_suite.json``.
"""

from __future__ import annotations

import json

import pytest
from conformance._harness import EXPECTED, SUITE, run_suite, suite_table

BASELINE = EXPECTED / "json_schema_test_suite.json"

pytestmark = pytest.mark.skipif(
    not SUITE.is_file(), reason=f"the corpus {SUITE} is absent (../shared next to the repo)"
)


def test_json_schema_test_suite(update_baseline: bool) -> None:
    rows = run_suite()
    print("\n" + suite_table(rows))
    current = {
        "rows": {
            name: {"passed": r.passed, "failed": r.failed, "declined": r.declined}
            for name, r in rows.items()
        },
        "failures": sorted(f for r in rows.values() for f in r.failures),
    }
    if update_baseline or not BASELINE.is_file():
        BASELINE.write_text(json.dumps(current, indent=1, sort_keys=True) + "\n")
        return
    expected = json.loads(BASELINE.read_text())
    new_failures = sorted(set(current["failures"]) - set(expected["failures"]))
    regressions = [
        name
        for name, row in expected["rows"].items()
        if current["rows"].get(name, {"passed": 0})["passed"] < row["passed"]
    ]
    assert not new_failures, "new failures:\n" + "\n".join(new_failures)
    assert not regressions, f"fewer passing cases for: {regressions}"
    invalid_accepted = [f for f in current["failures"] if f.startswith("invalid-accepted")]
    assert not invalid_accepted, invalid_accepted
