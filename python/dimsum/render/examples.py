"""Draws the README's pictures, one position of each game, into docs/images/<game>.svg.

    python -m dimsum.render.examples            # rewrite docs/images/*.svg
    python -m dimsum.render.examples --check    # exit 1 if a committed picture is out of date
    python -m dimsum.render.examples --time     # milliseconds a picture, per game (docs/PICTURES.md)

Each picture is a seeded game played by seeded random moves to a fixed step, so the same code
draws the same bytes; tests/test_svg_examples.py checks the committed files against it.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Dict, List, Optional

import dimsum
from dimsum.reference.rng import Rng
from dimsum.testing import random_position

IMAGES = Path(__file__).resolve().parents[3] / "docs" / "images"


def example_state(name: str) -> object:
    """The README's position of ``name``: seeded random legal moves from ``new_state(seed)``, as
    the game's ``GameInfo.picture`` declares them."""
    options, seed, steps = dimsum.game_info(name).picture
    return random_position(dimsum.make(name, **options), seed, steps)


def pictures() -> Dict[str, str]:
    """Each game's README picture (the whole table), as SVG text."""
    return {name: example_state(name).to_svg() for name in dimsum.games()}


def time_drawings(games: int = 8, seed: int = 1) -> Dict[str, Dict[str, float]]:
    """Per game: CPU milliseconds to draw one picture (the whole table and each seat's view, every
    step of ``games`` random four-player games, each game from a fresh seed) and the mean size in
    kB. The games are played first; only the drawing is timed."""
    import time

    out = {}
    for name in dimsum.games():
        game = dimsum.make(name, **dimsum.game_info(name).picture[0])
        states = []
        for g in range(games):
            state, rng = game.new_state(seed + g), Rng(seed + g)
            while not state.is_terminal and len(states) < 150 * (g + 1):
                legal = state.legal_actions()
                state.apply(legal[rng.bounded(len(legal))])
                states.append(state.clone())
        views = [None] + list(range(game.players))
        start = time.process_time()  # CPU time: the machine's other jobs do not count
        size = sum(len(s.to_svg(v)) for s in states for v in views)
        elapsed = time.process_time() - start
        drawings = len(states) * len(views)
        out[name] = {"ms": 1000 * elapsed / drawings, "kB": size / drawings / 1000, "drawings": drawings}
    return out


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m dimsum.render.examples", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="compare with the committed files, write nothing")
    parser.add_argument("--time", action="store_true", help="time the drawing per game, write nothing")
    parser.add_argument("--out", type=Path, default=IMAGES, help="the folder of the pictures (docs/images)")
    args = parser.parse_args(argv)
    if args.time:
        for name, t in time_drawings().items():
            print(f"{name:12s} {t['ms']:.2f} ms a picture, {t['kB']:.1f} kB ({t['drawings']} pictures)")
        return 0
    stale = []
    for name, svg in pictures().items():
        path = args.out / f"{name}.svg"
        if args.check:
            if not path.exists() or path.read_text(encoding="utf-8") != svg:
                stale.append(str(path))
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(svg, encoding="utf-8")
            print(f"wrote {path}")
    if stale:
        print("out of date (run python -m dimsum.render.examples): " + ", ".join(stale), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
