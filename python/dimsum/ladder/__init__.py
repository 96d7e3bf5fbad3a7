"""The rating ladder: fixed reference bots (rungs) per game and player count, with published
ratings, and a rating with its 95% interval for any bot in a bounded number of games
(docs/LADDER.md).

    import dimsum.ladder
    ladder = dimsum.ladder.load("nice_buns", players=2)
    report = dimsum.ladder.rate(ladder, "ismcts:simulations=200", seed=1)
    print(report.text())

Modules, one job each: ``definitions`` (what each shipped ladder is made of, and its version),
``build`` (the rung tournament, ``python -m dimsum.ladder.build``), ``ladders`` (ladder files:
loading and checking), ``scores`` (a game's score for the candidate), ``estimate`` (ratings
against fixed rungs, win rates, the rungs' own fit), ``rater`` (the next match and when to stop,
for any caller that can play games), ``play`` (``rate``: the matches played through the arena),
``report`` (the text and JSON of a rating), ``coverage`` (``python -m dimsum.ladder.coverage``:
how often a copy of a rung lands on its rating). The MCP server rates an agent with a Rater of its
own (``dimsum.mcp.ladder_tools``).
"""

from .definitions import VERSION
from .estimate import Estimate
from .ladders import Ladder, LadderError, Rung, load, load_file, shipped
from .play import RatingStopped, rate
from .rater import MatchPlan, PlannedGame, Rater
from .report import Report

__all__ = ["Estimate", "Ladder", "LadderError", "MatchPlan", "PlannedGame", "Rater", "RatingStopped", "Report", "Rung",
           "VERSION", "load", "load_file", "rate", "shipped"]
