"""The policies that come with the package: ``weights/<game>-<players>p.dspolicy``, each with
``<game>-<players>p.json`` beside it, the record of how it was trained (docs/BASELINES.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, List

WEIGHTS_DIR = Path(__file__).resolve().parent / "weights"


def shipped() -> List[str]:
    """The stems of the shipped policies (``"nice_buns-2p"``), sorted."""
    return sorted(p.stem for p in WEIGHTS_DIR.glob("*.dspolicy"))


def shipped_path(game: Any) -> Path:
    """The shipped policy for ``game`` (its name and player count); ValueError naming the shipped
    ones when there is none."""
    stem = f"{game.name}-{game.players}p"
    path = WEIGHTS_DIR / f"{stem}.dspolicy"
    if not path.is_file():
        have = ", ".join(shipped()) or "none"
        raise ValueError(f"no shipped policy for {game.name} with {game.players} players (shipped: {have}); "
                         f"train one with python -m dimsum.baselines.train and pass weights=PATH")
    return path
