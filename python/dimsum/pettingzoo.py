"""PettingZoo AEC adapter: every dimsum game, every option set, as a PettingZoo ``AECEnv``.

    from dimsum.pettingzoo import env
    e = env("yum_cha", players=4)
    e.reset(seed=7)
    for agent in e.agent_iter():
        observation, reward, termination, truncation, info = e.last()
        mask = observation["action_mask"]
        action = None if termination or truncation else int(np.flatnonzero(mask)[0])
        e.step(action)

Conventions (docs/ADAPTERS.md):

- Agents are ``"player_0"`` ... ``"player_{n-1}"``, seat i being ``"player_i"``; the agent to act
  is the game's ``current_player`` (a seat may act several times in a row).
- ``observe(agent)`` is ``{"observation": state.observation(seat), "action_mask": int8 mask}``: only
  what that seat may see; the mask is zero except when that agent is the one to act.
- Rewards: 0 on every step before the end; the step that ends the game gives each agent its
  entry of ``state.returns()``. A truncated game gives 0 (it has no result).
- Truncation: after ``max_steps`` actions (default ``game.max_game_length``, a cap the rules
  never reach, so by default nothing is truncated).
- An illegal action raises ``dimsum.IllegalActionError`` with the state unchanged. An action is
  an int of the action space: a Python int or a numpy integer (a 0-d integer array too); a bool,
  float, str or None is a TypeError, never truncated.
- Chance is sampled inside ``apply`` (the default mode): an AEC env has no chance agent, so
  ``chance="explicit"`` is refused.
- Dim Sum Jam is timed: every action is charged its default tick cost (the option
  ``ticks_per_action``, as ``state.apply(a)`` with no ``ticks``) unless ``step(action, ticks=t)``
  says what it took; the env never calls ``advance``.
- Seeding: ``reset(seed=s)`` deals ``game.new_state(s)``; ``reset()`` without a seed deals from
  a seed drawn from the env's own ``np_random`` (seeded by the last ``reset(seed=...)``).

This module imports pettingzoo and gymnasium: ``pip install "dimsum-games[pettingzoo]"``. ``import
dimsum`` never imports it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, Optional

import numpy as np

from ._extras import needs_extra

with needs_extra("pettingzoo", "dimsum.pettingzoo"):
    from gymnasium import spaces
    from gymnasium.utils import seeding
    from pettingzoo import AECEnv

from ._adapters import RENDER_MODES, SEED_BOUND, agent_name, check_action, check_max_steps, check_render_mode, \
    check_step_ticks, make_sampled_game, observation_space_of, render_seat_view

if TYPE_CHECKING:
    from ._core import State


class raw_env(AECEnv):  # noqa: N801 (PettingZoo's name for the unwrapped env)
    """One dimsum game as an AEC env (see the module docstring for the conventions)."""

    metadata = {"render_modes": list(RENDER_MODES), "name": "dimsum_v0", "is_parallelizable": False}

    def __init__(self, game_name: str, render_mode: Optional[str] = None, max_steps: Optional[int] = None,
                 **options: Any):
        super().__init__()
        self.game = make_sampled_game(game_name, options)
        self.render_mode = check_render_mode(render_mode)
        self.max_steps = check_max_steps(max_steps, self.game)
        self.metadata = dict(self.metadata, name=f"dimsum_{self.game.name}_v0")
        self.possible_agents = [agent_name(p) for p in range(self.game.players)]
        self._seat = {agent: p for p, agent in enumerate(self.possible_agents)}
        observation_space = observation_space_of(self.game)
        self.observation_spaces = {a: observation_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.game.num_actions) for a in self.possible_agents}
        self.np_random, _ = seeding.np_random(None)
        self.state: Optional[State] = None

    def observation_space(self, agent: str) -> spaces.Dict:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        return self.action_spaces[agent]

    def reset(self, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None) -> None:
        if seed is not None:
            # later unseeded resets continue from this seed, so a seeded run is reproducible
            self.np_random, _ = seeding.np_random(seed)
            deal_seed = seed
        else:
            deal_seed = int(self.np_random.integers(SEED_BOUND))
        self.state = self.game.new_state(deal_seed)
        self.steps = 0
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.state.current_player]

    def observe(self, agent: str) -> Dict[str, np.ndarray]:
        if self.state is None:
            raise RuntimeError("call reset() before observe()")
        seat = self._seat[agent]
        acting = not self.state.is_terminal and self.state.current_player == seat and not self.truncations[agent]
        mask = self.state.legal_mask().astype(np.int8) if acting else np.zeros(self.game.num_actions, np.int8)
        return {"observation": self.state.observation(seat), "action_mask": mask}

    def step(self, action: Optional[int], ticks: Optional[int] = None) -> None:
        """Plays the selected agent's ``action``; ``ticks`` (Dim Sum Jam) is the time it took, None
        its default cost. PettingZoo's wrappers pass the action only: ``ticks`` is for this raw env."""
        if self.state is None:
            raise RuntimeError("call reset() before step()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            # PettingZoo's protocol: each finished agent is stepped once with None to leave
            self._was_dead_step(action)
            return
        # TypeError for an action that is not an int, IllegalActionError (ValueError, TypeError for
        # bad ticks): the state unchanged
        action = check_action(action, self.game.num_actions)
        if ticks is None:
            self.state.apply(action)
        else:
            self.state.apply(action, check_step_ticks(self.game, ticks))
        self._cumulative_rewards[agent] = 0.0
        self.steps += 1
        if self.state.is_terminal:
            self._end_with_returns()
        elif self.steps >= self.max_steps:
            self._truncate_every_agent()
        else:
            self.agent_selection = self.possible_agents[self.state.current_player]
        if self.render_mode == "human":
            self.render()

    # Before the end every reward is 0, as reset left them: the rewards and their running sums
    # are touched only when the game ends (rebuilding them every action cost more than the rules).
    def _end_with_returns(self) -> None:
        returns = self.state.returns()
        for agent in self.agents:
            self.rewards[agent] = float(returns[self._seat[agent]])
            self.terminations[agent] = True
        self._accumulate_rewards()
        self.agent_selection = self.agents[0]  # the dead steps start from the first seat

    def _truncate_every_agent(self) -> None:
        for agent in self.agents:
            self.truncations[agent] = True
        self.agent_selection = self.agents[0]

    def render(self) -> Any:
        """The selected agent's view, never the whole table: its text (``state.observation_string``)
        for "ansi" ("human" prints it; "" once every agent has left), its picture
        (``state.to_svg(seat)``) as an ``(H, W, 3) uint8`` array for "rgb_array" (the ``render``
        extra; after the end, the last selected agent's view)."""
        if self.render_mode in ("ansi", "human") and self.state is not None and not self.agents:
            if self.render_mode == "human":
                print("")
                return None
            return ""
        return render_seat_view(self.render_mode, self.state, self._seat[self.agent_selection])

    def close(self) -> None:
        pass


def env(game_name: str, render_mode: Optional[str] = None, **options: Any) -> AECEnv:
    """The AEC env of ``game_name`` with ``options`` (``dimsum.make``'s, plus ``max_steps``).

    Not wrapped in PettingZoo's OrderEnforcingWrapper: its attribute forwarding cost more than
    the rules per action (benchmarks/test_bench_adapters.py); the env checks the order itself
    (``step`` or ``observe`` before ``reset`` is a RuntimeError)."""
    return raw_env(game_name, render_mode=render_mode, **options)
