"""Dim Sum Jam, the pure-Python reference engine (the readable oracle for the C++ core).

Every rule and ruling is described in docs/rules/dim_sum_jam.md; the DSJ-n ids below point
at RESEARCH.md section 1.3. The state is kept the way the C++ struct will hold it:

- hands, the bag and the discard pile are 49-bit token masks (token id = type * 7 + number - 1);
- each table holds a card id (or -1) and one slot per icon (-1 empty, a token id, or TEA);
- the order deck is only its sequence of backs ("R"/"V", top first, public: the backs differ).
  The face of a card is drawn when the card is turned up, uniformly from the unseen cards of
  that back. Cards set aside at set-up are never seen, so this is the same distribution as
  choosing the 16 cards first (set-up steps 4-6), and it makes the hidden deck order nothing
  but the state's RNG;
- the cards out of the game (fulfilled) are a mask; every other card not on a table is unseen;
- the hourglass is a TickClock (ticks), see tick_clock.py.

RNG use, in this exact order (the C++ port must match it; docs/rules/dim_sum_jam.md):
new_state: shuffle of the top section's backs (only with extra VIPs), the 7 table cards,
the start player, then the hands seat 0..n-1, one token at a time; in play: each token draw
and each card draw when it happens.

Explicit chance (``chance="explicit"``): each of those random events is a chance node instead.
``self.chance`` names the pending one (CHANCE_EVENTS, "" for none) and what follows it; the
outcomes are ``_chance_outcomes()`` and ``_resolve_chance`` plays one and goes on with the same
rules as the sampled draw. The set-up's shuffled positions not yet reached show as "?" in the
deck (the shuffle places the backs from the bottom of the top section up, like Fisher-Yates).
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence, Tuple

from .._common import CHANCE, TERMINAL, IllegalActionError, check_int, check_seed, play_timeline, set_bits
from ..games import dim_sum_jam as spec
from ..games.dim_sum_jam import (A_CANNOT_SERVE, A_DISCARD, A_DONE, A_FLIP, A_PLAY, A_REVERSE,
                                 A_STAND_SAME, A_STAND_TURNED, A_TAKE_TEA, A_TEA, C_CARD, C_TOKEN,
                                 CHANCE_EVENTS, EMPTY, NUM_TABLES, NUM_TOKENS, NUM_TYPES, OUTCOMES,
                                 PHASES, TEA, chance_back, chance_seat)
from ..games.dim_sum_jam.state_dict import RESUME
from ._base import ReferenceGame, ReferenceState
from .rng import Rng
from .tick_clock import ClockView, TickClock

ALL_TOKENS = (1 << NUM_TOKENS) - 1
_TIMED_PHASES = ("play", "reward")  # phases in which a standing glass may run out


def _kth_bit(mask: int, k: int) -> int:
    """The index of the k-th (0-based, ascending) set bit of ``mask``."""
    for _ in range(k):
        mask &= mask - 1
    return (mask & -mask).bit_length() - 1


class Game(ReferenceGame):
    name = spec.NAME

    def __init__(self, **options: Any) -> None:
        super().__init__(spec.make_config(**options))
        o = self.config.options
        self.time_on = o["ticks_per_action"] > 0
        self.hand_limit = o["hand_limit"]

    # -- set-up (the rulebook's eleven steps) ----------------------------------------------------
    def new_state(self, seed: int = 0) -> "State":
        o = self.config.options
        s = State(self)
        s.rng = Rng(check_seed(seed))
        if self.config.explicit_chance:
            s._start_setup()  # the same steps, each random one a chance node
            return s
        # steps 4-7: the deck's backs, top first: 10 regular (with the achievements' extra VIPs
        # shuffled among them), the VIP, 5 regular. Faces are drawn when turned up.
        top = ["R"] * spec.CONSTANTS["deck_top_regular"] + ["V"] * o["extra_vips"]
        if o["extra_vips"]:
            s.rng.shuffle(top)
        s.deck = "".join(top) + "V" * spec.CONSTANTS["deck_vips"] + "R" * spec.CONSTANTS["deck_bottom_regular"]
        # step 8: one card onto each table, table 1 first
        for k in range(NUM_TABLES):
            s._turn_up_card(k)
        # step 9: the start player
        s.active = s.rng.bounded(self.players)
        # step 10: five face-up tokens each, seat 0 first, one token at a time
        s.bag = ALL_TOKENS
        for p in range(self.players):
            for _ in range(self.hand_limit):
                s._draw_token(p)
        s.opening_left = self.players - 1 if o["opening_free"] == "first_round" else 0
        # step 11: the glass is flipped full and the start player plays anywhere (DSJ-10)
        s._settle()
        return s

    def replay(self, seed: int, timeline: Sequence[Tuple[int, int]]) -> "State":
        """The state reached from ``new_state(seed)`` by ``state.timeline`` (actions and time)."""
        return play_timeline(self.new_state(seed), timeline)

    def _state_from_fields(self, fields: Dict[str, Any]) -> "State":
        s = State(self)
        s.rng = Rng.from_state(fields["rng"])
        s.phase = PHASES[fields["phase"]]
        s.active, s.direction, s.discarder = fields["active"], fields["direction"], fields["discarder"]
        s.resume = RESUME[fields["resume"]] if fields["resume"] >= 0 else ""
        s.required, s.opening_left = fields["required_table"], fields["opening_free_turns"]
        s.case3, s.redraws = bool(fields["stuck_complained"]), fields["free_redraws"]
        s.draw_pending = bool(fields["draw_pending"])
        s.hands, s.bag, s.discard = list(fields["hands"]), fields["bag"], fields["discard"]
        s.table_card = list(fields["table_cards"])
        s.slots = [list(row[:len(self.config.card_icons[card])]) if card >= 0 else []
                   for card, row in zip(s.table_card, fields["slots"])]
        s.deck = "".join("?" if i < fields["shuffle_left"] else "V" if fields["deck_vips"] >> i & 1 else "R"
                         for i in range(fields["deck_size"]))
        s.chance = CHANCE_EVENTS[fields["chance"] - 1] if fields["chance"] else ""
        s.out = fields["cards_out"]
        s.tea_supply, s.tea_reception = fields["tea_supply"], fields["tea_reception"]
        s.complaints, s.reverse_used = fields["complaints"], bool(fields["reverse_used"])
        s.clock = TickClock(fields["clock_capacity"], fields["clock_top"], bool(fields["clock_lying"]))
        s.result = OUTCOMES[fields["outcome"]] if fields["outcome"] >= 0 else None
        return s


class State(ReferenceState):
    """A Dim Sum Jam position (see the module docstring for the representation)."""

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        n = game.players
        self.timeline: List[Tuple[int, int]] = []
        self.rng = Rng(0)
        self.phase = "play"
        self.active = 0
        self.direction = 1
        self.discarder = -1            # who discards now in a time-out (-1: not in a time-out)
        self.resume = ""               # the phase a time-out interrupted ("play" or "reward")
        self.required = 0              # 0: any table; k: table k (in "reward": the next player's)
        self.opening_left = 0          # further turns with free placement (DSJ-10 first_round)
        self.case3 = False             # this turn already took its complaint for being stuck
        self.redraws = 0               # free redraws taken this turn (DSJ-9)
        self.draw_pending = False      # in "reward": the active player still draws a token
        self.hands = [0] * n
        self.bag = 0
        self.discard = 0
        self.table_card = [-1] * NUM_TABLES
        self.slots: List[List[int]] = [[] for _ in range(NUM_TABLES)]
        self.deck = ""
        self.out = 0                   # cards fulfilled and out of the game
        self.tea_supply = game.config.options["tea_supply"]
        self.tea_reception = 0
        self.complaints = 0
        self.reverse_used = False
        self.clock = TickClock(game.config.options["glass_ticks"])
        self.result: Optional[str] = None  # "win", "deck_out" or "complaints" once over
        self.chance = ""               # the pending chance event (explicit mode), "" for none
        self._charge: Optional[int] = None

    # -- public extras ---------------------------------------------------------------------------
    @property
    def clock(self) -> ClockView:  # type: ignore[override]
        """A read-only view of the hourglass: top, capacity, lying_down."""
        return ClockView(self._clock)

    @clock.setter
    def clock(self, value: TickClock) -> None:
        self._clock = value

    # -- the shared API ------------------------------------------------------------------------
    def apply(self, action: Any, ticks: Any = None) -> None:
        """Apply ``action``; ``ticks`` (default: the option's cost) is the time it took."""
        cost = None if ticks is None else self._check_ticks(ticks)
        chance = self.is_chance_node  # a chance node takes no time: 0 or None ticks only
        if chance and cost:
            raise ValueError(f"a chance outcome takes no time; got ticks={cost} (give 0 or None)")
        self._charge = cost
        try:
            super().apply(action)
        finally:
            self._charge = None
        a = self.history[-1]
        self.timeline.append((a, 0 if chance else self._default_cost(a) if cost is None else cost))

    def advance(self, ticks: Any) -> None:
        """Let ``ticks`` of time pass with no action (a real-time front end's clock)."""
        ticks = self._check_ticks(ticks)
        if self.is_terminal:
            raise IllegalActionError("advance: the game is over")
        if self.is_chance_node:
            raise IllegalActionError("advance: no time passes at a chance node; apply an outcome first")
        self._clock.run(ticks)
        self._settle()
        self.timeline.append((-1, ticks))

    def _check_ticks(self, ticks: Any) -> int:
        ticks = check_int(ticks, "ticks", 0, spec.MAX_TICKS_PER_CALL)
        if ticks and not self.game.time_on:
            raise ValueError(f"ticks={ticks}: time is off in this game (ticks_per_action=0)")
        return ticks

    def _default_cost(self, a: int) -> int:
        o = self.game.config.options
        if not self.game.time_on:
            return 0
        if a < A_FLIP or a == A_CANNOT_SERVE:
            return o["ticks_per_action"]
        if a <= A_REVERSE:
            return o["ticks_per_team_decision"]
        return 0  # discards and standing the glass happen while the game is paused

    def _current_player(self) -> int:
        if self.phase == "over":
            return TERMINAL
        if self.chance:
            return CHANCE
        if self.phase == "timeout_discard":
            return self.discarder
        return self.active

    def _returns(self) -> Tuple[float, ...]:
        win = 1.0 if self.result == "win" else 0.0
        return (win,) * self.game.players

    # -- helpers --------------------------------------------------------------------------------
    def _hand_of(self, player: int) -> int:
        """The hand ``player`` plays from (silver-2: the next player's, clockwise)."""
        if self.game.config.options["play_next_hand"]:
            return (player + 1) % self.game.players
        return player

    def _bag_ready(self) -> bool:
        """An empty bag takes the discard pile first (DSJ-17); False if there is nothing to draw."""
        if not self.bag:
            self.bag, self.discard = self.discard, 0
        return self.bag != 0

    def _take_token(self, hand: int, t: int) -> None:
        self.bag &= ~(1 << t)
        self.hands[hand] |= 1 << t

    def _draw_token(self, hand: int) -> bool:
        """One token from the bag into ``hand``; an empty bag takes the discard pile (DSJ-17)."""
        if not self._bag_ready():
            return False
        self._take_token(hand, _kth_bit(self.bag, self.rng.bounded(self.bag.bit_count())))
        return True

    def _needs_draw(self, hand: int) -> bool:
        """Explicit mode: ``hand`` draws a token now (below the limit, something to draw)."""
        return self.hands[hand].bit_count() < self.game.hand_limit and self._bag_ready()

    def _refill(self, hand: int) -> None:
        while self.hands[hand].bit_count() < self.game.hand_limit and self._draw_token(hand):
            pass

    def _unseen(self) -> int:
        on_tables = 0
        for c in self.table_card:
            if c >= 0:
                on_tables |= 1 << c
        return self.game.config.all_cards & ~on_tables & ~self.out

    def _face_pool(self) -> int:
        """The cards the top card of the deck may be: the unseen cards of its back."""
        cfg = self.game.config
        return self._unseen() & (cfg.vip_mask if self.deck[0] == "V" else cfg.regular_mask)

    def _place_card(self, k: int, card: int) -> None:
        """The top card of the deck, ``card``, onto table k."""
        self.deck = self.deck[1:]
        self.table_card[k] = card
        self.slots[k] = [EMPTY] * len(self.game.config.card_icons[card])

    def _turn_up_card(self, k: int) -> None:
        """The top card of the deck onto table k: its face is uniform among unseen cards of its back."""
        pool = self._face_pool()
        self._place_card(k, _kth_bit(pool, self.rng.bounded(pool.bit_count())))

    def _allowed_tables(self) -> range:
        return range(NUM_TABLES) if self.required == 0 else range(self.required - 1, self.required)

    def _empty_types(self, k: int) -> int:
        """Mask of the token types with an empty icon on table k."""
        card = self.table_card[k]
        if card < 0:
            return 0
        icons, mask = self.game.config.card_icons[card], 0
        for i, slot in enumerate(self.slots[k]):
            if slot == EMPTY:
                mask |= 1 << icons[i]
        return mask

    def _token_plays(self) -> List[int]:
        hand = set_bits(self.hands[self._hand_of(self.active)])
        plays = []
        for k in self._allowed_tables():
            empty = self._empty_types(k)
            plays += [A_PLAY + t * NUM_TABLES + k for t in hand if empty >> (t // 7) & 1]
        return plays

    def _tea_plays(self) -> List[int]:
        if not self.tea_reception:
            return []
        return [A_TEA + k * NUM_TYPES + y for k in self._allowed_tables()
                for y in range(NUM_TYPES) if self._empty_types(k) >> y & 1]

    # -- legal actions --------------------------------------------------------------------------
    def _legal_actions(self) -> List[int]:
        if self.chance:
            return [o for o, _ in self._chance_outcomes()]
        phase = self.phase
        if phase == "play":
            plays = self._token_plays()
            teas = self._tea_plays()
            if not plays and teas and self.game.config.options["decline_tea"]:
                teas.append(A_CANNOT_SERVE)  # DSJ-7: using tea is optional
            return sorted(plays + teas)
        if phase == "reward":
            legal = [A_FLIP]
            if self.tea_supply:
                legal.append(A_TAKE_TEA)
            o = self.game.config.options
            if o["reverse_variant"] and o["reverse_trigger"] == "team_once" and not self.reverse_used:
                legal.append(A_REVERSE)
            return legal
        if phase in ("timeout_discard", "stuck_discard"):
            player = self.discarder if phase == "timeout_discard" else self.active
            return [A_DISCARD + t for t in set_bits(self.hands[self._hand_of(player)])] + [A_DONE]
        if phase == "stand":
            if self.game.config.options["stand_side"] == "same_side_up":
                return [A_STAND_SAME]
            return [A_STAND_SAME, A_STAND_TURNED]
        return []

    # -- the rules ------------------------------------------------------------------------------
    def _apply(self, a: int) -> None:
        if self.chance:  # no time passes
            self._resolve_chance(a)
            self._settle()
            return
        cost = self._default_cost(a) if self._charge is None else self._charge
        if cost:
            self._clock.run(cost)  # the time the decision took passes first; then the action
        if a < A_TEA:
            self._play_token(a // NUM_TABLES, a % NUM_TABLES)
        elif a < A_FLIP:
            self._play_tea((a - A_TEA) // NUM_TYPES, (a - A_TEA) % NUM_TYPES)
        elif a <= A_REVERSE:
            self._reward(a)
        elif a < A_DONE:
            self._discard(a - A_DISCARD)
        elif a == A_DONE:
            self._done_discarding()
        elif a in (A_STAND_SAME, A_STAND_TURNED):
            self._stand(a == A_STAND_TURNED)
        else:  # A_CANNOT_SERVE: the player takes the stuck rule instead of a tea (DSJ-7)
            self._handle_stuck()  # if the turn passed (DSJ-9 guard), _settle checks the next player
        self._settle()

    def _place(self, k: int, item: int, kind: int) -> None:
        """Put a token (or TEA) on the first empty icon of type ``kind`` on table k."""
        icons, slots = self.game.config.card_icons[self.table_card[k]], self.slots[k]
        for i, icon in enumerate(icons):
            if icon == kind and slots[i] == EMPTY:
                slots[i] = item
                return
        raise AssertionError("no empty icon; the legality check should have caught this")

    def _play_token(self, t: int, k: int) -> None:
        hand = self._hand_of(self.active)
        self.hands[hand] &= ~(1 << t)
        self._place(k, t, t // 7)
        number = t % 7 + 1
        o = self.game.config.options
        if o["reverse_variant"] and o["reverse_trigger"] == "on_self_table" and number == k + 1:
            self.direction = -self.direction
        self._after_serving(k, draw=True, next_required=number)  # DSJ-16: the token's number

    def _play_tea(self, k: int, y: int) -> None:
        self.tea_reception -= 1
        self._place(k, TEA, y)
        # DSJ-11: no draw (no hand token was spent); the next player must serve table 1
        self._after_serving(k, draw=self.game.config.options["draw_after_tea"], next_required=1)

    def _after_serving(self, k: int, draw: bool, next_required: int) -> None:
        if EMPTY not in self.slots[k]:
            self._fulfil(k, draw, next_required)
            return
        if draw and self.game.explicit_chance:
            if self._needs_draw(self._hand_of(self.active)):
                self.required = next_required  # kept for the pass after the draw
                self.chance = "draw"
                return
        elif draw:
            self._draw_one(self._hand_of(self.active))
        self._pass_turn(next_required)

    def _draw_one(self, hand: int) -> None:
        """The draw after a play: one token, unless a time-out refill already filled the hand."""
        if self.hands[hand].bit_count() < self.game.hand_limit:
            self._draw_token(hand)

    def _fulfil(self, k: int, draw: bool, next_required: int) -> None:
        """DSJ-12, in this order: win check, clear the card, next card (or lose), then the reward."""
        card = self.table_card[k]
        if self.game.config.vip_mask >> card & 1 and not self._vips_left(excluding_table=k):
            self._end("win")  # ending (a); nothing else happens
            return
        for slot in self.slots[k]:
            if slot == TEA:
                self.tea_supply += 1
            else:
                self.discard |= 1 << slot
        self.out |= 1 << card
        self.table_card[k], self.slots[k] = -1, []
        if not self.deck:
            self._end("deck_out")  # ending (b): a table needs a card, a VIP is unfulfilled (DSJ-13)
            return
        self.draw_pending = draw
        self.required = next_required  # in "reward" this is the next player's table
        if self.game.explicit_chance:
            self.chance = "card"  # the new card's face is a chance node
            return
        self._turn_up_card(k)
        self._after_turn_up()

    def _after_turn_up(self) -> None:
        """After the new card is on the table: the Reverse variant's turn, then the team's reward."""
        o = self.game.config.options
        if o["reverse_variant"] and o["reverse_trigger"] == "on_fulfil":
            self.direction = -self.direction
        self.phase = "reward"

    def _vips_left(self, excluding_table: int) -> int:
        on_tables = sum(1 for j, c in enumerate(self.table_card)
                        if j != excluding_table and c >= 0 and self.game.config.vip_mask >> c & 1)
        return on_tables + self.deck.count("V")

    def _reward(self, a: int) -> None:
        flip_owed = self.resume == "reward"  # DSJ-22: a time-out interrupted this reward
        if a == A_FLIP:
            self._flip_glass()
        elif a == A_TAKE_TEA:
            self.tea_supply -= 1
            self.tea_reception += 1
        else:
            self.reverse_used = True
            self.direction = -self.direction
        if flip_owed:  # the time-out's flip (DSJ-2), unless the reward's flip just was that flip
            self.resume = ""
            if a != A_FLIP:
                self._flip_glass()
        if self.draw_pending:
            self.draw_pending = False
            hand = self._hand_of(self.active)
            if not self.game.explicit_chance:
                self._draw_one(hand)
            elif self._needs_draw(hand):
                self.chance = "draw"
                return
        self._pass_turn(self.required)

    def _flip_glass(self) -> None:
        if self.game.config.options["flip_model"] == "physical":
            self._clock.flip()   # DSJ-1: capacity - top
        else:
            self._clock.refill()

    def _pass_turn(self, required: int) -> None:
        n = self.game.players
        self.active = (self.active + self.direction) % n
        if self.opening_left:
            self.opening_left -= 1
            required = 0
        self.required = required
        self.case3 = False
        self.redraws = 0
        self.phase = "play"

    def _discard(self, t: int) -> None:
        player = self.discarder if self.phase == "timeout_discard" else self.active
        self.hands[self._hand_of(player)] &= ~(1 << t)
        self.discard |= 1 << t

    def _refill_hand(self) -> int:
        """The hand that replenishes after discarding: the stuck player's or the discarder's."""
        return self._hand_of(self.active if self.phase == "stuck_discard" else self.discarder)

    def _done_discarding(self) -> None:
        hand = self._refill_hand()
        if not self.game.explicit_chance:
            self._refill(hand)
        elif self._needs_draw(hand):
            self.chance = "refill"  # one chance node per token
            return
        self._after_refill()

    def _after_refill(self) -> None:
        """The stuck player stands the glass; a time-out goes to the next discarder or ends."""
        if self.phase == "stuck_discard":
            self.phase = "stand"
            return
        o = self.game.config.options
        nxt = (self.discarder + 1) % self.game.players  # DSJ-5: clockwise from the active player
        if nxt != self.active and o["timeout_discard"] == "all_players":
            self.discarder = nxt
            return
        self.discarder = -1
        if self.resume == "reward" and o["interrupted_reward"] == "reward_first":
            # DSJ-22: the interrupted reward is chosen first, with the glass still empty; resume
            # stays set while the time-out's flip is owed (_reward makes it)
            self.phase = "reward"
            return
        self._flip_glass()  # DSJ-2: the top is empty, so the flip gives the full glass
        self.phase, self.resume = self.resume, ""
        if self.phase == "play" and o["timeout_resume"] == "free_play":
            self.required = 0

    def _stand(self, turned: bool) -> None:
        self._clock.stand(turned)  # DSJ-3
        self.phase = "play"        # a free play: required is 0 since the stuck rule began

    def _handle_stuck(self) -> bool:
        """The stuck player's rule (case III, DSJ-8/DSJ-9). True if the turn passed instead."""
        o = self.game.config.options
        if not self.case3:
            self.complaints += 1
            if self.complaints >= o["complaint_limit"]:
                self._end("complaints")
                return False
            self.case3 = True
        elif self.redraws < o["max_free_redraws"] and (self.bag or self.discard):
            self.redraws += 1  # the rulebook's "rare case": again, without a complaint
        else:
            self._pass_turn(0)  # DSJ-9 guard: the next player makes a free play
            self.required = 0
            return True
        self.required = 0
        self._clock.lay_down()
        self.phase = "stuck_discard"
        return False

    def _end(self, outcome: str) -> None:
        self.result = outcome
        self.phase = "over"
        self.discarder, self.resume, self.draw_pending = -1, "", False

    def _settle(self) -> None:
        """What happens on its own after an action or after time passed.

        1. A standing glass that is empty in a timed phase is a time-out (case II): a complaint,
           then everyone may discard and replenish. The glass is judged as the action left it.
        2. A player who must play and cannot takes the stuck rule (case III) automatically.
        """
        if self.chance:
            return  # the pending random event first; the rules go on once it is resolved
        # (resume is set in "reward" only while DSJ-22's flip is owed: that time-out is being resolved)
        if self.phase in _TIMED_PHASES and self.game.time_on and self._clock.ran_out and not self.resume:
            self.complaints += 1
            if self.complaints >= self.game.config.options["complaint_limit"]:
                self._end("complaints")
                return
            self.resume, self.phase, self.discarder = self.phase, "timeout_discard", self.active
            return
        while self.phase == "play" and not (self._token_plays() or self._tea_plays()):
            if not self._handle_stuck():
                return

    # -- explicit chance --------------------------------------------------------------------------
    def _start_setup(self) -> None:
        """The set-up (steps 4-10) as chance nodes: the tokens wait in the bag, the top section's
        backs wait for the shuffle ("?"), then the cards, the start player and the deal."""
        o, cfg = self.game.config.options, self.game.config
        top = spec.CONSTANTS["deck_top_regular"] * "R" + o["extra_vips"] * "V"
        shuffle = o["extra_vips"] and len(top) > 1
        self.deck = ("?" * len(top) if shuffle else top) + "V" * spec.CONSTANTS["deck_vips"] + \
            "R" * spec.CONSTANTS["deck_bottom_regular"]
        assert len(self.deck) == cfg.deck_length
        self.bag = ALL_TOKENS
        self.opening_left = self.game.players - 1 if o["opening_free"] == "first_round" else 0
        self.chance = "setup_shuffle" if shuffle else "setup_card"

    def _shuffle_vips_left(self) -> int:
        """VIP backs the set-up shuffle has still to place among the "?" positions."""
        top = self.deck[:self.game.config.top_section]
        return self.game.config.options["extra_vips"] - top.count("V")

    def _chance_outcomes(self) -> List[Tuple[int, int]]:
        cfg = self.game.config
        ncards = len(cfg.cards)
        if self.chance == "setup_shuffle":  # the next position's back, by the backs left
            vips = self._shuffle_vips_left()
            regular = self.deck.count("?") - vips
            return [(chance_back(ncards, vip), w) for vip, w in ((False, regular), (True, vips)) if w]
        if self.chance in ("setup_card", "card"):
            return [(C_CARD + card, 1) for card in set_bits(self._face_pool())]
        if self.chance == "setup_seat":
            return [(chance_seat(ncards, p), 1) for p in range(self.game.players)]
        if self.chance:  # a token from the bag: the deal, a draw, a replenish
            return [(C_TOKEN + t, 1) for t in set_bits(self.bag)]
        return []

    def _resolve_chance(self, o: int) -> None:
        """Plays outcome ``o`` and the rules that follow it, up to the next decision or chance node."""
        event, cfg = self.chance, self.game.config
        if event == "setup_shuffle":
            self._place_back(o == chance_back(len(cfg.cards), True))
        elif event == "setup_card":
            k = self.table_card.index(-1)
            self._place_card(k, o - C_CARD)
            if k == NUM_TABLES - 1:
                self.chance = "setup_seat"
        elif event == "setup_seat":
            self.active = o - chance_seat(len(cfg.cards), 0)
            self.chance = "setup_deal"
        elif event == "setup_deal":  # seat 0 first, hand_limit each, one token at a time
            self._take_token(self._first_short_seat(), o - C_TOKEN)
            if self._first_short_seat() is None:
                self.chance = ""  # step 11 follows (the caller settles)
        elif event == "card":
            self._place_card(self.table_card.index(-1), o - C_CARD)
            self.chance = ""
            self._after_turn_up()
        elif event == "draw":
            self._take_token(self._hand_of(self.active), o - C_TOKEN)
            self.chance = ""
            self._pass_turn(self.required)
        else:  # "refill": one token of a replenish
            hand = self._refill_hand()
            self._take_token(hand, o - C_TOKEN)
            if not self._needs_draw(hand):
                self.chance = ""
                self._after_refill()

    def _place_back(self, vip: bool) -> None:
        """The lowest "?" of the top section gets a back; the last one takes what is left."""
        pos = self.deck.count("?") - 1
        self.deck = self.deck[:pos] + ("V" if vip else "R") + self.deck[pos + 1:]
        if pos == 1:
            self.deck = ("V" if self._shuffle_vips_left() else "R") + self.deck[1:]
            self.chance = "setup_card"

    def _first_short_seat(self) -> Optional[int]:
        for p in range(self.game.players):
            if self.hands[p].bit_count() < self.game.hand_limit:
                return p
        return None

    # -- information ----------------------------------------------------------------------------
    def observation(self, player: int) -> List[float]:
        n = self.game.players
        player = check_int(player, "player", 0, n - 1)
        cfg = self.game.config
        obs = [0.0] * self.game.core.observation_shape[0]
        at = {s.name: s.start for s in self.game.core.observation_layout}  # declared by the core
        rel = lambda seat: (seat - player) % n  # noqa: E731
        obs[at["phase"] + PHASES.index(self.phase)] = 1.0
        if self.phase != "over" and not self.chance:  # no seat acts at a chance node
            obs[at["current_player"] + rel(self._current_player())] = 1.0
        obs[at["active_player"] + rel(self.active)] = 1.0
        for seat in range(n):
            for t in set_bits(self.hands[seat]):
                obs[at["hands"] + rel(seat) * NUM_TOKENS + t] = 1.0
        for t in set_bits(self.bag):
            obs[at["bag"] + t] = 1.0
        for t in set_bits(self.discard):
            obs[at["discard"] + t] = 1.0
        ncards = len(cfg.cards)
        for k in range(NUM_TABLES):
            card = self.table_card[k]
            if card < 0:
                continue
            obs[at["table_cards"] + k * ncards + card] = 1.0
            for i, slot in enumerate(self.slots[k]):
                if slot == EMPTY:
                    obs[at["table_empty_icons"] + k * NUM_TYPES + cfg.card_icons[card][i]] += 1.0
                elif slot == TEA:
                    obs[at["table_teas"] + k] += 1.0
                else:
                    obs[at["table_tokens"] + k * NUM_TOKENS + slot] = 1.0
        obs[at["required_table"] + self.required] = 1.0
        for i, back in enumerate(self.deck):
            if back != "?":  # a position the set-up shuffle has not reached shows no back
                obs[at["deck_backs"] + 2 * i + (back == "V")] = 1.0
        for c in set_bits(self.out):
            obs[at["cards_out"] + c] = 1.0
        limit = cfg.options["complaint_limit"]
        obs[at["counts"]:at["counts"] + 5] = [self.tea_supply, self.tea_reception, self.complaints,
                                              limit - self.complaints, len(self.deck)]
        c = self._clock
        obs[at["clock"]:at["clock"] + 4] = [c.top / c.capacity, c.bottom / c.capacity, float(c.lying),
                                            float(self.game.time_on)]
        obs[at["turn"]:at["turn"] + 6] = [float(self.direction == -1), float(self.case3), self.redraws,
                                          float(self.draw_pending), float(self.reverse_used),
                                          rel(self.discarder) if self.discarder >= 0 else -1.0]
        if self.result:
            obs[at["outcome"] + OUTCOMES.index(self.result)] = 1.0
        return [float(x) for x in obs]

    def resample(self, player: int, seed: int) -> "State":
        """A full state consistent with all ``player`` has seen: only the RNG changes.

        Hands, tables, discard pile, bag contents and the deck's backs are public (DSJ-18). What is
        hidden is the order of the bag and of the cards within each back; this engine never fixes
        those orders (faces and tokens are drawn when revealed), so redrawing them is reseeding.
        """
        check_int(player, "player", 0, self.game.players - 1)
        s = self.clone()
        s.rng = Rng(check_seed(seed))
        s.history, s.timeline = [], []
        return s

    # -- copying and the canonical dict -----------------------------------------------------------
    def clone(self) -> "State":
        s = State.__new__(State)
        s.__dict__.update(self.__dict__)
        s.history = list(self.history)
        s.timeline = list(self.timeline)
        s.rng = self.rng.clone()
        s.hands = list(self.hands)
        s.table_card = list(self.table_card)
        s.slots = [list(x) for x in self.slots]
        s._clock = self._clock.copy()
        return s

    __copy__ = clone

    def __deepcopy__(self, memo: Any) -> "State":
        return self.clone()

    def fields(self) -> Dict[str, Any]:
        """The core's state fields (src/dimsum_core/dim_sum_jam/schema.cpp), by name."""
        return {
            "phase": PHASES.index(self.phase), "active": self.active, "direction": self.direction,
            "discarder": self.discarder, "resume": RESUME.index(self.resume) if self.resume else -1,
            "required_table": self.required, "opening_free_turns": self.opening_left,
            "stuck_complained": int(self.case3), "free_redraws": self.redraws, "draw_pending": int(self.draw_pending),
            "hands": list(self.hands), "bag": self.bag, "discard": self.discard, "table_cards": list(self.table_card),
            "slots": [row + [EMPTY] * (spec.MAX_ICONS - len(row)) for row in self.slots],
            "deck_size": len(self.deck), "deck_vips": sum(1 << i for i, back in enumerate(self.deck) if back == "V"),
            "cards_out": self.out, "tea_supply": self.tea_supply, "tea_reception": self.tea_reception,
            "complaints": self.complaints, "reverse_used": int(self.reverse_used), "clock_top": self._clock.top,
            "clock_capacity": self._clock.capacity, "clock_lying": int(self._clock.lying),
            "outcome": OUTCOMES.index(self.result) if self.result else -1, "rng": list(self.rng.state()),
            "chance": CHANCE_EVENTS.index(self.chance) + 1 if self.chance else 0, "shuffle_left": self.deck.count("?"),
        }

    def __repr__(self) -> str:
        return f"<dim_sum_jam State phase={self.phase} active={self.active} outcome={self.result}>"
