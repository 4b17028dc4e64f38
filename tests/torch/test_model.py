"""The real SmolLM2-135M-Instruct under PSE (``model`` marker; runs in CI).

The guarantee checked here: greedy and sampled generation (seeded) always
yields text that ``json.loads`` accepts and that matches the structure, with
no exceptions and within ``max_new_tokens`` (the engine's budget-aware
completion, docs/budget.md, finishes the structure in time):

* ``JsonStateMachine`` (any JSON value): the text equals what the engine reports;
* the Pydantic quickstart model;
* the 8 schemas of ``../shared/bench/schemas.json``;
* the sweep, a stratified sample: one schema from every family of MaskBench
  (``../shared/data/maskbench``, one per ``subset``) and of BFCL
  ``simple_python`` function parameters (``../shared/data/bfcl``), greedy and
  sampled alternating by family (``model_sweep.stratified``); ``jsonschema``
  validates every output (100% required). Schemas the engine refuses to
  compile (``SchemaError``) are not sweep cases: each is listed as a skipped
  ``test_sweep_refused_schema`` with its reason.

The corpus-based tests skip with the missing path when ``../shared`` (next to
the repository) is absent. The full sweep (110 schemas, greedy and sampled:
220 generations, about 25 minutes on 2 cores) runs with and without PSE in
``python benchmarks/bench_model.py --parts sweep``.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
import torch
from _support import model_sweep

from pse import StructuringEngine
from pse.types.json.json_value import JsonStateMachine

pytestmark = pytest.mark.model

SHARED = model_sweep.SHARED
BENCH_SCHEMAS = SHARED / "bench" / "schemas.json"

# Short answers keep the CI cost moderate (the model runs ~24 tok/s on 2 idle cores).
PROMPTS = [
    'Reply with exactly this JSON: {"name": "Alice", "age": 30}',
    "Output a JSON array of the numbers 1, 2 and 3.",
]


def _generate(model: Any, tok: Any, prompt: str, do_sample: bool, max_new_tokens: int = 120) -> str:
    input_ids = torch.tensor([model_sweep.chat_ids(tok, prompt)])
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


def _absent(reason: str, *values: Any) -> Any:
    """One skipped parameter that says which corpus is missing."""
    return pytest.param(*values, id="shared-absent", marks=pytest.mark.skip(reason=reason))


def _bench_cases() -> list[Any]:
    if not BENCH_SCHEMAS.is_file():
        return [_absent(f"{BENCH_SCHEMAS} is absent (../shared next to the repository)", None)]
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
    torch.manual_seed(7)
    text = _generate(model, tok, model_sweep.bench_prompt(case), do_sample, max_new_tokens=400)
    jsonschema.validate(json.loads(text), case["schema"])


# ---------------------------------------------------------------- the sweep

SWEEP = model_sweep.stratified()
SWEEP_ABSENT = model_sweep.shared_missing()


def _sweep_cases() -> list[Any]:
    if SWEEP_ABSENT is not None:
        return [_absent(SWEEP_ABSENT, None)]
    return [
        pytest.param(case, id=f"{case.id}-{'sampled' if case.do_sample else 'greedy'}")
        for case in SWEEP.cases
    ]


def _refused_cases() -> list[Any]:
    if SWEEP_ABSENT is not None:
        return [_absent(SWEEP_ABSENT, "", "")]
    return [pytest.param(case_id, why, id=case_id) for case_id, why in SWEEP.refused]


def test_sweep_covers_every_family() -> None:
    """One compiling schema per family, both decoding modes (refusals are replaced)."""
    if SWEEP_ABSENT is not None:
        pytest.skip(SWEEP_ABSENT)
    assert sorted(case.family for case in SWEEP.cases) == sorted(model_sweep.families()), (
        f"a family has no schema that compiles; refused: {SWEEP.refused}"
    )
    assert {case.do_sample for case in SWEEP.cases} == {False, True}
    assert len({case.id for case in SWEEP.cases}) == len(SWEEP.cases)


@pytest.mark.parametrize(("case_id", "why"), _refused_cases())
def test_sweep_refused_schema(case_id: str, why: str) -> None:
    """Reports each schema left out of the sweep because the engine refuses it."""
    pytest.skip(f"not a sweep case, the engine refuses {case_id}: {why}")


@pytest.mark.parametrize("case", _sweep_cases())
def test_schema_sweep(smollm: tuple[Any, Any], case: model_sweep.SweepCase) -> None:
    """Every output parses and validates, and generation ends within the budget.

    Reproduce a failure with the case id, its mode (``case.do_sample``) and
    ``case.seed`` (``torch.manual_seed(seed)`` right before ``generate``).
    """
    model, tok = smollm
    do_sample = case.do_sample
    engine = StructuringEngine(tok, multi_token_sampling=True)
    engine.configure(case.schema)
    assert engine.budget_aware
    max_new_tokens = model_sweep.sweep_budget(engine)
    model.engine = engine
    torch.manual_seed(case.seed)
    text = _generate(model, tok, case.prompt, do_sample, max_new_tokens=max_new_tokens)
    where = f"{case.id} ({'sampled' if do_sample else 'greedy'}, seed {case.seed})"
    model_sweep.check_output(where, case.schema, text, engine)
