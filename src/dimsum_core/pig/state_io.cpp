// Pig's states from outside: validation of untrusted states (bytes, dicts). The fields themselves
// are declared in schema.cpp; resample is the default (Pig hides nothing but the future rolls).
#include "../common/errors.hpp"
#include "../common/validate.hpp"
#include "engine.hpp"

namespace dimsum::pig {

// Everything a state from outside (bytes, a dict) must satisfy before the rules may touch it.
// Messages name the field: "pig state field '<name>': <what is wrong>; <what is allowed>".
bool Engine::validate(const Config& c, const State& s, char* err, int errlen) {
  const int P = c.players, top = c.max_total();
  // -- each field in its range (bytes skip the per-field bounds of a dict) -----------------------
  if (s.moves > static_cast<uint32_t>(c.horizon))
    return fail(err, errlen, "pig state field 'moves': %u; 0 to the horizon (%d)", s.moves, c.horizon);
  if (!in_range(s.turn_player, 0, P - 1))
    return fail(err, errlen, "pig state field 'turn_player': %d; a seat in [0, %d]", s.turn_player, P - 1);
  if (!in_range(s.current, c.explicit_chance ? kChancePlayer : kTerminalPlayer, P - 1))
    return fail(err, errlen, "pig state field 'current_player': %d; a seat in [0, %d], -1 once over%s", s.current,
                P - 1, c.explicit_chance ? ", -2 while a roll is pending" : "");
  if (!in_range(s.turn_total, 0, top))
    return fail(err, errlen, "pig state field 'turn_total': %d; 0 to %d", s.turn_total, top);
  if (s.last_roll > c.num_outcomes)
    return fail(err, errlen, "pig state field 'last_roll': %d; 0 (no roll yet) to %d", s.last_roll, c.num_outcomes);
  for (int p = 0; p < P; ++p)
    if (!in_range(s.scores[p], 0, top))
      return fail(err, errlen, "pig state field 'scores'[%d]: %d; 0 to %d", p, s.scores[p], top);
  // the layout checks every game makes (common/validate.hpp)
  if (!check_rng_field(kName, s.rng, err, errlen) || !check_reserved_zero(kName, s.reserved_, err, errlen) ||
      !check_seats_past_players_empty(kName, "scores", s.scores, P, err, errlen))
    return false;
  // -- the position ------------------------------------------------------------------------------
  int at_target = 0;
  for (int p = 0; p < P; ++p) at_target += s.scores[p] >= c.winscore;
  const int won = winner(c, s);
  if (at_target > 1)
    return fail(err, errlen, "pig state field 'scores': %d seats at the target %d; the game ends when the first "
                "reaches it (PIG-5)", at_target, c.winscore);
  if (won >= 0 && (s.turn_total != 0 || next_seat(c, won) != s.turn_player))
    return fail(err, errlen, "pig state field 'scores': seat %d reached the target with turn_total %d and turn_player "
                "%d; a win comes from a hold, which banks the turn total and passes the turn (PIG-4)", won,
                s.turn_total, s.turn_player);
  const bool over = won >= 0 || s.moves == static_cast<uint32_t>(c.horizon);
  if (over != (s.current == kTerminalPlayer))
    return fail(err, errlen, "pig state field 'current_player': %d with %s; -1 exactly when a seat reached the target "
                "or the horizon (%d moves) is reached", s.current, over ? "the game over" : "the game running",
                c.horizon);
  if (s.current >= 0 && s.current != s.turn_player)
    return fail(err, errlen, "pig state field 'current_player': %d on seat %d's turn; the seat whose turn it is",
                s.current, s.turn_player);
  if (s.current == kChancePlayer && !may_roll(c, s))
    return fail(err, errlen, "pig state field 'current_player': a roll pending with %d banked and %d this turn; a "
                "roll only below the target %d (PIG-3)", s.scores[s.turn_player], s.turn_total, c.winscore);
  if (s.current >= 0 && s.scores[s.turn_player] + s.turn_total > top)
    return fail(err, errlen, "pig state field 'turn_total': %d on top of %d banked; rolling stops at the target, so "
                "at most %d", s.turn_total, s.scores[s.turn_player], top);
  // A turn total comes from this turn's rolls, the last of which was not a 1 (PIG-3).
  if (s.turn_total > 0 && (s.moves == 0 || s.last_roll < 2 || (!c.piglet && s.turn_total < s.last_roll)))
    return fail(err, errlen, "pig state field 'turn_total': %d after a last roll of outcome %d; a turn total holds "
                "this turn's rolls, the last of them not a 1", s.turn_total, s.last_roll - 1);
  if (s.turn_total == 1 && !c.piglet)
    return fail(err, errlen, "pig state field 'turn_total': 1; a die adds 2 or more (a 1 loses the turn)");
  // Every point came from a roll, and every roll is a decision.
  int64_t points = s.turn_total;
  for (int p = 0; p < P; ++p) points += s.scores[p];
  if (points > int64_t{c.max_gain} * s.moves || (s.moves == 0 && s.last_roll != 0))
    return fail(err, errlen, "pig state field 'moves': %u decisions for %lld points (last roll %d); each roll is a "
                "decision and adds at most %d", s.moves, static_cast<long long>(points), s.last_roll, c.max_gain);
  return true;
}

}  // namespace dimsum::pig
