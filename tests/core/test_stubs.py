"""The committed stub _core.pyi names exactly what the native module exports."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import pse_core._core as core

STUB = Path(__file__).resolve().parents[2] / "packages/pse-core/python/pse_core/_core.pyi"


def stub_names() -> dict[str, set[str]]:
    tree = ast.parse(STUB.read_text())
    names: dict[str, set[str]] = {}
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            members = set()
            for item in node.body:
                if isinstance(item, (ast.FunctionDef, ast.AnnAssign)):
                    name = item.name if isinstance(item, ast.FunctionDef) else item.target.id  # type: ignore[union-attr]
                    members.add(name)
            names[node.name] = members
        elif isinstance(node, ast.FunctionDef):
            names[node.name] = set()
    return names


def runtime_names() -> dict[str, set[str]]:
    names: dict[str, set[str]] = {}
    for name, obj in vars(core).items():
        if name.startswith("_"):
            continue
        if inspect.isclass(obj):
            own = {m for m in vars(obj) if not m.startswith("__") or m == "__init__"}
            names[name] = own
        elif callable(obj):
            names[name] = set()
    return names


def test_stub_lists_every_runtime_name() -> None:
    stub, runtime = stub_names(), runtime_names()
    assert set(runtime) <= set(stub), set(runtime) - set(stub)
    for cls, members in runtime.items():
        missing = members - stub[cls] - {"__init__"}
        assert not missing, f"{cls}: {sorted(missing)} missing from _core.pyi"


def test_stub_names_exist_at_runtime() -> None:
    for cls, members in stub_names().items():
        if cls in {"StateId", "Edge", "StateGraph"}:
            continue
        obj = getattr(core, cls)
        for m in members:
            assert hasattr(obj, m), f"{cls}.{m} is in _core.pyi but not in the module"
