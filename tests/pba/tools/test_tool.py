"""Tool and ToolCall: schemas from signatures, discovery from files, calls and invoke()."""

from __future__ import annotations

import asyncio
import logging
import textwrap
import threading
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from agent.system.interaction import Interaction
from agent.tools import TOOLS_DIRECTORY, Tool, ToolCall, ToolLoadError, invoke
from pydantic import BaseModel, ValidationError


class Caller:
    """Stands in for the Agent: the attributes tools use."""

    name = "Tester"

    def __init__(self) -> None:
        self.calls: list[str] = []


def calculator(self: Any, num1: float, num2: float, operation: str = "add") -> str:
    """Performs basic arithmetic.

    Args:
        num1: The first number.
        num2: The second number.
        operation: add or subtract.
    """
    return str(num1 + num2 if operation == "add" else num1 - num2)


class Point(BaseModel):
    x: int
    y: int


async def plot(self: Any, points: list[Point], label: str | None = None) -> Interaction:
    """Plot points."""
    return Interaction(role=Interaction.Role.TOOL, content=f"{len(points)} points {label}")


def write_tool(directory: Path, name: str, body: str) -> Path:
    path = directory / f"{name}.py"
    path.write_text(textwrap.dedent(body), encoding="utf-8")
    return path


class TestSchema:
    def test_signature_and_docstring(self) -> None:
        tool = Tool("calculator", callable=calculator)
        assert tool.description == "Performs basic arithmetic."
        schema = tool.schema
        assert schema["required"] == ["num1", "num2"]
        assert set(schema["properties"]) == {"num1", "num2", "operation"}
        assert schema["properties"]["num1"]["description"] == "The first number."
        assert schema["properties"]["operation"]["default"] == "add"
        assert schema["additionalProperties"] is False

    def test_caller_parameter_is_left_out_whatever_its_name(self) -> None:
        def greet(agent: Any, who: str) -> str:
            """Greet."""
            return who

        assert set(Tool("greet", callable=greet).schema["properties"]) == {"who"}

    def test_to_dict_wraps_arguments_with_intention_and_name(self) -> None:
        wrapped = Tool("calculator", callable=calculator).to_dict()
        assert wrapped["required"] == ["intention", "name", "arguments"]
        assert wrapped["properties"]["name"] == {"const": "calculator"}
        call = {"intention": "add them", "name": "calculator", "arguments": {"num1": 1, "num2": 2}}
        jsonschema.validate(call, wrapped)
        for bad in (
            {**call, "name": "other"},
            {**call, "arguments": {"num1": "one", "num2": 2}},
            {"name": "calculator", "arguments": {"num1": 1, "num2": 2}},
            {**call, "extra": 1},
        ):
            with pytest.raises(jsonschema.ValidationError):
                jsonschema.validate(bad, wrapped)

    def test_to_dict_hoists_definitions_so_refs_resolve(self) -> None:
        wrapped = Tool("plot", callable=plot).to_dict()
        assert "Point" in wrapped["$defs"]
        assert "$defs" not in wrapped["properties"]["arguments"]
        good = {"intention": "i", "name": "plot", "arguments": {"points": [{"x": 1, "y": 2}]}}
        jsonschema.validate(good, wrapped)
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate({**good, "arguments": {"points": [{"x": 1}]}}, wrapped)

    def test_string_annotations_and_type_checking_imports(self, tmp_path: Path) -> None:
        path = write_tool(
            tmp_path,
            "lookup",
            '''
            from __future__ import annotations
            from typing import TYPE_CHECKING
            if TYPE_CHECKING:
                from agent.agent import Agent

            def lookup(self: Agent, key: str, limit: int | None = None) -> str:
                """Look a key up."""
                return key
            ''',
        )
        tool = Tool.from_file(path)
        assert tool is not None
        assert tool.schema["properties"]["key"]["type"] == "string"
        assert tool.schema["required"] == ["key"]

    def test_a_tool_file_in_the_documented_style(self, tmp_path: Path) -> None:
        """``from agent.agent import Agent`` at run time, ``self: Agent``, an Interaction back."""
        path = write_tool(
            tmp_path,
            "word_count",
            '''
            from agent.agent import Agent
            from agent.system.interaction import Interaction

            async def word_count(self: Agent, text: str, unique: bool = False) -> Interaction:
                """Count the words of a text.

                Args:
                    text: The text to count.
                    unique: Count each distinct word once.
                """
                words = text.split()
                count = len(set(words)) if unique else len(words)
                return Interaction(role=Interaction.Role.TOOL, content=str(count), title="Words")
            ''',
        )
        tool = Tool.from_file(path)
        assert tool is not None and tool.description == "Count the words of a text."
        assert tool.schema["required"] == ["text"]
        result = asyncio.run(invoke(tool, Caller(), {"text": "a b a", "unique": True}))
        assert result.content == "2" and result.title == "Words"

    def test_missing_type_hint_is_a_clear_error(self) -> None:
        def vague(self: Any, thing, count: int) -> str:  # type: ignore[no-untyped-def]
            return str(thing)

        with pytest.raises(ToolLoadError, match="thing have no type hint"):
            Tool("vague", callable=vague)

    def test_no_caller_parameter_is_a_clear_error(self) -> None:
        def lonely() -> str:
            return ""

        with pytest.raises(ToolLoadError, match="first parameter must be the calling agent"):
            Tool("lonely", callable=lonely)

    def test_unresolvable_hint_is_a_clear_error(self, tmp_path: Path) -> None:
        path = write_tool(
            tmp_path,
            "ghost",
            """
            from __future__ import annotations
            def ghost(self, item: Missing) -> str:
                return ""
            """,
        )
        with pytest.raises(ToolLoadError, match=r"ghost\.py.*'item'.*cannot be resolved"):
            Tool.from_file(path)

    def test_schema_or_callable_is_required(self) -> None:
        with pytest.raises(ToolLoadError):
            Tool("nothing")


class TestDiscovery:
    def test_builtins_load_from_the_default_directory(self) -> None:
        names = {tool.name for tool in Tool.load()}
        assert {"send_message", "list_mcp_servers", "add_mcp_server"} <= names
        assert not any(name.startswith("_") for name in names)
        assert Tool.load(TOOLS_DIRECTORY, file_name="send_message.py")[0].name == "send_message"

    def test_bad_files_are_reported_and_skipped(
        self, tmp_path: Path, caplog: pytest.LogCaptureFixture
    ) -> None:
        write_tool(tmp_path, "good", "def good(self, n: int) -> int:\n    return n\n")
        write_tool(tmp_path, "broken", "def broken(self, n: int) -> int\n    return n\n")
        write_tool(tmp_path, "needs_pkg", "import no_such_package_pba\n")
        write_tool(tmp_path, "exits", "raise SystemExit(3)\n")
        write_tool(tmp_path, "untyped", "def untyped(self, n):\n    return n\n")
        write_tool(tmp_path, "helpers", "def other(self, n: int) -> int:\n    return n\n")
        write_tool(tmp_path, "_private", "def _private(self) -> None: ...\n")
        (tmp_path / "nested").mkdir()
        write_tool(
            tmp_path / "nested", "deep", "async def deep(self, s: str) -> str:\n    return s\n"
        )
        with caplog.at_level(logging.WARNING, logger="agent.tools"):
            tools = Tool.load(tmp_path)
        assert sorted(tool.name for tool in tools) == ["deep", "good"]
        text = caplog.text
        assert "broken.py could not be imported: SyntaxError" in text
        assert "needs_pkg.py could not be imported: ModuleNotFoundError" in text
        assert "exits.py could not be imported: SystemExit" in text
        assert "untyped.py: tool 'untyped': parameter(s) n have no type hint" in text
        assert "helpers.py defines no function named 'helpers'" in text
        assert "_private" not in text

    def test_from_file_raises_for_a_file_that_does_not_import(self, tmp_path: Path) -> None:
        path = write_tool(tmp_path, "oops", "1 / 0\n")
        with pytest.raises(
            ToolLoadError, match=r"oops\.py could not be imported: ZeroDivisionError"
        ):
            Tool.from_file(path)
        with pytest.raises(ToolLoadError, match="does not exist"):
            Tool.from_file(tmp_path / "absent.py")

    def test_file_name_filter_and_missing_directory(
        self, tmp_path: Path, caplog: pytest.LogCaptureFixture
    ) -> None:
        write_tool(tmp_path, "one", "def one(self) -> int:\n    return 1\n")
        write_tool(tmp_path, "two", "def two(self) -> int:\n    return 2\n")
        assert [t.name for t in Tool.load(tmp_path, file_name=["two"])] == ["two"]
        with caplog.at_level(logging.WARNING, logger="agent.tools"):
            assert Tool.load(tmp_path / "nowhere") == []
            assert Tool.load(tmp_path, file_name="three") == []
        assert "does not exist" in caplog.text and "three.py" in caplog.text


class TestCalls:
    def test_sync_tool_runs_off_the_event_loop(self) -> None:
        seen: list[str] = []

        def where(self: Caller, tag: str) -> str:
            seen.append(threading.current_thread().name)
            self.calls.append(tag)
            return tag.upper()

        caller = Caller()
        result = asyncio.run(Tool("where", callable=where).call(caller, tag="x"))
        assert result == "X" and caller.calls == ["x"]
        assert seen[0] != threading.main_thread().name

    def test_async_tool_gets_the_caller_first(self) -> None:
        result = asyncio.run(Tool("plot", callable=plot).call(Caller(), points=[], label="a"))
        assert isinstance(result, Interaction) and result.content == "0 points a"

    def test_invoke_wraps_values_and_passes_interactions(self) -> None:
        caller = Caller()
        value = asyncio.run(
            invoke(Tool("calculator", callable=calculator), caller, {"num1": 1.5, "num2": 2})
        )
        assert value.role is Interaction.Role.TOOL and value.content == "3.5"
        assert value.metadata == {"tool": "calculator"} and not value.is_error
        sent = asyncio.run(
            invoke(Tool.load(file_name="send_message")[0], caller, {"message": "hi"})
        )
        assert sent.role is Interaction.Role.ASSISTANT and sent.content == "hi"
        assert sent.title == "Tester" and sent.metadata["wait_for_response"] is True

    def test_a_raising_tool_becomes_an_error_interaction(self) -> None:
        def explode(self: Caller, why: str) -> str:
            raise RuntimeError(why)

        result = asyncio.run(invoke(Tool("explode", callable=explode), Caller(), {"why": "bad"}))
        assert result.is_error and result.role is Interaction.Role.TOOL
        assert result.content == "The tool 'explode' failed: RuntimeError: bad"

    def test_wrong_arguments_become_an_error_interaction(self) -> None:
        tool = Tool("calculator", callable=calculator)
        result = asyncio.run(invoke(tool, Caller(), {"x": 1}))
        assert result.is_error and "TypeError" in result.content
        mistyped = asyncio.run(invoke(tool, Caller(), {"num1": "one", "num2": 2}))
        assert mistyped.content == (
            "The tool 'calculator' failed: ValueError: argument 'num1': "
            "Input should be a valid number, unable to parse string as a number"
        )
        nested = asyncio.run(
            invoke(Tool("plot", callable=plot), Caller(), {"points": [{"x": 1, "y": "b"}]})
        )
        assert nested.content.endswith(
            "argument 'points': 0.y: Input should be a valid integer, "
            "unable to parse string as an integer"
        )

    def test_arguments_arrive_as_their_annotated_types(self) -> None:
        received: list[Any] = []

        def take(self: Caller, points: list[Point], scale: float, label: str | None = None) -> str:
            received.extend([points, scale, label])
            return "ok"

        arguments = {"points": [{"x": 1, "y": 2}], "scale": 2}
        result = asyncio.run(invoke(Tool("take", callable=take), Caller(), arguments))
        assert result.content == "ok"
        assert received == [[Point(x=1, y=2)], 2.0, None]
        assert isinstance(received[1], float)
        assert arguments == {"points": [{"x": 1, "y": 2}], "scale": 2}  # the caller's dict is kept

    @pytest.mark.parametrize("kind", ["async", "sync"])
    def test_a_slow_tool_times_out(self, kind: str) -> None:
        async def slow_async(self: Caller) -> str:
            await asyncio.sleep(30)
            return "late"

        release = threading.Event()

        def slow_sync(self: Caller) -> str:
            release.wait(30)
            return "late"

        tool = Tool("slow", callable=slow_async if kind == "async" else slow_sync)

        async def run() -> tuple[Interaction, Interaction]:
            late = await invoke(tool, Caller(), {}, timeout=0.3)
            quick = await invoke(
                Tool("calculator", callable=calculator), Caller(), {"num1": 1, "num2": 1}
            )
            release.set()  # lets the abandoned thread end, so asyncio.run can return
            return late, quick

        late, quick = asyncio.run(run())
        assert late.is_error and "did not finish within 0.3 s" in late.content
        assert quick.content == "2.0"  # the loop goes on


class TestToolCall:
    def test_parses_the_generated_json(self) -> None:
        call = ToolCall.model_validate_json(
            '{"intention": "say hi", "name": "send_message", "arguments": {"message": "hi"}}'
        )
        assert call.name == "send_message" and call.arguments == {"message": "hi"}
        assert ToolCall(intention="i", name="n").arguments is None
        with pytest.raises(ValidationError):
            ToolCall.model_validate({"name": "n"})
