// Nice Buns' rules: setup, the turn (roll, split, choose, the three dice), the cascade (NB-9)
// and the end of the game. Rule ids (NB-n) refer to docs/rules/nice_buns.md. Every random
// event goes through common/chance.hpp (draw_kind, roll_die, uniform_seat) in the order of
// python/dimsum/reference/nice_buns.py (its module doc lists the order); draws walk the kinds in
// index order like Rng.draw_index.
//
// Explicit chance mode stops before each of those events instead (a chance phase, engine.hpp) and
// resolve_chance plays the outcome chance picks with the same code that follows the sampled draw.
// The sampled path only gains an `if (c.explicit_chance)` where an event happens.
#include <array>
#include <bit>
#include <cstring>

#include "../common/bits.hpp"
#include "../common/chance.hpp"

#include "die_view.hpp"
#include "engine.hpp"
#include "hashing.hpp"

namespace dimsum::nice_buns {
namespace {

// The settle loop's bound: a die takes at most 1 step to act or skip, a draw die 2 a bun (the
// draw and its cascade), every action queues at most 2 cascades, and a turn ends in 1 step.
inline constexpr int kSettleBound = kDice * (2 * kMaxDraw + 3) + 4;

void roll(const Config& c, State& s) {
  for (int d = 0; d < kDice; ++d) s.dice[d] = static_cast<uint8_t>(roll_die(s.rng, c.num_faces[d]));
}

// Explicit mode: the roll is three chance nodes, small, medium, large; the dice not rolled yet
// read 0, so that a position has one set of bytes.
void await_roll(State& s) {
  s.dice[0] = s.dice[1] = s.dice[2] = 0;
  s.die = 0;
  s.phase = kRollPhase;
}

// kKeyed (here and below): keep s.hash exact (apply) or leave it stale (apply_unkeyed).
template <bool kKeyed>
void put_on_tray(State& s, int colour) {
  s.bag.sub(colour);
  change_count<kKeyed>(s, kHolderTray, s.tray, colour, +1);
}

// NB-10: six buns on the tray at all times, never a fish head; short if the bag has no colour.
// Forced inline (common/engine.hpp), as cascade_after_tray: a take's top-up, inside settle.
template <bool kKeyed>
DIMSUM_FORCE_INLINE void top_up_tray(const Config& c, State& s) {
  for (int missing = c.tray_size - s.tray.total(kColours); missing > 0; --missing) {
    const int coloured = s.bag.coloured();
    if (coloured == 0) return;
    put_on_tray<kKeyed>(s, draw_kind(s.rng, s.bag, kColours, coloured));
  }
}

// The tray tops up after a bun left it or buns went back to the bag. Sampled: at once. Explicit:
// true when the game must stop at a chance node per missing bun first (the phase is set).
template <bool kKeyed>
bool refill_tray(const Config& c, State& s) {
  if (!c.explicit_chance) {
    // tested here, where it inlines: a put back leaves the tray full, and so do most greedy sets
    if (s.tray.total(kColours) < c.tray_size) top_up_tray<kKeyed>(c, s);
    return false;
  }
  if (!tray_wants_bun(c, s)) return false;
  s.phase = kTrayPhase;
  return true;
}

template <bool kKeyed>
void move_bun(State& s, int from, int to, int kind) {
  change_count<kKeyed>(s, from, s.front[from], kind, -1);
  change_count<kKeyed>(s, to, s.front[to], kind, +1);
}

void set_cascade(State& s, int first, int second = -1) {
  s.cascade[0] = static_cast<int8_t>(first);
  s.cascade[1] = static_cast<int8_t>(second);
  s.cascade_len = second < 0 ? 1 : 2;
}

// NB-9 has nothing to do for seat p: no fish head and no colour at a set's size (greedy_size is
// set_size + 1, finish_config checks it), so nothing is greedy, doubled or ready to plate and the
// cascade's steps only clear the fish heads' colour. Two byte-wise tests; most cascades are idle.
inline bool cascade_is_idle(const Config& c, const State& s, int p) {
  return s.front[p].get(kFish) == 0 && !s.front[p].any_colour_at_least(c.set_size);
}

// Runs p's cascade when it is idle (all it does then: the fish heads' colour cleared); true if so.
inline bool ran_idle_cascade(const Config& c, State& s, int p) {
  if (!cascade_is_idle(c, s, p)) return false;
  s.fish_on[p] = -1;
  return true;
}

// Queues the cascades of `first`, then `second` (-1: none) on an empty queue, for settle to run
// next, with nothing between. An idle one is run here instead (it only clears the seat's fish
// colour, and reads nothing the other's could change): settle's loop would take a round to queue,
// run and pop it, and most are idle (every draw, take and move queues one or two). The queue
// after settle is the same either way.
DIMSUM_FORCE_INLINE void queue_cascades(const Config& c, State& s, int first, int second = -1) {
  if (ran_idle_cascade(c, s, first)) {
    if (second < 0 || ran_idle_cascade(c, s, second)) return;
    first = second;
    second = -1;
  }
  set_cascade(s, first, second);
}

void pop_cascade(State& s) {
  s.cascade[0] = s.cascade[1];
  s.cascade[1] = -1;
  --s.cascade_len;
}

void enter_die(const Config& c, State& s, int die) {
  s.die = static_cast<int8_t>(die);
  s.draws_left = 0;
  if (die < kDone && face_of(c, s, die).action == kDraw) s.draws_left = static_cast<int8_t>(face_of(c, s, die).count);
}

// NB-3/NB-13: play passes clockwise, so the chooser rolls next; the turn cap ends in a draw.
// Sets s.current too (settle's callers take it from there). Forced inline (common/engine.hpp):
// settle's only call, once a turn.
DIMSUM_FORCE_INLINE void next_turn(const Config& c, State& s) {
  if (static_cast<int32_t>(s.turn) >= c.max_turns) {
    s.phase = kOver;
    s.current = kTerminalPlayer;
    return;
  }
  ++s.turn;
  s.roller = static_cast<int8_t>(chooser_of(c, s));
  s.split = s.chooser_takes = -1;
  s.die = 0;
  s.draws_left = 0;
  s.phase = kSplitPhase;
  if (c.explicit_chance) {
    await_roll(s);
    s.current = kChancePlayer;
    return;
  }
  roll(c, s);
  s.current = s.roller;
}

// `n` buns of `colour` (colour -1: none) and `fish` fish heads go from seat p back to the bag;
// the tray tops up (explicit mode: the phase becomes kTrayPhase if it must wait for chance).
template <bool kKeyed>
void to_bag(const Config& c, State& s, int p, int colour, int n, int fish) {
  if (n) {
    change_count<kKeyed>(s, p, s.front[p], colour, -n);
    s.bag.add(colour, n);
  }
  if (fish) {
    change_count<kKeyed>(s, p, s.front[p], kFish, -fish);
    s.bag.add(kFish, fish);
    s.fish_on[p] = -1;
  }
  refill_tray<kKeyed>(c, s);
}

template <bool kKeyed>
void plate(const Config& c, State& s, int p, int colour) {
  change_count<kKeyed>(s, p, s.front[p], colour, -c.set_size);
  s.plates[p] = static_cast<uint8_t>(s.plates[p] | (1u << colour));
  if (count_bits(s.plates[p]) >= c.sets_to_win) s.winner = static_cast<int8_t>(p);
}

// NB-8: a set of greedy_size or more (its fish heads included) goes back; true if one did.
template <bool kKeyed>
bool send_back_greedy(const Config& c, State& s, int p, int fish, bool any_colour, int on) {
  const Buns& f = s.front[p];
  // the colours at greedy_size or more, the one the fish heads are on counted with them
  unsigned greedy = f.colours_at_least(c.greedy_size);
  if (on >= 0 && f.get(on) + fish >= c.greedy_size) greedy |= 1u << on;
  if (greedy) {  // the first such colour, as NB-8 walks them
    const int k = std::countr_zero(greedy);
    to_bag<kKeyed>(c, s, p, k, f.get(k), on == k ? fish : 0);
    return true;
  }
  if (!any_colour && fish >= c.greedy_size) {  // fish heads alone form a set of their own
    to_bag<kKeyed>(c, s, p, -1, 0, fish);
    return true;
  }
  return false;
}

// NB-9, steps 1-5 for seat p, repeated until nothing changes. Returns kFishPhase or
// kPlatePhase when the owner must decide, -1 when done (s.winner is set if p won); in explicit
// mode kTrayPhase when buns went back and the tray must top up first: the steps never read the
// tray, so settle() runs them again from step 1 after the chance nodes, as `continue` does.
// Every repeat sends three or more buns back to the bag, so p's buns bound the loop: fewer than
// 256 of each kind.
inline constexpr int kCascadeRepeats = kKinds * 255 / 3 + 1;

// Forced inline (common/engine.hpp): one of settle's two hottest steps, with draw_one.
template <bool kKeyed>
DIMSUM_FORCE_INLINE int run_cascade(const Config& c, State& s, int p) {
  if (ran_idle_cascade(c, s, p)) return -1;  // most cascades find nothing: checked first
  for (int repeat = 0; repeat < kCascadeRepeats; ++repeat) {
    const Buns& f = s.front[p];
    // 1. NB-7: fish heads attach to the largest coloured set; a set still tied for largest
    //    keeps them; otherwise the single largest, or the tiebreak.
    const int fish = f.get(kFish);
    const bool any_colour = (f.w & ((1ull << Buns::shift(kColours)) - 1)) != 0;
    if (fish == 0 || !any_colour) {
      s.fish_on[p] = -1;
    } else {
      const int largest = f.largest_colour_count();
      if (s.fish_on[p] < 0 || f.get(s.fish_on[p]) != largest) {
        const unsigned tied = f.colours_with(largest);
        if ((tied & (tied - 1)) == 0 || c.fish_tiebreak == 1) {  // one colour (tied is never 0)
          s.fish_on[p] = static_cast<int8_t>(std::countr_zero(tied));
        } else {
          s.fish_on[p] = -1;
          return kFishPhase;
        }
      }
    }
    // 2. NB-8: greedy sets go back.
    if (send_back_greedy<kKeyed>(c, s, p, fish, any_colour, s.fish_on[p])) {
      if (s.phase == kTrayPhase) return kTrayPhase;
      continue;
    }
    // 3. No doubles: a coloured set of a colour already plated goes back.
    const unsigned doubled = f.colours_with(c.set_size) & s.plates[p];
    if (doubled) {
      to_bag<kKeyed>(c, s, p, std::countr_zero(doubled), c.set_size, 0);
      if (s.phase == kTrayPhase) return kTrayPhase;
      continue;
    }
    // 4. Plating, only while no fish head is held; 5. the win, at once.
    if (fish == 0) {
      const unsigned ready = f.colours_with(c.set_size) & ~static_cast<unsigned>(s.plates[p]);
      if (ready) {
        if (c.manual_plating) return kPlatePhase;
        for (unsigned m = ready; m; m &= m - 1) {
          plate<kKeyed>(c, s, p, std::countr_zero(m));
          if (s.winner >= 0) return -1;
        }
      }
    }
    return -1;
  }
  return -1;  // unreachable: see the bound above
}

// The bun of kind k drawn for the draw die at s.die goes to its holder p, whose cascade follows.
template <bool kKeyed>
inline void give_drawn(const Config& c, State& s, int p, int k) {
  s.bag.sub(k);
  change_count<kKeyed>(s, p, s.front[p], k, +1);
  if (--s.draws_left == 0) enter_die(c, s, s.die + 1);
  queue_cascades(c, s, p);  // the queue is empty: a draw only happens then, and settle runs it next
}

// NB-4: one bun from the bag (fish heads included), then the cascade; an empty bag ends the die
// (NB-11). True when explicit mode stops at the draw's chance node. (Drawing all of a die's buns
// here while their cascades are idle, the holder found once, measured 2% more instructions: the
// loop cost settle's registers.)
template <bool kKeyed>
DIMSUM_FORCE_INLINE bool draw_one(const Config& c, State& s) {
  const int in_bag = s.draws_left ? s.bag.total() : 0;  // the bag is counted only for a draw
  if (in_bag == 0) {
    enter_die(c, s, s.die + 1);
    return false;
  }
  if (c.explicit_chance) {
    s.phase = kDrawPhase;
    return true;
  }
  give_drawn<kKeyed>(c, s, holder_of(c, s, s.die), draw_kind(s.rng, s.bag, kKinds, in_bag));
  return false;
}

// A take or a put back: the tray tops up, then h's cascade. Explicit mode may stop at the tray's
// chance nodes first (true): the cascade waits in the queue, where the state shows it.
template <bool kKeyed>
DIMSUM_FORCE_INLINE bool cascade_after_tray(const Config& c, State& s, int h) {
  if (refill_tray<kKeyed>(c, s)) {
    set_cascade(s, h);
    return true;
  }
  queue_cascades(c, s, h);
  return false;
}

// The holder of the current die, h (settle has it from the die's view), does `a`, an option of a
// face of action kAction (or 'pass'); the pointer moves on, then the cascades run. True when
// explicit mode stops first for the tray's top-up (a take or a put back). settle calls it with the
// face it switched on; act below finds the face from the action's range.
// Forced inline (common/engine.hpp), as queue_cascades: settle's decisions and forced moves call
// it (1.7% fewer instructions a rollout with both).
template <bool kKeyed, int kAction>
DIMSUM_FORCE_INLINE bool act_as(const Config& c, State& s, int a, int h) {
  enter_die(c, s, s.die + 1);
  if (a == c.pass) return false;
  if constexpr (kAction == kTake) {  // take a colour from the tray
    const int colour = a - Config::kTake;
    change_count<kKeyed>(s, kHolderTray, s.tray, colour, -1);
    change_count<kKeyed>(s, h, s.front[h], colour, +1);
    return cascade_after_tray<kKeyed>(c, s, h);
  } else if constexpr (kAction == kPutBack) {  // put a bun back in the bag
    const int kind = a - Config::kPutBack;
    change_count<kKeyed>(s, h, s.front[h], kind, -1);
    s.bag.add(kind);
    return cascade_after_tray<kKeyed>(c, s, h);
  } else if constexpr (kAction == kGive) {
    const int i = a - c.give;
    const int t = i % c.players;
    move_bun<kKeyed>(s, h, t, i / c.players);
    queue_cascades(c, s, h, t);
  } else if constexpr (kAction == kSteal) {
    const int i = a - c.steal;
    const int t = i % c.players;
    move_bun<kKeyed>(s, t, h, i / c.players);
    queue_cascades(c, s, h, t);
  } else {  // kSwap
    const int i = a - c.swap;
    const int theirs = i % kKinds, mine = i / kKinds / c.players, t = i / kKinds % c.players;
    move_bun<kKeyed>(s, h, t, mine);
    move_bun<kKeyed>(s, t, h, theirs);
    queue_cascades(c, s, h, t);  // NB-6: the actor's cascade first, then the other player's
  }
  return false;
}

// act_as for an action of the current die, its face found from the action's range (apply_move).
template <bool kKeyed>
bool act(const Config& c, State& s, int a, int h) {
  if (a < Config::kPutBack) return act_as<kKeyed, kTake>(c, s, a, h);  // 'pass' is the last action:
  if (a < c.give) return act_as<kKeyed, kPutBack>(c, s, a, h);          // it falls to the swap's
  if (a < c.steal) return act_as<kKeyed, kGive>(c, s, a, h);            // act_as, which passes
  if (a < c.swap) return act_as<kKeyed, kSteal>(c, s, a, h);
  return act_as<kKeyed, kSwap>(c, s, a, h);
}

// NB-2's two decisions, played (apply_move) and drawn at random (random_action) alike wherever
// they happen: a rollout's settle plays them too.
inline void play_split(const Config& c, State& s, int a) {
  s.split = static_cast<int8_t>(a - Config::kSplit);
  s.phase = kChoosePhase;  // the chooser always has two groups to choose from
  s.current = static_cast<int8_t>(chooser_of(c, s));
}

inline void play_choice(const Config& c, State& s, int a) {
  s.chooser_takes = static_cast<int8_t>(a - Config::kChoose);
  enter_die(c, s, 0);
}

inline int random_split(Rng& rng) { return Config::kSplit + static_cast<int>(rng.bounded(4)); }

// The choose phase's first option (NB-2): the smaller mask of the split's two groups; the other
// group, its complement, is listed after it.
inline int smaller_group(const State& s) {
  const int m = kSplits[s.split];
  return m < (7 ^ m) ? m : 7 ^ m;
}

inline int random_choice(const State& s, Rng& rng) {
  const int lo = smaller_group(s);
  return Config::kChoose + (rng.bounded(2) ? 7 ^ lo : lo);
}

// What play_die did: the die was forced or had no effect (settle goes on), a decision was played
// (a rollout's: settle goes on as if called afresh) or settle must stop (a decision for the
// caller, or explicit mode's chance node; s.current is set).
enum class DieOutcome : uint8_t { kPlayed, kDecided, kStop };

// A rollout's random decisions (Engine::random_decisions): while `left` lasts, settle plays the
// decisions it reaches itself (the split, the choice and the dice's), each drawn from `rng` as
// random_action draws it, instead of returning to the caller's loop, which would draw it and call
// apply_move and settle again: the die's view is read once for the count and the draw, and
// neither the calls nor settle's exits and entries are paid. Every decision leaves the state as
// the loop's would (the same code sets every field), and both generators see the same calls in the
// same order.
struct Autoplay {
  Rng& rng;
  int64_t left;  // decisions still to play
};

// The die at s.die, of face action kAction (not a draw), as settle meets it. Only counted here:
// with two options or more ('pass' makes a second) the player decides, and legal_actions lists
// them then (a rollout's settle draws one from the same view); a single option is played for the
// player; none, and the die has no effect.
template <bool kKeyed, bool kAutoplay, int kAction>
DIMSUM_FORCE_INLINE DieOutcome play_die(const Config& c, State& s, Autoplay* autoplay) {
  const DieView v(c, s, std::integral_constant<int, kAction>{});
  const int n = options_before_pass<kAction>(c, s, v);
  if (n >= 2 || (n == 1 && !c.mandatory_dice)) {
    s.current = static_cast<int8_t>(v.h);
    if constexpr (kAutoplay) {
      if (autoplay->left > 0) {
        --autoplay->left;
        if (act_as<kKeyed, kAction>(c, s, pick_die_option<kAction>(c, s, v, n, autoplay->rng), v.h)) {
          s.current = kChancePlayer;  // explicit mode: the tray first
          return DieOutcome::kStop;
        }
        return DieOutcome::kDecided;
      }
    }
    return DieOutcome::kStop;
  }
  if (n == 1) {  // the only choice is made for the player
    if (act_as<kKeyed, kAction>(c, s, only_option<kAction>(c, s, v), v.h)) {  // explicit mode: the tray's top-up first
      s.current = kChancePlayer;
      return DieOutcome::kStop;
    }
  } else {
    enter_die(c, s, s.die + 1);  // nothing the die can do: no effect
  }
  return DieOutcome::kPlayed;
}

// Runs everything automatic until a player has a real decision, a chance node (explicit mode)
// or the end of the game, and sets s.current: each way out knows who decides, so the hot ones
// set it directly (derive_current's switch on the phase was an indirect jump that mispredicted
// most of the time in a simulation) and the rare ones derive it. kAutoplay: a rollout's, playing
// the split, choice and dice decisions it reaches while autoplay->left lasts (Autoplay).
template <bool kKeyed, bool kAutoplay = false>
void settle(const Config& c, State& s, Autoplay* autoplay = nullptr) {
  for (int step = 0; step < kSettleBound; ++step) {
    if (s.winner >= 0) {
      s.cascade[0] = s.cascade[1] = -1;
      s.cascade_len = 0;
      s.phase = kOver;
      s.current = kTerminalPlayer;
      return;
    }
    if (s.cascade_len) {
      const int pause = run_cascade<kKeyed>(c, s, s.cascade[0]);
      if (s.winner >= 0) continue;
      if (pause >= 0) {
        s.phase = static_cast<int8_t>(pause);
        s.current = static_cast<int8_t>(derive_current(c, s));
        return;
      }
      pop_cascade(s);
      continue;
    }
    s.phase = kActPhase;
    if (s.die == kDone) {
      next_turn(c, s);
      if constexpr (kAutoplay) {
        if (s.phase == kSplitPhase && autoplay->left > 0) {  // not the game's end or the roll's chance nodes
          --autoplay->left;
          play_split(c, s, random_split(autoplay->rng));
          if (autoplay->left == 0) return;
          --autoplay->left;
          play_choice(c, s, random_choice(s, autoplay->rng));
          step = -1;  // a fresh settle, as apply_move's after the choice
          continue;
        }
      }
      return;
    }
    const int action = face_of(c, s, s.die).action;
    if (action == kDraw) {
      if (draw_one<kKeyed>(c, s)) {  // explicit mode: the draw's chance node
        s.current = kChancePlayer;
        return;
      }
      continue;
    }
    // the one test of the face: each case plays the die with what its face can do
    const DieOutcome outcome = with_face_action(action, [&](auto face) {
      return play_die<kKeyed, kAutoplay, decltype(face)::value>(c, s, autoplay);
    });
    if (outcome == DieOutcome::kStop) return;
    if (outcome == DieOutcome::kDecided) step = -1;  // a fresh settle, as apply_move's after the act
  }
  s.current = static_cast<int8_t>(derive_current(c, s));  // unreachable: see kSettleBound
}

// -- explicit chance mode ------------------------------------------------------------------------

// NB-1 in explicit mode, after the start player: the tray, then the starting buns seat by seat,
// then the first roll; each bun one chance node.
void next_setup_event(const Config& c, State& s) {
  if (tray_wants_bun(c, s)) s.phase = kTrayPhase;
  else if (seat_owed_a_bun(c, s) >= 0) s.phase = kStartingBunPhase;
  else await_roll(s);
}

// Chance plays outcome `o` of the event the phase names; the game goes on exactly where the
// sampled draw would have. Returns true when play goes on through settle() (a bun drawn for a
// die, the tray full again in play: the cascade that waited runs from step 1), false when the
// next chance node or decision is already set. (apply calls settle, its only caller, so that it
// stays inlined in the sampled path.) Always keyed: explicit chance is cold, and under
// apply_unkeyed the key is stale all the same (rekey recomputes it from scratch).
bool resolve_chance(const Config& c, State& s, int o) {
  switch (s.phase) {
    case kStartPlayerPhase:
      s.roller = static_cast<int8_t>(o - seat_outcome(c, 0));
      next_setup_event(c, s);
      return false;
    case kTrayPhase:
      put_on_tray<true>(s, o);
      if (tray_wants_bun(c, s)) return false;  // one chance node per missing bun
      if (s.chooser_takes >= 0) return true;
      next_setup_event(c, s);
      return false;
    case kStartingBunPhase: {
      const int p = seat_owed_a_bun(c, s);
      s.bag.sub(o);
      change_count<true>(s, p, s.front[p], o, +1);
      next_setup_event(c, s);
      return false;
    }
    case kRollPhase:
      s.dice[s.die] = static_cast<uint8_t>(o - face_outcome(c, s.die, 0));
      if (++s.die < kDice) return false;
      s.die = 0;
      s.phase = kSplitPhase;
      return false;
    default:  // kDrawPhase
      give_drawn<true>(c, s, holder_of(c, s, s.die), o);
      return true;
  }
}

}  // namespace

int derive_current(const Config& c, const State& s) {
  switch (s.phase) {
    case kSplitPhase: return s.roller;
    case kChoosePhase: return chooser_of(c, s);
    case kActPhase: return holder_of(c, s, s.die);
    case kFishPhase:
    case kPlatePhase: return s.cascade[0];
    case kOver: return kTerminalPlayer;
    default: return kChancePlayer;
  }
}

int seat_owed_a_bun(const Config& c, const State& s) {
  // A seat is done once it holds its starting buns or no colour it lacks is left; the bag only
  // shrinks during set-up, so a done seat stays done and the first seat not done is the one.
  for (int p = 0; p < c.players; ++p)
    if (s.front[p].total() < c.starting_buns && starting_choices(s, p).coloured() > 0) return p;
  return -1;
}

namespace {

// Lists base + stride * b for every set bit b of `mask` (six bits at most) at out[n...], ascending;
// returns the new count. Eight entries are written in one go (a fixed loop over a local copy,
// which the compiler turns into a few vector instructions) where the list has room for them, so
// there is no loop over the bits whose exit depends on the random position; the entries past
// the count are scratch.
inline int append_bits(int16_t* out, int n, int base, int stride, unsigned mask) {
  std::array<int16_t, 8> lanes = kBitsOfSix[mask];
  const int count = count_bits(mask);
  if (n + 8 <= Engine::kMaxActions) {
    for (int i = 0; i < 8; ++i) lanes[i] = static_cast<int16_t>(base + stride * lanes[i]);
    std::memcpy(out + n, lanes.data(), sizeof lanes);
  } else {  // near the end of the longest lists (five or six players): only the entries
    for (int i = 0; i < count; ++i) out[n + i] = static_cast<int16_t>(base + stride * lanes[i]);
  }
  return n + count;
}

}  // namespace

int die_options(const Config& c, const State& s, int16_t* out) {
  const DieView v(c, s);
  const int P = c.players, h = v.h;
  int n = 0;
  // every list goes by kinds, then seats, then kinds in increasing order: it comes out sorted
  switch (v.face.action) {
    case kTake:  // NB-5
      n = append_bits(out, n, Config::kTake, 1, v.face.colours & s.tray.present());
      break;
    case kPutBack:  // NB-5
      n = append_bits(out, n, Config::kPutBack, 1, v.mine);
      break;
    case kGive: {  // NB-6: each kind the holder has, to every other seat
      const unsigned others = ((1u << P) - 1) & ~(1u << h);
      for_each_bit(v.mine, [&](int k) { n = append_bits(out, n, c.give_action(k, 0), 1, others); });
      break;
    }
    case kSteal:
      if (P == 2) {  // one other seat: its kinds in order
        n = append_bits(out, n, c.steal_action(0, 1 - h), P, v.held[1 - h]);
        break;
      }
      {
        unsigned any = 0;
        for (int t = 0; t < P; ++t) any |= v.held[t];
        for_each_bit(any, [&](int k) {
          unsigned seats = 0;  // the seats holding kind k
          for (int t = 0; t < P; ++t) seats |= (v.held[t] >> k & 1u) << t;
          n = append_bits(out, n, c.steal_action(k, 0), 1, seats);
        });
      }
      break;
    case kSwap:
      if (v.others)
        for_each_bit(v.mine, [&](int a) {
          for (int t = 0; t < P; ++t)
            if (v.held[t]) n = append_bits(out, n, c.swap_action(a, t, 0), 1, v.held[t]);
        });
      break;
    default:
      break;
  }
  if (n && !c.mandatory_dice) out[n++] = static_cast<int16_t>(c.pass);  // the largest action: still sorted
  return n;
}

void Engine::new_state(const Config& c, State& s, uint64_t seed) {
  s = State{};
  s.rng = Rng::from_seed(seed);
  s.turn = 1;
  s.phase = kSplitPhase;
  s.split = s.chooser_takes = s.winner = -1;
  s.cascade[0] = s.cascade[1] = -1;
  for (int p = 0; p < kMaxPlayers; ++p) s.fish_on[p] = -1;
  for (int k = 0; k < kColours; ++k) s.bag.add(k, c.colour_counts[k]);
  s.bag.add(kFish, c.fish_heads);
  if (c.explicit_chance) {  // the same events, each a chance node
    if (c.start_player < 0) {
      s.roller = -1;
      s.phase = kStartPlayerPhase;
    } else {
      s.roller = c.start_player;
      next_setup_event(c, s);
    }
    s.current = static_cast<int8_t>(derive_current(c, s));
    s.hash = compute_hash(c, s);
    return;
  }
  // NB-1: the start player, the tray, then non-matching starting buns seat by seat, the first roll
  s.roller = static_cast<int8_t>(c.start_player >= 0 ? c.start_player : uniform_seat(s.rng, c.players));
  top_up_tray<false>(c, s);  // keyed once, by compute_hash below
  for (int p = 0; p < c.players; ++p) {
    for (int i = 0; i < c.starting_buns; ++i) {
      Buns allowed = s.bag;  // the colours p holds count as 0
      for (int k = 0; k < kColours; ++k)
        if (s.front[p].get(k)) allowed.sub(k, allowed.get(k));
      const int total = allowed.coloured();
      if (total == 0) break;
      const int k = draw_kind(s.rng, allowed, kColours, total);
      s.bag.sub(k);
      s.front[p].add(k);
    }
  }
  roll(c, s);
  s.current = static_cast<int8_t>(derive_current(c, s));
  s.hash = compute_hash(c, s);
}

namespace {

// The outcomes of the chance node s is at, ascending, with their weights when kWeights (the legal
// list needs only the ids: no weight buffer on the decision path). 0 when s is not a chance node.
template <bool kWeights>
int list_outcomes(const Config& c, const State& s, int16_t* out, uint32_t* weights) {
  int n = 0;
  auto push = [&](int outcome, int weight) {
    if constexpr (kWeights) weights[n] = static_cast<uint32_t>(weight);
    out[n++] = static_cast<int16_t>(outcome);
  };
  // a bun of each kind in `buns` among the first `kinds`, weighted by its count
  auto draw_from = [&](const Buns& buns, int kinds) {
    for (int k = 0; k < kinds; ++k)
      if (buns.get(k)) push(k, buns.get(k));
  };
  switch (s.phase) {
    case kStartPlayerPhase:
      for (int p = 0; p < c.players; ++p) push(seat_outcome(c, p), 1);
      break;
    case kTrayPhase: draw_from(s.bag, kColours); break;  // never a fish head (NB-10)
    case kStartingBunPhase: draw_from(starting_choices(s, seat_owed_a_bun(c, s)), kColours); break;
    case kRollPhase:
      for (int f = 0; f < c.num_faces[s.die]; ++f) push(face_outcome(c, s.die, f), 1);
      break;
    case kDrawPhase: draw_from(s.bag, kKinds); break;  // fish heads included (NB-4)
    default: break;
  }
  return n;
}

}  // namespace

int Engine::legal_actions(const Config& c, const State& s, int16_t* out) {
  // The act phase, the commonest, is tested before the switch on the others: the switch's jump
  // table is one indirect jump, which mispredicted about every other decision in a simulation
  // (split, choose and the dice's acts alternate with the random dice).
  if (s.phase == kActPhase) return die_options(c, s, out);
  switch (s.phase) {
    case kSplitPhase:
      for (int i = 0; i < 4; ++i) out[i] = static_cast<int16_t>(Config::kSplit + i);
      return 4;
    case kChoosePhase: {
      const int lo = smaller_group(s);
      out[0] = static_cast<int16_t>(Config::kChoose + lo);
      out[1] = static_cast<int16_t>(Config::kChoose + (7 ^ lo));
      return 2;
    }
    case kFishPhase: {
      const Buns& f = s.front[s.cascade[0]];
      int n = 0;
      for (unsigned m = f.colours_with(f.largest_colour_count()); m; m &= m - 1)
        out[n++] = static_cast<int16_t>(c.fish_to + std::countr_zero(m));
      return n;
    }
    case kPlatePhase: {
      const int p = s.cascade[0];
      int n = 0;
      for (unsigned m = s.front[p].colours_with(c.set_size) & ~static_cast<unsigned>(s.plates[p]); m; m &= m - 1)
        out[n++] = static_cast<int16_t>(c.plate + std::countr_zero(m));
      out[n++] = c.keep;
      return n;
    }
    case kOver: return 0;
    default: return list_outcomes<false>(c, s, out, nullptr);  // a chance node: the outcomes
  }
}

int Engine::random_action(const Config& c, const State& s, Rng& rng) {
  // the phases in legal_actions' order of tests, each list's length and order as it writes them
  if (s.phase == kActPhase) {  // a choice face (settle stops at no draw)
    const int a = with_face_action(face_of(c, s, s.die).action, [&](auto face) {
      const DieView v(c, s, face);
      constexpr int kAction = decltype(face)::value;
      const int n = options_before_pass<kAction>(c, s, v);
      return n > 0 ? pick_die_option<kAction>(c, s, v, n, rng) : -1;
    });
    if (a >= 0) return a;
  } else if (s.phase == kSplitPhase) {
    return random_split(rng);
  } else if (s.phase == kChoosePhase) {
    return random_choice(s, rng);
  } else if (s.phase == kFishPhase) {
    const Buns& f = s.front[s.cascade[0]];
    const unsigned m = f.colours_with(f.largest_colour_count());
    return c.fish_to + kSelectInByte[m][rng.bounded(static_cast<uint64_t>(kKindsIn[m]))];
  } else if (s.phase == kPlatePhase) {
    const int p = s.cascade[0];
    const unsigned m = s.front[p].colours_with(c.set_size) & ~static_cast<unsigned>(s.plates[p]);
    const int r = static_cast<int>(rng.bounded(static_cast<uint64_t>(kKindsIn[m] + 1)));
    return r == kKindsIn[m] ? c.keep : c.plate + kSelectInByte[m][r];  // 'keep' is listed last
  }
  return LegalActions<Engine>(c, s).pick(rng);  // not a decision the rollouts meet: the list
}

int Engine::chance_outcomes(const Config& c, const State& s, int16_t* out, uint32_t* weights) {
  return list_outcomes<true>(c, s, out, weights);
}

namespace {

// One move, the key kept exact (apply) or left stale (apply_unkeyed); kAutoplay: a rollout's,
// whose settle plays on (Autoplay).
template <bool kKeyed, bool kAutoplay = false>
void apply_move(const Config& c, State& s, int a, Autoplay* autoplay = nullptr) {
  ScalarBlockGuard<kKeyed> keyed(s);
  if (s.phase == kActPhase) {  // the commonest phase first, as in legal_actions (not in the switch)
    if (act<kKeyed>(c, s, a, holder_of(c, s, s.die))) {  // explicit mode: the tray tops up at chance nodes first
      s.current = kChancePlayer;
      return;
    }
    settle<kKeyed, kAutoplay>(c, s, autoplay);  // sets s.current
    return;
  }
  switch (s.phase) {
    case kSplitPhase:
      play_split(c, s, a);
      return;
    case kChoosePhase:
      play_choice(c, s, a);
      break;
    case kFishPhase:
      s.fish_on[s.cascade[0]] = static_cast<int8_t>(a - c.fish_to);
      break;
    case kPlatePhase:
      if (a == c.keep) pop_cascade(s);  // the owner keeps the rest unplated
      else plate<kKeyed>(c, s, s.cascade[0], a - c.plate);
      break;
    default:  // a chance node (explicit mode)
      if (!resolve_chance(c, s, a)) {
        s.current = static_cast<int8_t>(derive_current(c, s));
        return;
      }
      break;
  }
  s.phase = kActPhase;
  settle<kKeyed, kAutoplay>(c, s, autoplay);  // sets s.current
}

}  // namespace

void Engine::apply(const Config& c, State& s, int a) { apply_move<true>(c, s, a); }

void Engine::apply_unkeyed(const Config& c, State& s, int a) { apply_move<false>(c, s, a); }

int64_t Engine::random_decisions(const Config& c, State& s, int64_t max_decisions, Rng& rng) {
  // random_decisions_loop's games, most decisions played inside settle (Autoplay): this loop
  // plays the first, and those settle hands back (a fish head's colour, plating).
  Autoplay autoplay{rng, max_decisions};
  while (autoplay.left > 0 && s.current >= 0) {
    --autoplay.left;
    apply_move<false, true>(c, s, random_action(c, s, rng), &autoplay);
  }
  return max_decisions - autoplay.left;
}

void Engine::returns(const Config& c, const State& s, double* out) {
  // the winner 1, everyone else 0; a draw by the turn cap (or a game not over) all 0
  for (int p = 0; p < c.players; ++p) out[p] = p == s.winner ? 1.0 : 0.0;
}

uint64_t Engine::compute_hash(const Config& c, const State& s) {
  uint64_t h = scalar_block_key(s);
  for (int k = 0; k < kKinds; ++k) {
    for (int p = 0; p < c.players; ++p) h ^= bun_key(p, k, s.front[p].get(k));
    if (k < kColours) h ^= bun_key(kHolderTray, k, s.tray.get(k));
  }
  return h;
}

}  // namespace dimsum::nice_buns
