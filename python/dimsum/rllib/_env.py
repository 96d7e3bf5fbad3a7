"""Every dimsum game as an RLlib ``MultiAgentEnv`` (the new API stack), one agent per seat.

Turn-based, as RLlib's multi-agent episodes expect: each step takes the action of the one agent
that is to act and returns the observation of the next one, so an agent sees only its own seat's
view and its own legal moves (a mask built for the seat to act, never for another: in a game of
hidden hands, another seat's mask would tell something of its hand). See docs/RLLIB.md.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, Mapping, Optional, Tuple

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from ray.rllib.env.multi_agent_env import MultiAgentEnv

from .. import IllegalActionError, game_info
from .._adapters import SEED_BOUND, agent_name, check_action, check_max_steps, check_step_ticks, make_sampled_game

if TYPE_CHECKING:
    from .._core import State

# The keys of an agent's observation: the ones RLlib's action-masking modules read (its example
# ActionMaskingTorchRLModule and dimsum.rllib.MaskedPPOTorchRLModule).
OBSERVATIONS = "observations"
ACTION_MASK = "action_mask"

# "terminate" (the default): an in-range action that is not legal now ends the episode, the
# offender's reward game.min_return. Why not raise: RLlib's env checker steps
# ``action_space.sample()`` for the agent to act, unmasked, and reports any exception from step()
# as "does not abide to the new gymnasium-style API"; a space cannot know the current mask, so the
# env must take an illegal action as a move with a result. A masking module never samples one.
# "raise": dimsum.IllegalActionError, the state unchanged, for a run that must stop on a wrong move.
ILLEGAL_ACTION_POLICIES = ("terminate", "raise")

Dicts = Tuple[Dict[str, Any], Dict[str, float], Dict[str, bool], Dict[str, bool], Dict[str, Any]]

# The keys of env_config that are the env's own; the rest are dimsum.make's options for the game.
ENV_KEYS = ("game", "max_steps", "illegal_action", "ticks")


class DimsumMultiAgentEnv(MultiAgentEnv):
    """``DimsumMultiAgentEnv({"game": name, **options})``: the game ``dimsum.make(name, **options)``
    with one agent per seat, ``"player_0"`` ... ``"player_{n-1}"``.

    ``config`` is RLlib's ``env_config`` (an ``EnvContext`` is a dict): ``game`` (required), and
    optionally ``max_steps`` (actions of all seats before the episode is truncated; default the
    game's ``max_game_length``, which the rules never reach), ``illegal_action`` ("terminate", the
    default, or "raise"), ``ticks`` (Dim Sum Jam: the ticks charged per action; None, each
    action's default cost); every other key is an option of ``dimsum.make``.
    """

    def __init__(self, config: Optional[Mapping[str, Any]] = None):
        super().__init__()
        config = dict(config or {})
        if not isinstance(config.get("game"), str):
            raise ValueError(f"env_config needs 'game', a game name (one of {sorted(_game_names())}); "
                             f"got {config.get('game')!r}")
        options = {k: v for k, v in config.items() if k not in ENV_KEYS}
        self.game = make_sampled_game(config["game"], options)
        self.game_name = config["game"]
        self.cooperative = game_info(self.game_name).utility == "cooperative"
        self.max_steps = check_max_steps(config.get("max_steps"), self.game)
        self.illegal_action = config.get("illegal_action", "terminate")
        if self.illegal_action not in ILLEGAL_ACTION_POLICIES:
            raise ValueError(f"illegal_action must be one of {ILLEGAL_ACTION_POLICIES}, got {self.illegal_action!r}")
        self.ticks = check_step_ticks(self.game, config.get("ticks"))

        self.possible_agents = [agent_name(p) for p in range(self.game.players)]
        self.agents = list(self.possible_agents)
        self._seat = {agent: p for p, agent in enumerate(self.possible_agents)}
        low, high = self.game.observation_bounds
        observation_space = spaces.Dict({
            OBSERVATIONS: spaces.Box(np.asarray(low, np.float32), np.asarray(high, np.float32), dtype=np.float32),
            # float: the masking modules take the log of the mask or compare it with 0
            ACTION_MASK: spaces.Box(0.0, 1.0, (self.game.num_actions,), np.float32),
        })
        self.observation_spaces = {a: observation_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.game.num_actions) for a in self.possible_agents}
        self.np_random, _ = seeding.np_random(None)
        self.state: Optional[State] = None
        self.steps = 0
        self.over = True

    def reset(self, *, seed: Optional[int] = None,
              options: Optional[Dict[str, Any]] = None) -> Tuple[Dict[str, Any], Dict[str, Any]]:
        """Deals ``game.new_state(seed)`` (unseeded: a seed drawn from the env's ``np_random``,
        which ``reset(seed=s)`` seeds, so a seeded run is reproducible) and returns the observation
        of the agent to act only."""
        if options:
            raise ValueError(f"reset takes no options, got {sorted(map(str, options))}")
        if seed is not None:
            self.np_random, _ = seeding.np_random(seed)
            deal_seed = seed
        else:
            deal_seed = int(self.np_random.integers(SEED_BOUND))
        state = self.game.new_state(deal_seed)
        if state.is_terminal:  # no rule set deals a finished game; an episode must start with a turn
            raise RuntimeError(f"{self.game_name} dealt a finished game (seed {deal_seed}): nothing to play")
        self.state, self.steps, self.over = state, 0, False
        self.agents = list(self.possible_agents)
        return {self._acting(): self._view(state.current_player, acting=True)}, {}

    def step(self, action_dict: Mapping[str, Any]) -> Dicts:
        """Plays the action of the agent to act, ``action_dict`` holding that agent's action only.

        Before the end: the next agent's observation, reward 0.0 for the agent that acted. The step
        that ends the game: every seat's own last observation (mask all zero) and its entry of
        ``state.returns()``, ``terminateds`` True for all and ``"__all__"``; after ``max_steps``
        actions the same with reward 0 and ``truncateds`` (a cut game has no result)."""
        if self.state is None or self.over:
            raise RuntimeError("the episode is over: call reset()" if self.state is not None
                               else "call reset() before step()")
        agent = self._acting()
        if not isinstance(action_dict, Mapping) or list(action_dict) != [agent]:
            given = list(action_dict) if isinstance(action_dict, Mapping) else type(action_dict).__name__
            raise ValueError(f"step takes {{agent: action}} for the agent to act, {agent!r}, alone; got {given!r:.200}")
        # TypeError for a non-int, IllegalActionError out of range: nothing changed
        action = check_action(action_dict[agent], self.game.num_actions)
        if not 0 <= action < self.game.num_actions:
            raise IllegalActionError(f"action {action} is out of range: actions are 0..{self.game.num_actions - 1}")
        if self.illegal_action == "terminate" and not self.state.is_legal(action):
            return self._forfeit(agent, action)
        if self.ticks is None:
            self.state.apply(action)  # IllegalActionError under "raise", the state unchanged
        else:
            self.state.apply(action, self.ticks)
        self.steps += 1
        if self.state.is_terminal:
            return self._end(self.state.returns(), terminated=True)
        if self.steps >= self.max_steps:
            return self._end([0.0] * self.game.players, terminated=False)
        following = self._acting()
        return {following: self._view(self.state.current_player, acting=True)}, {agent: 0.0}, \
            {"__all__": False}, {"__all__": False}, {}

    def _forfeit(self, agent: str, action: int) -> Dicts:
        """The episode ends on ``agent``'s illegal ``action``, the state untouched: the offender
        gets the worst return, the others 0 (the game has no result), a cooperative team (Dim Sum
        Jam) the worst return for all, as it shares every reward."""
        worst = float(self.game.min_return)
        rewards = [worst if self.cooperative or seat == self._seat[agent] else 0.0 for seat in range(self.game.players)]
        observations, rewards_by_agent, terminateds, truncateds, infos = self._end(rewards, terminated=True)
        infos[agent] = {"illegal_action": action}
        return observations, rewards_by_agent, terminateds, truncateds, infos

    def _end(self, rewards: Any, terminated: bool) -> Dicts:
        """The last step: every seat's own view and reward. RLlib needs a last observation of every
        agent that acted, to close its episode (and to bootstrap its value when truncated); a seat
        that never acted is dropped from the episode by RLlib itself."""
        self.over = True
        observations = {agent: self._view(seat, acting=False) for agent, seat in self._seat.items()}
        rewards_by_agent = {agent: float(rewards[seat]) for agent, seat in self._seat.items()}
        flags = {agent: True for agent in self.possible_agents}
        done, not_done = dict(flags, __all__=True), {"__all__": False}
        terminateds, truncateds = (done, not_done) if terminated else (not_done, done)
        infos: Dict[str, Any] = {}
        if terminated and self.state.is_terminal:
            returns = tuple(float(r) for r in self.state.returns())
            infos = {agent: {"returns": returns} for agent in self.possible_agents}
        return observations, rewards_by_agent, terminateds, truncateds, infos

    def _acting(self) -> str:
        return self.possible_agents[self.state.current_player]

    def _view(self, seat: int, acting: bool) -> Dict[str, np.ndarray]:
        """``seat``'s observation; its legal moves only when it is the seat to act."""
        if acting:
            mask = self.state.legal_mask().astype(np.float32)
        else:
            mask = np.zeros(self.game.num_actions, np.float32)
        return {OBSERVATIONS: self.state.observation(seat), ACTION_MASK: mask}


def _game_names() -> Tuple[str, ...]:
    from .. import games

    return games()
