"""One connection to an MCP server over stdio, owned by a single background task."""

from __future__ import annotations

import asyncio
import contextlib
import json
import tempfile
from collections.abc import Awaitable
from contextlib import AsyncExitStack
from typing import Any, TextIO, TypeVar, cast

from mcp import ClientSession, StdioServerParameters
from mcp import types as mcp_types
from mcp.client.stdio import stdio_client
from mcp.shared.exceptions import McpError
from mcp.types import CONNECTION_CLOSED

from agent.mcp.config import MCPError, MCPServerConfig

T = TypeVar("T")

STDERR_TAIL_CHARS = 2000
STDERR_TAIL_LINES = 12


class MCPClient:
    """A running MCP server process and its client session.

    The SDK's transport and session are async context managers that must be
    entered and left by the same task, so a private task owns them for the
    whole connection: ``connect()`` starts it and waits for the handshake,
    ``close()`` tells it to leave (from any task). Requests (``list_tools``,
    ``call_tool``) may come from any task. The server's stderr goes to a
    temporary file whose tail is quoted when the server fails.
    """

    def __init__(
        self,
        config: MCPServerConfig,
        *,
        startup_timeout: float = 30.0,
        call_timeout: float = 60.0,
    ) -> None:
        self.config = config
        self.startup_timeout = startup_timeout
        self.call_timeout = call_timeout
        self._session: ClientSession | None = None
        self._owner: asyncio.Task[None] | None = None
        self._ready = asyncio.Event()
        self._stop = asyncio.Event()
        self._failure: BaseException | None = None
        self._errlog: TextIO | None = None
        self._serving = False
        self._stderr = ""

    @property
    def server_id(self) -> str:
        """The server's identifier in the server list."""
        return self.config.identifier

    @property
    def connected(self) -> bool:
        """Whether the session is up (False after a failure or ``close()``)."""
        return self._session is not None and self._owner is not None and not self._owner.done()

    async def connect(self) -> None:
        """Start the server and complete the MCP handshake, or raise ``MCPError``."""
        if self._owner is not None:
            raise MCPError(f"MCP client for {self.server_id!r} was already started")
        environment = self.config.environment()
        parameters = StdioServerParameters(
            command=self.config.executable(),
            args=self.config.args,
            env=environment,
            cwd=self.config.cwd,
        )
        # Kept open for the connection's lifetime; close() closes it.
        self._errlog = cast(
            TextIO,
            tempfile.TemporaryFile(  # noqa: SIM115
                mode="w+", encoding="utf-8", errors="replace"
            ),
        )
        self._owner = asyncio.get_running_loop().create_task(
            self._own(parameters), name=f"mcp-{self.server_id}"
        )
        try:
            await asyncio.wait_for(asyncio.shield(self._ready.wait()), self.startup_timeout)
        except asyncio.CancelledError:  # the caller gave up: leave no server behind
            await self.close()
            raise
        except asyncio.TimeoutError:
            await self.close()
            raise MCPError(
                f"MCP server {self.server_id!r} did not complete the handshake within "
                f"{self.startup_timeout:g} s{self._stderr_note()}"
            ) from None
        if self._session is None:
            failure = self._failure
            await self.close()
            raise MCPError(
                f"MCP server {self.server_id!r} failed to start "
                f"({' '.join([self.config.executable(), *self.config.args])}): "
                f"{_describe(failure)}{self._stderr_note()}"
            ) from failure

    async def list_tools(self) -> list[mcp_types.Tool]:
        """The tools the server offers (all pages)."""
        session = self._require_session()
        tools: list[mcp_types.Tool] = []
        cursor: str | None = None
        while True:
            result = await self._request(session.list_tools(cursor=cursor), "listing its tools")
            tools.extend(result.tools)
            cursor = result.nextCursor
            if not cursor:
                return tools

    async def call_tool(self, name: str, arguments: dict[str, Any]) -> mcp_types.CallToolResult:
        """Call one tool; ``MCPError`` if the server fails, dies or exceeds ``call_timeout``.

        Arguments that cannot travel as UTF-8 JSON (a lone surrogate, which a
        JSON ``\\ud800`` escape can produce) are refused here: sent, they would
        break the SDK's writer and with it the connection.
        """
        session = self._require_session()
        try:
            json.dumps(arguments, ensure_ascii=False).encode("utf-8")
        except (TypeError, ValueError) as exc:
            raise MCPError(
                f"the arguments for {name!r} cannot be sent to MCP server {self.server_id!r}: {exc}"
            ) from exc
        return await self._request(session.call_tool(name, arguments), f"running {name!r}")

    async def close(self) -> None:
        """Stop the server and release everything; safe to call twice or after a failure."""
        self._stop.set()
        owner = self._owner
        if owner is not None and not owner.done():
            if not self._serving:  # still starting: nothing to shut down politely
                owner.cancel()
            await asyncio.wait({owner}, timeout=10.0)
            if not owner.done():
                owner.cancel()
                await asyncio.wait({owner})
        self._session = None
        if self._errlog is not None:
            self._stderr = self._read_errlog()
            self._errlog.close()
            self._errlog = None

    async def _own(self, parameters: StdioServerParameters) -> None:
        assert self._errlog is not None
        try:
            async with AsyncExitStack() as stack:
                read, write = await stack.enter_async_context(
                    stdio_client(parameters, errlog=self._errlog)
                )
                session = await stack.enter_async_context(ClientSession(read, write))
                await session.initialize()
                self._session = session
                self._serving = True
                self._ready.set()
                await self._stop.wait()
        except Exception as exc:  # recorded for connect() and later calls; the task ends here
            self._failure = self._failure or exc
        finally:
            self._session = None
            self._ready.set()

    def _require_session(self) -> ClientSession:
        if self._session is None or not self.connected:
            raise MCPError(
                f"MCP server {self.server_id!r} is not connected"
                + (f" (it stopped: {_describe(self._failure)})" if self._failure else "")
                + "; connect to it again with add_mcp_server"
            )
        return self._session

    async def _request(self, request: Awaitable[T], doing: str) -> T:
        owner = self._owner
        assert owner is not None
        call = asyncio.ensure_future(request)
        try:
            done, _ = await asyncio.wait(
                {call, owner}, timeout=self.call_timeout, return_when=asyncio.FIRST_COMPLETED
            )
        except asyncio.CancelledError:
            call.cancel()
            raise
        if call in done:
            try:
                return call.result()
            except McpError as exc:
                if exc.error.code != CONNECTION_CLOSED:
                    raise MCPError(
                        f"MCP server {self.server_id!r} refused {doing}: {exc.error.message}"
                    ) from exc
                self._break(exc)
                raise MCPError(
                    f"MCP server {self.server_id!r} stopped while {doing} "
                    f"(the connection closed){self._stderr_note()}"
                ) from exc
            except Exception as exc:
                self._break(exc)
                raise MCPError(
                    f"MCP server {self.server_id!r} failed while {doing}: "
                    f"{_describe(exc)}{self._stderr_note()}"
                ) from exc
        call.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await call
        if owner.done():
            raise MCPError(
                f"MCP server {self.server_id!r} stopped while {doing}: "
                f"{_describe(self._failure)}{self._stderr_note()}"
            )
        self._break(TimeoutError(f"no answer within {self.call_timeout:g} s"))
        raise MCPError(
            f"MCP server {self.server_id!r} did not answer within {self.call_timeout:g} s "
            f"while {doing}; it was stopped"
        )

    def _break(self, reason: BaseException) -> None:
        """Mark the connection dead and let the owner task shut the server down."""
        self._failure = reason
        self._session = None
        self._stop.set()

    def _read_errlog(self) -> str:
        if self._errlog is None or self._errlog.closed:
            return self._stderr
        self._errlog.flush()
        self._errlog.seek(0)
        text = self._errlog.read()
        self._errlog.seek(0, 2)
        return text

    def _stderr_note(self) -> str:
        """The last lines the server wrote to stderr, to quote in an error message."""
        lines = self._read_errlog().strip().splitlines()[-STDERR_TAIL_LINES:]
        if not lines:
            return ""
        text = "\n".join(lines)[-STDERR_TAIL_CHARS:]
        return f"\n--- server stderr (last lines) ---\n{text}"


def _describe(exc: BaseException | None) -> str:
    """A one-line account of an exception, looking inside exception groups."""
    if exc is None:
        return "the connection closed"
    inner = getattr(exc, "exceptions", None)  # an exception group
    if isinstance(inner, tuple) and inner:
        return "; ".join(_describe(one) for one in inner)
    text = str(exc) or type(exc).__name__
    return f"{type(exc).__name__}: {text}" if str(exc) else text


__all__ = ["MCPClient"]
