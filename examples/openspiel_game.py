"""OpenSpiel: a dimsum game loaded through pyspiel and played by random legal actions, chance
outcomes drawn by their probabilities; needs the openspiel extra (pip install
"dimsum-games[openspiel]")."""

# needs: pyspiel
from __future__ import annotations

import numpy as np
import pyspiel

import dimsum.openspiel  # noqa: F401  (registers the dimsum_* games with pyspiel)


def main() -> None:
    game = pyspiel.load_game("dimsum_nice_buns(players=3)")
    rng = np.random.default_rng(0)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=probabilities)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    print(f"{game}: {len(state.history())} actions, returns {state.returns()}")


if __name__ == "__main__":
    main()
