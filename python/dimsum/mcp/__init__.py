"""dimsum's games for LLM agents over the Model Context Protocol: ``python -m dimsum mcp``.

:mod:`.table` holds the games (no SDK needed); :mod:`.capabilities` what a client may choose;
:mod:`.server` makes them MCP tools with the official SDK (the ``mcp`` extra). docs/MCP.md: running
it, configuring a client, the tools, limits, security.
"""

from .capabilities import BotRefused, Capabilities
from .table import MAX_MOVES, MAX_SESSIONS, SessionEnded, Table, Tables

__all__ = ["MAX_MOVES", "MAX_SESSIONS", "BotRefused", "Capabilities", "SessionEnded", "Table", "Tables"]
