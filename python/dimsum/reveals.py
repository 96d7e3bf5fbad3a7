"""Whether some steps showed a seat anything it could not see before: the rule behind undo.

An undo takes steps back and replays the game from its seed. If those steps showed the seat
something that was hidden from it (a card drawn, dice rolled, another seat's card discarded from
a hidden hand), the seat would choose again knowing it. Board Game Arena's rule, and this
module's: no undo once anything hidden has been shown. ``first_reveal(start, steps, player,
seeds)`` says whether, and which step, for any game, from nothing a game declares:

1. **Randomness, exactly.** A chance step, or a step that moved the state's generator (its
   ``rng`` field, the one field every game keeps for its future), drew something. It counts even
   when the seat did not see the draw (another seat's card): replayed from the seed the draw comes
   out the same, and what the drawer did next may have told of it.
2. **Hidden information, by sampling.** From ``start``, states the seat cannot tell apart from it
   (``start.resample(player, seed)``: everything the seat cannot see redrawn) play the same steps.
   If a step is illegal in one of them (a discard of a card that world's hand does not hold), or
   the seat's view after a step (``observation_string``, ``observation``,
   ``information_state_string``) differs from the true game's, then the step told the seat that
   it is not in that world: it showed something that was hidden.

Sampling can miss, never wrongly refuse: a step that shows nothing leaves the seat's view the
same in every world it cannot tell apart, so no sample can tell (no false refusals). A step that
does show something is missed only if none of the ``len(seeds)`` worlds is among those it tells
apart: with a share ``f`` of such worlds, the chance is ``(1 - f) ** len(seeds)``. A discard from
a hidden Yum Cha hand tells apart every world whose hand lacks that card; docs/PLAY.md gives the
measured shares and the cost of a check.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterable, List, Optional, Sequence, Tuple

from ._common import CHANCE

DEFAULT_SAMPLES = 64  # worlds per check: see the module's docstring and docs/PLAY.md for the odds
ADVANCE = -1  # a step that only lets time pass (a timed game's state.advance), as in records
TIME = -1  # the actor of such a step

RANDOM = "random"  # a step that drew from the state's generator
CHANCE_STEP = "chance"  # an explicit chance step
ILLEGAL_ELSEWHERE = "illegal elsewhere"  # legal only in some of the worlds the seat could not tell apart
VIEW_CHANGED = "view changed"  # the seat's view after it told some of those worlds apart

Step = Tuple[int, int]  # (action, ticks), as in a record's steps; ticks 0 in an untimed game


@dataclass(frozen=True)
class Reveal:
    """The first step (``index`` in the steps checked) that showed ``player`` something hidden:
    made by ``actor`` (a seat, ``CHANCE``, or ``TIME`` for time passing), named ``name`` (the
    action's public name; a chance outcome is never named, it may be secret), of ``kind``."""

    index: int
    actor: int
    name: str
    kind: str

    def reason(self, name_of: Callable[[int], str]) -> str:
        """Why, in a sentence that names the step and shows nothing more than the player saw;
        ``name_of(seat)`` names a seat ("you", "seat 2 (random)")."""
        if self.kind == CHANCE_STEP:
            return "a chance event drew at random (a card, a die or a token)"
        if self.actor == TIME:
            return "time passing drew at random (a card, a die or a token)"
        who = name_of(self.actor)
        if self.kind == RANDOM:
            return f"{who} played '{self.name}', which drew at random (a card, a die or a token)"
        if self.kind == ILLEGAL_ELSEWHERE:
            return (f"{who} played '{self.name}', a move that needs something you could not see "
                    "(a card of a hidden hand, say): playing it showed you that")
        return f"{who} played '{self.name}', after which you saw something you could not see before"


def steps_between(start: Any, end: Any) -> List[Step]:
    """The steps that led from ``start`` to ``end`` (a state played on from ``start``), as
    ``(action, ticks)``: a timed state's timeline, else the history with ticks 0."""
    if hasattr(end, "timeline"):
        return [(int(a), int(t)) for a, t in end.timeline[len(start.timeline):]]
    return [(int(a), 0) for a in end.history[len(start.history):]]


def first_reveal(start: Any, steps: Sequence[Step], player: int, seeds: Iterable[int]) -> Optional[Reveal]:
    """The first of ``steps`` (played from ``start``) that showed ``player`` something it could not
    see at ``start``, or None. ``seeds``: one ``resample`` seed per world sampled (the caller's own
    generator: whoever knows them can tell which worlds are tried). ``start`` is not changed.
    A step that cannot be played is a ValueError (dimsum.IllegalActionError) naming it."""
    if not 0 <= player < start.game.players:
        raise ValueError(f"player {player!r} is not a seat of {start.game.name} (0 to {start.game.players - 1})")
    steps = [(int(action), int(ticks)) for action, ticks in steps]
    truth, random_at = _play_truth(start, steps, player)
    hidden = _first_hidden_reveal(start, steps[:len(truth)], player, truth, seeds)
    return hidden if hidden is not None else random_at


def _play_truth(start: Any, steps: List[Step], player: int) -> Tuple[List[Any], Optional[Reveal]]:
    """The player's view after each step up to the first that drew randomness (that one is the
    second value, or None when no step drew)."""
    state, views = start.clone(), []
    for i, step in enumerate(steps):
        actor = TIME if step[0] == ADVANCE else state.current_player
        generator = state.field("rng")
        try:
            name = _name(state, actor, step[0])
            _apply(state, step)
        except ValueError as e:
            raise type(e)(f"step {i} ({step[0]}, {step[1]}) cannot be played: {e}") from None
        if actor == CHANCE:
            return views, Reveal(i, actor, name, CHANCE_STEP)
        if state.field("rng") != generator:
            return views, Reveal(i, actor, name, RANDOM)
        views.append(_view(state, player))
    return views, None


def _first_hidden_reveal(start: Any, steps: List[Step], player: int, truth: List[Any],
                         seeds: Iterable[int]) -> Optional[Reveal]:
    """The earliest step, over the sampled worlds, at which one of them parts from the truth."""
    if not steps:
        return None
    first: Optional[Reveal] = None
    for seed in seeds:
        world = start.resample(player, seed)
        limit = len(steps) if first is None else first.index  # only an earlier step can change the answer
        for i in range(limit):
            actor = TIME if steps[i][0] == ADVANCE else world.current_player
            try:
                _apply(world, steps[i])  # the engine refuses a move illegal in this world
            except ValueError:
                first = Reveal(i, actor, _name(world, actor, steps[i][0]), ILLEGAL_ELSEWHERE)
                break
            if not _same_view(world, player, truth[i]):
                first = Reveal(i, actor, _name(world, actor, steps[i][0]), VIEW_CHANGED)
                break
        if first is not None and first.index == 0:
            break
    return first


def _name(state: Any, actor: int, action: int) -> str:
    """A step's public name: a seat's move by its action name; a chance outcome is not named."""
    return "time passing" if actor == TIME else "chance" if actor == CHANCE else state.action_name(action)


def _apply(state: Any, step: Step) -> None:
    action, ticks = step
    if hasattr(state, "advance"):
        if action == ADVANCE:
            state.advance(ticks)
        else:
            state.apply(action, ticks)
    else:
        state.apply(action)


def _view(state: Any, player: int) -> Tuple[str, bytes, str]:
    return (state.observation_string(player), state.observation(player).tobytes(),
            state.information_state_string(player))


def _same_view(world: Any, player: int, true_view: Tuple[str, bytes, str]) -> bool:
    """Compared cheapest first: most worlds that differ differ in the observation string."""
    return (world.observation_string(player) == true_view[0]
            and world.observation(player).tobytes() == true_view[1]
            and world.information_state_string(player) == true_view[2])
