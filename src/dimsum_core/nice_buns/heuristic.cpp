// The Nice Buns heuristic (docs/BOTS.md, "Nice Buns"): a one-ply lookahead (bots/lookahead.hpp) that
// scores a position by the race to three plated sets (rulebook, "Winning"): plated colours count most,
// two or one unplated buns of a colour not yet plated count towards the next set, buns of an already
// plated colour and fish heads count against ("Don't Be Greedy", "No Doubles": they only send buns
// back to the bag), and the position is judged against the best opponent. Everything in Nice Buns is
// public but the bag's order (NB-12), and the lookahead never sees that: each copy draws from the
// bot's own generator.
#include "../bots/lookahead.hpp"
#include "../common/bits.hpp"
#include "engine.hpp"

namespace dimsum::nice_buns {
namespace {

double progress(const State& s, int seat) {
  const Buns& mine = s.front[seat];
  double value = 100.0 * count_bits(s.plates[seat]);
  for (int k = 0; k < kColours; ++k) {
    const int n = mine.get(k);
    if (s.plates[seat] >> k & 1) {
      value -= 3.0 * n;  // three of a plated colour go back (no doubles)
    } else {
      value += n >= 2 ? 15.0 : 5.0 * n;
    }
  }
  return value - 8.0 * mine.get(kFish);  // a fish head blocks plating and makes sets greedy
}

double evaluate(const Config& c, const State& s, int player) {
  if (s.winner >= 0) return s.winner == player ? 1e6 : -1e6;
  double rival = -1e18;
  for (int q = 0; q < c.players; ++q)
    if (q != player) rival = progress(s, q) > rival ? progress(s, q) : rival;
  return progress(s, player) - rival;
}

}  // namespace

int Engine::heuristic_action(const Config& c, const State& s, Rng& rng) {
  return best_by_lookahead<Engine>(
      c, s, rng, [&](const State& next, int player) { return evaluate(c, next, player); },
      [](int legal) { return legal <= 4 ? 4 : 1; });  // splits and choices: average the dice's draws
}

}  // namespace dimsum::nice_buns
