"""Shared code of the conformance runs: corpora, compilation, walking, tables."""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pse_core._core import StateMachine
from pse_core.errors import SchemaError

from pse.types.json.schema_machine import schema_to_state_machine

SHARED = Path(__file__).resolve().parents[2].parent / "shared"
SUITE = SHARED / "data" / "json-schema-test-suite" / "public.jsonl"
REMOTES = SUITE.parent / "remotes"
#: Where the suite's tests say its ``remotes/`` documents live.
REMOTES_URI = "http://localhost:1234/"
MASKBENCH = SHARED / "data" / "maskbench" / "public.jsonl"
EXPECTED = Path(__file__).resolve().parent / "expected"

#: Walk mode of the conformance runs: JSON Schema's semantics, not the generation
#: defaults: any property order, undeclared properties allowed unless the schema
#: forbids them (``strict_properties=False``), any JSON whitespace (``"free"``).
OPTIONS: dict[str, Any] = {
    "ordered_properties": False,
    "strict_properties": False,
    "whitespace": "free",
}


def read_jsonl(path: Path) -> Iterator[dict[str, Any]]:
    with path.open(encoding="utf-8") as handle:
        for line in handle:
            if line.strip():
                yield json.loads(line)


def serializations(data: Any) -> list[str]:
    """``json.dumps`` default and compact (both must give the same verdict)."""
    return [json.dumps(data), json.dumps(data, separators=(",", ":"))]


def accepts(machine: StateMachine, text: str) -> bool:
    steppers = StateMachine.advance_all_basic(machine.get_steppers(), text)
    return any(not s.remaining_input and s.has_reached_accept_state() for s in steppers)


def remote_documents() -> dict[str, Any]:
    """The suite's ``remotes/`` documents by URI: the ``registry=`` of its refRemote cases."""
    return {
        REMOTES_URI + path.relative_to(REMOTES).as_posix(): json.loads(path.read_text())
        for path in sorted(REMOTES.rglob("*.json"))
    }


def compile_schema(
    schema: Any, draft: str | None = None, registry: dict[str, Any] | None = None
) -> tuple[StateMachine | None, str | None]:
    """``(machine, None)``, or ``(None, "declined:<keyword>")`` on SchemaError."""
    try:
        return schema_to_state_machine(schema, draft=draft, registry=registry, **OPTIONS), None
    except SchemaError as exc:
        return None, f"declined:{exc.keyword or exc.code}"
    except RecursionError:
        return None, "error:RecursionError"


# ------------------------------------------------------ JSON-Schema-Test-Suite


def suite_category(case: dict[str, Any]) -> str | None:
    """The table row of a case; ``None`` for cases whose labels assume other semantics.

    The required (non-optional) ``format`` cases label badly formatted strings
    valid (format only annotates there); PSE asserts formats, so those cases
    are left out and the ``optional/format/*`` files measure ``format``.
    """
    keyword = str(case["keyword"])
    if keyword == "format" and not case["optional"]:
        return None
    if keyword.startswith("optional/format/"):
        return "format:" + keyword.split("/", 2)[2]
    return keyword


@dataclass
class SuiteRow:
    passed: int = 0
    failed: int = 0
    declined: int = 0
    failures: list[str] = field(default_factory=list)
    declines: Counter[str] = field(default_factory=Counter)

    @property
    def total(self) -> int:
        return self.passed + self.failed + self.declined

    @property
    def rate(self) -> str:
        """Passing share of the enforced cases; ``n/a`` when every case was declined."""
        enforced = self.passed + self.failed
        return f"{self.passed / enforced:.1%}" if enforced else "n/a"


def run_suite(path: Path = SUITE) -> dict[str, SuiteRow]:
    cases = [c for c in read_jsonl(path) if suite_category(c) is not None]
    groups: dict[tuple[str, str, str], list[dict[str, Any]]] = defaultdict(list)
    for c in cases:
        groups[(c["draft"], c["file"], c["group"])].append(c)
    rows: dict[str, SuiteRow] = defaultdict(SuiteRow)
    registry = remote_documents()
    for (draft, file, group), members in groups.items():
        version = "7" if draft == "draft7" else "2020-12"
        machine, why = compile_schema(members[0]["schema"], version, registry)
        for c in members:
            row = rows[str(suite_category(c))]
            cid = f"{draft}/{file}/{group}/{c['description']}"
            if machine is None:
                row.declined += 1
                row.declines[str(why)] += 1
                continue
            verdicts = {accepts(machine, t) for t in serializations(c["data"])}
            if verdicts == {bool(c["valid"])}:
                row.passed += 1
            else:
                row.failed += 1
                kind = "valid-rejected" if c["valid"] else "invalid-accepted"
                row.failures.append(f"{kind}: {cid}")
    return dict(sorted(rows.items()))


def suite_table(rows: dict[str, SuiteRow]) -> str:
    lines = [f"{'keyword':40} {'pass':>5} {'fail':>5} {'declined':>8} {'rate':>7}"]
    for name, r in rows.items():
        lines.append(f"{name:40} {r.passed:5} {r.failed:5} {r.declined:8} {r.rate:>7}")
    tp = sum(r.passed for r in rows.values())
    tf = sum(r.failed for r in rows.values())
    td = sum(r.declined for r in rows.values())
    lines.append(f"{'TOTAL':40} {tp:5} {tf:5} {td:8} {tp / max(tp + tf, 1):7.1%}")
    return "\n".join(lines)


# ------------------------------------------------------------------- MaskBench


@dataclass
class MaskResult:
    passing: list[str] = field(default_factory=list)
    compile_errors: dict[str, str] = field(default_factory=dict)
    valid_rejected: list[str] = field(default_factory=list)
    invalid_accepted: list[str] = field(default_factory=list)

    @property
    def total(self) -> int:
        return (
            len(self.passing)
            + len(self.compile_errors)
            + len(self.valid_rejected)
            + len(self.invalid_accepted)
        )

    def counts(self) -> dict[str, int]:
        return {
            "passing": len(self.passing),
            "compile_errors": len(self.compile_errors),
            "valid_rejected": len(self.valid_rejected),
            "invalid_accepted": len(self.invalid_accepted),
        }


def maskbench_entries(path: Path = MASKBENCH, every: int = 1) -> list[dict[str, Any]]:
    """The corpus, or every ``every``-th entry (a deterministic subset)."""
    return [e for i, e in enumerate(read_jsonl(path)) if i % every == 0]


def run_maskbench(entries: list[dict[str, Any]]) -> MaskResult:
    result = MaskResult()
    for entry in entries:
        uid = str(entry["unique_id"])
        machine, why = compile_schema(entry["schema"])
        if machine is None:
            result.compile_errors[uid] = str(why)
            continue
        bad_valid = bad_invalid = False
        for test in entry["tests"]:
            verdicts = {accepts(machine, t) for t in serializations(test["data"])}
            if test["valid"] and verdicts != {True}:
                bad_valid = True
            if not test["valid"] and verdicts != {False}:
                bad_invalid = True
        if bad_invalid:
            result.invalid_accepted.append(uid)
        elif bad_valid:
            result.valid_rejected.append(uid)
        else:
            result.passing.append(uid)
    return result


def maskbench_table(result: MaskResult) -> str:
    n = max(result.total, 1)
    c = result.counts()
    return "\n".join(
        [
            f"{'schemas':>8} {'passing':>9} {'compile errors':>15} {'valid rejected':>15} "
            f"{'invalid accepted':>17}",
            f"{result.total:8} {c['passing']:9} {c['compile_errors']:15} {c['valid_rejected']:15} "
            f"{c['invalid_accepted']:17}",
            f"{'':8} {c['passing'] / n:9.1%} {c['compile_errors'] / n:15.1%} "
            f"{c['valid_rejected'] / n:15.1%} {c['invalid_accepted'] / n:17.1%}",
        ]
    )
