"""The arena's entrants: bots named by spec strings (made afresh for every game, seeded by the
schedule) or given as objects/callables (used as they are, in every game they play).

An entrant travels to the worker processes and Ray tasks as an :class:`Entrant` and is turned
into a bot there: a spec carries its kind's factory too, so that a kind registered at run time
(by a plugin or a test) is known in the workers, provided its factory can be imported there.
"""

from __future__ import annotations

import pickle
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, Sequence

from .. import bots as _bots


@dataclass(frozen=True)
class Entrant:
    """One bot of the tournament: ``name`` (unique), and either ``kind``/``params`` or ``obj``."""

    name: str
    kind: Optional[str] = None
    params: Dict[str, Any] = field(default_factory=dict)
    factory: Optional[Callable[..., Any]] = None
    obj: Any = None

    def maker(self, game: Any) -> Callable[[int], Any]:
        """``maker(seed)`` -> a bot for one game of ``game``: made from the spec with ``seed``, or
        the object itself. The spec is checked once through ``dimsum.bots.make``; later bots come
        straight from the kind's factory (the check inspects the factory's signature, which costs
        more than a short game's moves)."""
        if self.kind is None:
            bot = _bots.as_bot(self.obj)
            return lambda seed: bot
        if self.kind not in _bots.kinds() and self.factory is not None:
            _bots.register(self.kind, self.factory)  # a kind registered at run time in the parent
        _bots.make(self.kind, game, seed=0, **self.params)
        factory, params = _bots._KINDS[self.kind], dict(self.params)
        return lambda seed: factory(game, seed, **params)


def spec_name(kind: str, params: Dict[str, Any]) -> str:
    """``ismcts:c=0.7,simulations=1000``: the spec written back, parameters sorted by name. A callable
    value (the llm bot's model) is written by its name, not its repr, which holds an address that
    changes from run to run. A kind whose factory has ``public_params(params)`` shows only what that
    returns: the names go into results and records, which are shared, so the external bot shows its
    command without machine paths (``external:command=protocol_bot``) and never a secret."""
    public = getattr(_bots._KINDS.get(kind), "public_params", None)
    if callable(public):
        params = public(params)
    if not params:
        return kind
    return kind + ":" + ",".join(f"{key}={_value_name(params[key])}" for key in sorted(params))


def _value_name(value: Any) -> str:
    if callable(value):
        return str(getattr(value, "__name__", type(value).__name__))
    return str(value)


def _object_name(obj: Any) -> str:
    name = getattr(obj, "name", None)
    if isinstance(name, str) and name:
        return name
    return getattr(obj, "__name__", None) or type(obj).__name__


def entrants(bots: Any, game: Any) -> List[Entrant]:
    """The entrants for ``bots``: a spec list string (``"ismcts:simulations=100,random"``) or a
    sequence of spec strings, ``(kind, params)`` pairs, bot objects and callables.

    Every spec is made once here with seed 0, so that an unknown kind or parameter is a
    ValueError/TypeError before any game is played. Names are made unique with ``#2``, ``#3``."""
    if isinstance(bots, str):
        items: Sequence[Any] = _bots.parse_list(bots)
    elif isinstance(bots, Sequence):
        items = list(bots)
    else:
        raise TypeError(f"bots are a spec list string or a sequence of specs, bots and callables; "
                        f"got {type(bots).__name__}")
    if not items:
        raise ValueError("a tournament needs at least one bot")
    found: List[Entrant] = []
    for item in items:
        if isinstance(item, str):
            item = _bots.parse_spec(item)
        if isinstance(item, tuple) and len(item) == 2 and isinstance(item[0], str) and isinstance(item[1], dict):
            kind, params = item
            try:
                _bots.make(kind, game, seed=0, **params)  # refuses unknown kinds and parameters now
            except (ValueError, TypeError):
                raise
            except Exception as e:  # a factory's own failure is bad input too, not a crash
                raise ValueError(f"bot {spec_name(kind, params)!r} cannot be made: {type(e).__name__}: {e}") from None
            found.append(Entrant(spec_name(kind, params), kind, dict(params), _factory(kind)))
        else:
            _bots.as_bot(item)  # a TypeError for anything that is not a bot
            found.append(Entrant(_object_name(item), obj=item))
    seen: Dict[str, int] = {}
    unique = []
    for entrant in found:
        seen[entrant.name] = seen.get(entrant.name, 0) + 1
        if seen[entrant.name] > 1:
            entrant = Entrant(f"{entrant.name}#{seen[entrant.name]}", entrant.kind, entrant.params,
                              entrant.factory, entrant.obj)
        unique.append(entrant)
    return unique


def _factory(kind: str) -> Optional[Callable[..., Any]]:
    return _bots._KINDS.get(kind)  # the registry's own table: the factory travels with the spec


def check_picklable(entrants: List[Entrant], where: str, dumps: Callable[[Any], bytes] = pickle.dumps) -> None:
    """Bots given as objects must pickle (with ``dumps``: Ray's cloudpickle takes lambdas too) to run
    in ``where`` (worker processes, Ray tasks)."""
    for entrant in entrants:
        try:
            dumps(entrant)
        except Exception as e:  # pickle raises several types (PicklingError, AttributeError, TypeError)
            what = f"bot {entrant.name!r}" if entrant.kind is None else f"the factory of bot kind {entrant.kind!r}"
            raise TypeError(f"{what} cannot be sent to {where} ({type(e).__name__}: {e}); give it as a spec "
                            f"string of a registered kind, make it picklable, or use workers=1") from None
