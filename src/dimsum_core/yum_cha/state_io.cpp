// Yum Cha's states from outside: validation of untrusted states (bytes, dicts) and resampling
// what a player cannot see. The fields themselves are declared in schema.cpp.
#include <algorithm>

#include "../common/chance.hpp"
#include "../common/errors.hpp"
#include "../common/validate.hpp"
#include "engine.hpp"
#include "hashing.hpp"
#include "redrawn.hpp"

namespace dimsum::yum_cha {

namespace {

// Byte lanes: the 16 four-bit counts of a word as two words of 8 byte-wide lanes, so that
// summing up to 8 holders (at most 8 x 15 = 120 a lane) never carries into the next lane.
constexpr uint64_t kLowNibbles = 0x0F0F0F0F0F0F0F0Full, kLaneTop = 0x8080808080808080ull;
constexpr uint64_t low_lanes(uint64_t w) { return w & kLowNibbles; }
constexpr uint64_t high_lanes(uint64_t w) { return (w >> 4) & kLowNibbles; }
// every lane of a >= the same lane of b (lanes below 128): no lane borrows
constexpr bool lanes_at_least(uint64_t a, uint64_t b) { return (((a | kLaneTop) - b) & kLaneTop) == kLaneTop; }

// Every card of the deck is in exactly one place, and nobody is known to hold more than they do:
// a few word operations per holder instead of a loop over card types.
bool cards_conserved(const Config& c, const State& s) {
  for (int word = 0; word < 4; ++word) {
    uint64_t lo = low_lanes(s.centre.w[word]) + low_lanes(s.deck.w[word]);
    uint64_t hi = high_lanes(s.centre.w[word]) + high_lanes(s.deck.w[word]);
    for (int p = 0; p < c.players; ++p) {
      const uint64_t hand = s.hands[p].w[word], known = s.known[p].w[word];
      lo += low_lanes(hand);
      hi += high_lanes(hand);
      if (!lanes_at_least(low_lanes(hand), low_lanes(known)) || !lanes_at_least(high_lanes(hand), high_lanes(known)))
        return false;
    }
    if (lo != low_lanes(c.full_deck.w[word]) || hi != high_lanes(c.full_deck.w[word])) return false;
  }
  return true;
}

// Between turns every hand holds 10 cards; while discarding the current player's holds 11; once
// over, the declarer's may (YC-4).
bool hand_sizes_fit(const Config& c, const State& s, char* err, int errlen) {
  int long_hands = 0;
  for (int p = 0; p < c.players; ++p) {
    if (s.hand_size[p] == kHandSize + 1) ++long_hands;
    else if (s.hand_size[p] != kHandSize)
      return fail(err, errlen, "yum_cha state field 'hands': player %d holds %d cards; %d, or %d before discarding", p,
                  s.hand_size[p], kHandSize, kHandSize + 1);
  }
  const int expected_long = s.phase == kDiscard ? 1 : 0;
  if (s.phase == kOver ? long_hands > 1
                       : (long_hands != expected_long || (expected_long && s.hand_size[s.current] != kHandSize + 1)))
    return fail(err, errlen, "yum_cha state field 'hands': %d hands of %d cards in phase %d; only the current player's, "
                "and only while they must discard (or the declarer's, once over)", long_hands, kHandSize + 1, s.phase);
  return true;
}

// Explicit chance, before or during a deal (phases 3 and 4): nothing played yet this round, and
// the hands filled seat by seat, ten cards each, the deal's order (rules.cpp, deal_receiver).
bool deal_in_progress(const Config& c, const State& s, char* err, int errlen) {
  bool known = false;
  for (int p = 0; p < c.players; ++p) known |= !s.known[p].empty();
  if (s.centre_size || known || s.turn || s.last_discard >= 0)
    return fail(err, errlen, "yum_cha state field 'centre': cards in the centre or known, or turns played, in phase "
                "%d (a deal pending); a deal comes before the round's first turn", s.phase);
  int receiver = -1;  // the first seat still short of ten cards
  for (int p = 0; p < c.players; ++p) {
    const int held = s.hand_size[p];
    const bool fits = receiver < 0 ? held <= kHandSize : held == 0;
    if (!fits || (s.phase == kStarterDraw && held))
      return fail(err, errlen, "yum_cha state field 'hands': player %d holds %d cards in phase %d; the deal fills "
                  "the hands seat by seat, ten each (none before the starter is drawn)", p, held, s.phase);
    if (receiver < 0 && held < kHandSize) receiver = p;
  }
  if (receiver < 0)
    return fail(err, errlen, "yum_cha state field 'phase': %d with every hand dealt; 0 draw once the deal is over",
                s.phase);
  return true;
}

// The redrawn lists (redrawn.hpp): only with deck_out = reshuffle_centre, sorted, of decks up to
// the current one, and each a card its seat holds unknown to the others.
bool redrawn_fits(const Config& c, const State& s, char* err, int errlen) {
  bool any = s.deck_number != 0;
  for (int p = 0; p < kMaxPlayers; ++p) any |= s.redrawn[p][0] != 0;
  if (any && (c.deck_out != kReshuffleCentre || s.phase == kDeal || s.phase == kStarterDraw))
    return fail(err, errlen, "yum_cha state field 'redrawn': set with deck_out %d in phase %d; only deck_out "
                "reshuffle_centre reshuffles, and never before a deal is over", c.deck_out, s.phase);
  if (s.deck_number >= kMaxDecks)
    return fail(err, errlen, "yum_cha state field 'deck_number': %d; 0-%d (decks are renumbered at each reshuffle)",
                s.deck_number, kMaxDecks - 1);
  for (int p = 0; p < kMaxPlayers; ++p) {
    Counts64 tagged{};
    for (int i = 0; i < kRedrawnSlots; ++i) {
      const uint16_t code = s.redrawn[p][i];
      const bool past_end = i > 0 && s.redrawn[p][i - 1] == 0;
      if (!code) continue;
      const int deck = redrawn_deck(code), t = redrawn_type(code);
      if (p >= c.players || past_end || (i > 0 && s.redrawn[p][i - 1] < code) || deck < 1 ||
          deck > s.deck_number || t >= c.num_types)
        return fail(err, errlen, "yum_cha state field 'redrawn': player %d's entry %d (deck %d, card type %d) is out "
                    "of place; a seat's entries come first, in descending order, of decks 1-%d and types 0-%d",
                    p, i, deck, t, s.deck_number, c.num_types - 1);
      tagged.add(t);
      if (tagged.get(t) > s.hands[p].get(t) - s.known[p].get(t))
        return fail(err, errlen, "yum_cha state field 'redrawn': player %d has %d of card type %d from reshuffled "
                    "decks; they hold only %d unknown to the others", p, tagged.get(t), t,
                    s.hands[p].get(t) - s.known[p].get(t));
    }
  }
  return true;
}

}  // namespace

// Everything a state from outside (bytes, a dict) must satisfy before the rules may touch it.
// Messages name the field: "yum_cha state field '<name>': <what is wrong>; <what is allowed>".
bool Engine::validate(const Config& c, const State& s, char* err, int errlen) {
  const int P = c.players, T = c.num_types;
  const bool over = s.phase == kOver;
  const bool chance = is_chance_phase(s.phase);
  if (s.phase < kDraw || s.phase > kDeckDraw)
    return fail(err, errlen, "yum_cha state field 'phase': %d; 0 draw, 1 discard, 2 over, or 3-5 a chance node",
                s.phase);
  if (chance && !c.explicit_chance)
    return fail(err, errlen, "yum_cha state field 'phase': %d is a chance node; a game with sampled chance never "
                "stops at one (0 draw, 1 discard or 2 over)", s.phase);
  if (over ? s.round != c.rounds : (s.round < 0 || s.round >= c.rounds))
    return fail(err, errlen, "yum_cha state field 'round': %d in phase %d; rounds 0-%d are played, %d once over",
                s.round, s.phase, c.rounds - 1, c.rounds);
  if (over ? s.current != -1 : chance ? s.current != kChancePlayer : (s.current < 0 || s.current >= P))
    return fail(err, errlen, "yum_cha state field 'current_player': %d in phase %d; a seat while playing, -2 at a "
                "chance node, -1 once over", s.current, s.phase);
  if (s.drawer_plus_one > P || (s.phase == kDeckDraw) != (s.drawer_plus_one != 0))
    return fail(err, errlen, "yum_cha state field 'drawer': %d in phase %d; the drawing seat in phase 5 (a draw "
                "from the deck pending), -1 otherwise", s.drawer(), s.phase);
  if (s.phase == kStarterDraw && (s.round != 0 || c.first_player >= 0 || s.starter != 0))
    return fail(err, errlen, "yum_cha state field 'phase': 3 (round 1's starter to draw) in round %d with starter %d; "
                "only before round 1's deal, with starter 0, when the config draws the starter (first_player -1)",
                s.round, s.starter);
  const char* game = Engine::kName;
  if (!check_rng_field(game, s.rng, err, errlen) || !check_reserved_zero(game, s.reserved_, err, errlen) ||
      !check_reserved_zero(game, s.reserved_tail_, err, errlen) ||
      !check_seats_past_players_empty(game, "hands", s.hands, P, err, errlen) ||
      !check_seats_past_players_empty(game, "hands", s.hand_size, P, err, errlen) ||  // hand_size counts hands
      !check_seats_past_players_empty(game, "known", s.known, P, err, errlen) ||
      !check_seats_past_players_empty(game, "scores", s.scores, P, err, errlen) ||
      !check_seats_past_players_empty(game, "declarations", s.declarations, P, err, errlen) ||
      !check_seats_past_players_empty(game, "best_round", s.best_round, P, err, errlen) ||
      !check_seats_past_players_empty(game, "last_round", s.last_round, P, err, errlen))
    return false;
  for (int word = 0; word < 4; ++word) {
    // nibbles of types >= T must be empty
    const int valid_types = std::clamp(T - 16 * word, 0, 16);
    const uint64_t valid = valid_types == 16 ? ~uint64_t{0} : (uint64_t{1} << (4 * valid_types)) - 1;
    if ((s.centre.w[word] | s.deck.w[word]) & ~valid)
      return fail(err, errlen, "yum_cha state field 'deck': a card of an unknown type; the types are 0-%d", T - 1);
  }
  if (!cards_conserved(c, s)) {
    // the fast check failed: find the card to name in the message
    for (int t = 0; t < T; ++t) {
      int total = s.centre.get(t) + s.deck.get(t);
      for (int p = 0; p < P; ++p) {
        total += s.hands[p].get(t);
        if (s.known[p].get(t) > s.hands[p].get(t))
          return fail(err, errlen, "yum_cha state field 'known': player %d is known to hold %d of card type %d; "
                      "they hold %d", p, s.known[p].get(t), t, s.hands[p].get(t));
      }
      if (total != c.copies[t])
        return fail(err, errlen, "yum_cha state field 'hands': %d copies of card type %d in hands, centre and deck; "
                    "the deck has %d", total, t, c.copies[t]);
    }
    return fail(err, errlen, "yum_cha state field 'hands': cards of unknown types in play; the types are 0-%d", T - 1);
  }
  for (int p = 0; p < P; ++p) {
    if (s.hand_size[p] != s.hands[p].total())
      return fail(err, errlen, "yum_cha state field 'hands': player %d's hand size is stale; it is the hand's total", p);
    if (s.declarations[p] > s.round)
      return fail(err, errlen, "yum_cha state field 'declarations': player %d has %d in round %d; at most one a round",
                  p, s.declarations[p], s.round);
    if (s.scores[p] < 0) return fail(err, errlen, "yum_cha state field 'scores': %d; scores are >= 0", s.scores[p]);
    // a round's points are >= 0: the last round's are at most the best round's, which are at most
    // the total (YC-13 compares best rounds: one out of range would decide a tie)
    if (s.last_round[p] < 0 || s.last_round[p] > s.best_round[p] || s.best_round[p] > s.scores[p])
      return fail(err, errlen, "yum_cha state field 'best_round': player %d has last round %d, best round %d, total "
                  "%d; 0 <= last round <= best round <= total", p, s.last_round[p], s.best_round[p], s.scores[p]);
  }
  // YC-10: a round ends as soon as a turn reaches the cap, so a running round is below it
  if ((s.phase == kDraw || s.phase == kDiscard || s.phase == kDeckDraw) && s.turn >= c.max_turns)
    return fail(err, errlen, "yum_cha state field 'turn': %d in a running round; below max_turns_per_round (%d): the "
                "round ends when a turn reaches it", s.turn, c.max_turns);
  if (s.phase == kStarterDraw || s.phase == kDeal) {
    if (!deal_in_progress(c, s, err, errlen)) return false;
  } else if (!hand_sizes_fit(c, s, err, errlen)) {
    return false;
  }
  if (!redrawn_fits(c, s, err, errlen)) return false;
  if (s.centre_size != s.centre.total() || s.deck_size != s.deck.total())
    return fail(err, errlen, "yum_cha state field 'deck': the deck or centre size is stale; it is the total");
  // YC-14: the card just taken is in the taker's hand, and the others saw it taken (known)
  if (s.last_taken >= 0 && (s.phase != kDiscard || s.known[s.current].get(s.last_taken) == 0))
    return fail(err, errlen, "yum_cha state field 'last_taken': %d in phase %d; only set between taking a card from "
                "the centre and discarding, while its taker holds it and is known to (YC-14)", s.last_taken, s.phase);
  if (s.phase == kDraw && s.deck_size == 0 && s.centre_size == 0)
    return fail(err, errlen, "yum_cha state field 'deck': empty with an empty centre in phase draw; something to draw");
  if (s.phase == kDeckDraw && s.deck_size == 0)
    return fail(err, errlen, "yum_cha state field 'deck': empty while a draw from it is pending; a card to draw");
  return true;
}

// A state consistent with all `player` has seen: the cards they cannot see dealt anew, each deck's
// among the places that deck's cards went to (redrawn.hpp). Without a reshuffle that is one pool,
// the deck and the unknown part of each other hand, dealt seat by seat, the rest the deck.
// Once the game is over the last round's hands have been scored in the open (YC-7, YC-8: the
// scores follow from them), so they stay.
void Engine::resample(const Config& c, const State& s, int player, uint64_t seed, State& out) {
  out = s;
  out.rng = Rng::from_seed(seed);
  if (s.phase == kOver) return;
  const int current = s.deck_number;
  Counts64 pool[kMaxDecks] = {};
  int pool_size[kMaxDecks] = {};
  pool[current] = s.deck;
  pool_size[current] = s.deck_size;
  int untagged[kMaxPlayers] = {};
  for (int p = 0; p < c.players; ++p) {
    if (p == player) continue;
    Counts64 unknown{};
    for (int t = 0; t < c.num_types; ++t) unknown.set(t, s.hands[p].get(t) - s.known[p].get(t));
    for (int i = 0; i < kRedrawnSlots && s.redrawn[p][i]; ++i) {
      const int deck = redrawn_deck(s.redrawn[p][i]), t = redrawn_type(s.redrawn[p][i]);
      unknown.sub(t);
      pool[deck].add(t);
      ++pool_size[deck];
    }
    untagged[p] = unknown.total();
    for (int t = 0; t < c.num_types; ++t)
      for (int k = 0; k < unknown.get(t); ++k) pool[0].add(t), ++pool_size[0];
  }
  auto draw = [&](int deck) {
    const int t = draw_kind(out.rng, pool[deck], pool_size[deck]);
    pool[deck].sub(t);
    --pool_size[deck];
    return t;
  };
  for (int p = 0; p < c.players; ++p) {  // deck 0's cards first, seat by seat
    if (p == player) continue;
    Counts64 hand = s.known[p];
    for (int k = 0; k < untagged[p]; ++k) hand.add(draw(0));
    out.hands[p] = hand;
  }
  for (int p = 0; p < c.players; ++p) {  // then each redrawn place from its own deck
    if (p == player) continue;
    const int n = redrawn_count(s, p);
    for (int i = 0; i < n; ++i) out.redrawn[p][i] = 0;
    for (int i = 0; i < n; ++i) {
      const int deck = redrawn_deck(s.redrawn[p][i]), t = draw(deck);
      out.hands[p].add(t);
      insert_redrawn(out, p, redrawn_code(deck, t));
    }
  }
  out.deck = pool[current];
  out.deck_size = static_cast<uint8_t>(pool_size[current]);
  out.hash = compute_hash(c, out);
}

}  // namespace dimsum::yum_cha
