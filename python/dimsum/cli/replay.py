"""Write a self-contained HTML page that steps through a recorded game (a record or a playthrough).

    python -m dimsum replay game.json -o game.html       # a dimsum.records.Record (JSON)
    python -m dimsum replay tests/golden/yum_cha.txt -o yc.html   # dimsum.testing.playthrough text

The page needs no network: its script and style are inline and the picture of every step is
drawn here, in Python, for every view (the whole table, and each seat's view). It has a slider,
the arrow keys (Home/End for the ends), the action taken at each step, the returns at the end,
and a choice of whose view to show; a Dim Sum Jam game can also be played back in real time,
with the hourglass running. A bad record (not a record, a game that cannot be made, an illegal
step) is an error naming the step, exit code 1, and no page is written.

Each seat's view shows only what that seat saw, in its pictures and in its text: a seat's moves
are announced at the table (as in ``play``), and so is every chance outcome in a game of perfect
information; in a game with hidden cards (Yum Cha) a chance step is told as what the seat saw
of it (its information-state line: the slices of its observation that changed), never by the
outcome's name. ``--seat P`` writes a page of seat P's view alone (no other view, no seed): a
page that can be handed to that seat's player.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, Dict, List, Optional

from dimsum._files import read_regular, write_atomically
from dimsum.records import ADVANCE, MAX_BYTES, Record, RecordError


def read_record(path: Path) -> Record:
    """A Record from a record's JSON or a playthrough's text (RecordError otherwise)."""
    try:  # a regular file of bounded size: a FIFO or a device is refused, never waited on
        text = read_regular(path, "record", MAX_BYTES).decode("utf-8")
    except (OSError, ValueError) as e:  # UnicodeDecodeError is a ValueError
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


def _seat_name(seat: int, names: Optional[List[str]]) -> str:
    return f"seat {seat}" + (f" ({names[seat]})" if names and seat < len(names) else "")


def _step_texts(before: Any, action: int, ticks: int, timed: bool, names: Optional[List[str]],
                seen: List[Optional[List[str]]]) -> List[str]:
    """The step's text in every view: the whole table's, then each seat's. ``seen[p]``: seat p's
    information-state lines (None in a game of perfect information, where every outcome is
    public); a chance step is told to p as what p saw of it, the outcome named only to the table."""
    if timed and action == ADVANCE:
        return [f"time passes: {ticks} ticks"] * (1 + len(seen))
    cost = f" ({ticks} ticks)" if timed else ""
    named = f"{'chance' if before.is_chance_node else _seat_name(before.current_player, names)}: {before.action_name(action)}"
    if not before.is_chance_node:  # a seat's move is announced at the table
        return [named + cost] * (1 + len(seen))
    step = len(before.history) + 1
    return [named + cost] + [named + cost if lines is None else f"chance: {_what_was_seen(lines, step)}{cost}"
                             for lines in seen]


def _what_was_seen(lines: List[str], step: int) -> str:
    """What a seat saw of history step ``step`` (1-based): its information-state line for it
    (``"12. chance | hand_sizes: seat+1=5; deck_size: 91"``) without the number and the actor."""
    line = lines[step + 1]  # lines[0] is the title, lines[1] the start
    number, _, rest = line.partition(". ")
    if number != str(step):
        raise RecordError(f"step {step}: the information state does not follow the record ({line[:60]!r})")
    return rest.partition(" | ")[2] or rest


def page_data(record: Record, seat: Optional[int] = None) -> Dict[str, Any]:
    """Everything the page shows: each step's pictures (as piece numbers, per view), the action
    that led to it (per view), and for a timed game its time and clock. ``seat``: seat ``seat``'s
    view only, and nothing that view does not show (no seed). RecordError for a bad record."""
    import dimsum
    from dimsum.render import svg_pieces

    game = record.make_game()
    players = game.players
    if seat is not None and not (isinstance(seat, int) and 0 <= seat < players):
        raise RecordError(f"--seat must be a seat of the record's game, 0..{players - 1}, got {seat!r}")
    seats = list(range(players)) if seat is None else [seat]
    names = record.players
    states = list(record.states(game))
    final = states[-1]
    # what each seat saw of each step, read once from the last state's perfect recall (a hidden
    # outcome's name is in no line of it); only needed where chance can hide something
    perfect = dimsum.game_info(game.name).information == "perfect"
    lines = {p: None if perfect else final.information_state_string(p).split("\n") for p in seats}
    pieces = _Pieces()
    steps: List[Dict[str, Any]] = []
    time = 0
    for i, state in enumerate(states):
        timed = hasattr(state, "clock")
        if i == 0:
            texts = ["the start of the game"] * (1 + len(seats))
        else:
            texts = _step_texts(states[i - 1], *record.steps[i - 1], timed, names, [lines[p] for p in seats])
            time += record.steps[i - 1][1] if timed else 0
        step: Dict[str, Any] = {"action": texts if seat is None else texts[1:]}
        if timed:
            clock = state.clock
            step["time"] = time
            step["clock"] = [clock.top, clock.capacity, bool(clock.lying_down)]
        views = ([None] if seat is None else []) + seats
        step["views"] = [pieces.ids(svg_pieces(state, view, names)) for view in views]
        steps.append(step)
    views = ([] if seat is not None else ["the whole table"]) + [_seat_name(p, names) + " sees" for p in seats]
    return {
        "title": f"{game.name} · seed {record.seed}" if seat is None else f"{game.name} · {_seat_name(seat, names)}'s view",
        "game": game.name,
        "views": views,
        "steps": steps,
        "pieces": pieces.table,
        "returns": [float(r) for r in final.returns()] if final.is_terminal else None,
        "ending": final.outcome.description if final.is_terminal else None,
        "timed": bool(hasattr(final, "clock") and game.options.get("ticks_per_action", 0) > 0),
        "ticks_per_second": int(game.options.get("ticks_per_second", 10)),
    }


def page(record: Record, seat: Optional[int] = None) -> str:
    """The HTML page of ``record`` (a str): every view, or with ``seat`` that seat's view alone."""
    data = page_data(record, seat)
    # inside <script>, "</" would end the element and "<!--" change how it is parsed: JSON
    # allows "<\/" and "\u003c" for them
    blob = (json.dumps(data, separators=(",", ":"), ensure_ascii=False)
            .replace("</", "<\\/").replace("<!--", "\\u003c!--"))
    from dimsum.render.replay_page import PAGE
    from dimsum.render.svg import esc

    return PAGE.replace("__TITLE__", esc(data["title"])).replace("__DATA__", blob)


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m dimsum replay", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("record", type=Path, help="a record (JSON) or a playthrough (text)")
    parser.add_argument("-o", "--output", type=Path, required=True, help="the HTML page to write")
    parser.add_argument("--seat", type=int, default=None, metavar="P",
                        help="only seat P's view (what that seat saw, no seed): a page to hand to its player")
    args = parser.parse_args(argv)
    try:
        html = page(read_record(args.record), args.seat)
        write_atomically(args.output, html)  # never through a link at the output
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
