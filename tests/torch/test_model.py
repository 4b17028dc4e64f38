"""The real SmolLM2-135M-Instruct under PSE (``model`` marker; runs in CI).

The guarantee checked here needs no schema compiler: with ``JsonStateMachine``
configured, greedy and sampled generation always yields text that
``json.loads`` accepts and that equals what the engine reports. The
schema-based tests (quickstart, the bench schemas, the maskbench/bfcl sweep)
skip while ``StructuringEngine.configure`` rejects schema sources.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import torch

from pse import StructuringEngine
from pse.types.json.json_value import JsonStateMachine

pytestmark = pytest.mark.model

SHARED = Path(__file__).resolve().parents[2].parent / "shared"
BENCH_SCHEMAS = SHARED / "bench" / "schemas.json"

# Short answers keep the CI cost moderate (the model runs ~24 tok/s on 2 idle cores).
PROMPTS = [
    'Reply with exactly this JSON: {"name": "Alice", "age": 30}',
    "Output a JSON array of the numbers 1, 2 and 3.",
]


def _generate(model: Any, tok: Any, prompt: str, do_sample: bool, max_new_tokens: int = 120) -> str:
    ids = tok.apply_chat_template(
        [{"role": "user", "content": prompt}], add_generation_prompt=True, return_dict=False
    )
    input_ids = torch.tensor([ids])
    out = model.generate(input_ids, max_new_tokens=max_new_tokens, do_sample=do_sample)
    assert out[0, -1].item() in model.engine.native_vocabulary.eos_token_ids, "did not finish"
    return str(tok.decode(out[0, input_ids.shape[1] :], skip_special_tokens=True))


@pytest.mark.parametrize("do_sample", [False, True], ids=["greedy", "sampled"])
@pytest.mark.parametrize("prompt", PROMPTS)
def test_json_value_guarantee(smollm: tuple[Any, Any], prompt: str, do_sample: bool) -> None:
    model, tok = smollm
    model.engine = StructuringEngine(tok, multi_token_sampling=True)
    model.engine.configure(JsonStateMachine())
    torch.manual_seed(1234)
    text = _generate(model, tok, prompt, do_sample)
    assert json.loads(text) == model.engine.get_structured_output()


def test_quickstart_user_profile(smollm: tuple[Any, Any]) -> None:
    from pydantic import BaseModel

    class UserProfile(BaseModel):
        user_id: int
        username: str
        is_active: bool
        roles: list[str]

    model, tok = smollm
    model.engine = StructuringEngine(tok)
    model.engine.configure(UserProfile)
    prompt = (
        "Generate a user profile for user ID 999, username 'tester', active status true, "
        "roles ['qa', 'dev']. Output ONLY the JSON object."
    )
    torch.manual_seed(0)
    text = _generate(model, tok, prompt, do_sample=True)
    profile = model.engine.get_structured_output(UserProfile, raise_on_error=True)
    assert isinstance(profile, UserProfile)
    assert UserProfile.model_validate_json(text) == profile


def _bench_cases() -> list[Any]:
    if not BENCH_SCHEMAS.is_file():
        return []
    return [pytest.param(case, id=case["name"]) for case in json.loads(BENCH_SCHEMAS.read_text())]


@pytest.mark.parametrize("do_sample", [False, True], ids=["greedy", "sampled"])
@pytest.mark.parametrize("case", _bench_cases())
def test_bench_schemas_validate(
    smollm: tuple[Any, Any], case: dict[str, Any], do_sample: bool
) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    model, tok = smollm
    model.engine = StructuringEngine(tok, multi_token_sampling=True)
    model.engine.configure(case["schema"])
    prompt = (
        f"Produce a JSON instance of this JSON Schema:\n{json.dumps(case['schema'])}\n"
        f"For example: {json.dumps(case['instance'])}"
    )
    torch.manual_seed(7)
    text = _generate(model, tok, prompt, do_sample, max_new_tokens=400)
    jsonschema.validate(json.loads(text), case["schema"])


def _sweep_cases(limit: int = 110) -> list[Any]:
    """About 100 schemas: maskbench (every 50th line) and bfcl `simple` tasks."""
    cases: list[Any] = []
    maskbench = SHARED / "data" / "maskbench" / "public.jsonl"
    bfcl = SHARED / "data" / "bfcl" / "public.jsonl"
    if maskbench.is_file():
        for n, line in enumerate(maskbench.read_text().splitlines()):
            if n % 100 == 0:
                row = json.loads(line)
                cases.append(pytest.param(row["schema"], id=f"maskbench-{row['unique_id']}"))
    if bfcl.is_file():
        for line in bfcl.read_text().splitlines():
            row = json.loads(line)
            if row.get("category") == "simple" and len(cases) < limit:
                schema = row["functions_jsonschema"]
                schema = schema[0] if isinstance(schema, list) else schema
                cases.append(pytest.param(schema.get("parameters", schema), id=f"bfcl-{row['id']}"))
    return cases[:limit]


@pytest.mark.slow
@pytest.mark.parametrize("schema", _sweep_cases())
def test_schema_sweep_greedy(smollm: tuple[Any, Any], schema: dict[str, Any]) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    model, tok = smollm
    model.engine = StructuringEngine(tok, multi_token_sampling=True)
    model.engine.configure(schema)
    prompt = f"Produce a JSON instance of this JSON Schema:\n{json.dumps(schema)[:2000]}"
    text = _generate(model, tok, prompt, do_sample=False, max_new_tokens=600)
    jsonschema.validate(json.loads(text), schema)
