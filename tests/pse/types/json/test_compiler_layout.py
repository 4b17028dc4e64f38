"""The JSON Schema compiler's layout: no import cycle, one limits table, deep schemas.

The modules of ``pse.types.json`` import each other only at module level
(imports under ``if TYPE_CHECKING:`` are for annotations and do not count);
the graph of those imports has no cycle, so no function-local import is
needed to dodge one.
"""

from __future__ import annotations

import ast
import json
import sys
from pathlib import Path

import pytest
from _support.json_schema import nested_objects
from pse_core import StateMachine
from pse_core.errors import SchemaError

import pse.types.json as package
from pse.types.json import limits
from pse.types.json.schema_machine import schema_to_state_machine

PACKAGE = Path(package.__file__).parent
#: Python steppers being replaced by native nodes (their lazy imports go with them).
CHECKED = {"unique_items", "idn_hostname", "ecma_regex", "checked_string", "content"}


def _imports(tree: ast.Module) -> tuple[set[str], set[str]]:
    """(module-level, function-local) imports of ``pse.types.json`` modules."""
    top: set[str] = set()
    local: set[str] = set()

    def visit(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                continue
            if isinstance(child, ast.ImportFrom) and child.module:
                names = [child.module]
                if child.module == "pse.types.json":
                    names = [f"pse.types.json.{a.name}" for a in child.names]
                for name in names:
                    if name.startswith("pse.types.json."):
                        (local if in_function else top).add(name)
            fn = isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef)
            visit(child, in_function or fn)

    visit(tree, False)
    return top, local


def _modules() -> dict[str, ast.Module]:
    modules = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        name = ".".join(("pse.types.json", *parts))
        modules[name] = ast.parse(path.read_text(encoding="utf-8"))
    return modules


def test_no_import_cycle() -> None:
    graph = {name: _imports(tree)[0] for name, tree in _modules().items()}
    state: dict[str, int] = {}

    def visit(name: str, path: list[str]) -> None:
        state[name] = 1
        for dep in sorted(graph.get(name, ())):
            assert state.get(dep) != 1, "import cycle: " + " -> ".join([*path, dep])
            if dep not in state:
                visit(dep, [*path, dep])
        state[name] = 2

    for name in graph:
        if name not in state:
            visit(name, [name])


def test_no_function_local_imports() -> None:
    for name, tree in _modules().items():
        if name.rsplit(".", 1)[1] in CHECKED:
            continue
        local = _imports(tree)[1]
        assert not local, f"{name} imports {sorted(local)} inside a function"


def test_limits_table_lists_every_budget() -> None:
    names = {limit.name for limit in limits.LIMITS}
    constants = {n for n in dir(limits) if n.isupper() and n not in ("LIMITS",)}
    assert constants - {"FRAMES_PER_LEVEL"} <= names | {"MAX_OBJECT_STATES"}
    assert "max_object_states" in names
    for limit in limits.LIMITS:
        assert limit.default > 0 and limit.bounds
    assert limits.markdown_table().count("\n") == len(limits.LIMITS) + 1


def test_docs_embed_the_limits_table() -> None:
    doc = Path(__file__).resolve().parents[4] / "docs" / "json_schema.md"
    assert limits.markdown_table() in doc.read_text(encoding="utf-8")


def accepts(machine: StateMachine, text: str) -> bool:
    steppers = StateMachine.advance_all_basic(machine.get_steppers(), text)
    return any(not s.remaining_input and s.has_reached_accept_state() for s in steppers)


@pytest.mark.parametrize("wrap", ["object", "array", "ref"])
def test_nesting_up_to_the_limit_compiles(wrap: str) -> None:
    before = sys.getrecursionlimit()
    depth = limits.MAX_DEPTH
    if wrap == "object":
        schema, instance = nested_objects(depth)
    elif wrap == "array":
        schema, instance = {"type": "integer"}, 1
        for _ in range(depth):
            schema, instance = {"type": "array", "items": schema, "minItems": 1}, [instance]
    else:  # a chain of $refs through $defs, each entering an object
        defs = {f"d{i}": {"properties": {"a": {"$ref": f"#/$defs/d{i + 1}"}}} for i in range(depth)}
        defs[f"d{depth}"] = {"type": "integer"}
        schema = {"$defs": defs, "$ref": "#/$defs/d0"}
        instance = 1
        for _ in range(depth):
            instance = {"a": instance}
    machine = schema_to_state_machine(schema)
    assert accepts(machine, json.dumps(instance))
    assert not accepts(machine, json.dumps(instance).replace("1", '"x"'))
    assert sys.getrecursionlimit() == before


@pytest.mark.parametrize("depth", [limits.MAX_DEPTH + 1, 5_000])
def test_nesting_beyond_the_limit_is_a_schema_error(depth: int) -> None:
    before = sys.getrecursionlimit()
    with pytest.raises(SchemaError) as info:
        schema_to_state_machine(nested_objects(depth)[0])
    assert info.value.code == "too-complex"
    assert "MAX_DEPTH" in info.value.message and str(limits.MAX_DEPTH) in info.value.message
    assert info.value.pointer == "/properties/a" * (limits.MAX_DEPTH + 1)
    assert sys.getrecursionlimit() == before


def test_circular_refs_without_nesting_stay_a_circular_error() -> None:
    with pytest.raises(SchemaError) as info:
        schema_to_state_machine({"$defs": {"a": {"$ref": "#/$defs/a"}}, "$ref": "#/$defs/a"})
    assert info.value.code == "circular-ref"
