"""Playing against the bots at the terminal: ``python -m dimsum play GAME`` (docs/PLAY.md).

- :mod:`.session`: the game loop, the human's turn, undo, the result screen and the record;
- :mod:`.commands`: what a typed line means (a move by number or name, help, undo, quit);
- :mod:`.views`: each game's view text, from what the human's seat may see only;
- :mod:`.realtime`: Dim Sum Jam's hourglass against the wall clock;
- :mod:`.clock`: the clocks (the wall clock, and fake ones that tests move);
- :mod:`.terminal`: screens, the status line, lines read with a timeout.
"""

from .clock import FileClock, ManualClock, WallClock
from .session import Quit, Session
from .terminal import Terminal

__all__ = ["FileClock", "ManualClock", "Quit", "Session", "Terminal", "WallClock"]
