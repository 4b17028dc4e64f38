"""Fixtures for the pgents tests: the external corpora in ../shared/data."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

SHARED = Path(__file__).resolve().parents[2].parent / "shared"
DATA = SHARED / "data"


def load_jsonl(relative: str) -> list[dict[str, Any]]:
    path = DATA / relative
    if not path.is_file():
        pytest.skip(f"needs ../shared/data/{relative} (the shared corpora are not checked out)")
    with path.open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


@pytest.fixture(scope="session")
def json_repair_cases() -> list[dict[str, Any]]:
    return load_jsonl("json-repair/public.jsonl")


@pytest.fixture(scope="session")
def prefix_sweep() -> list[dict[str, Any]]:
    return load_jsonl("partial-json/prefix_sweep_public.jsonl")


@pytest.fixture(scope="session")
def partial_json_cases() -> list[dict[str, Any]]:
    return load_jsonl("partial-json/public.jsonl")
