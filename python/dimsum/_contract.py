"""The information contract, channel by channel: what ``dimsum.testing.check_game`` proves about
what a game declares (its ``GameInfo.information``) and about what each seat is shown.

The promise: ``state.resample(p, seed)`` is a state seat ``p`` cannot tell from ``state``, so every
way the library shows a seat its game (a *channel*) must show ``p`` the same thing in both. Each
channel is one entry of ``CHANNELS``: a name and a function ``(state, seat) -> comparable value``
(bytes, text, or a tuple of them). Adding a channel to the library adds one entry here, and every
game is checked through it; adding a game needs nothing here.

A channel that cannot show a pair (an adapter that refuses explicit chance, a decision message
for a seat that is not to act) raises ``NotApplicable``; one whose optional dependency is missing
is skipped as a whole, and ``check_game``'s Report lists it with the reason (never silently).

The declaration: a ``perfect`` game's resample keeps the position (only the generator, the future,
is redrawn); an ``imperfect`` game's must, from some reachable position, redraw something a seat
cannot see (``Ledger.check_declaration`` fails a game whose resamples never change anything).
"""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, Iterator, List, Optional, Tuple

GENERATOR_FIELDS = ("rng",)  # the future randomness: a perfect game's resample may redraw only this


class NotApplicable(Exception):
    """A channel does not show this (state, seat): nothing to compare."""


@dataclass(frozen=True)
class Channel:
    """One way the library shows a seat its game."""

    name: str
    view: Callable[[Any, int], Any]
    needs: Optional[str] = None  # the module of the optional dependency (an extra), if any
    costly: bool = False         # checked on the first pairs of each game only (check_game's budget)

    def missing(self) -> Optional[str]:
        """Why this channel cannot run here (its extra is not installed), or None."""
        if self.needs is not None and importlib.util.find_spec(self.needs) is None:
            return f"{self.needs} is not installed"
        return None


# -- the channels ------------------------------------------------------------------------------

def _observation(state: Any, seat: int) -> bytes:
    return state.observation(seat).tobytes()


def _names(state: Any) -> List[str]:
    return [f"seat {p}" for p in range(state.game.players)]


def _table(state: Any) -> None:
    if state.is_chance_node:
        raise NotApplicable("the tables (play, MCP, llm) play sampled games: no chance node is shown")


def _terminal_view(state: Any, seat: int) -> str:
    from .play.views import view_text

    _table(state)
    return view_text(state, seat, _names(state))


def _protocol(state: Any, seat: int) -> Tuple[str, ...]:
    """The messages an external bot in ``seat`` gets at this state (its decision message on its
    turn, the game_over at the end, otherwise the steps it has observed so far)."""
    from .protocol import messages

    if state.is_terminal:
        return (messages.encode(messages.game_over(state, seat)).decode(),)
    if state.current_player == seat:
        act = messages.view(state, seat, len(state.history), ("tensor", "observed"), determinization_seed=0)
        return (messages.encode(act).decode(),)
    return tuple(messages.observed(state, seat))


def _mcp_view(state: Any, seat: int) -> Tuple[str, str]:
    """What an MCP agent in ``seat`` reads: the table's text and its picture (mcp.table.Table)."""
    from .llm import view
    from .render import to_svg

    _table(state)
    names = _names(state)
    return view(state, seat, names, True), to_svg(state, seat, names)


def _llm_prompt(state: Any, seat: int) -> str:
    from .llm.prompt import build_prompt

    _table(state)
    return build_prompt(state, seat)


def _sampled(state: Any) -> None:
    if state.game.explicit_chance:
        raise NotApplicable("the adapters play sampled games only")


def _batch_env(state: Any, seat: int) -> Tuple[bytes, bytes, int]:
    """BatchEnv's row for a state put in it: the acting seat's observation, mask and seat."""
    import dimsum

    _sampled(state)
    if state.is_terminal or state.current_player != seat:
        raise NotApplicable("a BatchEnv row shows the seat to act")
    env = dimsum.BatchEnv(state.game, 1, seed=0)
    obs, info = env.reset()
    env.set_state(0, state)
    return obs[0].tobytes(), info["legal_mask"][0].tobytes(), int(info["current_player"][0])


def _every_key(obs: Dict[str, Any]) -> Tuple[Tuple[str, bytes], ...]:
    """An adapter's observation dict, every key of it (an added key is compared too)."""
    import numpy as np

    return tuple((k, np.asarray(v).tobytes()) for k, v in sorted(obs.items()))


def _options(state: Any) -> Dict[str, Any]:
    return {k: v for k, v in state.game.options.items() if k != "chance"}


_ENVS: Dict[Tuple[str, str, int], Any] = {}


def _env(kind: str, state: Any, seat: int, make: Callable[[], Any]) -> Any:
    """One adapter env per game configuration and seat, made once (making one is the costly part)."""
    key = (kind, repr(state.game), seat)
    if key not in _ENVS:
        if len(_ENVS) >= 64:
            _ENVS.clear()
        _ENVS[key] = make()
    return _ENVS[key]


def _gymnasium(state: Any, seat: int) -> Tuple[Any, bytes, Any]:
    """The Gymnasium env of learner ``seat`` holding this state: observation, masks, ansi render."""
    from .gymnasium import DimsumEnv

    _sampled(state)
    env = _env("gymnasium", state, seat,
               lambda: DimsumEnv(state.game.name, learner_seat=seat, render_mode="ansi", **_options(state)))
    env.state, env.steps, env.learner_steps, env.forfeited = state, 0, 1, False
    return _every_key(env._observation()), env.action_masks().tobytes(), env.render()


def _pettingzoo(state: Any, seat: int) -> Tuple[Any, str, Any]:
    """The PettingZoo AEC env holding this state, its agent ``seat`` selected: observe, info, render."""
    from .pettingzoo import raw_env

    _sampled(state)
    env = _env("pettingzoo", state, 0, lambda: raw_env(state.game.name, render_mode="ansi", **_options(state)))
    env.reset(seed=0)
    env.state = state
    agent = env.possible_agents[seat]
    env.agent_selection = agent
    return _every_key(env.observe(agent)), repr(env.infos[agent]), env.render()


def _openspiel(state: Any, seat: int) -> Tuple[bytes, str, str]:
    """What OpenSpiel reads of seat ``seat`` through dimsum's observers (``make_py_observer``):
    the observation tensor and string, and the information-state string."""
    import types

    import pyspiel

    from .openspiel import DimsumObserver

    wrapped = types.SimpleNamespace(dimsum_state=state)  # all the observers read of a DimsumState
    observation = DimsumObserver(state.game, pyspiel.IIGObservationType(perfect_recall=False))
    observation.set_from(wrapped, seat)
    recall = DimsumObserver(state.game, pyspiel.IIGObservationType(perfect_recall=True))
    return observation.tensor.tobytes(), observation.string_from(wrapped, seat), recall.string_from(wrapped, seat)


def _replay_page(state: Any, seat: int) -> Any:
    """The replay page of seat ``seat`` (``python -m dimsum replay --seat``) of the game so far,
    for a state its history reaches from a seed (a sampled game's redrawn hand is reached by none)."""
    from .cli.replay import page_data
    from .records import Record

    root = state._history_root()
    if not isinstance(root, int) or isinstance(root, bool):
        raise NotApplicable("no record reaches this state from a seed")
    return page_data(Record.of(state, root), seat)


def _browser_page(state: Any, seat: int) -> str:
    """What seat ``seat``'s page of ``python -m dimsum serve`` is sent (dimsum.web.messages)."""
    from .web import seat_message

    return seat_message(state, seat)


def _browser_spectator(state: Any, seat: int) -> str:
    """What a spectator's page is sent: the same for a state and its resample for *any* seat, so
    it shows nothing a seat hides."""
    from .web import spectator_message

    return spectator_message(state)


CHANNELS: Tuple[Channel, ...] = (
    Channel("observation tensor", _observation),
    Channel("observation string", lambda s, p: s.observation_string(p)),
    Channel("information-state string", lambda s, p: s.information_state_string(p)),
    Channel("information-state key", lambda s, p: s.information_state_key(p)),
    Channel("SVG picture", lambda s, p: s.to_svg(p), costly=True),
    Channel("terminal view", _terminal_view, costly=True),
    Channel("protocol messages", _protocol, costly=True),
    Channel("MCP view", _mcp_view, costly=True),
    Channel("llm prompt", _llm_prompt, costly=True),
    Channel("BatchEnv", _batch_env, costly=True),
    Channel("Gymnasium", _gymnasium, needs="gymnasium", costly=True),
    Channel("PettingZoo", _pettingzoo, needs="pettingzoo", costly=True),
    Channel("OpenSpiel", _openspiel, needs="pyspiel", costly=True),
    Channel("replay page", _replay_page, costly=True),
    Channel("browser page", _browser_page, costly=True),
    Channel("browser spectator", _browser_spectator, costly=True),  # explicit chance: a sampled resample has no record
)
"""Every channel the library shows a seat its game through."""


# -- the pairs ---------------------------------------------------------------------------------

def position(state: Any) -> Dict[str, Any]:
    """The state's fields but its generator: what a perfect game's resample must keep."""
    return {k: v for k, v in state.fields().items() if k not in GENERATOR_FIELDS}


def resample_pairs(state: Any, seeds: Iterator[int]) -> Iterator[Tuple[int, Any]]:
    """``(p, state.resample(p, seed))`` for every seat ``p``: the generic pair generator, a
    position and, for each seat, a state that seat cannot tell from it."""
    for p in range(state.game.players):
        yield p, state.resample(p, next(seeds))


def _differs(a: Any, b: Any) -> bool:
    return bool(a != b) if not hasattr(a, "tobytes") else a.tobytes() != b.tobytes()


@dataclass
class Ledger:
    """What one check_game run saw of the contract: which channels ran (and on how many pairs),
    which were skipped and why, and whether any resample redrew anything."""

    information: str
    costly_pairs: int = 6  # pairs per game each costly channel is compared on
    channels: Tuple[Channel, ...] = ()  # () is CHANNELS, read when the run starts
    compared: Dict[str, int] = field(default_factory=dict)
    in_game: Dict[str, int] = field(default_factory=dict)
    skipped: Dict[str, str] = field(default_factory=dict)
    changed: int = 0
    pairs: int = 0

    def __post_init__(self) -> None:
        self.channels = self.channels or CHANNELS
        for channel in self.channels:
            reason = channel.missing()
            if reason is not None:
                self.skipped[channel.name] = reason

    def new_game(self) -> None:
        """A new game starts: the costly channels' budget is per game."""
        self.in_game.clear()

    def check_pair(self, state: Any, p: int, other: Any) -> Optional[str]:
        """The broken promise for one pair (``other`` is ``state.resample(p, ...)``), or None."""
        self.pairs += 1
        if position(other) != position(state):
            self.changed += 1
            if self.information == "perfect":
                moved = sorted(k for k, v in position(other).items() if position(state)[k] != v)
                return (f"information contract: the game declares information='perfect' but resample({p}) changed "
                        f"the position (fields {moved}), not only the future randomness")
        for channel in self.channels:
            spent = channel.costly and self.in_game.get(channel.name, 0) >= self.costly_pairs
            if channel.name in self.skipped or spent:
                continue
            try:  # a channel that cannot show either state (a record no seed reaches) has no pair here
                theirs = channel.view(other, p)  # the resample first: it is the one a channel may not show
                mine = channel.view(state, p)
            except NotApplicable:
                continue
            self.compared[channel.name] = self.compared.get(channel.name, 0) + 1
            self.in_game[channel.name] = self.in_game.get(channel.name, 0) + 1
            if _differs(mine, theirs):
                return (f"information contract, channel {channel.name!r}: seat {p} sees a difference between a "
                        f"state and its resample({p}) (it shows something the seat cannot know)")
        return None

    def check_declaration(self) -> Optional[str]:
        """After the run: an imperfect game must have redrawn something hidden at least once."""
        if self.information == "imperfect" and self.pairs and not self.changed:
            return (f"information contract: the game declares information='imperfect' but none of {self.pairs} "
                    f"resamples changed the position (nothing hidden was ever redrawn): declare it 'perfect', or "
                    f"check more games")
        return None

    def never_applied(self) -> List[str]:
        """The channels that ran but had no pair to compare (reported, not failed)."""
        return [c.name for c in self.channels if c.name not in self.skipped and c.name not in self.compared]
