"""Tools: callables (local or on an MCP server) the agent calls with JSON arguments."""

from __future__ import annotations

import asyncio
import importlib.util
import inspect
import logging
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, get_type_hints

from pydantic import BaseModel, TypeAdapter, ValidationError

from pse.types.json.schema_sources import callable_to_schema

if TYPE_CHECKING:
    from mcp.types import Tool as MCPTool

logger = logging.getLogger(__name__)

TOOLS_DIRECTORY = Path(__file__).parent
"""Where ``Tool.load()`` looks by default: the built-in tools of ``agent/tools/``."""

INTENTION_SCHEMA: dict[str, Any] = {
    "type": "string",
    "description": "Why you call this tool and what you expect from it.",
    "minLength": 1,
}


class ToolLoadError(ValueError):
    """A tool could not be defined: its file does not import, or its signature is unusable."""


class ToolCall(BaseModel):
    """A tool call as the model writes it in the ``ToolCallState``."""

    intention: str
    name: str
    arguments: dict[str, Any] | None = None


class Tool:
    """A capability the agent can call: a name, a description, an argument schema and code.

    A local tool wraps a Python callable whose first parameter is the calling
    agent (``self: Agent``); the schema of its other parameters comes from
    their type hints and the docstring, and ``call`` converts the JSON
    arguments to those types (a dict to its Pydantic model, for example). A
    tool from an MCP server has no callable: ``mcp_server`` names the server,
    and calls go through the caller's ``mcp_host``.
    """

    def __init__(
        self,
        name: str,
        description: str | None = None,
        callable: Callable[..., Any] | None = None,
        schema: dict[str, Any] | None = None,
        mcp_server: str | None = None,
    ) -> None:
        self._adapters: dict[str, TypeAdapter[Any]] = {}
        if schema is None:
            if callable is None:
                raise ToolLoadError(f"tool {name!r} needs a callable or a schema")
            schema, self._adapters = _describe_arguments(callable, name)
        if description is None and callable is not None:
            description = schema.get("description") or inspect.getdoc(callable)
        self.name = name
        self.description = description
        self.callable = callable
        self.schema = schema
        self.mcp_server = mcp_server

    async def call(self, caller: Any, **kwargs: Any) -> Any:
        """Run the tool with ``caller`` as the callable's first argument.

        Arguments are first converted to the parameters' type hints (when the
        schema came from them); one that does not fit raises ``ValueError``.
        Coroutine functions are awaited; plain functions run in a worker
        thread so they do not block the event loop. A tool from an MCP server
        is called through ``caller.mcp_host``.
        """
        if self.mcp_server is not None:
            return await caller.mcp_host.call_tool(self.mcp_server, self.name, kwargs)
        if self.callable is None:
            raise RuntimeError(f"tool {self.name!r} has no callable and no MCP server")
        for key, value in kwargs.items():
            adapter = self._adapters.get(key)
            if adapter is None:
                continue
            try:
                kwargs[key] = adapter.validate_python(value)
            except ValidationError as exc:
                problems = "; ".join(
                    f"{'.'.join(str(part) for part in error['loc'])}: {error['msg']}".lstrip(": ")
                    for error in exc.errors()
                )
                raise ValueError(f"argument {key!r}: {problems}") from exc
        if inspect.iscoroutinefunction(self.callable):
            return await self.callable(caller, **kwargs)
        result = await asyncio.to_thread(self.callable, caller, **kwargs)
        if inspect.isawaitable(result):
            return await result
        return result

    def to_dict(self) -> dict[str, Any]:
        """The JSON Schema of a call to this tool: ``intention``, ``name`` and ``arguments``.

        ``$defs`` of the argument schema move to the top, where its ``$ref``s
        (``#/$defs/...``) point.
        """
        arguments = dict(self.schema)
        wrapper: dict[str, Any] = {
            "type": "object",
            "title": self.name,
            "description": self.description or self.name,
        }
        for keyword in ("$defs", "definitions"):
            if keyword in arguments:
                wrapper[keyword] = arguments.pop(keyword)
        arguments.pop("title", None)
        arguments.pop("description", None)
        wrapper["properties"] = {
            "intention": dict(INTENTION_SCHEMA),
            "name": {"const": self.name},
            "arguments": arguments,
        }
        wrapper["required"] = ["intention", "name", "arguments"]
        wrapper["additionalProperties"] = False
        return wrapper

    def schema_error(self) -> str | None:
        """Why PSE cannot enforce calls to this tool (``to_dict()`` does not compile), or None."""
        from pse.types.json.schema_machine import (  # noqa: PLC0415
            schema_to_state_machine,
        )

        try:
            schema_to_state_machine(self.to_dict())
        except Exception as exc:
            return f"{type(exc).__name__}: {exc}"
        return None

    @staticmethod
    def from_file(filepath: str | Path) -> Tool | None:
        """The tool defined in one Python file: the function named like the file.

        Returns None when the file defines no such function. Raises
        ``ToolLoadError`` (naming the file) when the file does not import or
        the function cannot be a tool (for example a parameter without a type
        hint).
        """
        path = Path(filepath)
        if not path.is_file():
            raise ToolLoadError(f"tool file {path} does not exist")
        module_name = f"agent_tool_{path.stem}_{abs(hash(path.resolve()))}"
        spec = importlib.util.spec_from_file_location(module_name, path)
        if spec is None or spec.loader is None:
            raise ToolLoadError(f"tool file {path} is not a Python module")
        module = importlib.util.module_from_spec(spec)
        sys.modules[module_name] = module
        try:
            spec.loader.exec_module(module)
        except (Exception, SystemExit) as exc:
            del sys.modules[module_name]
            raise ToolLoadError(
                f"tool file {path} could not be imported: {type(exc).__name__}: {exc}"
            ) from exc
        function = getattr(module, path.stem, None)
        if function is None or not callable(function):
            return None
        try:
            return Tool(path.stem, callable=function)
        except ToolLoadError as exc:
            raise ToolLoadError(f"tool file {path}: {exc}") from exc

    @staticmethod
    def load(
        filepath: str | Path | None = None,
        file_name: str | list[str] | None = None,
    ) -> list[Tool]:
        """Tools from the Python files of a directory (default ``agent/tools/``), recursively.

        ``file_name`` keeps only the named files (with or without ``.py``).
        Files and folders starting with ``_`` or ``.`` are skipped. A file that
        fails to load is reported with a warning on the ``agent.tools`` logger
        and skipped: the other tools still load.
        """
        root = Path(filepath) if filepath is not None else TOOLS_DIRECTORY
        wanted = None
        if file_name is not None:
            names = [file_name] if isinstance(file_name, str) else file_name
            wanted = {name.removesuffix(".py") for name in names}
        if root.is_file():
            files = [root]
        elif root.is_dir():
            files = sorted(
                path
                for path in root.rglob("*.py")
                if not any(part.startswith(("_", ".")) for part in path.relative_to(root).parts)
            )
        else:
            logger.warning("tool directory %s does not exist; no tools loaded from it", root)
            return []
        tools: dict[str, Tool] = {}
        for path in files:
            if wanted is not None and path.stem not in wanted:
                continue
            try:
                tool = Tool.from_file(path)
            except ToolLoadError as exc:
                logger.warning("%s; skipped", exc)
                continue
            if tool is None:
                logger.warning(
                    "tool file %s defines no function named %r; skipped", path, path.stem
                )
            elif tool.name in tools:
                logger.warning("tool file %s repeats the tool name %r; skipped", path, tool.name)
            else:
                tools[tool.name] = tool
        if wanted is not None:
            for missing in sorted(wanted - tools.keys() - {p.stem for p in files}):
                logger.warning("no tool file named %s.py in %s", missing, root)
        return list(tools.values())

    @staticmethod
    def from_mcp_tool(mcp_tool: MCPTool, server_id: str) -> Tool:
        """A tool served by the MCP server ``server_id`` (its input schema as given)."""
        schema = dict(mcp_tool.inputSchema or {"type": "object", "properties": {}})
        return Tool(
            name=mcp_tool.name,
            description=mcp_tool.description,
            schema=schema,
            mcp_server=server_id,
        )

    def __repr__(self) -> str:
        where = f", mcp_server={self.mcp_server!r}" if self.mcp_server else ""
        return f"Tool(name={self.name!r}{where})"


def _describe_arguments(
    function: Callable[..., Any], name: str
) -> tuple[dict[str, Any], dict[str, TypeAdapter[Any]]]:
    """The JSON Schema of ``function``'s arguments after the first (the caller), and a
    Pydantic adapter per argument that converts a JSON value to its type.

    Every such argument needs a type hint; hints are resolved in the
    function's module (the caller's hint is never evaluated, so ``Agent`` may
    be imported under ``TYPE_CHECKING``). The schema itself comes from pse's
    ``callable_to_schema``.
    """
    try:
        signature = inspect.signature(function)
    except (TypeError, ValueError) as exc:
        raise ToolLoadError(f"tool {name!r}: its signature cannot be read ({exc})") from exc
    parameters = list(signature.parameters.values())
    if not parameters or parameters[0].kind not in (
        inspect.Parameter.POSITIONAL_ONLY,
        inspect.Parameter.POSITIONAL_OR_KEYWORD,
    ):
        raise ToolLoadError(
            f"tool {name!r}: the first parameter must be the calling agent (self: Agent)"
        )
    arguments = [
        parameter
        for parameter in parameters[1:]
        if parameter.kind not in (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD)
    ]
    untyped = [p.name for p in arguments if p.annotation is inspect.Parameter.empty]
    if untyped:
        raise ToolLoadError(
            f"tool {name!r}: parameter(s) {', '.join(untyped)} have no type hint "
            "(every argument needs one so that its schema can be generated)"
        )
    globalns = getattr(inspect.unwrap(function), "__globals__", {})
    hints: dict[str, Any] = {}
    for parameter in arguments:
        hints[parameter.name] = _resolve_hint(parameter, globalns, name)

    def view(*args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError  # only its signature and docstring are read

    view.__name__ = name
    view.__doc__ = inspect.getdoc(function)
    view.__annotations__ = hints
    view.__signature__ = signature.replace(  # type: ignore[attr-defined]
        parameters=[p.replace(annotation=hints[p.name]) for p in arguments]
    )
    try:
        schema = callable_to_schema(view)
        adapters = {key: TypeAdapter(hint) for key, hint in hints.items()}
    except Exception as exc:
        raise ToolLoadError(f"tool {name!r}: no JSON Schema for its arguments ({exc})") from exc
    return schema, adapters


def _resolve_hint(parameter: inspect.Parameter, globalns: dict[str, Any], name: str) -> Any:
    """``parameter``'s type hint, evaluated if it is a string."""

    def carrier() -> None: ...

    carrier.__annotations__ = {parameter.name: parameter.annotation}
    try:
        return get_type_hints(carrier, globalns=globalns, include_extras=True)[parameter.name]
    except Exception as exc:
        raise ToolLoadError(
            f"tool {name!r}: the type hint of {parameter.name!r} "
            f"({parameter.annotation!r}) cannot be resolved: {exc}"
        ) from exc


__all__ = ["INTENTION_SCHEMA", "TOOLS_DIRECTORY", "Tool", "ToolCall", "ToolLoadError"]
