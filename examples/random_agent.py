"""A random agent on the per-move API: one seeded game of each dimsum game, chosen uniformly among
the legal actions with dimsum's own RNG (the same choices on every platform)."""

from __future__ import annotations

import dimsum
from dimsum.reference.rng import Rng


def play(game: dimsum.Game, seed: int) -> dimsum.State:
    """Plays one game of ``game`` dealt from ``seed`` to the end; returns the final state."""
    rng = Rng(seed)
    state = game.new_state(seed)
    while not state.is_terminal:
        legal = state.legal_actions()
        state.apply(legal[rng.bounded(len(legal))])
    return state


def main() -> None:
    for name in dimsum.games():
        final = play(dimsum.make(name), seed=7)
        print(f"{name}: {len(final.history)} actions, returns {final.returns()}, {final.outcome}")
    # Dim Sum Jam is real time: make gives a TimedGame, whose states also let time pass.
    jam = dimsum.make("dim_sum_jam")
    state = jam.new_state(seed=3)
    state.advance(5)
    print(f"dim_sum_jam after 5 idle ticks: clock top {state.clock.top}, timeline {state.timeline}")


if __name__ == "__main__":
    main()
