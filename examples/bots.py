"""Bots: seats filled from dimsum.bots (kind "random"), one game of Yum Cha played to the end."""

from __future__ import annotations

import dimsum
import dimsum.bots


def main() -> None:
    game = dimsum.make("yum_cha", players=3)
    seats = [dimsum.bots.make("random", game, seed=seat) for seat in range(game.players)]
    state = game.new_state(seed=11)
    while not state.is_terminal:
        state.apply(seats[state.current_player].act(state))
    print(f"{len(state.history)} actions; returns {state.returns()}; {state.outcome}")


if __name__ == "__main__":
    main()
