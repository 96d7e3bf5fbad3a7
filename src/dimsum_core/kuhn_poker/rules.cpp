// Kuhn poker's rules: the deal, the betting, the showdown. Rule ids (KP-n) refer to
// docs/rules/kuhn_poker.md; each matches OpenSpiel's kuhn_poker (open_spiel/games/kuhn_poker).
#include "../common/chance.hpp"
#include "engine.hpp"
#include "hashing.hpp"

namespace dimsum::kuhn_poker {
namespace {

// kKeyed (here and below): keep s.hash exact (apply) or leave it stale (apply_unkeyed).

// KP-2: `card` goes to the next seat; once every seat holds one, seat 0 decides (KP-3).
template <bool kKeyed>
void deal(const Config& c, State& s, int card) {
  const int seat = seats_dealt(c, s);
  set_card<kKeyed>(s, seat, card);
  if (seat + 1 == c.players) set_current<kKeyed>(s, 0);
}

// KP-3 to KP-5: decision i is seat i % players's; a bet sets bit i. The betting ends when all
// passed or when every other seat answered the first bet.
template <bool kKeyed>
void apply_move(const Config& c, State& s, int action) {
  if (s.current == kChancePlayer) return deal<kKeyed>(c, s, action);
  if (action == kBet) set_bets<kKeyed>(s, s.bets | uint32_t{1} << s.decisions);
  count_decision<kKeyed>(s);
  set_current<kKeyed>(s, betting_over(c, s) ? kTerminalPlayer : s.decisions % c.players);
}

}  // namespace

// KP-1, KP-2: every seat has anted (the pot is implicit: players + the bets); sampled, the deal is
// drawn here, seat 0 first, each card uniformly among those left; explicit, each card is a chance node.
void Engine::new_state(const Config& c, State& s, uint64_t seed) {
  s = State{};
  s.rng = Rng::from_seed(seed);
  if (c.explicit_chance) {
    s.current = kChancePlayer;
  } else {
    uint32_t deck = low_bits(c.num_cards);
    for (int p = 0; p < c.players; ++p) {
      const int card = draw_bit(s.rng, deck);
      s.held[p] = static_cast<uint8_t>(card + 1);
      deck &= ~(uint32_t{1} << card);
    }
    s.current = 0;
  }
  s.hash = compute_hash(c, s);
}

// KP-3: a seat to act may always pass or bet (after a bet they are fold and call).
int Engine::legal_actions(const Config& c, const State& s, int16_t* out) {
  if (s.current == kChancePlayer) return chance_outcomes(c, s, out, nullptr);
  if (s.current < 0) return 0;
  out[0] = kPass;
  out[1] = kBet;
  return 2;
}

void Engine::apply(const Config& c, State& s, int action) { apply_move<true>(c, s, action); }
void Engine::apply_unkeyed(const Config& c, State& s, int action) { apply_move<false>(c, s, action); }

DIMSUM_FLATTEN int64_t Engine::random_decisions(const Config& c, State& s, int64_t max_decisions, Rng& rng) {
  return random_decisions_loop<Engine>(c, s, max_decisions, rng);
}

// KP-2: the cards left, ascending, weight 1 each (draw_bit's order: the k-th set bit).
int Engine::chance_outcomes(const Config& c, const State& s, int16_t* outcomes, uint32_t* weights) {
  if (s.current != kChancePlayer) return 0;
  int n = 0;
  for (uint32_t deck = undealt(c, s); deck; deck &= deck - 1) {
    if (weights) weights[n] = 1u;
    outcomes[n++] = static_cast<int16_t>(std::countr_zero(deck));
  }
  return n;
}

// KP-6: each seat put in its ante and, if it bet or called, a second chip; the winner takes the
// pot (its own chips back and everyone else's), the others lose what they put in. All 0 until
// the end.
void Engine::returns(const Config& c, const State& s, double* out) {
  if (s.current != kTerminalPlayer) {
    for (int p = 0; p < c.players; ++p) out[p] = 0.0;
    return;
  }
  const uint32_t second = bettors(c, s);
  const int pot = c.players + std::popcount(second), won = winner(c, s);
  for (int p = 0; p < c.players; ++p) {
    const int in = 1 + static_cast<int>(second >> p & 1u);
    out[p] = p == won ? pot - in : -in;
  }
}

uint64_t Engine::compute_hash(const Config& c, const State& s) {
  uint64_t h = Keys::key(kFBets, s.bets) ^ Keys::key(kFDecisions, s.decisions) ^ Keys::key(kFCurrent, s.current);
  for (int p = 0; p < c.players; ++p) h ^= Keys::key(kFCard + p, s.held[p]);
  return h;
}

}  // namespace dimsum::kuhn_poker
