"""Mistakes made through dimsum's public API that a type checker must reject, each on a line
whose comment starts with "planted:" and says what is wrong. tests/test_typing.py runs
``mypy --strict`` on this file and fails unless mypy reports an error on every such line and
on no other line. Never run: only type-checked."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

import dimsum


def mistakes() -> None:
    game = dimsum.make("yum_cha", players=4)
    state = game.new_state(seed=7)
    state.apply("draw from the deck")  # planted: an action is an int (game.parse_action gives it)
    state.observatoin(0)  # planted: a misspelt method
    game.num_actions = "many"  # planted: a game's facts are read-only, and this one is an int
    state.advance(5)  # planted: only a TimedGame's states let time pass (Yum Cha is turn-based)
    mask: NDArray[np.float32] = state.legal_mask()  # planted: the mask is bool, not float32
    label: str = state.current_player  # planted: a player is an int
    exact: float = state.chance_outcomes(exact=True)[0][1]  # planted: exact probabilities are Fractions

    env = dimsum.BatchEnv(game, num_envs=8)
    env.stepp(np.zeros(8, dtype=np.int64))  # planted: a misspelt method
    obs, rewards, terminated, truncated = env.step(np.zeros(8, dtype=np.int64))  # planted: step returns 5 values
    dimsum.BatchEnv("yum_cha", num_envs=8)  # planted: BatchEnv takes a Game, not its name

    dimsum.random_playouts("nice_buns", 100)  # planted: random_playouts takes a Game
    returns, lengths = dimsum.random_playouts(game, 100)
    lengths.upper()  # planted: lengths is an int64 array

    jam = dimsum.make("dim_sum_jam")
    timed = jam.new_state(seed=1)
    timed.advance(3)  # fine: a Dim Sum Jam state is a TimedState
    timed.apply(0, ticks="3")  # planted: ticks are an int
    jam.replay(1, [("flip", 3)])  # planted: a timeline is (action, ticks) ints
    timed.clock.top = 0  # planted: the clock is read-only (a view of the state)
    ticks_left: str = timed.clock.top  # planted: the clock counts ticks (an int)

    for option in dimsum.options("nice_buns"):
        option.default = 3  # planted: an OptionSpec is frozen
    dimsum.options(3)  # planted: a game name is a str
    layout: list[dimsum.Slice] = game.observation_layout  # planted: the layout is a tuple
