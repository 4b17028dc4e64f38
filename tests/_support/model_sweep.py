"""The real-model schema sweep: which schemas, which prompts, how to generate.

Shared by ``tests/torch/test_model.py`` (the CI check: every output parses and
validates) and ``benchmarks/bench_model.py`` (the same cases with and without
PSE). Nothing here imports pytest, so the benchmark can use it too.

The cases are a deterministic mix read at run time from ``../shared/data``
(next to the repository; never copied into it):

* ``maskbench/public.jsonl``: :data:`MASKBENCH_CASES` rows at evenly spaced
  positions over the whole file (every subset in proportion to its size);
* ``bfcl/public.jsonl``: :data:`BFCL_CASES` ``simple_python`` tasks at evenly
  spaced positions, the schema being the function's ``parameters``.

:func:`select` is the full sweep (110 schemas, run greedy and sampled by
``benchmarks/bench_model.py``). :func:`stratified` is the CI sample: one schema
from every family (each MaskBench ``subset`` and BFCL ``simple_python``), the
middle row of the family, with the decoding mode alternating from family to
family so both greedy and sampled decoding are covered.

A schema the engine refuses to compile (``SchemaError``: a keyword it does
not enforce, an unresolvable ``$ref``, ...) is not a sweep case: the next row
in file order takes its place, and the refusal is listed in
:attr:`Selection.refused` so callers can report it.
"""

from __future__ import annotations

import json
import zlib
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

SHARED = Path(__file__).resolve().parents[2].parent / "shared"
MASKBENCH = SHARED / "data" / "maskbench" / "public.jsonl"
BFCL = SHARED / "data" / "bfcl" / "public.jsonl"
BFCL_CATEGORY = "simple_python"

MASKBENCH_CASES = 60
BFCL_CASES = 50
#: Schema text beyond this many characters is cut from the prompt (keeps prefill short).
PROMPT_SCHEMA_CHARS = 1000
#: New tokens per generation: at least this many, and always the shortest
#: completion plus :data:`SLACK_TOKENS` (the budget-aware engine finishes within it).
BASE_NEW_TOKENS = 96
SLACK_TOKENS = 32


@dataclass(frozen=True)
class SweepCase:
    id: str
    source: str  # "maskbench" or "bfcl"
    schema: Any
    prompt: str
    #: The schema family: the MaskBench ``subset`` or ``bfcl-simple_python``.
    family: str = ""
    #: Decoding mode of the CI sample (``stratified``); the full sweep runs both.
    do_sample: bool = False

    @property
    def seed(self) -> int:
        """A per-case seed, stable across runs and selections."""
        return zlib.crc32(self.id.encode()) & 0x7FFFFFFF


@dataclass
class Selection:
    cases: list[SweepCase] = field(default_factory=list)
    #: ``(case id, reason)`` for schemas the engine refused (``SchemaError``).
    refused: list[tuple[str, str]] = field(default_factory=list)


def shared_missing() -> str | None:
    """Why the sweep cannot run (a corpus is absent), or ``None``."""
    for path in (MASKBENCH, BFCL):
        if not path.is_file():
            return f"{path} is absent (../shared next to the repository)"
    return None


def _compact(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


def _cut(text: str, limit: int = PROMPT_SCHEMA_CHARS) -> str:
    return text if len(text) <= limit else text[:limit] + " ...(truncated)"


def schema_prompt(schema: Any) -> str:
    return f"Produce a JSON instance of this JSON Schema:\n{_cut(_compact(schema))}"


def bfcl_prompt(function: dict[str, Any], question: str) -> str:
    return (
        f"{question}\nReply with the arguments for calling `{function['name']}` as a JSON "
        f"object matching this schema:\n{_cut(_compact(function['parameters']))}"
    )


def bfcl_question(row: dict[str, Any]) -> str:
    turns = row["question"][0]
    return str(turns[-1]["content"])


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    # Lines end in "\n" only: str.splitlines() would also split at U+2028 inside strings.
    with path.open(encoding="utf-8") as lines:
        return [json.loads(line) for line in lines if line.strip()]


def bfcl_tasks(category: str = BFCL_CATEGORY) -> list[dict[str, Any]]:
    return [row for row in read_jsonl(BFCL) if row["category"] == category]


def _spread(rows: list[Any], count: int) -> list[int]:
    """``count`` evenly spaced positions over ``rows``."""
    if count >= len(rows):
        return list(range(len(rows)))
    return [i * len(rows) // count for i in range(count)]


def _refusal(schema: Any) -> str | None:
    """The ``SchemaError`` the compiler raises for ``schema``, or ``None``.

    Only ``SchemaError`` disqualifies a schema; any other exception is an engine
    bug, so the case is kept and fails where it is generated.
    """
    from pse_core.errors import SchemaError

    from pse.types.json.schema_machine import schema_to_state_machine

    try:
        schema_to_state_machine(schema)
    except SchemaError as exc:
        return f"SchemaError [{exc.code}]: {exc.message}" + (
            f" at {exc.pointer}" if exc.pointer else ""
        )
    except Exception:  # noqa: BLE001 - kept as a case; the test reports it
        return None
    return None


def _pick(
    rows: list[Any],
    count: int,
    make: Any,
    selection: Selection,
) -> None:
    """Evenly spaced rows; a refused schema yields to the next unused row."""
    used: set[int] = set()
    for start in _spread(rows, count):
        index = start
        while index < len(rows) and index in used:
            index += 1
        while index < len(rows):
            used.add(index)
            case = make(rows[index])
            why = _refusal(case.schema)
            if why is None:
                selection.cases.append(case)
                break
            selection.refused.append((case.id, why))
            index += 1


def _maskbench_case(row: dict[str, Any]) -> SweepCase:
    return SweepCase(
        id=f"maskbench-{row['unique_id']}",
        source="maskbench",
        schema=row["schema"],
        prompt=schema_prompt(row["schema"]),
        family=str(row["subset"]),
    )


def _bfcl_case(row: dict[str, Any]) -> SweepCase:
    function = row["functions_jsonschema"][0]
    return SweepCase(
        id=f"bfcl-{row['id']}",
        source="bfcl",
        schema=function["parameters"],
        prompt=bfcl_prompt(function, bfcl_question(row)),
        family=f"bfcl-{BFCL_CATEGORY}",
    )


def select(maskbench: int = MASKBENCH_CASES, bfcl: int = BFCL_CASES) -> Selection:
    """The sweep: ``maskbench`` + ``bfcl`` cases that compile (empty when absent)."""
    selection = Selection()
    if shared_missing() is not None:
        return selection
    _pick(read_jsonl(MASKBENCH), maskbench, _maskbench_case, selection)
    _pick(bfcl_tasks(), bfcl, _bfcl_case, selection)
    return selection


def families() -> dict[str, list[dict[str, Any]]]:
    """MaskBench rows by ``subset`` (file order), then the BFCL tasks; empty when absent."""
    if shared_missing() is not None:
        return {}
    groups: dict[str, list[dict[str, Any]]] = {}
    for row in read_jsonl(MASKBENCH):
        groups.setdefault(str(row["subset"]), []).append(row)
    groups[f"bfcl-{BFCL_CATEGORY}"] = bfcl_tasks()
    return groups


def stratified() -> Selection:
    """The CI sample: the middle compiling schema of every family, modes alternating.

    Families are taken in sorted order; the ``i``-th family's case is sampled
    when ``i`` is odd and greedy otherwise. A refused schema yields to the next
    row of its family (listed in :attr:`Selection.refused`).
    """
    selection = Selection()
    for index, (family, rows) in enumerate(sorted(families().items())):
        make = _bfcl_case if family.startswith("bfcl-") else _maskbench_case
        middle = rows[len(rows) // 2 :] + rows[: len(rows) // 2]
        before = len(selection.cases)
        _pick(middle, 1, make, selection)
        selection.cases[before:] = [
            replace(case, do_sample=index % 2 == 1) for case in selection.cases[before:]
        ]
    return selection


# ------------------------------------------------------------------ generation


def chat_ids(tokenizer: Any, prompt: str) -> list[int]:
    ids = tokenizer.apply_chat_template(
        [{"role": "user", "content": prompt}], add_generation_prompt=True, return_dict=False
    )
    return list(ids)


def new_token_budget(shortest: int | None) -> int:
    """``max_new_tokens`` for a schema whose shortest completion takes ``shortest`` tokens."""
    return max(BASE_NEW_TOKENS, (shortest or 0) + SLACK_TOKENS)


def validator(schema: Any) -> Any:
    """The ``jsonschema`` validator of the schema's own draft (2020-12 by default)."""
    import jsonschema

    cls = jsonschema.validators.validator_for(schema, default=jsonschema.Draft202012Validator)
    return cls(schema)


def sweep_budget(engine: Any) -> int:
    """``max_new_tokens`` for a configured engine (see :func:`new_token_budget`)."""
    plan = engine.completion_token_ids()
    return new_token_budget(None if plan is None else len(plan))


def bench_prompt(case: dict[str, Any]) -> str:
    """The prompt of a ``../shared/bench/schemas.json`` case: its schema and instance."""
    return (
        f"Produce a JSON instance of this JSON Schema:\n{json.dumps(case['schema'])}\n"
        f"For example: {json.dumps(case['instance'])}"
    )


def check_output(where: str, schema: Any, text: str, engine: Any) -> None:
    """``text`` parses, validates against ``schema`` and is what ``engine`` reports."""
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise AssertionError(f"{where}: not JSON ({exc}): {text!r}") from None
    errors = sorted(validator(schema).iter_errors(value), key=str)
    assert not errors, f"{where}: {errors[0].message} at {list(errors[0].path)}: {text!r}"
    assert engine.get_structured_output() == value, where


def first_json_value(text: str) -> tuple[bool, Any]:
    """The JSON value that starts at the first ``{`` or ``[`` of free text: ``(found, value)``.

    ``json.JSONDecoder().raw_decode`` from there; text after the value is
    ignored. No later bracket is tried: inside a cut-off value that would pick
    up a fragment and flatter the unconstrained model.
    """
    starts = [i for i in (text.find("{"), text.find("[")) if i >= 0]
    if not starts:
        return False, None
    try:
        value, _ = json.JSONDecoder().raw_decode(text, min(starts))
    except json.JSONDecodeError:
        return False, None
    return True, value
