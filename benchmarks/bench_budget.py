"""Valid outputs at the token budget, with and without budget-aware completion.

    python benchmarks/bench_budget.py [--max-new-tokens 128] [--bfcl 20]

SmolLM2-135M-Instruct (pse-torch), greedy. For the 8 schemas of
../shared/bench/schemas.json and the first N BFCL `simple` tasks of
../shared/data/bfcl/public.jsonl: how many outputs parse and validate
(jsonschema), with `engine.budget_aware` on and off; for BFCL also how many
calls match the ground truth; and the per-step cost of the budget check.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path
from typing import Any

import jsonschema
import torch
from bench_results import save_table
from pse_torch.demo import PSE_Llama
from pse_torch.model import convert

from pse import StructuringEngine
from pse.errors import BudgetError

SHARED = Path(__file__).resolve().parents[1].parent / "shared"


def generate(model: Any, tok: Any, prompt: str, schema: Any, budget_aware: bool, n: int) -> str:
    model.engine = StructuringEngine(tok)
    model.engine.budget_aware = budget_aware
    model.engine.configure(schema)
    ids = tok.apply_chat_template(
        [{"role": "user", "content": prompt}], add_generation_prompt=True, return_dict=False
    )
    x = torch.tensor([ids])
    out = model.generate(x, max_new_tokens=n, do_sample=False)
    return str(tok.decode(out[0, x.shape[1] :], skip_special_tokens=True))


def valid(text: str, schema: Any) -> bool:
    try:
        jsonschema.validate(json.loads(text), schema)
        return True
    except (json.JSONDecodeError, jsonschema.ValidationError):
        return False


def matches(call: dict[str, Any], truth: dict[str, dict[str, list[Any]]]) -> bool:
    """BFCL ground truth: function name -> argument -> accepted values ("" = may be omitted)."""
    ((name, accepted),) = truth.items()
    if call.get("name") != name:
        return False
    args = call.get("arguments", {})
    for key, values in accepted.items():
        if key in args:
            if args[key] not in values:
                return False
        elif "" not in values:
            return False
    return all(key in accepted for key in args)


def bfcl_tasks(limit: int) -> list[dict[str, Any]]:
    path = SHARED / "data" / "bfcl" / "public.jsonl"
    if not path.is_file():
        return []
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return [r for r in rows if r["category"] == "simple_python"][:limit]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--max-new-tokens", type=int, default=128)
    parser.add_argument("--bfcl", type=int, default=20)
    args = parser.parse_args()
    path = convert()
    tok = __import__("transformers").AutoTokenizer.from_pretrained(path)
    model = PSE_Llama.from_pretrained(path, dtype=torch.bfloat16)
    model.generation_config.pad_token_id = tok.eos_token_id

    schemas = json.loads((SHARED / "bench" / "schemas.json").read_text())
    print(f"{'case':<14}{'budget off':>18}{'budget on':>18}")
    totals = {False: 0, True: 0}
    rows: list[dict[str, Any]] = []
    for case in schemas:
        prompt = "Produce a JSON object for this schema:\n" + json.dumps(case["schema"])
        row = []
        for aware in (False, True):
            try:
                text = generate(model, tok, prompt, case["schema"], aware, args.max_new_tokens)
            except BudgetError as exc:  # the schema's minimum exceeds the budget
                row.append(f"refused (min {exc.args[0].split()[-1]})")
                continue
            ok = valid(text, case["schema"])
            totals[aware] += ok
            row.append("valid" if ok else "INVALID")
        print(f"{case['name']:<14}{row[0]:>18}{row[1]:>18}")
        rows.append({"case": case["name"], "budget off": row[0], "budget on": row[1]})
    print(f"{'valid':<14}{totals[False]:>16}/8{totals[True]:>16}/8")
    rows.append(
        {
            "case": "**valid**",
            "budget off": f"**{totals[False]}/{len(schemas)}**",
            "budget on": f"**{totals[True]}/{len(schemas)}**",
        }
    )
    setup = f"SmolLM2-135M-Instruct (pse-torch), greedy, {args.max_new_tokens} new tokens."
    save_table("budget-schemas", rows, notes=setup)
    tasks = bfcl_tasks(args.bfcl)
    if tasks:
        print(f"\nBFCL simple ({len(tasks)} tasks, {args.max_new_tokens} new tokens), greedy")
        bfcl_rows = []
        for aware in (False, True):
            ok_struct = ok_call = 0
            for task in tasks:
                fn = task["functions_jsonschema"][0]
                schema = {
                    "type": "object",
                    "properties": {"name": {"const": fn["name"]}, "arguments": fn["parameters"]},
                    "required": ["name", "arguments"],
                    "additionalProperties": False,
                }
                prompt = (
                    "You can call this function; reply with a JSON object "
                    '{"name": ..., "arguments": {...}}.\n'
                    + json.dumps(fn)
                    + "\n\n"
                    + task["question"][0][-1]["content"]
                )
                text = generate(model, tok, prompt, schema, aware, args.max_new_tokens)
                if not valid(text, schema):
                    continue
                ok_struct += 1
                ok_call += matches(json.loads(text), task["ground_truth"][0])
            label = "budget on " if aware else "budget off"
            print(f"  {label}: valid {ok_struct}/{len(tasks)}, right call {ok_call}/{len(tasks)}")
            bfcl_rows.append(
                {
                    "budget": "on" if aware else "off",
                    "valid structure": f"{ok_struct}/{len(tasks)}",
                    "right call": f"{ok_call}/{len(tasks)}",
                }
            )
        save_table(
            "budget-bfcl",
            bfcl_rows,
            notes=f"BFCL simple_python, first {len(tasks)} tasks; {setup}",
        )

    engine = StructuringEngine(tok)
    engine.configure(schemas[0]["schema"])
    ids = tok.encode(json.dumps(schemas[0]["instance"]), add_special_tokens=False)
    costs = []
    for t in ids:
        t0 = time.perf_counter_ns()
        engine.completion_token_ids()
        engine.completion_length_after(t)
        costs.append((time.perf_counter_ns() - t0) / 1e3)
        engine.consume_token(t)
    median, worst = statistics.median(costs), max(costs)
    print(f"\nbudget check per step: median {median:.1f} us, max {worst:.1f} us")


if __name__ == "__main__":
    main()
