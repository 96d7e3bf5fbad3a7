"""Statistics of a tournament: Wilson intervals for win rates, Bradley-Terry ratings on the Elo scale."""

from __future__ import annotations

import math
from typing import List, Sequence, Tuple

Z95 = 1.959963984540054  # the 97.5% quantile of the standard normal


def wilson(successes: float, n: int, z: float = Z95) -> Tuple[float, float]:
    """The Wilson score interval of a proportion (``successes`` may be fractional: shared wins).

    Unlike the normal approximation it stays inside [0, 1] and is sensible at 0 or n successes."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


def bradley_terry(wins: Sequence[Sequence[float]], iterations: int = 2000, tolerance: float = 1e-10) -> List[float]:
    """Bradley-Terry ratings on the Elo scale (mean 1500) from ``wins[i][j]``, the times bot i beat
    bot j (a tie counts half to each).

    Fitted by Hunter's minorise-maximise updates. Each pair that met also gets one virtual tie (half a
    win each way), a prior that keeps the ratings finite when a bot won or lost every game; with
    hundreds of games it moves a rating by a few points at most. Bots that never met a rated bot
    keep the mean."""
    n = len(wins)
    games = [[wins[i][j] + wins[j][i] for j in range(n)] for i in range(n)]
    met = [[1.0 if games[i][j] > 0 else 0.0 for j in range(n)] for i in range(n)]
    won = [sum(wins[i][j] + 0.5 * met[i][j] for j in range(n)) for i in range(n)]
    total = [[games[i][j] + met[i][j] for j in range(n)] for i in range(n)]
    strength = [1.0] * n
    for _ in range(iterations):
        new = []
        for i in range(n):
            denominator = sum(total[i][j] / (strength[i] + strength[j]) for j in range(n) if j != i and total[i][j])
            new.append(won[i] / denominator if denominator else strength[i])
        scale = math.exp(sum(math.log(s) for s in new) / n)  # geometric mean 1: the scale is free
        new = [s / scale for s in new]
        change = max(abs(a - b) for a, b in zip(new, strength))
        strength = new
        if change < tolerance:
            break
    return [1500 + 400 * math.log10(s) for s in strength]
