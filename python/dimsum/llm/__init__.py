"""A harness for language models as players, with no model dependency.

- :func:`rules_summary`: a short rules text per game (each game's ``summary`` module);
- :func:`view` and :func:`build_prompt`: a seat's view as text and the prompt built from it;
- :func:`parse_move`: a reply read strictly as one legal action (a :class:`ReplyError` if not);
- the bot kind ``dimsum.bots.make("llm", game, model=callable)`` (:mod:`dimsum.bots.llm`) plays
  any ``prompt -> reply`` callable, the user's model client;
- ``python -m dimsum mcp`` (:mod:`dimsum.mcp`) serves games to an agent over MCP.

docs/MCP.md describes both.
"""

from .parse import IllegalReply, ReplyError, normalize, parse_move
from .prompt import REPLY_RULE, build_prompt, moves_text, seat_names, view
from .rules import rules_summary

__all__ = ["IllegalReply", "REPLY_RULE", "ReplyError", "build_prompt", "moves_text", "normalize",
           "parse_move", "rules_summary", "seat_names", "view"]
