// The Kuhn poker heuristic (docs/rules/kuhn_poker.md, KP-7): bet, or call a bet, holding the highest
// card of the deck, which cannot lose a showdown; otherwise pass (check, or fold to a bet). It reads
// only the seat's own card, and never needs `rng` (no ties to break).
#include "engine.hpp"

namespace dimsum::kuhn_poker {

int Engine::heuristic_action(const Config& c, const State& s, Rng&) {
  return card_of(s, s.current) == c.num_cards - 1 ? kBet : kPass;
}

}  // namespace dimsum::kuhn_poker
