// The Dim Sum Jam heuristic (docs/BOTS.md, "Dim Sum Jam"): a one-ply lookahead (bots/lookahead.hpp)
// for the team, which shares one result. A position is scored by orders fulfilled (rulebook, "Game
// Play", "Ending of the Game") while a VIP is still in the deck and by the deck left once none is,
// icons covered on the tables (VIP icons most), complaints (three lose), sand left in the glass and
// exotic teas in reserve; a position where the next player has a play (the table chain: the number
// played names the next table) beats one where they are stuck, and tokens in hand that match an empty
// icon beat tokens that match none (so time-out discards throw away the useless ones). Hands, tables,
// bag contents and deck backs are public (DSJ-18); the lookahead never sees the hidden orders: each
// copy draws from the bot's own generator.
#include "../bots/lookahead.hpp"
#include "../common/bits.hpp"
#include "engine.hpp"

namespace dimsum::dim_sum_jam {
namespace {

double evaluate(const Config& c, const State& s) {
  if (s.outcome == kWin) return 1e6;
  if (s.outcome != kRunning) return -1e6;
  // The team wins by fulfilling every VIP order, and loses when a table needs a card from an
  // empty deck: while a VIP back is still in the deck, regular orders are fulfilled to dig for
  // it; once every VIP is on a table, each regular order fulfilled only spends the deck.
  const uint64_t in_deck = s.deck_len >= 64 ? ~0ull : (1ull << s.deck_len) - 1;
  const bool vip_in_deck = (s.deck_vips & in_deck) != 0;
  double value = (vip_in_deck ? 1000.0 : 200.0) * count_bits(s.out) + (vip_in_deck ? 0.0 : 300.0 * s.deck_len) -
                 500.0 * s.complaints + 60.0 * s.tea_reception;
  unsigned wanted_types = 0;  // token types some empty icon asks for
  for (int k = 0; k < kTables; ++k) {
    const int card = s.table_card[k];
    if (card < 0) continue;
    const bool vip = c.vip_mask >> card & 1;
    value += (vip ? 150.0 : 40.0) * (c.num_icons[card] - count_bits(s.empty_slots[k]));
    for_each_bit(s.empty_slots[k], [&](int i) { wanted_types |= 1u << c.icons[card][i]; });
  }
  const uint64_t wanted = c.type_tokens[wanted_types];
  for (int p = 0; p < c.players; ++p)
    value += 4.0 * count_bits(s.hands[p] & wanted) - 1.0 * count_bits(s.hands[p] & ~wanted);
  if (c.time_on) value += 0.2 * s.clock.top;
  if (s.phase == kPlayPhase && has_play(c, s)) value += 100.0;  // never a chance node: chance.hpp resolved it
  return value;
}

}  // namespace

int Engine::heuristic_action(const Config& c, const State& s, Rng& rng) {
  return best_by_lookahead<Engine>(
      c, s, rng, [&](const State& next, int) { return evaluate(c, next); },
      [](int legal) { return legal <= 4 ? 3 : 1; });
}

}  // namespace dimsum::dim_sum_jam
