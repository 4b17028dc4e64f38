"""repair_json on the damage corpus of benchmarks/bench_repair_damage.py (real
documents from ../shared/data broken the ways LLMs break them, fixed seed).

The full differential table against json-repair is the benchmark
``python benchmarks/bench_repair_corpus.py``; here a smaller sample checks the
targets: the original value back in at least 95% of cases overall and in at
least 90% of each kind, and JSON returned for every case.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from collections import Counter
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from pgents.repair import repair_json

ROOT = Path(__file__).resolve().parents[3]


def _damage_module() -> ModuleType:
    path = ROOT / "benchmarks" / "bench_repair_damage.py"
    if not path.is_file():
        pytest.skip("needs benchmarks/bench_repair_damage.py (a source checkout)")
    spec = importlib.util.spec_from_file_location("bench_repair_damage", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look themselves up there
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def damage() -> ModuleType:
    return _damage_module()


@pytest.fixture(scope="module")
def cases(damage: ModuleType) -> list[Any]:
    try:
        return list(damage.corpus(per_kind=60))
    except FileNotFoundError as exc:
        pytest.skip(f"{exc} (the shared corpora are not checked out)")


def test_original_values_come_back(damage: ModuleType, cases: list[Any]) -> None:
    total: Counter[str] = Counter()
    right: Counter[str] = Counter()
    for case in cases:
        out = repair_json(case.text)
        total[case.kind] += 1
        right[case.kind] += out.found and damage.same(out.value, case.expected)
        assert out.found, case.text
        json.dumps(out.value, allow_nan=False)
    print()
    for kind in total:
        print(f"{kind:22} {right[kind]:3}/{total[kind]:3}")
    assert sum(right.values()) >= 0.95 * sum(total.values())
    low = {k: right[k] / total[k] for k in total if right[k] < 0.9 * total[k]}
    assert not low, low
    assert set(total) == set(damage.DAMAGES)


def test_damage_is_real(damage: ModuleType, cases: list[Any]) -> None:
    """Every damaged text except the cut-off ones is no longer valid JSON."""
    for case in cases:
        try:
            json.loads(case.text)
        except ValueError:
            continue
        assert case.kind == "truncated", case.text
