"""The bot protocol (docs/PROTOCOL.md): bots in any language play dimsum games over their stdin and
stdout, one JSON object a line.

- :mod:`.messages`: the messages, built from what a seat may see, and checked;
- :mod:`.process`: bot processes (argv, never a shell), deadlines on every exchange, reuse across
  games, and closing (quit, grace, the whole process group killed, wait);
- :mod:`.stderr_tail`: a bot's stderr drained by a thread, only its last 64 KiB kept;
- :mod:`.client`: ``run_bot(choose)``, to write a protocol bot in Python in a few lines.

The engine side, the ``external`` bot kind, is :mod:`dimsum.bots.external`.
"""

from .client import GameOver, Legal, NewGame, View, run_bot
from .messages import PROTOCOL_VERSION, BotProtocolError
from .process import close_all

__all__ = ["PROTOCOL_VERSION", "BotProtocolError", "GameOver", "Legal", "NewGame", "View", "close_all", "run_bot"]
