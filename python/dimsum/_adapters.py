"""What the PettingZoo and Gymnasium adapters share: the spaces, the checks of their arguments.

Imports gymnasium (both adapters need its spaces), never pettingzoo: ``dimsum.gymnasium`` works
with the ``gymnasium`` extra alone.
"""

from __future__ import annotations

import numbers
from typing import TYPE_CHECKING, Any, Dict, Optional

import numpy as np

import dimsum
from dimsum._extras import needs_extra

with needs_extra("gymnasium", "dimsum's Gymnasium and PettingZoo adapters"):
    from gymnasium import spaces
from dimsum._common import check_int
from dimsum._core import TimedGame

if TYPE_CHECKING:
    from ._core import Game

# "rgb_array": the seat's SVG picture as an (H, W, 3) uint8 frame (dimsum.render.raster, the
# `render` extra, imported at the first frame: an env made with it, as SB3's make_vec_env makes
# every env, needs nothing more until something renders).
RENDER_MODES = ("ansi", "human", "rgb_array")
# Seeds drawn from np_random for unseeded resets: the core takes any int below 2**64.
SEED_BOUND = 1 << 63
# The most ticks one action may be charged (docs/rules/dim_sum_jam.md, "The tick clock").
MAX_TICKS = 1_000_000


def agent_name(seat: int) -> str:
    return f"player_{seat}"


def make_sampled_game(game_name: str, options: Dict[str, Any]) -> Game:
    """The game, refusing explicit chance: an AEC env has no chance agent to play its nodes."""
    if options.get("chance", "sampled") == "explicit":
        raise ValueError(
            f"dimsum adapters play chance inside apply (chance='sampled'); chance='explicit' is refused "
            f"because the environment has no chance agent to choose outcomes (game {game_name!r})")
    return dimsum.make(game_name, **options)


def check_render_mode(render_mode: Optional[str]) -> Optional[str]:
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise ValueError(f"render_mode must be None or one of {RENDER_MODES}, got {render_mode!r}")
    return render_mode


def render_seat_view(render_mode: Optional[str], state: Any, seat: int) -> Any:
    """What ``render()`` returns for ``seat``'s view of ``state``: None (no mode, or "human", which
    prints the text), the text ("ansi"), or the picture as an RGB array ("rgb_array")."""
    if render_mode is None or state is None:
        return None
    if render_mode == "rgb_array":
        from .render.raster import state_to_rgb

        return state_to_rgb(state, seat)
    text = state.observation_string(seat)
    if render_mode == "human":
        print(text)
        return None
    return text


def check_max_steps(max_steps: Optional[int], game: Game) -> int:
    if max_steps is None:
        return game.max_game_length
    if isinstance(max_steps, bool) or not isinstance(max_steps, int) or max_steps < 1:
        raise ValueError(f"max_steps must be a positive int or None, got {max_steps!r}")
    return max_steps


def check_step_ticks(game: Game, ticks: Any) -> Optional[int]:
    """The ticks an adapter charges for each learner action: None (each action's default cost) or
    an int in [0, 1,000,000] (the game refuses a positive one when its time is off, at the step,
    with the state unchanged). Timed games only (Dim Sum Jam): ValueError for another game."""
    if ticks is None:
        return None
    if not isinstance(game, TimedGame):
        raise ValueError(f"ticks: {game.name} is not timed (its actions take no time); use ticks=None")
    return check_int(ticks, "ticks", 0, MAX_TICKS)


def check_action(action: Any, num_actions: int) -> int:
    """An action given to ``step`` as a Python int: exactly the ints of ``Discrete(num_actions)``,
    as Python ints, numpy integer scalars (what ``action_space.sample()`` gives) or 0-d integer
    arrays (``np.argmax`` of a row is a scalar, but a policy's array may be 0-d). Anything else
    (bool, float, str, None, a longer array) is a TypeError saying what is allowed, never truncated
    by ``int()``: ``step(1.7)`` playing action 1 would hide a bug in the caller. The range is the
    game's to check (IllegalActionError, the state unchanged)."""
    if isinstance(action, np.ndarray) and action.ndim == 0 and action.dtype.kind in "iu":
        return int(action)
    if isinstance(action, (bool, np.bool_)) or not isinstance(action, numbers.Integral):
        raise TypeError(f"an action is an int in [0, {num_actions}) (a Python int or a numpy integer), "
                        f"got {type(action).__name__} {action!r:.60}")
    return int(action)


def observation_space_of(game: Game) -> spaces.Dict:
    """Dict(observation=Box from the game's declared bounds, action_mask=Box(0, 1) of int8)."""
    low, high = game.observation_bounds
    return spaces.Dict({
        "observation": spaces.Box(low=np.asarray(low, np.float32), high=np.asarray(high, np.float32),
                                  dtype=np.float32),
        "action_mask": spaces.Box(low=0, high=1, shape=(game.num_actions,), dtype=np.int8),
    })
