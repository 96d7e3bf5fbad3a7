// Nice Buns' states from outside: validation of untrusted states (bytes, dicts; for both
// engines). The fields themselves are declared in schema.cpp. Resampling is the default
// (common/engine.hpp): only the bag's order is hidden (NB-12), so a state is reseeded.
#include <bit>

#include "../common/errors.hpp"
#include "../common/validate.hpp"
#include "engine.hpp"

namespace dimsum::nice_buns {
namespace {

constexpr const char* kKindNames[kKinds] = {"blue", "green", "red", "yellow", "fish head"};
constexpr const char* kDieNames[kDice] = {"small", "medium", "large"};
constexpr const char* kPhaseNames[kLastPhase + 1] = {"split", "choose", "act", "fish", "plate", "over",
                                                     "start_player", "tray", "starting_bun", "roll", "draw"};

// Why seat p is not at rest after its cascade (NB-7 to NB-9): false with the message, naming
// the field, in err.
bool at_rest(const Config& c, const State& s, int p, char* err, int errlen) {
  const Buns& f = s.front[p];
  const int fish = f.get(kFish), coloured = f.coloured(), on = s.fish_on[p];
  if (fish == 0 || coloured == 0) {
    if (on >= 0)
      return fail(err, errlen, "nice_buns state field 'fish_on'[%d]: %s; fish_on is null without fish heads or "
                  "without coloured buns", p, kKindNames[on]);
  } else if (on < 0 || f.get(on) != f.largest_colour_count()) {
    return fail(err, errlen, "nice_buns state field 'fish_on'[%d]: %s; the fish heads must be on a largest set (NB-7)",
                p, on < 0 ? "null" : kKindNames[on]);
  }
  for (int k = 0; k < kColours; ++k)
    if (f.get(k) + (on == k ? fish : 0) >= c.greedy_size)
      return fail(err, errlen, "nice_buns state field 'front'[%d]: a %s set of %d or more; it must have gone back "
                  "(NB-8)", p, kKindNames[k], c.greedy_size);
  if (coloured == 0 && fish >= c.greedy_size)
    return fail(err, errlen, "nice_buns state field 'front'[%d]: %d or more fish heads; they must have gone back (NB-8)",
                p, c.greedy_size);
  if (const unsigned doubled = f.colours_with(c.set_size) & s.plates[p])
    return fail(err, errlen, "nice_buns state field 'front'[%d]: a second %s set; it must have gone back (no doubles)",
                p, kKindNames[std::countr_zero(doubled)]);
  if (const unsigned ready = f.colours_with(c.set_size); fish == 0 && !c.manual_plating && ready)
    return fail(err, errlen, "nice_buns state field 'front'[%d]: an unplated %s set; it must have been plated "
                "(NB-9, automatic plating)", p, kKindNames[std::countr_zero(ready)]);
  return true;
}

bool in_cascade(const State& s, int p) {
  return (s.cascade_len > 0 && s.cascade[0] == p) || (s.cascade_len > 1 && s.cascade[1] == p);
}

// A chance phase before the dice are chosen: the set-up (NB-1) and the roll.
bool before_choice(const State& s) {
  switch (s.phase) {
    case kSplitPhase:
    case kChoosePhase:
    case kStartPlayerPhase:
    case kStartingBunPhase:
    case kRollPhase: return true;
    case kTrayPhase: return s.chooser_takes < 0;  // the set-up's tray
    default: return false;
  }
}

bool in_setup(const State& s) {
  return s.phase == kStartPlayerPhase || s.phase == kStartingBunPhase || (s.phase == kTrayPhase && s.chooser_takes < 0);
}

// What a chance node (explicit mode) must satisfy besides the checks every phase shares: the
// event is the one the rules stop at next.
bool valid_chance_node(const Config& c, const State& s, char* err, int errlen) {
  const int ph = s.phase, P = c.players;
  if (!c.explicit_chance)
    return fail(err, errlen, "nice_buns state field 'phase': %s, a chance node, in a sampled game; chance nodes "
                "exist only with chance='explicit'", kPhaseNames[ph]);
  if (in_setup(s)) {  // NB-1: nothing has happened but the set-up
    if (s.turn != 1)
      return fail(err, errlen, "nice_buns state field 'turn': %u in the set-up (phase %s); 1", s.turn, kPhaseNames[ph]);
    for (int p = 0; p < P; ++p)
      if (s.plates[p])
        return fail(err, errlen, "nice_buns state field 'plate'[%d]: plated in the set-up; nothing is plated yet", p);
    if (s.dice[0] | s.dice[1] | s.dice[2])
      return fail(err, errlen, "nice_buns state field 'dice': rolled in the set-up; the dice read 0 until the "
                  "first roll");
  }
  if (ph == kStartPlayerPhase || (ph == kTrayPhase && in_setup(s)))
    for (int p = 0; p < P; ++p)
      if (s.front[p].w)
        return fail(err, errlen, "nice_buns state field 'front'[%d]: buns before the tray is full; the starting "
                    "buns come after the tray (NB-1)", p);
  switch (ph) {
    case kStartPlayerPhase:
      if (c.start_player >= 0)
        return fail(err, errlen, "nice_buns state field 'phase': start_player with start_player %d set; the start "
                    "player is drawn only when the option is None", c.start_player);
      if (s.roller != -1)
        return fail(err, errlen, "nice_buns state field 'roller': %d before the start player is drawn; -1",
                    s.roller);
      if (s.tray.w)
        return fail(err, errlen, "nice_buns state field 'tray': buns before the start player; the tray fills "
                    "after it (NB-1)");
      break;
    case kTrayPhase:
      if (!tray_wants_bun(c, s))
        return fail(err, errlen, "nice_buns state field 'tray': %d buns (bag: %d coloured) at a tray chance node; "
                    "the tray is short of %d and the bag holds a colour", s.tray.total(kColours), s.bag.coloured(),
                    c.tray_size);
      break;
    case kStartingBunPhase: {
      const int owed = seat_owed_a_bun(c, s);
      if (owed < 0)
        return fail(err, errlen, "nice_buns state field 'phase': starting_bun with no seat owed one; a seat with "
                    "fewer than %d buns and a colour it lacks in the bag", c.starting_buns);
      for (int p = 0; p < P; ++p) {
        const Buns& f = s.front[p];
        if (f.get(kFish) || f.largest_colour_count() > 1 || f.total() > c.starting_buns || (p > owed && f.w))
          return fail(err, errlen, "nice_buns state field 'front'[%d]: not starting buns; distinct colours, at most "
                      "%d, seat by seat (seat %d is owed the next one)", p, c.starting_buns, owed);
      }
      break;
    }
    case kRollPhase:
      if (s.die == kDone)
        return fail(err, errlen, "nice_buns state field 'die': done in the roll phase; the next die to roll");
      for (int d = s.die; d < kDice; ++d)
        if (s.dice[d])
          return fail(err, errlen, "nice_buns state field 'dice'[%d]: face %d before the %s die is rolled; 0", d,
                      s.dice[d], kDieNames[d]);
      break;
    default: {  // kDrawPhase
      const bool at_draw = s.die < kDone && face_of(c, s, s.die).action == kDraw;
      if (!at_draw || s.draws_left < 1 || s.bag.total() == 0)
        return fail(err, errlen, "nice_buns state field 'draws_left': %d at a draw chance node (die %d); a draw "
                    "die with buns left to draw and a bag that is not empty", s.draws_left, s.die);
      break;
    }
  }
  return true;
}

}  // namespace

// Everything a state from outside (bytes, a dict) must satisfy before the rules may touch it.
// Messages name the field: "nice_buns state field '<name>': <what is wrong>; <what is allowed>".
bool Engine::validate(const Config& c, const State& s, char* err, int errlen) {
  const int P = c.players;
  const int ph = s.phase;
  // -- each field in its range (bytes skip the per-field bounds of a dict) -----------------------
  if (!in_range(ph, kSplitPhase, kLastPhase))
    return fail(err, errlen, "nice_buns state field 'phase': %d; 0 split to 5 over, 6 to 10 chance nodes", ph);
  if (!in_range(s.turn, 1, c.max_turns))
    return fail(err, errlen, "nice_buns state field 'turn': %u; 1 to max_turns (%d)", s.turn, c.max_turns);
  if (s.roller == -1 ? ph != kStartPlayerPhase : !in_range(s.roller, 0, P - 1))
    return fail(err, errlen, "nice_buns state field 'roller': %d; a seat in [0, %d] (-1 only before the start "
                "player is drawn)", s.roller, P - 1);
  if (!in_range(s.split, -1, 3))
    return fail(err, errlen, "nice_buns state field 'split': %d; -1 or a split in [0, 3]", s.split);
  if (!in_range(s.chooser_takes, -1, 7))
    return fail(err, errlen, "nice_buns state field 'chooser_takes': %d; -1 or a group of dice", s.chooser_takes);
  if (!in_range(s.die, 0, kDone))
    return fail(err, errlen, "nice_buns state field 'die': %d; 0 small to 3 done", s.die);
  if (!in_range(s.draws_left, 0, kMaxDraw))
    return fail(err, errlen, "nice_buns state field 'draws_left': %d; 0 to %d", s.draws_left, kMaxDraw);
  if (!in_range(s.winner, -1, P - 1))
    return fail(err, errlen, "nice_buns state field 'winner': %d; -1 or a seat in [0, %d]", s.winner, P - 1);
  if (!in_range(s.current, kChancePlayer, P - 1))
    return fail(err, errlen, "nice_buns state field 'current_player': %d; -2 (chance), -1 or a seat in [0, %d]",
                s.current, P - 1);
  for (int d = 0; d < kDice; ++d)
    if (s.dice[d] >= c.num_faces[d])
      return fail(err, errlen, "nice_buns state field 'dice'[%d]: face %d; the %s die has faces 0-%d", d, s.dice[d],
                  kDieNames[d], c.num_faces[d] - 1);
  const char* game = Engine::kName;
  if (!check_rng_field(game, s.rng, err, errlen) || !check_reserved_zero(game, s.reserved_, err, errlen) ||
      !check_seats_past_players_empty(game, "front", s.front, P, err, errlen) ||
      !check_seats_past_players_empty(game, "fish_on", s.fish_on, P, err, errlen, int8_t{-1}) ||
      !check_seats_past_players_empty(game, "plate", s.plates, P, err, errlen))
    return false;
  if (s.cascade_len > 2)
    return fail(err, errlen, "nice_buns state field 'cascade': %d seats; at most two", s.cascade_len);
  for (int i = 0; i < 2; ++i)
    if (i < s.cascade_len ? !in_range(s.cascade[i], 0, P - 1) : s.cascade[i] != -1)
      return fail(err, errlen, "nice_buns state field 'cascade'[%d]: %d; the pending seats first, -1 after them", i,
                  s.cascade[i]);
  if (s.cascade_len == 2 && s.cascade[0] == s.cascade[1])
    return fail(err, errlen, "nice_buns state field 'cascade': seat %d appears twice; distinct seats", s.cascade[0]);
  if (s.chooser_takes >= 0 &&
      (s.split < 0 || (s.chooser_takes != kSplits[s.split] && s.chooser_takes != (7 ^ kSplits[s.split]))))
    return fail(err, errlen, "nice_buns state field 'chooser_takes': %d with split %d; a group of the split, taken "
                "only after the split", s.chooser_takes, s.split);
  if (s.bag.w >> (8 * kKinds) || s.tray.w >> (8 * kColours))
    return fail(err, errlen, "nice_buns state field 'bag': a bun of an unknown kind (bag or tray); the kinds are the "
                "four colours and fish heads (not on the tray)");
  for (int p = 0; p < P; ++p) {
    if (s.front[p].w >> (8 * kKinds) || s.plates[p] > 15 || !in_range(s.fish_on[p], -1, kColours - 1))
      return fail(err, errlen, "nice_buns state field 'front'[%d]: bad buns, fish_on or plate; seats 0-%d, known kinds "
                  "and colours", p, P - 1);
  }
  // -- conservation: every bun is in exactly one place -------------------------------------------
  for (int k = 0; k < kKinds; ++k) {
    int total = s.bag.get(k);
    for (int p = 0; p < P; ++p) total += s.front[p].get(k) + (k < kColours ? c.set_size * (s.plates[p] >> k & 1) : 0);
    if (k < kColours) total += s.tray.get(k);
    const int expected = k < kColours ? c.colour_counts[k] : c.fish_heads;
    if (total != expected)
      return fail(err, errlen, "nice_buns state field 'bag': %s: bag + tray + fronts + plates hold %d buns; the game "
                  "has %d", kKindNames[k], total, expected);
  }
  const int on_tray = s.tray.total(kColours);
  if (on_tray > c.tray_size)
    return fail(err, errlen, "nice_buns state field 'tray': %d buns; at most %d", on_tray, c.tray_size);
  if (on_tray < c.tray_size && s.bag.coloured() > 0 && ph != kTrayPhase && ph != kStartPlayerPhase)
    return fail(err, errlen, "nice_buns state field 'tray': %d buns while the bag holds coloured buns; %d (NB-10: it "
                "refills at once)", on_tray, c.tray_size);
  // -- the phase ---------------------------------------------------------------------------------
  int won = -1, winners = 0;
  for (int p = 0; p < P; ++p)
    if (std::popcount(static_cast<unsigned>(s.plates[p])) >= c.sets_to_win) won = p, ++winners;
  if (winners > 1)
    return fail(err, errlen, "nice_buns state field 'plate': %d seats have completed their plates; at most one",
                winners);
  if (won != s.winner)
    return fail(err, errlen, "nice_buns state field 'winner': %d; the seat that completed its plate (%d), or -1", s.winner,
                won);
  if (ph == kOver && s.winner < 0 && !(static_cast<int32_t>(s.turn) == c.max_turns && s.die == kDone))
    return fail(err, errlen, "nice_buns state field 'phase': over, not won, at turn %u die %d; a game is over when it "
                "is won or when the last turn (max_turns) is done", s.turn, s.die);
  if (ph != kOver && s.winner >= 0)
    return fail(err, errlen, "nice_buns state field 'phase': %d with a winner; a won game is over", ph);
  if (before_choice(s)) {
    if ((s.split >= 0) != (ph == kChoosePhase) || s.chooser_takes >= 0)
      return fail(err, errlen, "nice_buns state field 'split': %d in phase %d; set in the choose phase only, and "
                  "chooser_takes is null before the choice", s.split, ph);
    if ((s.die != 0 && ph != kRollPhase) || s.draws_left)
      return fail(err, errlen, "nice_buns state field 'die': %d (draws_left %d); before the choice the die is 'small' "
                  "(in the roll phase the die to roll) and draws_left 0", s.die, s.draws_left);
  } else if (s.chooser_takes < 0) {
    return fail(err, errlen, "nice_buns state field 'chooser_takes': null in phase %d; set once the dice are chosen",
                ph);
  }
  // a cascade is pending while its owner decides, or while the tray tops up in play (explicit mode)
  const bool deciding = ph == kFishPhase || ph == kPlatePhase || (ph == kTrayPhase && s.chooser_takes >= 0);
  if (deciding != (s.cascade_len > 0))
    return fail(err, errlen, "nice_buns state field 'cascade': %d seats in phase %d; the deciding seat first in the "
                "fish and plate phases, empty otherwise", s.cascade_len, ph);
  const bool at_draw = s.die < kDone && face_of(c, s, s.die).action == kDraw;
  const int count = at_draw ? face_of(c, s, s.die).count : 0;
  if ((deciding || ph == kDrawPhase) && at_draw ? !in_range(s.draws_left, 1, count)
      : ph == kOver && at_draw                 ? s.draws_left > count
                                               : s.draws_left != 0)
    return fail(err, errlen, "nice_buns state field 'draws_left': %d; only a draw die still drawing has draws left "
                "(at most %d here)", s.draws_left, count);
  if (ph == kActPhase && (s.die == kDone || at_draw))
    return fail(err, errlen, "nice_buns state field 'die': %d in the act phase; a die that asks a decision (not a "
                "draw die)", s.die);
  if (!(ph == kOver && s.winner >= 0))
    for (int p = 0; p < P; ++p)
      if (!in_cascade(s, p) && !at_rest(c, s, p, err, errlen)) return false;
  if (ph == kFishPhase) {
    const int p = s.cascade[0];
    const Buns& f = s.front[p];
    if (c.fish_tiebreak != 0)
      return fail(err, errlen, "nice_buns state field 'phase': fish; the fish phase exists only with "
                  "fish_tiebreak='owner'");
    if (f.get(kFish) == 0 || f.coloured() == 0 || s.fish_on[p] >= 0 ||
        std::popcount(f.colours_with(f.largest_colour_count())) < 2)
      return fail(err, errlen, "nice_buns state field 'front'[%d]: no fish choice is due; a fish choice needs fish "
                  "heads, two or more tied largest sets and fish_on null", p);
  }
  if (ph == kPlatePhase) {
    const int p = s.cascade[0];
    if (!c.manual_plating)
      return fail(err, errlen, "nice_buns state field 'phase': plate; the plate phase exists only with "
                  "manual_plating=True");
    if (!at_rest(c, s, p, err, errlen)) return false;
    if (s.front[p].get(kFish) || !(s.front[p].colours_with(c.set_size) & ~static_cast<unsigned>(s.plates[p])))
      return fail(err, errlen, "nice_buns state field 'front'[%d]: no plate choice is due; the plate phase needs no "
                  "fish heads and a set to plate", p);
  }
  if (ph == kActPhase) {
    int16_t options[kMaxActions];
    if (die_options(c, s, options) < 2)
      return fail(err, errlen, "nice_buns state field 'phase': act with fewer than two legal actions; a die with fewer "
                  "than two legal actions is resolved automatically, build the position one step earlier (e.g. in "
                  "the choose phase)");
  }
  if (is_chance_phase(ph) && !valid_chance_node(c, s, err, errlen)) return false;
  if (const int derived = derive_current(c, s); s.current != derived)
    return fail(err, errlen, "nice_buns state field 'current_player': %d; the position gives %d", s.current, derived);
  return true;
}

}  // namespace dimsum::nice_buns
