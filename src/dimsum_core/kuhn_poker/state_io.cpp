// Kuhn poker's states from outside (validation of untrusted bytes and dicts), and resample: the
// cards a seat cannot see, dealt anew. The fields themselves are declared in schema.cpp.
#include "../common/chance.hpp"
#include "../common/errors.hpp"
#include "../common/validate.hpp"
#include "engine.hpp"

namespace dimsum::kuhn_poker {

// Everything a state from outside (bytes, a dict) must satisfy before the rules may touch it.
// Messages name the field: "kuhn_poker state field '<name>': <what is wrong>; <what is allowed>".
bool Engine::validate(const Config& c, const State& s, char* err, int errlen) {
  const int P = c.players;
  // -- each field in its range (bytes skip the per-field bounds of a dict) -----------------------
  if (!in_range(s.current, c.explicit_chance ? kChancePlayer : kTerminalPlayer, P - 1))
    return fail(err, errlen, "kuhn_poker state field 'current_player': %d; a seat in [0, %d], -1 once over%s",
                s.current, P - 1, c.explicit_chance ? ", -2 while a card is dealt" : "");
  if (s.decisions > c.max_decisions())
    return fail(err, errlen, "kuhn_poker state field 'decisions': %d; 0 to %d (2 * players - 1, KP-5)", s.decisions,
                c.max_decisions());
  if (s.bets & ~low_bits(s.decisions))
    return fail(err, errlen, "kuhn_poker state field 'bets': 0x%x with %d decisions made; a bit only for a decision "
                "made", s.bets, s.decisions);
  // the layout checks every game makes (common/validate.hpp)
  if (!check_rng_field(kName, s.rng, err, errlen) ||
      !check_seats_past_players_empty(kName, "cards", s.held, P, err, errlen))
    return false;
  // -- the deal (KP-2): seats 0, 1, ... hold distinct cards of the deck ---------------------------
  const int dealt = seats_dealt(c, s);
  uint32_t seen = 0;
  for (int p = 0; p < P; ++p) {
    if (p >= dealt && s.held[p])
      return fail(err, errlen, "kuhn_poker state field 'cards': seat %d holds a card before seat %d; the deal goes "
                  "seat 0, 1, ... (KP-2)", p, dealt);
    if (p >= dealt) continue;
    const int card = card_of(s, p);
    if (!in_range(card, 0, P))
      return fail(err, errlen, "kuhn_poker state field 'cards'[%d]: %d; a card 0 to %d, or -1 before the deal", p,
                  card, P);
    if (seen >> card & 1u)
      return fail(err, errlen, "kuhn_poker state field 'cards': card %d held twice; the deck has one of each", card);
    seen |= uint32_t{1} << card;
  }
  if (dealt < P) {
    if (!c.explicit_chance)
      return fail(err, errlen, "kuhn_poker state field 'cards': seat %d has no card; sampled chance deals every seat "
                  "at the start", dealt);
    if (s.current != kChancePlayer || s.decisions != 0)
      return fail(err, errlen, "kuhn_poker state field 'current_player': %d with %d decisions while seat %d has no "
                  "card; the deal comes first (-2, no decisions)", s.current, s.decisions, dealt);
    return true;
  }
  if (s.current == kChancePlayer)
    return fail(err, errlen, "kuhn_poker state field 'current_player': -2 with every card dealt; the deal is over");
  // -- the betting (KP-3 to KP-5) -------------------------------------------------------------------
  const int fb = first_bettor(s);
  if (fb >= P)
    return fail(err, errlen, "kuhn_poker state field 'bets': the first bet is decision %d; a round of passes ends "
                "the game, so the first bet is among the first %d (KP-5)", fb, P);
  const int end = fb < 0 ? P : P + fb;
  if (s.decisions > end)
    return fail(err, errlen, "kuhn_poker state field 'decisions': %d; the betting ended after %d (KP-5)", s.decisions,
                end);
  const int expected = s.decisions == end ? kTerminalPlayer : s.decisions % P;
  if (s.current != expected)
    return fail(err, errlen, "kuhn_poker state field 'current_player': %d after %d decisions; %d (%s)", s.current,
                s.decisions, expected, expected < 0 ? "the game is over" : "decision i is seat i % players's");
  return true;
}

// A state consistent with all `player` has seen: their own card and the betting stay; every other
// seat dealt a card gets one drawn anew (draw_bit from a generator seeded with `seed`, seat by
// seat) from the cards `player` does not hold. Once the game is over the cards stay: the returns
// (public) show who won the showdown.
void Engine::resample(const Config& c, const State& s, int player, uint64_t seed, State& out) {
  out = s;
  out.rng = Rng::from_seed(seed);
  if (s.current == kTerminalPlayer) return;
  uint32_t pool = low_bits(c.num_cards);
  if (s.held[player]) pool &= ~(uint32_t{1} << card_of(s, player));
  for (int q = 0; q < c.players; ++q) {
    if (q == player || !s.held[q]) continue;
    const int card = draw_bit(out.rng, pool);
    out.held[q] = static_cast<uint8_t>(card + 1);
    pool &= ~(uint32_t{1} << card);
  }
  out.hash = compute_hash(c, out);
}

}  // namespace dimsum::kuhn_poker
