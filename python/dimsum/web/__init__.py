"""Playing in the browser: ``python -m dimsum serve`` (the ``web`` extra: starlette, uvicorn,
websockets; docs/PLAY.md, "In the browser").

- :mod:`.messages`: what a page of a seat (or a spectator) is sent of the game, from what it may see;
- :mod:`.log`: the move log's lines for a seat, and the legend of a game's components;
- :mod:`.table`: one table: seats, the game loop (bots, chance, the clock), moves, undo, the pages;
- :mod:`.lobby`: what a page may ask for when it opens a table (games, options, allowed bots);
- :mod:`.app`: the Starlette app: routes, websockets, the checks on every message;
- ``static/``: the lobby's and the table's HTML, script and style.

``seat_message(state, seat)`` needs no web stack (the information contract checks it).
"""

from .messages import seat_message, spectator_message

__all__ = ["seat_message", "spectator_message"]
