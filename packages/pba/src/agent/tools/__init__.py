"""Tools the agent can call: ``Tool``, ``ToolCall``, discovery from files, and ``invoke``.

The built-in tools live beside this file (``send_message.py``,
``list_mcp_servers.py``, ``add_mcp_server.py``); ``Tool.load()`` discovers
them and any other tool file placed here.
"""

from agent.tools._invoke import invoke, tool_error
from agent.tools._tool import TOOLS_DIRECTORY, Tool, ToolCall, ToolLoadError

__all__ = ["TOOLS_DIRECTORY", "Tool", "ToolCall", "ToolLoadError", "invoke", "tool_error"]
