"""A warm start by behaviour cloning: the training env's games played by the heuristic in the
learner's seat too, and the MaskablePPO policy fitted to them before PPO begins (docs/BASELINES.md).

Fair by construction: the heuristic chooses on the env's real state (it reads only what its seat
may see: docs/BOTS.md), while the network is fitted on exactly what it will get in play, the
learner seat's observation vector and legal-action mask from the same VecEnv. The action head
learns the heuristic's choice by cross-entropy over the legal actions (masked logits); the value
head learns the discounted return of those games (``gamma`` as PPO's), so that PPO's first
advantages are measured against a critic of the heuristic's level, not against noise.

The heuristic is asked through ``dimsum._batch.heuristic_action`` on each env's raw state bytes
(no State object per move), call k of the collection seeded ``derive_seed(seed, k)``: a seed fixes
every choice, as the env's deals are fixed by its own seed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Dict, Optional

import numpy as np


@dataclass
class Demonstrations:
    """Learner-seat decisions of heuristic play: raw observations (float32), legal masks (bool),
    the heuristic's actions, the discounted return from each decision (``valid`` where the game
    ended inside the collection: the tail of a game still running has no return yet)."""

    observations: np.ndarray
    masks: np.ndarray
    actions: np.ndarray
    returns: np.ndarray
    valid: np.ndarray

    def __len__(self) -> int:
        return len(self.actions)


def raw_vec_env(env: Any) -> Any:
    """The DimsumVecEnv under SB3 wrappers (VecNormalize, VecMonitor: each keeps it as ``venv``)."""
    while not hasattr(env, "batch_env"):
        env = env.venv
    return env


class HeuristicTeacher:
    """The game's heuristic for every env's learner seat, asked on the env's state bytes."""

    def __init__(self, vec_env: Any, seed: int) -> None:
        from .. import _batch

        self.batch = raw_vec_env(vec_env).batch_env
        game = self.batch.game
        self._choose = _batch.heuristic_action
        self._crossing = (game.name, game.config_bytes(), game.state_size, game.version[0])
        self._header = self.batch._header
        self.seed = seed
        self.calls = 0

    def actions(self) -> np.ndarray:
        """The heuristic's move for each env's learner seat now (int64, one per env)."""
        out = np.empty(self.batch.num_envs, np.int64)
        for i in range(self.batch.num_envs):
            state = self._header + self.batch._state_bytes(i)
            out[i] = self._choose(*self._crossing, state, self.seed, self.calls)
            self.calls += 1
        return out


def collect(env: Any, steps: int, seed: int, gamma: float) -> Demonstrations:
    """``steps`` learner decisions (rounded up to whole env steps) of the heuristic playing the
    learner seat of ``env`` (an SB3 VecEnv over DimsumVecEnv, stepped as training steps it: a
    VecNormalize in training mode gathers its observation statistics from these games)."""
    raw = raw_vec_env(env)
    teacher = HeuristicTeacher(raw, seed)
    n = raw.num_envs
    rounds = -(-steps // n)
    size = raw.observation_space["observation"].shape[0]
    observations = np.empty((rounds, n, size), np.float32)
    masks = np.empty((rounds, n, raw.action_space.n), bool)
    actions = np.empty((rounds, n), np.int64)
    rewards = np.empty((rounds, n), np.float64)
    dones = np.empty((rounds, n), bool)
    current = env.reset()
    for t in range(rounds):
        observations[t] = _raw_observation(env, current)
        masks[t] = raw.action_masks()
        actions[t] = teacher.actions()
        current, reward, done, _ = env.step(actions[t])
        rewards[t], dones[t] = reward, done
    returns, valid = discounted_returns(rewards, dones, gamma)
    return Demonstrations(observations.reshape(rounds * n, size), masks.reshape(rounds * n, -1),
                          actions.reshape(-1), returns.reshape(-1), valid.reshape(-1))


def split(data: Demonstrations, cut: int):
    """The decisions before ``cut`` and from it on."""
    parts = [Demonstrations(*(getattr(data, f)[rows] for f in ("observations", "masks", "actions", "returns", "valid")))
             for rows in (slice(0, cut), slice(cut, None))]
    return parts[0], parts[1]


def _raw_observation(env: Any, current: Dict[str, np.ndarray]) -> np.ndarray:
    """The current observations before normalization (VecNormalize keeps them)."""
    return env.get_original_obs()["observation"] if hasattr(env, "get_original_obs") else current["observation"]


def discounted_returns(rewards: np.ndarray, dones: np.ndarray, gamma: float):
    """Per step and env (arrays ``(T, n)``): the discounted return to the end of its game, and
    whether that end falls within the T steps (else the return is unknown: not valid)."""
    returns = np.zeros_like(rewards)
    valid = np.zeros(rewards.shape, bool)
    running = np.zeros(rewards.shape[1])
    ended = np.zeros(rewards.shape[1], bool)
    for t in range(len(rewards) - 1, -1, -1):
        running = np.where(dones[t], 0.0, running * gamma) + rewards[t]
        ended = ended | dones[t]
        returns[t], valid[t] = running, ended
    return returns, valid


def fit(model: Any, data: Demonstrations, normalize: Callable[[np.ndarray], np.ndarray], epochs: int,
        batch_size: int = 512, lr: float = 1e-3, seed: int = 0, value_weight: float = 0.5,
        log: Optional[Callable[[str], None]] = None) -> Dict[str, float]:
    """Fits ``model.policy`` (MaskablePPO's) to the demonstrations: cross-entropy of the
    heuristic's action under the masked logits, plus ``value_weight`` x the squared error of the
    value on the valid returns; Adam at ``lr`` in shuffled minibatches (order from ``seed``).
    Returns the last epoch's mean losses and the training agreement."""
    import torch

    policy = model.policy
    optimizer = torch.optim.Adam(policy.parameters(), lr=lr)
    rng = np.random.default_rng([seed, 25])
    obs = normalize(data.observations).astype(np.float32)
    stats: Dict[str, float] = {}
    policy.set_training_mode(True)
    for epoch in range(epochs):
        order = rng.permutation(len(data))
        totals = np.zeros(3)
        for start in range(0, len(order), batch_size):
            rows = order[start:start + batch_size]
            tensors = _tensors(policy, obs[rows], data.masks[rows])
            actions = torch.as_tensor(data.actions[rows])
            values, log_prob, _ = policy.evaluate_actions(tensors, actions, action_masks=data.masks[rows])
            valid = torch.as_tensor(data.valid[rows])
            target = torch.as_tensor(data.returns[rows], dtype=torch.float32)
            value_loss = ((values.flatten() - target) ** 2 * valid).sum() / valid.sum().clamp(min=1)
            policy_loss = -log_prob.mean()
            loss = policy_loss + value_weight * value_loss
            optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(policy.parameters(), 0.5)
            optimizer.step()
            totals += [policy_loss.item() * len(rows), value_loss.item() * len(rows), 0]
        stats = {"epoch": epoch + 1, "cross_entropy": totals[0] / len(order), "value_mse": totals[1] / len(order)}
        if log:
            log(f"  imitation epoch {epoch + 1}/{epochs}: cross-entropy {stats['cross_entropy']:.4f}, "
                f"value MSE {stats['value_mse']:.4f}")
    policy.set_training_mode(False)
    return stats


def _tensors(policy: Any, observations: np.ndarray, masks: np.ndarray) -> Any:
    tensors, _ = policy.obs_to_tensor({"observation": observations, "action_mask": masks.astype(np.int8)})
    return tensors


def agreement(model: Any, data: Demonstrations, normalize: Callable[[np.ndarray], np.ndarray],
              batch_size: int = 4096) -> float:
    """The share of the demonstrations' decisions where the policy's greedy legal choice is the
    heuristic's."""
    same = 0
    for start in range(0, len(data), batch_size):
        rows = slice(start, start + batch_size)
        obs = {"observation": normalize(data.observations[rows]).astype(np.float32),
               "action_mask": data.masks[rows].astype(np.int8)}
        chosen, _ = model.predict(obs, action_masks=data.masks[rows], deterministic=True)
        same += int((chosen == data.actions[rows]).sum())
    return same / max(1, len(data))


def random_agreement(data: Demonstrations) -> float:
    """What a uniformly random legal choice would agree on, in expectation: the mean of 1/legal."""
    return float(np.mean(1.0 / data.masks.sum(axis=1)))
