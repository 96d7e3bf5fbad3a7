"""What an MCP client may ask of the server: which bots, with which parameters, and whether it
may fix the deal. The operator (who starts the server) sets it; the client (and the agent behind
it, whose input may come from anywhere, a prompt injection included) only chooses within it.

By default a client chooses among the built-in bots that run no program and open no file the
client names: ``random``, ``heuristic``, ``ismcts`` with its search capped (``max_simulations``,
``max_seconds``, one thread) and ``policy`` (and ``ismcts``'s policy guides) with
``weights="shipped"`` only. Anything else, an ``external`` program or a policy file, the operator
registers by name (``--bot NAME=SPEC``): the client chooses it by ``NAME`` and never sees nor
chooses its command or path. A refusal says what is allowed, and is the same whatever the refused
spec names (it never tells whether a path exists: nothing is opened to check it).

A client's ``seed`` is refused unless the operator allows it (``client_seeds``): the seed is the
whole deal, every hidden card and future draw, so an agent that chose it plays with the cards face
up.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any, Dict, List, Mapping, Tuple

# An ismcts move with heuristic rollouts costs up to about 1.4 ms a simulation (Yum Cha, the
# slowest game, on a loaded 2-core machine), so 2,000 simulations or 2 seconds keep one bot move
# near 2-3 s at worst: long enough for a fair opponent, short enough that ending a session or
# closing the client waits for at most one such move (docs/MCP.md, "Security").
MAX_SIMULATIONS = 2000
MAX_SECONDS = 2.0
SHIPPED = "shipped"
_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_.-]{0,39}$")


class BotRefused(ValueError):
    """A bot spec the server does not allow; the message lists what it allows."""


@dataclass(frozen=True)
class Capabilities:
    """The operator's choices: the caps of a client's ismcts bots, the operator's own bots by name
    (``named``: NAME -> (kind, params), any spec), and whether a client may give the deal's seed."""

    max_simulations: int = MAX_SIMULATIONS
    max_seconds: float = MAX_SECONDS
    named: Mapping[str, Tuple[str, Dict[str, Any]]] = field(default_factory=dict)
    client_seeds: bool = False

    def __post_init__(self) -> None:
        if isinstance(self.max_simulations, bool) or not isinstance(self.max_simulations, int) \
                or not 1 <= self.max_simulations <= 10**9:
            raise ValueError(f"max_simulations is an int from 1 to 10**9, got {self.max_simulations!r}")
        if isinstance(self.max_seconds, bool) or not isinstance(self.max_seconds, (int, float)) \
                or not (math.isfinite(self.max_seconds) and 0.0001 <= self.max_seconds <= 3600):
            raise ValueError(f"max_seconds is a number of seconds from 0.0001 to 3600, got {self.max_seconds!r}")
        for name, (kind, params) in self.named.items():
            check_named(name, kind, params)

    # ---- what the client may choose --------------------------------------------------------------
    def rules(self) -> Dict[str, Dict[str, str]]:
        """Each kind a client may name, with what each of its parameters may be."""
        return {
            "random": {},
            "heuristic": {},
            "ismcts": {
                "simulations": f"an int from 1 to {self.max_simulations}",
                "seconds": f"a time budget per move, at most {self.max_seconds:g} s",
                "c": "a number from 0 to 1000", "bias": "a number from 0 to 1000",
                "rollout": "random, heuristic or policy", "guide": "heuristic, policy, policy_ucb or policy_heuristic",
                "threads": "1", "weights": f"{SHIPPED!r} only (the policy dimsum ships)",
            },
            "policy": {
                "weights": f"{SHIPPED!r} only (the policy dimsum ships)", "greedy": "true or false",
                "temperature": "a number > 0",
            },
        }

    def allowed(self) -> str:
        """One line: the bots a client may choose, for refusals and the tools' descriptions."""
        named = ", ".join(sorted(self.named)) or "none"
        return (f"the bots you may choose are random, heuristic, ismcts (simulations up to {self.max_simulations}, "
                f"seconds up to {self.max_seconds:g}, threads 1, weights={SHIPPED} only), policy "
                f"(weights={SHIPPED} only); and the operator's bots, by name: {named} (list_bots tells more)")

    def choose(self, kind: str, params: Dict[str, Any]) -> Tuple[str, str, Dict[str, Any]]:
        """The bot a client named as ``kind`` with ``params`` (one parsed spec): its name at the table,
        and the kind and parameters to make it with. BotRefused saying what is allowed otherwise."""
        if kind in self.named:
            if params:
                raise BotRefused(f"{kind!r} is a bot of the server's operator: it takes no parameters; "
                                 f"{self.allowed()}")
            real_kind, real_params = self.named[kind]
            return kind, real_kind, dict(real_params)
        rules = self.rules().get(kind)
        if rules is None:
            raise BotRefused(f"bot {kind!r} is not one this server lets a client choose; {self.allowed()}")
        for key, value in params.items():
            if key not in rules:
                raise BotRefused(f"bot {kind!r} takes no parameter {key!r} here (it takes "
                                 f"{', '.join(rules) or 'none'}); {self.allowed()}")
            self._check_value(kind, key, value)
        from ..arena.players import spec_name

        return spec_name(kind, params), kind, dict(params)

    def _check_value(self, kind: str, key: str, value: Any) -> None:
        """The caps; every other check of a value is the bot's own (it says what is allowed)."""
        number = isinstance(value, (int, float)) and not isinstance(value, bool)
        over = {"simulations": self.max_simulations, "seconds": self.max_seconds, "threads": 1}
        if key == "weights" and value != SHIPPED:
            # the same refusal for any path: nothing is opened, so nothing tells whether it exists
            raise BotRefused(f"{kind} weights may only be {SHIPPED!r} here: the server opens no file a client "
                             f"names (the operator can register a policy file as a named bot); {self.allowed()}")
        if key in over and number and value > over[key]:
            raise BotRefused(f"{kind} {key}={value} is over this server's cap ({over[key]:g}); {self.allowed()}")

    def describe(self) -> Dict[str, Any]:
        """What list_bots tells the client, as JSON."""
        return {
            "kinds": self.rules(),
            "operator_bots": sorted(self.named),
            "spec": "bots is a list in seat order, the last repeated: 'heuristic', "
                    "'random,ismcts:simulations=500', or an operator bot's name",
            "client_seeds": self.client_seeds,
            "seed": ("start_game takes a seed (a seed the agent knows is the whole deal)" if self.client_seeds
                     else "the server deals every game itself; a seed from the client is refused"),
        }


def check_named(name: str, kind: str, params: Dict[str, Any]) -> None:
    """An operator's named bot: a name a client can type in a spec list (not a kind's name), and a
    spec whose kind exists, takes these parameters, and (external) names a program that exists."""
    import dimsum.bots

    if not isinstance(name, str) or not _NAME.match(name):
        raise ValueError(f"a bot's name is a letter then up to 39 letters, digits, '_', '.' or '-', got {name!r}")
    if name in dimsum.bots.kinds():
        raise ValueError(f"a bot's name must not be a bot kind ({', '.join(dimsum.bots.kinds())}), got {name!r}")
    if kind not in dimsum.bots.kinds() or kind == "llm":
        kinds = ", ".join(k for k in dimsum.bots.kinds() if k != "llm")
        raise ValueError(f"bot {name!r}: unknown bot kind {kind!r}; a named bot is one of {kinds}")
    accepted = dimsum.bots._parameters(dimsum.bots._KINDS[kind])
    unknown = sorted(set(params) - set(accepted))
    if unknown:
        raise ValueError(f"bot {name!r}: kind {kind!r} has no parameter {', '.join(map(repr, unknown))}; "
                         f"it takes {', '.join(accepted) or 'none'}")
    if kind == "external":
        from ..bots.external import command_argv

        command_argv(params.get("command", ""))


def parse_named(texts: List[str]) -> Dict[str, Tuple[str, Dict[str, Any]]]:
    """``["NAME=SPEC", ...]`` (the ``--bot`` flags) -> {NAME: (kind, params)}; ValueError for a
    malformed or repeated one."""
    import dimsum.bots

    named: Dict[str, Tuple[str, Dict[str, Any]]] = {}
    for text in texts:
        name, eq, spec = text.partition("=")
        if not eq or not spec.strip():
            raise ValueError(f"--bot takes NAME=SPEC, e.g. strong=ismcts:simulations=20000; got {text!r}")
        name = name.strip()
        if name in named:
            raise ValueError(f"--bot {name!r} is given twice")
        kind, params = dimsum.bots.parse_spec(spec)
        check_named(name, kind, params)
        named[name] = (kind, params)
    return named
