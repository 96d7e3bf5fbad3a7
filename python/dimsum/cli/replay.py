"""Write a self-contained HTML page that steps through a recorded game (a record or a playthrough).

    python -m dimsum replay game.json -o game.html       # a dimsum.records.Record (JSON)
    python -m dimsum replay tests/golden/yum_cha.txt -o yc.html   # dimsum.testing.playthrough text

The page needs no network: its script and style are inline and the picture of every step is
drawn here, in Python, for every view (the whole table, and each seat's view). It has a slider,
the arrow keys (Home/End for the ends), the action taken at each step, the returns at the end,
and a choice of whose view to show; a Dim Sum Jam game can also be played back in real time,
with the hourglass running. A bad record (not a record, a game that cannot be made, an illegal
step) is an error naming the step, exit code 1, and no page is written.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any, Dict, List, Optional

from dimsum.records import ADVANCE, Record, RecordError



def read_record(path: Path) -> Record:
    """A Record from a record's JSON or a playthrough's text (RecordError otherwise)."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise RecordError(f"cannot read {str(path)!r}: {e}") from None
    if text.startswith("# dimsum playthrough"):
        from dimsum.testing import playthrough_record

        return playthrough_record(text)
    return Record.loads(text, f"record {str(path)!r}")


class _Pieces:
    """Every distinct SVG piece once; a picture is a list of piece numbers."""

    def __init__(self) -> None:
        self.table: List[str] = []
        self._index: Dict[str, int] = {}

    def ids(self, pieces: List[str]) -> List[int]:
        out = []
        for piece in pieces:
            i = self._index.get(piece)
            if i is None:
                i = self._index[piece] = len(self.table)
                self.table.append(piece)
            out.append(i)
        return out


def _step_text(before: Any, action: int, ticks: int, timed: bool, names: Optional[List[str]]) -> str:
    if timed and action == ADVANCE:
        return f"time passes: {ticks} ticks"
    if before.is_chance_node:
        who = "chance"
    else:
        seat = before.current_player
        who = f"seat {seat}" + (f" ({names[seat]})" if names and seat < len(names) else "")
    text = f"{who}: {before.action_name(action)}"
    return text + (f" ({ticks} ticks)" if timed else "")


def page_data(record: Record) -> Dict[str, Any]:
    """Everything the page shows: each step's pictures (as piece numbers, per view), the action
    that led to it, and for a timed game its time and clock. RecordError for a bad record."""
    from dimsum.render import svg_pieces

    game = record.make_game()
    players = game.players
    names = record.players
    pieces = _Pieces()
    steps: List[Dict[str, Any]] = []
    before = None
    time = 0
    for i, state in enumerate(record.states(game)):
        timed = hasattr(state, "clock")
        step: Dict[str, Any] = {"action": "the start of the game" if before is None else
                                _step_text(before, *record.steps[i - 1], timed, names)}
        if before is not None:
            time += record.steps[i - 1][1] if timed else 0
        if timed:
            clock = state.clock
            step["time"] = time
            step["clock"] = [clock.top, clock.capacity, bool(clock.lying_down)]
        step["views"] = [pieces.ids(svg_pieces(state, view, names)) for view in [None] + list(range(players))]
        steps.append(step)
        before = state
    final = before
    views = ["the whole table"] + [f"seat {p}" + (f" ({names[p]})" if names and p < len(names) else "")
                                   + " sees" for p in range(players)]
    return {
        "title": f"{game.name} · seed {record.seed}",
        "game": game.name,
        "views": views,
        "steps": steps,
        "pieces": pieces.table,
        "returns": [float(r) for r in final.returns()] if final.is_terminal else None,
        "ending": final.outcome.description if final.is_terminal else None,
        "timed": bool(hasattr(final, "clock") and game.options.get("ticks_per_action", 0) > 0),
        "ticks_per_second": int(game.options.get("ticks_per_second", 10)),
    }


def page(record: Record) -> str:
    """The HTML page of ``record`` (a str)."""
    data = page_data(record)
    # inside <script>, "</" would end the element and "<!--" change how it is parsed: JSON
    # allows "<\/" and "\u003c" for them
    blob = (json.dumps(data, separators=(",", ":"), ensure_ascii=False)
            .replace("</", "<\\/").replace("<!--", "\\u003c!--"))
    from dimsum.render.replay_page import PAGE
    from dimsum.render.svg import esc

    return PAGE.replace("__TITLE__", esc(data["title"])).replace("__DATA__", blob)


def write_atomically(path: Path, text: str) -> None:
    """Writes ``text`` to ``path`` all at once: a temporary file in the same folder, renamed over
    it, so a failure never leaves a partial page."""
    folder = path.resolve().parent
    fd, tmp = tempfile.mkstemp(prefix=".replay-", suffix=".html", dir=folder)
    umask = os.umask(0)  # mkstemp makes the file private; the page gets the usual permissions
    os.umask(umask)
    try:
        os.chmod(tmp, 0o666 & ~umask)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m dimsum replay", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("record", type=Path, help="a record (JSON) or a playthrough (text)")
    parser.add_argument("-o", "--output", type=Path, required=True, help="the HTML page to write")
    args = parser.parse_args(argv)
    try:
        html = page(read_record(args.record))
        write_atomically(args.output, html)
    except RecordError as e:
        print(f"python -m dimsum replay: error: {e}", file=sys.stderr)
        return 1
    except (ValueError, TypeError, ArithmeticError, RecursionError) as e:
        # a bad input that a reader let through unnamed: still one line, never a traceback
        print(f"python -m dimsum replay: error: {str(args.record)!r} cannot be replayed: "
              f"{type(e).__name__}: {str(e)[:200]}", file=sys.stderr)
        return 1
    except OSError as e:
        print(f"python -m dimsum replay: error: cannot write {str(args.output)!r}: {e}", file=sys.stderr)
        return 1
    print(f"wrote {args.output}")
    return 0
