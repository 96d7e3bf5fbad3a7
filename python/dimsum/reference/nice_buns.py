"""Nice Buns, the reference engine: the rulebook and docs/rules/nice_buns.md, written for reading.

Bun kinds are 0 blue, 1 green, 2 red, 3 yellow, 4 fish head; dice are 0 small, 1 medium,
2 large (see dimsum.games.nice_buns). The bag, the tray and each player's unplated buns are
lists of counts per kind; a plate is a bitmask of colours (each plated colour is one set).

A turn: the engine rolls; the roller splits the dice (``split``); the left neighbour takes one
group (``choose``); then each die acts in the order small, medium, large, by whoever holds it
(``act``). Every change to a player's unplated buns queues that player's *cascade* (NB-9),
which may stop for the owner's decision (``fish``: where the fish heads go, ``plate``: with
manual plating). Any decision with exactly one legal action is taken automatically, and a die
with no legal action has no effect, so a state at rest always offers its player two or more
actions (a draw die never asks anything).

Randomness, in the order it is consumed (every draw is ``rng.draw_index`` over counts in kind
order; a roll is ``rng.bounded(faces)``):

1. new game: the start player, ``rng.bounded(players)`` (unless ``start_player`` is set);
2. the serving tray: ``tray_size`` draws over the bag's four colour counts;
3. the starting buns: seat 0's two, then seat 1's ..., each a draw over the bag's colour counts
   with the colours that seat already holds counted as 0 (non-matching);
4. at the start of every turn (the first included): small, medium, large die, one
   ``rng.bounded(number of faces)`` each;
5. a draw die: one draw over the bag's five counts (fish heads included) per bun, each followed
   by the cascade, which may consume more (step 6);
6. the tray top-up, whenever the tray is short and the bag holds a coloured bun: one draw over
   the bag's four colour counts per missing bun. It runs right after a take from the tray and
   right after buns go back to the bag (put back, greedy, no doubles).

Drawing over the colour counts only is how "a fish head drawn for the tray (or at setup) goes
back and is redrawn" is done: the same distribution, one draw per bun, and it cannot loop.

Explicit chance mode (``chance="explicit"``) stops before each of those events instead, one chance
node per bun and per die, in the same order; the phase names the event (``START_PLAYER``, ``TRAY``,
``STARTING_BUN``, ``ROLL`` of the die at ``die``, ``DRAW`` for the draw die at ``die``), and the
outcome chance picks is played by the code that follows the sampled draw. The weights are the
counts the sampled draw draws over (1 per seat, 1 per face).
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Tuple

from .._common import CHANCE, TERMINAL, check_int, check_seed
from ..games import nice_buns as spec
from ..games.nice_buns import (ACT_PHASE as ACT, CHOOSE_PHASE as CHOOSE, DONE, DRAW, DRAW_PHASE, FISH, FISH_PHASE, GIVE,
                               NC, NK, OVER, PLATE_PHASE, PUT_BACK, ROLL_PHASE, SPLIT_PHASE as SPLIT,
                               START_PLAYER_PHASE, STARTING_BUN_PHASE, STEAL, SWAP, TAKE, TRAY_PHASE, face_outcome,
                               seat_outcome)
from ._base import ReferenceGame, ReferenceState
from .rng import Rng


class Game(ReferenceGame):
    name = spec.NAME

    def __init__(self, **options: Any) -> None:
        super().__init__(spec.make_config(**options))

    def new_state(self, seed: int = 0) -> "State":
        """NB-1: tray, then two non-matching buns a player, then the first roll."""
        cfg = self.config
        state = State(self, Rng(check_seed(seed)))
        rng = state.rng
        start = cfg.options["start_player"]
        if cfg.explicit_chance:         # the same events, each a chance node
            if start is None:
                state.roller, state.phase = -1, START_PLAYER_PHASE
            else:
                state.roller = start
                state._next_setup_event()
            return state
        state.roller = rng.bounded(cfg.players) if start is None else start
        state.top_up_tray()
        for p in range(cfg.players):
            front = state.front[p]
            for _ in range(cfg.starting_buns):
                counts = [state.bag[c] if front[c] == 0 else 0 for c in range(NC)]
                if sum(counts) == 0:
                    break
                c = rng.draw_index(counts)
                state.bag[c] -= 1
                front[c] += 1
        state.roll()
        return state

    def _blank_state(self, rng: Rng) -> "State":
        return State(self, rng)


class State(ReferenceState):
    def __init__(self, game: Game, rng: Rng) -> None:
        super().__init__(game)
        cfg = game.config
        n = cfg.players
        self.cfg = cfg
        self.rng = rng
        self.phase = SPLIT
        self.turn = 1
        self.roller = 0
        self.dice = [0, 0, 0]          # the face index rolled on each die
        self.split = -1                # index into spec.SPLITS, -1 before the split
        self.chooser_takes = -1         # dice the chooser took, -1 before the choice
        self.die = 0                   # the next die to act (DONE = 3 after the large die)
        self.draws_left = 0            # buns the draw die at `die` still takes
        self.cascade: List[int] = []   # seats whose cascade has not finished, in order
        self.bag = list(cfg.colour_counts) + [cfg.fish_heads]
        self.tray = [0] * NC
        self.front = [[0] * NK for _ in range(n)]
        self.fish_on = [-1] * n        # colour the fish heads are attached to, -1: none
        self.plates = [0] * n          # bitmask of plated colours
        self.winner = -1

    def clone(self, seed: Any = None) -> "State":
        """An independent copy; with ``seed``, a search-safe one: its future draws redrawn."""
        new = State.__new__(State)
        new.__dict__.update(self.__dict__)
        new.history = list(self.history)
        new.rng = self.rng.clone()
        new.dice = list(self.dice)
        new.cascade = list(self.cascade)
        new.bag = list(self.bag)
        new.tray = list(self.tray)
        new.front = [list(f) for f in self.front]
        new.fish_on = list(self.fish_on)
        new.plates = list(self.plates)
        if seed is not None:
            new.rng = Rng(check_seed(seed))
        return new

    def __deepcopy__(self, memo: Dict[int, Any]) -> "State":
        return self.clone()    # the game and its config are shared, never copied

    def __copy__(self) -> "State":
        return self.clone()    # copy.copy(state) is an independent state too

    # -- who holds what ----------------------------------------------------------------------
    @property
    def chooser(self) -> int:
        return (self.roller + 1) % self.cfg.players

    def holder(self, die: int) -> int:
        """NB-2/NB-3: the chooser acts the dice of the group they took, the roller the rest."""
        return self.chooser if self.chooser_takes >> die & 1 else self.roller

    def face(self, die: int) -> spec.Face:
        return self.cfg.dice[die][self.dice[die]]

    def movable(self, kind: int) -> bool:
        return kind < FISH or self.cfg.options["fish_movable"]

    # -- chance ------------------------------------------------------------------------------
    def roll(self) -> None:
        for d in range(3):
            self.dice[d] = self.rng.bounded(len(self.cfg.dice[d]))

    def top_up_tray(self) -> None:
        """NB-10: six buns on the tray at all times, never a fish head; short if the bag has no colour."""
        while self._tray_wants_bun():
            self._put_on_tray(self.rng.draw_index(self.bag[:NC]))

    def _tray_wants_bun(self) -> bool:
        return sum(self.tray) < self.cfg.tray_size and sum(self.bag[:NC]) > 0

    def _put_on_tray(self, colour: int) -> None:
        self.bag[colour] -= 1
        self.tray[colour] += 1

    def _refill_tray(self) -> bool:
        """The tray tops up after a bun left it or buns went back to the bag: at once (sampled), or
        explicit mode stops at a chance node per missing bun (True, the phase set)."""
        if not self.cfg.explicit_chance:
            self.top_up_tray()
            return False
        if not self._tray_wants_bun():
            return False
        self.phase = TRAY_PHASE
        return True

    def _await_roll(self) -> None:
        """Explicit mode: the roll is three chance nodes, small, medium, large; unrolled dice read 0."""
        self.dice = [0, 0, 0]
        self.die = 0
        self.phase = ROLL_PHASE

    # -- explicit chance: the set-up (NB-1) one bun at a time ------------------------------------
    def _starting_choices(self, p: int) -> List[int]:
        """The colour counts seat p may get as a starting bun: the bag's, the colours p holds at 0."""
        return [self.bag[c] if self.front[p][c] == 0 else 0 for c in range(NC)]

    def _seat_owed_a_bun(self) -> int:
        """The first seat still owed a starting bun, -1 if none: a seat is done once it holds its
        starting buns or no colour it lacks is left (the bag only shrinks, so it stays done)."""
        for p in range(self.cfg.players):
            if sum(self.front[p]) < self.cfg.starting_buns and sum(self._starting_choices(p)) > 0:
                return p
        return -1

    def _next_setup_event(self) -> None:
        """After the start player: the tray, then the starting buns seat by seat, then the first roll."""
        if self._tray_wants_bun():
            self.phase = TRAY_PHASE
        elif self._seat_owed_a_bun() >= 0:
            self.phase = STARTING_BUN_PHASE
        else:
            self._await_roll()

    def _chance_outcomes(self) -> List[Tuple[int, int]]:
        cfg, ph = self.cfg, self.phase
        if ph == START_PLAYER_PHASE:
            return [(seat_outcome(cfg.dice, p), 1) for p in range(cfg.players)]
        if ph == ROLL_PHASE:
            return [(face_outcome(cfg.dice, self.die, f), 1) for f in range(len(cfg.dice[self.die]))]
        if ph == TRAY_PHASE:
            counts = self.bag[:NC]                        # never a fish head (NB-10)
        elif ph == STARTING_BUN_PHASE:
            counts = self._starting_choices(self._seat_owed_a_bun())
        elif ph == DRAW_PHASE:
            counts = self.bag                             # fish heads included (NB-4)
        else:
            return []
        return [(k, n) for k, n in enumerate(counts) if n]

    def _resolve_chance(self, o: int) -> None:
        """Chance plays outcome ``o``; the game goes on where the sampled draw would have."""
        cfg, ph = self.cfg, self.phase
        if ph == START_PLAYER_PHASE:
            self.roller = o - seat_outcome(cfg.dice, 0)
            self._next_setup_event()
        elif ph == TRAY_PHASE:
            self._put_on_tray(o)
            if self._tray_wants_bun():
                return                                    # one chance node per missing bun
            if self.chooser_takes < 0:                    # the set-up's tray
                self._next_setup_event()
            else:                                         # in play: the waiting cascade runs
                self.phase = ACT
                self._settle()
        elif ph == STARTING_BUN_PHASE:
            p = self._seat_owed_a_bun()
            self.bag[o] -= 1
            self.front[p][o] += 1
            self._next_setup_event()
        elif ph == ROLL_PHASE:
            self.dice[self.die] = o - face_outcome(cfg.dice, self.die, 0)
            self.die += 1
            if self.die == DONE:
                self.die = 0
                self.phase = SPLIT
        else:                                             # DRAW_PHASE
            self._give_drawn(o)
            self.phase = ACT
            self._settle()

    # -- the turn ------------------------------------------------------------------------------
    def _enter_die(self, die: int) -> None:
        self.die = die
        self.draws_left = 0
        if die < DONE and self.face(die).action == DRAW:
            self.draws_left = self.face(die).count

    def _next_turn(self) -> None:
        """NB-3/NB-13: play passes clockwise, so the chooser rolls next; the turn cap ends in a draw."""
        if self.turn >= self.cfg.options["max_turns"]:
            self.phase = OVER
            return
        self.turn += 1
        self.roller = self.chooser
        self.split = self.chooser_takes = -1
        self.die, self.draws_left = 0, 0
        self.phase = SPLIT
        if self.cfg.explicit_chance:
            self._await_roll()
            return
        self.roll()

    def _settle(self) -> None:
        """Run everything automatic until a player has a real decision or the game is over."""
        while True:
            if self.winner >= 0:
                self.cascade.clear()
                self.phase = OVER
                return
            if self.cascade:
                pause = self._cascade(self.cascade[0])
                if pause is not None and self.winner < 0:
                    self.phase = pause
                    return
                if self.winner < 0:
                    self.cascade.pop(0)
                continue
            self.phase = ACT
            if self.die == DONE:
                self._next_turn()
                return
            if self.face(self.die).action == DRAW:
                if self._draw_one():
                    return                     # explicit mode: the bun is a chance node
                continue
            options = self._die_options()
            if len(options) >= 2:
                return
            if options:
                if self._act(options[0]):      # the only choice is made for the player
                    return                     # explicit mode: the tray tops up first
            else:
                self._enter_die(self.die + 1)  # nothing the die can do: no effect

    def _draw_one(self) -> bool:
        """NB-4: one bun from the bag, then the cascade; an empty bag ends the die (NB-11). True
        when explicit mode stops at the draw's chance node."""
        if self.draws_left == 0 or sum(self.bag) == 0:
            self._enter_die(self.die + 1)
            return False
        if self.cfg.explicit_chance:
            self.phase = DRAW_PHASE
            return True
        self._give_drawn(self.rng.draw_index(self.bag))
        return False

    def _give_drawn(self, k: int) -> None:
        """The bun of kind k drawn for the draw die goes to its holder, whose cascade follows."""
        p = self.holder(self.die)
        self.bag[k] -= 1
        self.front[p][k] += 1
        self.draws_left -= 1
        if self.draws_left == 0:
            self._enter_die(self.die + 1)
        self.cascade = [p]

    def _die_options(self) -> List[int]:
        """The legal actions for the die at `die` (a choice face), without 'pass'."""
        cfg = self.cfg
        face = self.face(self.die)
        h = self.holder(self.die)
        mine = self.front[h]
        out: List[int] = []
        if face.action == TAKE:                                    # NB-5
            out = [cfg.TAKE + c for c in face.colours if self.tray[c]]
        elif face.action == PUT_BACK:                              # NB-5
            out = [cfg.PUT_BACK + k for k in range(NK) if mine[k] and self.movable(k)]
        elif face.action == GIVE:                                  # NB-6
            out = [cfg.give_action(k, t) for k in range(NK) if mine[k] and self.movable(k)
                   for t in range(cfg.players) if t != h]
        elif face.action == STEAL:
            out = [cfg.steal_action(k, t) for k in range(NK) for t in range(cfg.players)
                   if t != h and self.front[t][k] and self.movable(k)]
        elif face.action == SWAP:
            out = [cfg.swap_action(a, t, b) for a in range(NK) if mine[a] and self.movable(a)
                   for t in range(cfg.players) if t != h
                   for b in range(NK) if self.front[t][b] and self.movable(b)]
        if out and not cfg.options["mandatory_dice"]:
            out.append(cfg.PASS)
        return sorted(out)

    def _act(self, a: int) -> bool:
        """The holder of the current die does `a`; the pointer moves on, then the cascades run.
        True when explicit mode stops first for the tray's top-up (after a take or a put back)."""
        cfg = self.cfg
        h = self.holder(self.die)
        self._enter_die(self.die + 1)
        if a == cfg.PASS:
            return False
        if a < cfg.PUT_BACK:                                       # take a colour from the tray
            c = a - cfg.TAKE
            self.tray[c] -= 1
            self.front[h][c] += 1
            self.cascade = [h]
            return self._refill_tray()                             # the tray before the cascade
        if a < cfg.GIVE:                                           # put a bun back in the bag
            k = a - cfg.PUT_BACK
            self.front[h][k] -= 1
            self.bag[k] += 1
            self.cascade = [h]
            return self._refill_tray()
        if a < cfg.STEAL:
            k, t = divmod(a - cfg.GIVE, cfg.players)
            self._move(h, t, k)
            self.cascade = [h, t]
        elif a < cfg.SWAP:
            k, t = divmod(a - cfg.STEAL, cfg.players)
            self._move(t, h, k)
            self.cascade = [h, t]
        else:
            mine_t, theirs = divmod(a - cfg.SWAP, NK)
            mine, t = divmod(mine_t, cfg.players)
            self._move(h, t, mine)
            self._move(t, h, theirs)
            self.cascade = [h, t]      # NB-6: the actor's cascade first, then the other player's
        return False

    def _move(self, src: int, dst: int, kind: int) -> None:
        self.front[src][kind] -= 1
        self.front[dst][kind] += 1

    # -- the cascade (NB-9) ----------------------------------------------------------------------
    def _cascade(self, p: int) -> Optional[int]:
        """Steps 1-5 of NB-9 for seat p, repeated until nothing changes.

        Returns FISH_PHASE or PLATE_PHASE when the owner must decide, None when done (the
        winner is set if p won). In explicit mode TRAY_PHASE when buns went back and the tray must
        top up first: the steps never read the tray, so _settle runs them again from step 1 after
        the chance nodes, as ``continue`` does.
        """
        cfg = self.cfg
        c = self.front[p]
        while True:
            # 1. NB-7: fish heads attach to the largest coloured set; a set still tied for
            #    largest keeps them; otherwise the single largest, or the tiebreak.
            fish = c[FISH]
            coloured = c[0] + c[1] + c[2] + c[3]
            if fish == 0 or coloured == 0:
                self.fish_on[p] = -1
            else:
                largest = max(c[:NC])
                if self.fish_on[p] < 0 or c[self.fish_on[p]] != largest:
                    tied = [k for k in range(NC) if c[k] == largest]
                    if len(tied) == 1 or cfg.options["fish_tiebreak"] == "colour_order":
                        self.fish_on[p] = tied[0]
                    else:
                        self.fish_on[p] = -1
                        return FISH_PHASE
            on = self.fish_on[p]
            # 2. NB-8: a set of greedy_size or more (fish included) goes back to the bag.
            if self._greedy(p, fish, coloured, on):
                if self.phase == TRAY_PHASE:
                    return TRAY_PHASE
                continue
            # 3. No doubles: a coloured triple of a colour already plated goes back.
            doubled = [k for k in range(NC) if self.plates[p] >> k & 1 and c[k] == cfg.set_size]
            if doubled:
                self._to_bag(p, doubled[0], cfg.set_size, 0)
                if self.phase == TRAY_PHASE:
                    return TRAY_PHASE
                continue
            # 4. Plating, only while no fish head is held; 5. the win, at once.
            if fish == 0:
                ready = [k for k in range(NC) if c[k] == cfg.set_size and not self.plates[p] >> k & 1]
                if ready:
                    if cfg.options["manual_plating"]:
                        return PLATE_PHASE
                    for k in ready:
                        self._plate(p, k)
                        if self.winner >= 0:
                            return None
            return None

    def _greedy(self, p: int, fish: int, coloured: int, on: int) -> bool:
        c = self.front[p]
        limit = self.cfg.greedy_size
        for k in range(NC):
            if c[k] + (fish if on == k else 0) >= limit:
                self._to_bag(p, k, c[k], fish if on == k else 0)
                return True
        if coloured == 0 and fish >= limit:       # fish heads alone form a set of their own
            self._to_bag(p, -1, 0, fish)
            return True
        return False

    def _to_bag(self, p: int, colour: int, n: int, fish: int) -> None:
        if n:
            self.front[p][colour] -= n
            self.bag[colour] += n
        if fish:
            self.front[p][FISH] -= fish
            self.bag[FISH] += fish
            self.fish_on[p] = -1
        self._refill_tray()

    def _plate(self, p: int, colour: int) -> None:
        self.front[p][colour] -= self.cfg.set_size
        self.plates[p] |= 1 << colour
        if bin(self.plates[p]).count("1") >= self.cfg.sets_to_win:
            self.winner = p

    # -- the API ---------------------------------------------------------------------------------
    def _current_player(self) -> int:
        ph = self.phase
        if ph == SPLIT:
            return self.roller
        if ph == CHOOSE:
            return self.chooser
        if ph == ACT:
            return self.holder(self.die)
        if ph == OVER:
            return TERMINAL
        if ph in (FISH_PHASE, PLATE_PHASE):
            return self.cascade[0]
        return CHANCE

    def _legal_actions(self) -> List[int]:
        cfg = self.cfg
        ph = self.phase
        if ph == SPLIT:
            return [cfg.SPLIT + i for i in range(len(spec.SPLITS))]
        if ph == CHOOSE:
            m = spec.SPLITS[self.split]
            return sorted([cfg.CHOOSE + m, cfg.CHOOSE + (7 ^ m)])
        if ph == ACT:
            return self._die_options()
        if ph == FISH_PHASE:
            c = self.front[self.cascade[0]]
            largest = max(c[:NC])
            return [cfg.FISH_TO + k for k in range(NC) if c[k] == largest]
        if ph == PLATE_PHASE:
            p = self.cascade[0]
            c = self.front[p]
            return [cfg.PLATE + k for k in range(NC)
                    if c[k] == cfg.set_size and not self.plates[p] >> k & 1] + [cfg.KEEP]
        return [o for o, _ in self._chance_outcomes()]

    def _apply(self, a: int) -> None:
        cfg = self.cfg
        ph = self.phase
        if ph == SPLIT:
            self.split = a - cfg.SPLIT
            self.phase = CHOOSE
            return                          # the chooser always has two groups to choose from
        if ph == CHOOSE:
            self.chooser_takes = a - cfg.CHOOSE
            self._enter_die(0)
        elif ph == ACT:
            if self._act(a):
                return                      # explicit mode: the tray tops up at chance nodes first
        elif ph == FISH_PHASE:
            self.fish_on[self.cascade[0]] = a - cfg.FISH_TO
        elif ph == PLATE_PHASE:
            if a == cfg.KEEP:               # the owner keeps the rest unplated
                self.cascade.pop(0)
            else:
                self._plate(self.cascade[0], a - cfg.PLATE)
        else:                               # a chance node (explicit mode)
            self._resolve_chance(a)
            return
        self.phase = ACT
        self._settle()

    def _returns(self) -> Tuple[float, ...]:
        """The winner 1.0, everyone else 0.0; a draw by the turn cap (or a game not over) all 0.0."""
        return tuple(1.0 if p == self.winner else 0.0 for p in range(self.cfg.players))

    def observation(self, player: int) -> List[float]:
        """Everything is public (NB-12); seats are absolute, like the action targets."""
        cfg = self.cfg
        n = cfg.players
        player = check_int(player, "player", 0, n - 1)
        cur = self._current_player()

        def one_hot(i: int, size: int) -> List[int]:
            return [1 if j == i else 0 for j in range(size)]

        obs: List[float] = []
        obs += one_hot(player, n)
        obs += one_hot(cur, n)
        obs += one_hot(self.phase, len(spec.PHASES))
        obs.append(self.turn)
        obs += one_hot(self.roller, n)
        for d in range(3):
            f = self.face(d)
            obs += one_hot(f.action, len(spec.FACE_ACTIONS))
            obs.append(f.count)
            obs += [1 if k in f.colours else 0 for k in range(NC)]
        obs += one_hot(self.split, len(spec.SPLITS))
        obs += [0, 0, 0] if self.chooser_takes < 0 else [self.chooser_takes >> d & 1 for d in range(3)]
        obs += [0] * 4 if self.chooser_takes < 0 else one_hot(self.die, 4)
        obs.append(self.draws_left)
        obs += self.bag
        obs += self.tray
        for p in range(n):
            obs += self.front[p]
        for p in range(n):
            obs += one_hot(self.fish_on[p], NC)
        for p in range(n):
            obs += [self.plates[p] >> k & 1 for k in range(NC)]
        for i in range(2):
            obs += one_hot(self.cascade[i] if i < len(self.cascade) else -1, n)
        obs += one_hot(self.winner, n)
        return [float(v) for v in obs]

    def resample(self, player: int, seed: int) -> "State":
        """NB-12: only the bag's order is hidden, and the bag is a multiset: reseed the RNG."""
        check_int(player, "player", 0, self.cfg.players - 1)
        new = self.clone()
        new.rng = Rng(check_seed(seed))
        return new

    def _set_field(self, name: str, value: Any) -> None:
        if name == "plate":
            self.plates = value
        elif name == "cascade":
            self.cascade = [p for p in value if p >= 0]  # the field pads the seats with -1
        elif name != "current_player":                  # derived from the rest (_current_player)
            super()._set_field(name, value)

    def fields(self) -> Dict[str, Any]:
        """The core's state fields (src/dimsum_core/nice_buns/schema.cpp), by name."""
        return {
            "phase": self.phase, "current_player": self._current_player(), "turn": self.turn,
            "roller": self.roller, "dice": list(self.dice), "split": self.split,
            "chooser_takes": self.chooser_takes, "die": self.die, "draws_left": self.draws_left,
            "cascade": self.cascade + [-1] * (2 - len(self.cascade)), "bag": list(self.bag),
            "tray": list(self.tray), "front": [list(f) for f in self.front], "fish_on": list(self.fish_on),
            "plate": list(self.plates), "winner": self.winner, "rng": list(self.rng.state()),
        }
