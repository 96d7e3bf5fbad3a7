"""The conformance suite: ``check_game(game, n_games)`` plays seeded random games and checks,
at every step, everything the API contract promises (docs/ARCHITECTURE.md, "Testing layers").

Users can run it on their own configurations (a custom deck, other dice):

    import dimsum, dimsum.testing
    dimsum.testing.check_game(dimsum.make("yum_cha", players=3, deck=my_deck), n_games=50)

It raises AssertionError naming the game, seed, step and the promise that was broken. Among the
promises, the information contract (dimsum._contract): what the game declares about hidden
information holds, and a seat sees a state and its resample alike through every channel.

``profile(name)`` is a game's test and benchmark profile (``Profile``): the per-game cases
the shared tests and benchmarks loop over, declared next to the game.
"""

from __future__ import annotations

import ast
import importlib
import math
import pickle
import re
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, Iterator, List, Mapping, Optional, Tuple

from ._common import TERMINAL, IllegalActionError, Profile, check_game_name  # Profile: re-exported
from .reference.rng import Rng


def profile(name: str) -> Profile:
    """The test and benchmark profile of the registered game ``name``."""
    from . import games

    name = check_game_name(name, games())
    return importlib.import_module(f"dimsum.games.{name}.profile").PROFILE


@dataclass
class Report:
    """What a check_game run covered: games and steps played, the longest game, and the
    information contract's channels: the pairs compared in each, and those skipped with why
    (an optional dependency not installed; a channel that had no pair to show)."""

    games: int = 0
    steps: int = 0
    longest: int = 0
    channels: Dict[str, int] = field(default_factory=dict)
    skipped: Dict[str, str] = field(default_factory=dict)


class _Checker:
    def __init__(self, game: Any, seed: int, deep_every: int) -> None:
        self.game = game
        self.seed = seed
        self.deep_every = deep_every
        self.step = 0

    def fail(self, message: str) -> None:
        raise AssertionError(f"check_game({self.game!r}) seed {self.seed} step {self.step}: {message}")

    def expect(self, condition: bool, message: str) -> None:
        if not condition:
            self.fail(message)

    # -- checks run once per game --------------------------------------------------------------
    def check_action_names(self) -> None:
        g = self.game
        names = [g.action_name(a) for a in range(g.num_actions)]
        self.expect(len(set(names)) == len(names), "action names are not unique")
        for a, name in enumerate(names):
            self.expect(g.parse_action(name) == a, f"parse_action({name!r}) is not {a}")
        outcomes = [g.chance_outcome_name(o) for o in range(g.num_chance_outcomes)]
        self.expect(len(set(outcomes)) == len(outcomes), "chance outcome names are not unique")
        self.expect(g.num_chance_outcomes <= g.num_actions, "more chance outcomes than actions")

    # -- checks run at every step --------------------------------------------------------------
    def check_state(self, state: Any) -> List[int]:
        g = self.game
        legal = state.legal_actions()
        player = state.current_player
        self.expect(legal == sorted(set(legal)), f"legal actions not sorted and unique: {legal}")
        mask = state.legal_mask()
        self.expect(mask.shape == (g.num_actions,) and mask.dtype == bool, "legal_mask has the wrong shape or dtype")
        self.expect([int(a) for a in mask.nonzero()[0]] == legal, "legal_mask disagrees with legal_actions")
        if state.is_terminal:
            self.expect(player == TERMINAL and legal == [], "a terminal state has a player or legal actions")
        elif state.is_chance_node:
            self.expect(g.explicit_chance, "a chance node in a game made with chance='sampled'")
            self.check_chance_node(state, legal)
        else:
            self.expect(0 <= player < g.players, f"current player {player} out of range")
            self.expect(len(legal) > 0, "a live state has no legal action")
        for p in range(g.players):
            obs = state.observation(p)
            self.expect(obs.shape == tuple(g.observation_shape) and obs.dtype.name == "float32",
                        f"observation({p}) has shape {obs.shape} dtype {obs.dtype}")
            self.expect(all(math.isfinite(x) for x in obs.tolist()), f"observation({p}) is not finite")
            self.check_observation_bounds(p, obs)
        returns = state.returns()
        self.expect(len(returns) == g.players, "returns() has the wrong length")
        self.expect(all(g.min_return - 1e-9 <= r <= g.max_return + 1e-9 for r in returns),
                    f"returns {returns} outside [{g.min_return}, {g.max_return}]")
        state.check()  # invariants, and the incremental hash equals the hash from scratch
        return legal

    def check_chance_node(self, state: Any, legal: List[int]) -> None:
        """The outcomes are the legal list, with exact probabilities that sum to 1, each named."""
        g = self.game
        outcomes = state.chance_outcomes()
        exact = state.chance_outcomes(exact=True)
        self.expect([o for o, _ in outcomes] == legal, "chance_outcomes disagrees with legal_actions")
        self.expect(all(0 <= o < g.num_chance_outcomes for o in legal), "a chance outcome outside the range")
        self.expect(all(0 < p <= 1 for _, p in outcomes), f"a chance probability outside (0, 1]: {outcomes}")
        self.expect(abs(sum(p for _, p in outcomes) - 1) <= 1e-12, "chance probabilities do not sum to 1")
        self.expect(sum(p for _, p in exact) == 1, "exact chance probabilities do not sum to 1")
        for o in legal:
            self.expect(state.parse_action(state.action_name(o)) == o, f"outcome {o} is not named back")

    def check_observation_bounds(self, player: int, obs: Any) -> None:
        """Every value inside the bounds its slice declares (game.observation_bounds)."""
        low, high = self.game.observation_bounds
        outside = ((obs < low) | (obs > high)).nonzero()[0]
        if len(outside):
            i = int(outside[0])
            where = next(s.name for s in self.game.observation_layout if s.start <= i < s.stop)
            self.fail(f"observation({player})[{i}] (slice {where!r}) is {obs[i]}, outside its declared bounds "
                      f"[{low[i]}, {high[i]}]")

    def check_copies(self, state: Any) -> None:
        g = self.game
        twin = state.clone()
        self.expect(twin == state and twin.hash == state.hash, "clone differs from the original")
        from_bytes = g.state_from_bytes(state.to_bytes())
        self.expect(from_bytes == state, "to_bytes/state_from_bytes does not round-trip")
        d = state.to_dict()
        from_dict = g.state_from_dict(d)
        self.expect(from_dict.to_dict() == d, "to_dict/state_from_dict does not round-trip")
        self.expect(from_dict.hash == state.hash, "a state rebuilt from its dict has another hash")
        self.expect(from_dict == state, "a state rebuilt from its dict differs in its bytes")
        fields = state.fields()
        self.expect(g.state_from_fields(fields) == state, "a state rebuilt from its fields differs in its bytes")
        self.expect(all(state.field(name) == value for name, value in fields.items()),
                    "state.field(name) disagrees with state.fields()")
        reseeded = state.clone(seed=self.seed + 1)
        self.expect(reseeded.hash == state.hash and reseeded.history == state.history
                    and {k: v for k, v in reseeded.fields().items() if k != "rng"}
                    == {k: v for k, v in fields.items() if k != "rng"},
                    "clone(seed) changed the position (only the future randomness may change)")
        if self.step % self.deep_every == 0:
            again = pickle.loads(pickle.dumps(state))
            self.expect(again == state and again.history == state.history, "pickle does not round-trip")

    def check_illegal_rejected(self, state: Any, legal: List[int], rng: Rng) -> None:
        g = self.game
        illegal = [a for a in range(g.num_actions) if a not in set(legal)]
        if not illegal:
            return
        a = illegal[rng.bounded(len(illegal))]
        before = state.to_bytes()
        try:
            state.apply(a)
        except IllegalActionError:
            pass
        else:
            self.fail(f"illegal action {a} ({g.action_name(a)}) was accepted")
        self.expect(state.to_bytes() == before, "a rejected action changed the state")

    def check_outcome(self, state: Any) -> None:
        outcome = state.outcome
        self.expect(outcome is not None and outcome.returns == state.returns(), "outcome missing or its returns wrong")
        self.expect(outcome.reason.isidentifier() and outcome.description, f"a malformed outcome {outcome!r}")
        self.expect(all(0 <= p < self.game.players for p in outcome.winners), f"outcome winners {outcome.winners}")

    def check_resample(self, state: Any, rng: Rng, ledger: Any) -> None:
        """The information contract at this position (dimsum._contract): for every seat p, a
        resample(p) is a valid state with p's own turn kept, which p sees the same through every
        channel, and which keeps the position if the game declares perfect information."""
        from ._contract import resample_pairs

        seeds = iter(lambda: rng.next_u64(), None)
        for p, other in resample_pairs(state, seeds):
            other.check()
            self.expect(other.legal_actions() == state.legal_actions() or state.current_player != p,
                        f"resample({p}) changed player {p}'s own legal actions")
            self.expect(other.current_player == state.current_player, f"resample({p}) changed who acts")
            # the history is kept, the outcomes p did not see redrawn with the cards (explicit mode)
            self.expect(len(other.history) == len(state.history), f"resample({p}) did not keep the history")
            broken = ledger.check_pair(state, p, other)
            if broken is not None:
                self.fail(broken)


def random_position(game: Any, seed: int, steps: int) -> Any:
    """The position after up to ``steps`` uniformly random actions (chance outcomes too, in an
    explicit game) from the deal of ``seed``: a state the rules can reach. Seeded by ``seed``,
    with dimsum's own generator, so the same position on every platform."""
    rng = Rng(seed)
    state = game.new_state(seed)
    for _ in range(steps):
        if state.is_terminal:
            break
        legal = state.legal_actions()
        state.apply(legal[rng.bounded(len(legal))])
    return state


def first_chance_node(game: Any, seed: int) -> Any:
    """The first chance node of a game made with ``chance="explicit"``, reached by seeded random
    moves from the deal of ``seed``. The contract does not say where chance first acts (a deal
    opens some games; in others a player moves first), only that a game with chance outcomes
    reaches them: AssertionError if this game ends, or runs ``max_game_length`` steps, first."""
    rng = Rng(seed)
    state = game.new_state(seed)
    for _ in range(game.max_game_length + 1):
        if state.is_chance_node:
            return state
        assert not state.is_terminal, f"{game!r}: the game of seed {seed} ended before any chance node"
        legal = state.legal_actions()
        state.apply(legal[rng.bounded(len(legal))])
    raise AssertionError(f"{game!r}: no chance node within max_game_length moves")


def _weighted_choice(state: Any, rng: Rng) -> int:
    """A chance outcome drawn with its exact probability."""
    exact = state.chance_outcomes(exact=True)
    denominator = math.lcm(*(p.denominator for _, p in exact))
    r = rng.bounded(denominator)
    for outcome, p in exact:
        r -= p.numerator * (denominator // p.denominator)
        if r < 0:
            return outcome
    raise AssertionError("the chance probabilities do not sum to 1")


def playthrough(game: Any, seed: int, max_steps: int = 60) -> str:
    """A readable record of one seeded random game (OpenSpiel-style golden file): at each step
    the table, the player to act, the legal actions by name, the key and the action taken."""
    rng = Rng(seed)
    state = game.new_state(seed)
    lines = [f"# dimsum playthrough of {game!r}, seed {seed}", f"# observation_shape {game.observation_shape}, "
             f"num_actions {game.num_actions}, max_game_length {game.max_game_length}"]
    for step in range(max_steps + 1):
        key = f", hash {state.hash:016x}" if hasattr(state, "hash") else ""  # the reference has no key
        lines += ["", f"## step {step}: player {state.current_player} to act{key}", str(state)]
        if state.is_terminal or step == max_steps:
            break
        legal = state.legal_actions()
        lines.append("legal: " + "; ".join(f"{a} {state.action_name(a)}" for a in legal))
        action = legal[rng.bounded(len(legal))]
        lines.append(f"action: {action} {state.action_name(action)}")
        state.apply(action)
    lines.append(f"returns: {state.returns()}")
    return "\n".join(lines) + "\n"


_PLAYTHROUGH_HEAD = re.compile(r"^# dimsum playthrough of (?:dimsum\.make\('(?P<name>\w+)', \*\*(?P<options>\{.*\})\)"
                               r"|dimsum\.reference\.(?P<ref>\w+)\.Game\((?P<ref_options>\{.*\})\)), seed (?P<seed>\d+)$")
_PLAYTHROUGH_STEP = re.compile(r"^## step (\d+): player (-?\d+) to act(?:, hash ([0-9a-f]{16}))?$")
_PLAYTHROUGH_ACTION = re.compile(r"^action: (-?\d+) ")


def playthrough_record(text: str) -> Any:
    """The ``dimsum.records.Record`` of a ``playthrough`` text (its header names the game, its
    options and the seed; its ``action:`` lines the moves, played with their default ticks).

    Replays it and checks each step's key against the text: a text that is not a playthrough,
    names a game that cannot be made, or whose steps do not replay is a RecordError naming the
    step. (A playthrough's header leaves out a custom deck, cards or dice, so such a game's keys
    will not match.)"""
    from .records import Record, RecordError

    lines = text.splitlines()
    head = _PLAYTHROUGH_HEAD.match(lines[0]) if lines else None
    if head is None:
        raise RecordError("the text is not a dimsum playthrough (its first line must be "
                          "'# dimsum playthrough of dimsum.make(...), seed N')")
    name = head.group("name") or head.group("ref")
    try:
        options = ast.literal_eval(head.group("options") or head.group("ref_options"))
    except (ValueError, SyntaxError) as e:
        raise RecordError(f"the playthrough's options cannot be read: {e}") from None
    record = Record(name, dict(options), int(head.group("seed")))
    state = record.make_game().new_state(record.seed)
    step = 0
    for number, line in enumerate(lines[1:], 2):
        header = _PLAYTHROUGH_STEP.match(line)
        if header is not None:
            step = int(header.group(1))
            key = header.group(3)
            if key is not None and f"{state.hash:016x}" != key:
                raise RecordError(f"step {step} of the playthrough (line {number}): the replayed position has key "
                                  f"{state.hash:016x}, the text says {key}")
            continue
        action = _PLAYTHROUGH_ACTION.match(line)
        if action is not None:
            try:
                state.apply(int(action.group(1)))
            except (ValueError, TypeError) as e:
                raise RecordError(f"step {step} of the playthrough (line {number}) cannot be played: {e}") from None
    return Record.of(state, record.seed)


def check_game(game: Any, n_games: int = 20, seed: int = 0, deep_every: int = 7) -> Report:
    """Plays ``n_games`` seeded random games of ``game`` checking every promise of the API.

    ``deep_every``: pickling and the information contract (resample for every seat, compared
    through every channel, see dimsum._contract) run every that many steps and at each game's
    first decision (after its deal); the costly channels
    (adapters, prompts, pages) on each game's first few pairs. A game that declares imperfect
    information but never redraws anything hidden fails at the end. Returns a Report (games,
    steps, longest game, and the channels checked and skipped).
    """
    from . import game_info
    from ._contract import Ledger

    report = Report()
    ledger = Ledger(game_info(game.name).information)
    for i in range(n_games):
        checker = _Checker(game, seed + i, deep_every)
        if i == 0:
            checker.check_action_names()
        state = game.new_state(seed + i)
        rng = Rng(seed + i)
        ledger.new_game()
        first_decision = True  # a short game's hidden cards may all be dealt and shown between two deep steps
        while True:
            legal = checker.check_state(state)
            checker.check_copies(state)
            checker.check_illegal_rejected(state, legal, rng)
            decision = not state.is_chance_node and not state.is_terminal
            if checker.step % deep_every == 0 or (decision and first_decision):
                checker.check_resample(state, rng, ledger)
            first_decision = first_decision and not decision
            if state.is_terminal:
                checker.check_outcome(state)
                break
            state.apply(_weighted_choice(state, rng) if state.is_chance_node else legal[rng.bounded(len(legal))])
            checker.step += 1
            checker.expect(checker.step <= game.max_game_length,
                           f"the game ran past max_game_length {game.max_game_length}")
        checker.expect(len(state.history) == checker.step, "history has the wrong length")
        report.games += 1
        report.steps += checker.step
        report.longest = max(report.longest, checker.step)
    broken = ledger.check_declaration()
    if broken is not None:
        raise AssertionError(f"check_game({game!r}), {n_games} games from seed {seed}: {broken}")
    report.channels = dict(ledger.compared)
    report.skipped = dict(ledger.skipped)
    report.skipped.update({name: "no pair it could show" for name in ledger.never_applied()})
    return report


def draw_as_sampled(weighted: List[Tuple[int, int]], rng: Rng) -> int:
    """An outcome by its integer weights: one bounded integer below the total, then a walk in
    the listed order (the twin of C++ bots::sample_chance)."""
    r = rng.bounded(sum(w for _, w in weighted))
    for outcome, weight in weighted:
        if r < weight:
            return outcome
        r -= weight
    raise AssertionError("unreachable: r is below the total")


def twin_positions(name: str, options: Mapping[str, Any], seed: int) -> Iterator[Tuple[Any, Any]]:
    """(sampled, explicit) decision states of one game from `seed`, the same actions played in
    both (uniformly at random); the explicit game's chance nodes are drawn as sampled mode would
    from its own generator (the reference engine gives the integer weights; the state's generator
    is advanced through its dict). Equal positions in the two chance modes, for the tests and the
    benchmark that check the bots play the same in both (tests/test_bots_chance_modes.py,
    benchmarks/bots_chance_modes.py). Dim Sum Jam's extra-VIP shuffle is drawn otherwise
    (docs/BOTS.md, "Chance modes"): with extra_vips > 0 the twins differ from the deal."""
    from . import make, reference
    sampled = make(name, **options).new_state(seed)
    explicit_game = make(name, chance="explicit", **options)
    explicit = explicit_game.new_state(seed)
    weights = reference.make(name, chance="explicit", **options).new_state(seed)
    policy = Rng(seed ^ 0xC4A1CE)
    while True:
        while explicit.is_chance_node:
            d = explicit.to_dict()
            rng = Rng.from_state(d["rng"])
            outcome = draw_as_sampled(weights._chance_outcomes(), rng)
            d["rng"] = rng.state()
            explicit = explicit_game.state_from_dict(d)
            explicit.apply(outcome)
            weights.apply(outcome)
        if sampled.is_terminal:
            assert explicit.is_terminal
            return
        yield sampled.clone(), explicit.clone()  # copies: play goes on in these
        legal = sampled.legal_actions()
        action = legal[policy.bounded(len(legal))]
        for state in (sampled, explicit, weights):
            state.apply(action)
