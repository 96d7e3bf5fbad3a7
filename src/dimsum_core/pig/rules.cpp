// Pig's rules: a turn of rolls and a hold, the end of the game. Rule ids (PIG-n) refer to
// docs/rules/pig.md; each matches OpenSpiel's pig (open_spiel/games/pig/pig.cc).
#include "../common/chance.hpp"
#include "engine.hpp"
#include "hashing.hpp"

namespace dimsum::pig {
namespace {

// kKeyed (here and below): keep s.hash exact (apply) or leave it stale (apply_unkeyed).

// The turn passes to the next seat (PIG-3, PIG-4); the game goes on unless it is over.
template <bool kKeyed>
void pass_turn(const Config& c, State& s, bool over) {
  set_turn_total<kKeyed>(s, 0);
  set_turn_player<kKeyed>(s, next_seat(c, s.turn_player));
  set_current<kKeyed>(s, over ? kTerminalPlayer : s.turn_player);
}

// PIG-3: the die shows outcome + 1; a 1 loses the turn total and passes the turn, any other face
// adds itself (piglet: outcome 1, "not a 1", adds 1) and the same seat decides again.
template <bool kKeyed>
void resolve_roll(const Config& c, State& s, int outcome) {
  set_last_roll<kKeyed>(s, outcome + 1);
  if (outcome == 0) return pass_turn<kKeyed>(c, s, false);
  set_turn_total<kKeyed>(s, s.turn_total + (c.piglet ? 1 : outcome + 1));
  set_current<kKeyed>(s, s.turn_player);
}

// A roll's outcome drawn from the state's generator (sampled chance): the die's face index
// (piglet: a 1 or not, from the same roll of the die, so the weights are 1 and faces - 1).
int draw_outcome(const Config& c, State& s) {
  const int face = roll_die(s.rng, c.faces);
  return c.piglet ? (face == 0 ? 0 : 1) : face;
}

// One move, the key kept exact (apply) or left stale (apply_unkeyed).
template <bool kKeyed>
void apply_move(const Config& c, State& s, int action) {
  if (s.current == kChancePlayer) return resolve_roll<kKeyed>(c, s, action);
  count_move<kKeyed>(s);
  const bool horizon = static_cast<int64_t>(s.moves) >= c.horizon;  // PIG-6
  if (action == kHold) {  // PIG-4: bank the turn total, pass the turn
    set_score<kKeyed>(s, s.turn_player, s.scores[s.turn_player] + s.turn_total);
    return pass_turn<kKeyed>(c, s, horizon || s.scores[s.turn_player] >= c.winscore);  // PIG-5
  }
  if (horizon) return set_current<kKeyed>(s, kTerminalPlayer);  // the die is never cast
  if (c.explicit_chance) return set_current<kKeyed>(s, kChancePlayer);
  resolve_roll<kKeyed>(c, s, draw_outcome(c, s));
}

}  // namespace

// PIG-1: seat 0 starts, every score 0; nothing is random before the first roll.
void Engine::new_state(const Config& c, State& s, uint64_t seed) {
  s = State{};
  s.rng = Rng::from_seed(seed);
  s.hash = compute_hash(c, s);
}

int Engine::legal_actions(const Config& c, const State& s, int16_t* out) {
  if (s.current == kChancePlayer) return chance_outcomes(c, s, out, nullptr);
  if (s.current < 0) return 0;
  int n = 0;
  if (may_roll(c, s)) out[n++] = kRoll;  // PIG-3: rolling stops once banking would reach the target
  out[n++] = kHold;
  return n;
}

void Engine::apply(const Config& c, State& s, int action) { apply_move<true>(c, s, action); }
void Engine::apply_unkeyed(const Config& c, State& s, int action) { apply_move<false>(c, s, action); }

DIMSUM_FLATTEN int64_t Engine::random_decisions(const Config& c, State& s, int64_t max_decisions, Rng& rng) {
  return random_decisions_loop<Engine>(c, s, max_decisions, rng);
}

// The pending roll's outcomes: each face once (weight 1); piglet, a 1 (1) or not (faces - 1).
// `weights` may be null (legal_actions lists the outcomes alone).
int Engine::chance_outcomes(const Config& c, const State& s, int16_t* outcomes, uint32_t* weights) {
  if (s.current != kChancePlayer) return 0;
  for (int o = 0; o < c.num_outcomes; ++o) {
    outcomes[o] = static_cast<int16_t>(o);
    if (weights) weights[o] = c.piglet && o == 1 ? static_cast<uint32_t>(c.faces - 1) : 1u;
  }
  return c.num_outcomes;
}

// PIG-5: the winner +1, every other seat -1/(players - 1) (zero-sum); all 0 before the end and
// when the horizon ends the game with nobody at the target (PIG-6).
void Engine::returns(const Config& c, const State& s, double* out) {
  const int won = s.current == kTerminalPlayer ? winner(c, s) : -1;
  for (int p = 0; p < c.players; ++p)
    out[p] = won < 0 ? 0.0 : p == won ? 1.0 : -1.0 / (c.players - 1);
}

uint64_t Engine::compute_hash(const Config& c, const State& s) {
  uint64_t h = Keys::key(kFMoves, s.moves) ^ Keys::key(kFTurnTotal, s.turn_total) ^
               Keys::key(kFCurrent, s.current) ^ Keys::key(kFTurnPlayer, s.turn_player) ^
               Keys::key(kFLastRoll, s.last_roll);
  for (int p = 0; p < c.players; ++p) h ^= Keys::key(kFScore + p, s.scores[p]);
  return h;
}

}  // namespace dimsum::pig
