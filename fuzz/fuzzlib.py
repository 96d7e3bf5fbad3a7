"""What the fuzz targets share: the budget, the configurations, reachable positions, the checks
run on every accepted state, and the allow-list of known validator findings (docs/FUZZING.md).

Budget: each target runs a small, derandomized budget (the CI one, the whole of fuzz/ in well
under a minute); ``DIMSUM_FUZZ_EXAMPLES=100000`` runs that many examples per target instead,
randomized (``DIMSUM_FUZZ_SEED=<int>`` fixes the seed of such a run).
"""

from __future__ import annotations

import copy
import functools
import importlib
import math
import os
import random
from collections import Counter
from typing import Any, Callable, Dict, List, Optional, Tuple

import numpy as np
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

import dimsum
from dimsum.testing import random_position

# -- budget ----------------------------------------------------------------------------------------

LONG_EXAMPLES = int(os.environ.get("DIMSUM_FUZZ_EXAMPLES", "0") or 0)
LONG_SEED = os.environ.get("DIMSUM_FUZZ_SEED")


def budget(ci_examples: int):
    """Hypothesis settings for one target: ``ci_examples`` derandomized examples, or the long
    budget from DIMSUM_FUZZ_EXAMPLES. No example database (nothing written into the checkout)."""
    long_run = LONG_EXAMPLES > 0
    return settings(
        max_examples=LONG_EXAMPLES if long_run else ci_examples,
        derandomize=not long_run,
        database=None,
        deadline=None,
        print_blob=True,
        suppress_health_check=list(HealthCheck),
    )


def seeded(test):
    """Fixes hypothesis' seed of a long run when DIMSUM_FUZZ_SEED is set (CI runs derandomized)."""
    if LONG_EXAMPLES and LONG_SEED is not None:
        from hypothesis import seed

        return seed(int(LONG_SEED))(test)
    return test


# -- configurations --------------------------------------------------------------------------------

GAMES = dimsum.games()

# A few option sets per game: every player count, and options that change the state's shape or
# its limits. Explicit chance is added below where this build has it.
_OPTIONS: Dict[str, List[Dict[str, Any]]] = {
    "dim_sum_jam": [dict(players=2), dict(players=3), dict(players=4, achievement="copper-4"),
                    dict(players=5, reverse_variant=True, achievement="gold-4"),
                    dict(players=3, achievement="silver-1", flip_model="full")],
    "nice_buns": [dict(players=2), dict(players=3, manual_plating=True), dict(players=4, max_turns=6),
                  dict(players=5, mandatory_dice=False), dict(players=6, fish_movable=False)],
    "yum_cha": [dict(players=2, max_turns_per_round=12), dict(players=3),
                dict(players=4, rounds=2, max_turns_per_round=8, forbid_immediate_return=True),
                dict(players=5, deck_out="reshuffle_centre", max_turns_per_round=40, rounds=1),
                dict(players=3, auto_declare=True, tie_break="declarations_then_best_round", reward="score")],
}


def _frozen(options: Dict[str, Any]) -> Tuple[Tuple[str, Any], ...]:
    return tuple(sorted(options.items()))


@functools.lru_cache(maxsize=None)
def _make(name: str, frozen: Tuple[Tuple[str, Any], ...]):
    return dimsum.make(name, **dict(frozen))


def make(name: str, options: Dict[str, Any]):
    """dimsum.make, one built game per configuration (building is the slow part)."""
    return _make(name, _frozen(options))


@functools.lru_cache(maxsize=None)
def explicit_supported(name: str) -> bool:
    """Whether this build plays ``name`` with chance="explicit" (states stop at chance nodes)."""
    try:
        game = dimsum.make(name, chance="explicit")
        state = game.new_state(1)
        return isinstance(state.is_chance_node, bool)
    except Exception:  # not implemented for this game (yet): the targets play it sampled only
        return False


def configs(name: str) -> List[Dict[str, Any]]:
    """The option sets the targets draw from for ``name``: sampled chance, plus explicit."""
    out = [dict(o) for o in _OPTIONS.get(name, [dict(players=2), dict(players=3)])]
    if explicit_supported(name):
        out += [dict(o, chance="explicit") for o in out[:3]]
    return out


def sampled_configs(name: str) -> List[Dict[str, Any]]:
    return [o for o in configs(name) if o.get("chance") != "explicit"]


def game_module(game):
    """The game's Python package (dimsum.games.<name>): its dict codec."""
    return importlib.import_module(f"dimsum.games.{game.name}")


reachable = random_position  # dimsum.testing's: a position the rules can reach


@st.composite
def positions(draw, name: str, explicit: bool = True, max_steps: int = 120):
    """(game, state): a configuration of ``name`` and a reachable position of it."""
    choices = configs(name) if explicit else sampled_configs(name)
    options = draw(st.sampled_from(choices), label="options")
    game = make(name, options)
    seed = draw(st.integers(0, 2**32 - 1), label="seed")
    steps = draw(st.integers(0, max_steps), label="steps")
    return game, reachable(game, seed, steps)


# -- junk ------------------------------------------------------------------------------------------

class Weird:
    """An object no API takes: it has no int, index, len or iteration."""

    def __repr__(self) -> str:
        return "Weird()"


big_ints = st.one_of(st.integers(-(2**70), 2**70), st.sampled_from(
    [-1, 0, 1, 2**7, 2**8, 2**15, 2**16, 2**31 - 1, 2**31, 2**32, 2**63 - 1, 2**63, 2**64 - 1, 2**64, -(2**63)]))

junk = st.deferred(lambda: st.one_of(
    st.none(), st.booleans(), big_ints, st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=12), st.binary(max_size=12), st.just(Weird()), st.just(object()),
    st.just(np.int64(3)), st.just(np.float32(1.5)), st.just(np.array([1, 2])), st.just(np.bool_(True)),
    st.lists(st.one_of(st.none(), big_ints, st.text(max_size=4)), max_size=5),
    st.dictionaries(st.text(max_size=6), st.one_of(big_ints, st.none()), max_size=3),
    st.tuples(big_ints, big_ints), st.just(float("nan")), st.just(complex(1, 2)),
))

ALLOWED = (ValueError, TypeError)  # dimsum.IllegalActionError is a ValueError
MASK64 = (1 << 64) - 1


# -- known findings --------------------------------------------------------------------------------
Fields = Dict[str, Any]


# The validator findings the fuzzers may meet without failing: none now. The audit's four (Dim
# Sum Jam's over-long deck; Yum Cha's unchecked best/last round, its turn at the cap in a running
# round, its last_taken card the taker was not known to hold) were listed here until the
# validators were fixed; tests/test_validator_findings.py keeps a regression test for each. A new
# finding that cannot be fixed at once goes here: its name, its game, a predicate on the offending
# state's fields, and the fields that make it.
KNOWN_FINDINGS: Dict[str, Tuple[str, Callable[[Any, Fields], bool], Tuple[str, ...]]] = {}

HITS: Counter = Counter()  # known finding -> times a target's invariant failed on it (this session)
SAMPLES: Dict[str, List[str]] = {}  # known finding -> the first few failures put down to it
RUNS: Counter = Counter()  # target -> examples run (this session)


def known_findings(game, fields: Optional[Fields]) -> List[str]:
    """The known findings ``fields`` (a state's named fields) shows, by name."""
    if fields is None:
        return []
    out = []
    for name, (game_name, predicate, _) in KNOWN_FINDINGS.items():
        try:
            if game.name == game_name and predicate(game, fields):
                out.append(name)
        except (KeyError, IndexError, TypeError):
            pass
    return out


class Finding(AssertionError):
    """An invariant a target checks does not hold."""


def tolerate_known(game, fields: Optional[Fields], failure: Finding,
                   recheck: Optional[Callable[[Fields], None]] = None, original: Optional[Fields] = None) -> None:
    """Re-raises ``failure`` unless the offending state ``fields`` shows a known finding.

    With ``recheck`` and ``original`` (the structure-aware target), the failure must also be
    explained by the finding: with the finding's own fields put back to their ``original``
    values, ``recheck(fields)`` must pass; otherwise the failure is something else, re-raised."""
    names = known_findings(game, fields)
    if not names:
        raise failure
    if recheck is not None and original is not None:
        def passes_without(found: List[str]) -> bool:
            restored = copy.deepcopy(fields)
            for n in found:
                for f in KNOWN_FINDINGS[n][2]:
                    restored[f] = copy.deepcopy(original[f])
            try:
                recheck(restored)
            except Finding:
                return False
            return True

        if not passes_without(names):
            raise Finding(f"{failure} (not explained by the known finding(s) {names}: it persists with their "
                          "fields restored)")
        # put it down to the finding(s) whose fields alone explain it, if any does alone
        names = [n for n in names if passes_without([n])] or names
    for n in names:
        HITS[n] += 1
        samples = SAMPLES.setdefault(n, [])
        if len(samples) < 3:
            samples.append(f"{game.name}, players={game.players}: {failure}")


# -- what every accepted state must satisfy ---------------------------------------------------------

def same(a, b) -> bool:
    return a.to_bytes() == b.to_bytes()


def check_observations(state) -> None:
    game = state.game
    low, high = game.observation_bounds
    for p in range(game.players):
        obs = state.observation(p)
        if obs.shape != tuple(game.observation_shape) or not np.isfinite(obs).all():
            raise Finding(f"observation({p}) has shape {obs.shape} or is not finite")
        bad = np.nonzero((obs < low) | (obs > high))[0]
        if bad.size:
            i = int(bad[0])
            where = next((s.name for s in game.observation_layout if s.start <= i < s.stop), "?")
            raise Finding(f"observation({p})[{i}] ({where}) = {obs[i]} outside its declared bounds "
                          f"[{low[i]}, {high[i]}]")


def check_round_trips(state) -> None:
    """to_bytes, to_dict and fields() all read back as the same state."""
    game = state.game
    for how, make_back in (("to_bytes", lambda: game.state_from_bytes(state.to_bytes())),
                           ("to_dict", lambda: game.state_from_dict(state.to_dict())),
                           ("fields", lambda: game.state_from_fields(state.fields()))):
        try:
            back = make_back()
        except ValueError as e:
            raise Finding(f"an accepted state's {how}() is refused: {e}") from None
        if not same(back, state):
            raise Finding(f"an accepted state's {how}() reads back as another state")


def check_accepted(state, resample_seeds=(1,), playout_steps: int = 6) -> None:
    """A state the API accepted: valid, readable, round-trips, and every state one action or
    one resample away passes check() too, as does every state of a short seeded random playout
    from it (a broken position often shows a step or two later; raises Finding)."""
    try:
        state.check()
    except ValueError as e:
        raise Finding(f"an accepted state fails check(): {e}") from None
    check_round_trips(state)
    check_observations(state)
    state.returns()
    state.legal_mask()
    str(state)
    if state.is_terminal:
        return
    for a in state.legal_actions():
        child = state.clone()
        child.apply(a)
        try:
            child.check()
        except ValueError as e:
            raise Finding(f"action {a} ({state.action_name(a)}) leads to a state that fails check(): {e}") from None
        check_observations(child)
    for p in range(state.game.players):
        for seed in resample_seeds:
            other = state.resample(p, seed)
            try:
                other.check()
            except ValueError as e:
                raise Finding(f"resample({p}, {seed}) makes a state that fails check(): {e}") from None
    rng = random.Random(len(state.history))
    walker = state.clone()
    for step in range(playout_steps):
        if walker.is_terminal:
            break
        a = rng.choice(walker.legal_actions())
        name = walker.action_name(a)
        walker.apply(a)
        try:
            walker.check()
        except ValueError as e:
            raise Finding(f"step {step + 1} of a playout ({name}) leads to a state that fails check(): {e}") from None
        check_observations(walker)


def deep_copy(fields: Fields) -> Fields:
    return copy.deepcopy(fields)


def is_finite_number(x: Any) -> bool:
    return isinstance(x, float) and math.isfinite(x)
