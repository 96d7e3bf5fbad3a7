"""The IS-MCTS bot: single-observer information-set MCTS with UCT, in C++
(src/dimsum_core/bots/ismcts.hpp; Cowling, Powley and Whitehouse 2012).

Each simulation determinizes with ``resample(player, seed)`` (hidden cards and future draws
redrawn from what the player has seen), so the bot is fair by construction. docs/BOTS.md
describes the parameters."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple, Union

from .._common import OptionSpec
from ._native import NativeBot

ROLLOUTS = ("random", "heuristic", "policy")
GUIDES = ("heuristic", "policy", "policy_ucb", "policy_heuristic")

# The parameters and their ranges, the same as C++ checks (bots/ismcts.hpp, check_search_params):
# simulations up to 10^9 (a tree's node indices are int32, its visit counts uint32); a time
# budget from 0.1 ms to an hour, None for none (a budget runs at least one simulation).
PARAMETERS: Dict[str, OptionSpec] = {o.name: o for o in (
    OptionSpec("simulations", 1000, "iterations per move, over all threads", kind=int, minimum=1, maximum=10**9),
    OptionSpec("seconds", None, "a time budget per move instead of simulations (None: none)", kind=float,
               minimum=0.0001, maximum=3600, allow_none=True),
    OptionSpec("c", 0.3, "the UCB exploration constant, rewards being in [0, 1]", kind=float, minimum=0,
               maximum=1000),
    OptionSpec("bias", 5.0, "progressive bias towards the heuristic's choice (0: none); with guide='policy' "
               "PUCT's constant, the prior's weight", kind=float, minimum=0, maximum=1000),
    OptionSpec("rollout", "heuristic", "how a simulation ends the game ('policy': the network of weights=)",
               choices=ROLLOUTS),
    OptionSpec("guide", "heuristic", "what the progressive bias favours: the heuristic's move, or every action "
               "by the policy's probability, by PUCT ('policy'), UCB plus the prior ('policy_ucb') or plus the prior "
               "and the heuristic's bias ('policy_heuristic'; all: the network of weights=)", choices=GUIDES),
    OptionSpec("threads", 1, "root-parallel trees on C++ worker threads", kind=int, minimum=1, maximum=256),
)}


class IsmctsBot(NativeBot):
    """IS-MCTS for the player to act.

    - ``simulations``: iterations per move, over all threads (1 to 10^9; default 1000);
    - ``seconds``: a time budget per move instead (0.0001 to 3600, or None; then ``simulations``
      is not used, at least one simulation runs, and the choice depends on the machine's speed);
    - ``c``: the UCB exploration constant, rewards being scaled to [0, 1] (0 to 1000; default 0.3);
    - ``bias``: progressive bias towards the game's heuristic move at every tree node, worth
      ``bias / (visits + 1)`` in UCB (0 to 1000; 0 turns it off; default 5);
    - ``rollout``: ``"random"``, ``"heuristic"`` (the game's heuristic bot) or ``"policy"`` (the
      network of ``weights``) to the end of the game;
    - ``threads``: root-parallel trees on C++ worker threads, their root visits summed (1 to 256);
    - ``guide``: ``"heuristic"`` (default) or ``"policy"``: the tree chooses by PUCT instead,
      ``mean + bias * prior(a) * sqrt(visits of the node + 1) / (1 + visits of a)``, prior the
      policy's softmax over the node's legal actions, computed once per node from the mover's
      observation; an untried action scores the mean of its tried siblings plus that term, so it
      is expanded when it beats them (``bias`` is PUCT's constant; ``c`` is not used); or
      ``"policy_ucb"``: UCB (``c``) plus ``prior(a) * bias / (visits of a + 1)``, every legal action
      tried once first, the untried one of highest prior first (the stronger of the two with many
      simulations a node, PUCT with few: docs/BOTS.md, "Guided by a policy"); or
      ``"policy_heuristic"``: ``"policy_ucb"`` with the heuristic's bias added, as the default
      guide gives it (its move expanded first);
    - ``weights``: the policy network of ``rollout="policy"`` and of the policy guides, a policy
      file's path or ``"shipped"`` (docs/BASELINES.md); needed by those, refused otherwise.
      ``rollout="policy"`` draws every seat's move from the policy's softmax over its legal
      actions, from its own observation of the determinization, with the search's generator.

    ``PARAMETERS`` declares these ranges; a value outside them is a ValueError (a wrong type a
    TypeError) saying what is allowed. The search runs on worker threads while the calling
    thread watches for Ctrl-C: KeyboardInterrupt comes within a few tens of milliseconds and the
    bot can search again.

    The defaults (c 0.3, bias 5, heuristic rollouts) were the strongest of those tried in every
    game (docs/BOTS.md, "Strength"). With a given seed, simulations and thread count the choices
    are the same on every run."""

    kind = "ismcts"

    def __init__(self, game: Any, seed: int = 0, simulations: int = 1000, seconds: Optional[float] = None,
                 c: float = 0.3, bias: float = 5.0, rollout: str = "heuristic", threads: int = 1,
                 guide: str = "heuristic", weights: Union[str, Path, None] = None) -> None:
        super().__init__(game, seed)
        given = dict(simulations=simulations, seconds=seconds, c=c, bias=bias, rollout=rollout, threads=threads,
                     guide=guide)
        values = {name: PARAMETERS[name].validate(self.kind, value) for name, value in given.items()}
        self.simulations: int = values["simulations"]
        self.seconds: Optional[float] = values["seconds"]
        self.c: float = values["c"]
        self.bias: float = values["bias"]
        self.rollout: str = values["rollout"]
        self.threads: int = values["threads"]
        self.guide: str = values["guide"]
        self.weights = _check_weights(weights, self.rollout, self.guide)
        self._net = self._load()
        # the last search: (simulations run, rollout actions, [(action, visits, mean reward in [0, 1])])
        self.last_search: Optional[Tuple[int, int, List[Tuple[int, int, float]]]] = None
        # the last search's actions played descending the trees (the simulated actions are these and
        # the rollout actions; chance outcomes are not actions)
        self.last_tree_steps: Optional[int] = None

    def _load(self) -> Any:
        from .policy import load_net

        return load_net(self.weights, self.game) if self.weights is not None else None

    # The C++ network does not pickle: a pickled bot (sent to a worker process) loads its file again.
    _remade_on_load = NativeBot._remade_on_load + ("_net",)

    def _remake(self) -> None:
        super()._remake()
        self._net = self._load()

    def _choose(self, name: str, config: bytes, state_size: int, version: int, state: bytes, call: int) -> int:
        from .. import _batch

        action, simulations, steps, root, tree_steps = _batch.ismcts_search(
            name, config, state_size, version, state, self.simulations, self.seconds or 0.0, self.c, self.bias,
            self.rollout,
            self.threads, self.seed, call, self.game.min_return, self.game.max_return, self.guide, self._net)
        self.last_search = (simulations, steps, root)
        self.last_tree_steps = tree_steps
        return action

    def __repr__(self) -> str:
        budget = f"seconds={self.seconds}" if self.seconds else f"simulations={self.simulations}"
        return (f"IsmctsBot({self.game.name}, seed={self.seed}, {budget}, c={self.c}, bias={self.bias}, "
                f"rollout={self.rollout!r}, "
                f"threads={self.threads}{self._policy_text()})")

    def _policy_text(self) -> str:
        if self.weights is None:
            return ""
        return f", guide={self.guide!r}, weights={str(self.weights)!r}"


def _check_weights(weights: Any, rollout: str, guide: str) -> Union[str, Path, None]:
    """``weights`` if the options use a policy exactly when it is given, else a ValueError
    saying what to pass (a TypeError for a weights that is no path)."""
    uses_policy = [f"{name}={value!r}" for name, value in (("rollout", rollout), ("guide", guide))
                   if value.startswith("policy")]
    if weights is None:
        if uses_policy:
            raise ValueError(f"ismcts {' and '.join(uses_policy)} needs weights=: a policy file's path or 'shipped' "
                             "(docs/BASELINES.md)")
        return None
    if not isinstance(weights, (str, Path)):
        raise TypeError(f"ismcts weights is a policy file's path or 'shipped', got {type(weights).__name__}")
    if not uses_policy:
        raise ValueError("ismcts weights= is used by rollout='policy' or guide='policy'/'policy_ucb'/"
                         "'policy_heuristic' only; pass one of them or leave weights out")
    return weights
