"""Bots: players for every game. ``dimsum.bots.make(kind, game, seed=0, **params)``.

A bot is anything with ``act(state) -> int``: it returns a legal action for the player to act
and never changes ``state``. A plain callable ``f(state) -> int`` is a bot too wherever bots are
accepted (:func:`as_bot` wraps it). Bots are fair by construction: they read only what the
acting player may see (the legal actions, ``observation(p)``, ``information_state_string(p)``,
and ``resample(p, seed)`` to imagine the rest). docs/BOTS.md describes each kind.

Kinds are registered by name (:func:`register`); :func:`kinds` lists them. The arena and the
terminal player name bots by spec strings, parsed by :func:`parse_spec` and :func:`parse_list`:
``"random"``, ``"ismcts:simulations=1000"``, ``"ismcts:simulations=1000,c=0.7"``.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Protocol, Tuple, Union, runtime_checkable

from .external import ExternalBot
from .heuristic import HeuristicBot
from .ismcts import IsmctsBot
from .llm import LlmBot
from .policy import PolicyBot
from .random_bot import RandomBot

__all__ = ["Bot", "BotLike", "ExternalBot", "HeuristicBot", "IsmctsBot", "LlmBot", "PolicyBot", "RandomBot", "as_bot", "kinds", "make", "parse_list", "parse_spec", "register"]


@runtime_checkable
class Bot(Protocol):
    """A player: ``act(state)`` returns a legal action for ``state.current_player``."""

    def act(self, state: Any) -> int: ...


BotLike = Union[Bot, Callable[[Any], int]]
Factory = Callable[..., Bot]  # factory(game, seed, **params) -> Bot

_KINDS: Dict[str, Factory] = {}


def register(kind: str, factory: Factory) -> None:
    """Makes ``make(kind, game, seed, **params)`` call ``factory(game, seed, **params)``."""
    _KINDS[kind] = factory


def kinds() -> Tuple[str, ...]:
    """The kinds ``make`` accepts, sorted."""
    return tuple(sorted(_KINDS))


def make(kind: str, game: Any, seed: int = 0, **params: Any) -> Bot:
    """A bot of ``kind`` for ``game`` (a Game from ``dimsum.make``), seeded by ``seed``.

    An unknown kind is a ValueError listing the kinds; an unknown or bad parameter is a
    ValueError or TypeError from the kind itself, naming the parameters it takes."""
    from .._common import check_seed

    if not isinstance(kind, str):
        raise TypeError(f"a bot kind is a str, one of {', '.join(kinds())}; got {type(kind).__name__}")
    if kind not in _KINDS:
        raise ValueError(f"unknown bot kind {kind!r}; the kinds are {', '.join(kinds())}")
    factory = _KINDS[kind]
    accepted = _parameters(factory)
    unknown = sorted(set(params) - set(accepted))
    if unknown:
        takes = ", ".join(accepted) if accepted else "no parameters"
        raise ValueError(f"bot kind {kind!r} has no parameter {', '.join(map(repr, unknown))}; it takes {takes}")
    return factory(game, check_seed(seed), **params)


def _parameters(factory: Factory) -> Tuple[str, ...]:
    """The keyword parameters a factory takes beyond (game, seed)."""
    import inspect

    signature = inspect.signature(factory)
    return tuple(name for name, p in signature.parameters.items()
                 if name not in ("self", "game", "seed")
                 and p.kind in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD))


class _CallableBot:
    """A plain callable ``f(state) -> int`` as a Bot."""

    def __init__(self, function: Callable[[Any], int]) -> None:
        self.function = function
        self.name = getattr(function, "__name__", type(function).__name__)

    def act(self, state: Any) -> int:
        return self.function(state)

    def __repr__(self) -> str:
        return f"bot({self.name})"


def as_bot(obj: BotLike) -> Bot:
    """``obj`` if it is a Bot, a Bot calling it if it is a callable ``f(state) -> int``."""
    if callable(getattr(obj, "act", None)):
        return obj  # type: ignore[return-value]
    if callable(obj):
        return _CallableBot(obj)
    raise TypeError(f"a bot has act(state) -> int or is a callable f(state) -> int; got {type(obj).__name__}")


def _parse_value(text: str) -> Any:
    for convert in (int, float):
        try:
            return convert(text)
        except ValueError:
            pass
    return {"true": True, "false": False}.get(text.lower(), text)


def parse_spec(spec: str) -> Tuple[str, Dict[str, Any]]:
    """``"ismcts:simulations=1000,c=0.7"`` -> ``("ismcts", {"simulations": 1000, "c": 0.7})``.

    Values become int, float or bool where they read as one, str otherwise."""
    kind, _, rest = spec.strip().partition(":")
    params: Dict[str, Any] = {}
    for item in filter(None, (part.strip() for part in rest.replace(":", ",").split(","))):
        key, eq, value = item.partition("=")
        if not eq or not key.strip():
            raise ValueError(f"bot spec {spec!r}: {item!r} is not name=value")
        params[key.strip()] = _parse_value(value.strip())
    if not kind:
        raise ValueError(f"bot spec {spec!r} names no kind; the kinds are {', '.join(kinds())}")
    return kind, params


def parse_list(text: str) -> List[Tuple[str, Dict[str, Any]]]:
    """A comma-separated list of specs: ``"ismcts:simulations=1000,c=0.7,heuristic,random"``.

    An item with ``=`` and no ``:`` continues the parameters of the bot before it."""
    specs: List[str] = []
    for item in filter(None, (part.strip() for part in text.split(","))):
        if "=" in item and ":" not in item:
            if not specs:
                raise ValueError(f"bot list {text!r} starts with a parameter {item!r} and no bot")
            specs[-1] += "," + item
        else:
            specs.append(item)
    if not specs:
        raise ValueError(f"bot list {text!r} names no bot; the kinds are {', '.join(kinds())}")
    return [parse_spec(spec) for spec in specs]


register("random", RandomBot)
register("heuristic", HeuristicBot)
register("ismcts", IsmctsBot)
register("policy", PolicyBot)
register("llm", LlmBot)  # model= a prompt -> reply callable (docs/MCP.md)
register("external", ExternalBot)  # a program in any language, through the bot protocol (docs/PROTOCOL.md)
