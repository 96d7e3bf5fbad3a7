"""A dimsum protocol bot in Python (docs/PROTOCOL.md): the heuristic, played through the protocol.

It asks for a determinization with each view (a state drawn from what its seat has seen, which
holds nothing the seat may not know) and runs dimsum's heuristic on it. The heuristic reads only
its seat's view, so with the seed of each new_game it chooses exactly what the in-process heuristic
chooses (tests/test_protocol_arena.py checks it game for game).

    python examples/protocol_bot.py --serve      # the bot itself: protocol on stdin and stdout
    python examples/protocol_bot.py              # a short tournament: this bot, through the
                                                 # protocol, against the in-process heuristic
    python -m dimsum arena --game nice_buns --bots "external:command=python examples/protocol_bot.py --serve,heuristic"
"""

from __future__ import annotations

import sys
from typing import Any, Optional

import dimsum
import dimsum.arena
import dimsum.bots
from dimsum.protocol import NewGame, View, run_bot


class HeuristicThroughProtocol:
    """A fresh heuristic bot each game, seeded by the game's ``seed``, acting on the determinization."""

    def __init__(self) -> None:
        self.game: Any = None
        self.bot: Optional[dimsum.bots.Bot] = None

    def new_game(self, start: NewGame) -> None:
        self.game = start.make_game()
        self.bot = dimsum.bots.make("heuristic", self.game, seed=start.seed)

    def choose(self, view: View) -> int:
        assert self.bot is not None and view.determinization is not None
        return self.bot.act(self.game.state_from_bytes(view.determinization))


def serve() -> int:
    player = HeuristicThroughProtocol()
    return run_bot(player.choose, name="heuristic through the protocol", want=["determinization"],
                   new_game=player.new_game)


def demo() -> None:
    """This file as an external bot (the heuristic through the protocol) against the heuristic in
    this process, four games of Nice Buns; prints the table."""
    command = [sys.executable, __file__, "--serve"]
    game = dimsum.make("nice_buns", players=2)
    results = dimsum.arena.run(game, [("external", {"command": command}), "heuristic"], games=4, seed=1,
                               progress=False)
    print(results.table())


if __name__ == "__main__":
    if sys.argv[1:] == ["--serve"]:
        raise SystemExit(serve())
    demo()
