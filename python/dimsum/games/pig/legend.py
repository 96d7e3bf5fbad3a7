"""Pig's legend (``dimsum.play.legend``): the turn total, rolling and holding."""

from __future__ import annotations

from typing import Any, List, Tuple


def legend(game: Any) -> List[Tuple[str, str]]:
    return [("roll", "roll the die: its number joins your turn total; a 1 loses the turn total and ends your turn"),
            ("hold", "bank your turn total into your score and end your turn"),
            ("turn total", "the points rolled this turn, not yet banked"),
            ("score", f"banked points; the first to {game.spec.winscore} wins")]
