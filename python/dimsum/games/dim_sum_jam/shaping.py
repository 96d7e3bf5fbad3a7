"""Dim Sum Jam's training rewards (``python -m dimsum.baselines.train --shaping team_progress``),
read by dimsum.baselines.shaping: ``SHAPINGS`` maps each name to a function that, given the game,
returns ``progress(observations) -> (n,)`` for rows of observations ``(n, observation_size)``.

team_progress: Dim Sum Jam's return is 1 on a win and 0 otherwise, and a team of heuristics wins
about one game in six: most games teach a policy nothing. The progress is +0.1 for each VIP order
fulfilled, +0.01 for each regular order, -0.05 for each complaint, read from the seat's own
observation (``cards_out`` and ``counts``: public to every seat), so nothing hidden reaches the
learner. A win still ranks first: a won game is paid at least 0.9 (the return, less at most two
complaints; the last VIP ends the game before it leaves its table, so it earns no bonus), a lost
one at most 0.65 (every VIP but one, 5 at most with ``extra_vips=5``, and the deck's 15 regular
orders)."""

from __future__ import annotations

from typing import Any, Callable, Dict

import numpy as np

VIP_ORDER = 0.1
REGULAR_ORDER = 0.01
COMPLAINT = -0.05


def team_progress(game: Any) -> Callable[[np.ndarray], np.ndarray]:
    """VIP_ORDER per VIP order out, REGULAR_ORDER per regular order out, COMPLAINT per complaint."""
    from . import make_config

    cfg = make_config(**dict(game.options))
    slices: Dict[str, Any] = {s.name: slice(int(s.start), int(s.stop)) for s in game.observation_layout}
    cards = slices["cards_out"]
    weights = np.array([VIP_ORDER if cfg.vip_mask >> i & 1 else REGULAR_ORDER for i in range(len(cfg.cards))])
    if cards.stop - cards.start != len(weights):
        raise ValueError(f"cards_out has {cards.stop - cards.start} entries for {len(weights)} cards")
    complaints = slices["counts"].start + 2  # counts: tea supply, tea on reception, complaints, ...

    def progress(observations: np.ndarray) -> np.ndarray:
        return observations[:, cards] @ weights + COMPLAINT * observations[:, complaints]

    return progress


SHAPINGS = {"team_progress": team_progress}
