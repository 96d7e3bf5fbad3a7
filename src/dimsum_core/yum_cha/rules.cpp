// Yum Cha's rules: the deal, a turn (draw, then discard or declare), the end of a turn,
// the end of a round and of the game. Rule ids (YC-n) refer to docs/rules/yum_cha.md.
#include <algorithm>

#include "../common/chance.hpp"
#include "engine.hpp"
#include "hashing.hpp"
#include "redrawn.hpp"

// Explicit chance is cold in sampled play: its paths stay out of line (YC_COLD) so that the hot
// rules compile as they did before it existed (a random playout pays a compare or two a step),
// and the tail of a draw they share with the hot path is always inlined there (YC_HOT).
#if defined(_MSC_VER)
#define YC_COLD __declspec(noinline)
#define YC_HOT __forceinline
#else
#define YC_COLD __attribute__((noinline, cold))
#define YC_HOT inline __attribute__((always_inline))
#endif

namespace dimsum::yum_cha {
namespace {

// Unkeyed: start_round computes the key of the dealt position once, after the whole deal.
void deal_card(State& s, int player) {
  const int t = draw_kind(s.rng, s.deck, s.deck_size);
  s.deck.sub(t);
  --s.deck_size;
  s.hands[player].add(t);
  ++s.hand_size[player];
}

// YC-12: gather every card, reshuffle, deal ten to each player; the starter draws first.
// In explicit chance mode the deal is left to chance nodes instead, one card each (phase kDeal).
// kKeyed (here and below): keep s.hash exact (apply) or leave it stale (apply_unkeyed).
template <bool kKeyed>
void start_round(const Config& c, State& s) {
  s.deck = c.full_deck;
  s.deck_size = static_cast<uint8_t>(c.total_cards);
  s.centre.clear();
  s.centre_size = 0;
  for (int p = 0; p < kMaxPlayers; ++p) {
    s.hands[p].clear();
    s.known[p].clear();
    s.hand_size[p] = 0;
  }
  clear_redrawn(s);
  s.turn = 0;
  s.last_taken = s.last_discard = -1;
  if (c.explicit_chance) {
    s.phase = kDeal;
    s.current = kChancePlayer;
    if constexpr (kKeyed) s.hash = Engine::compute_hash(c, s);
    return;
  }
  s.phase = kDraw;
  s.current = s.starter;
  for (int p = 0; p < c.players; ++p)
    for (int k = 0; k < kHandSize; ++k) deal_card(s, p);
  if constexpr (kKeyed) s.hash = Engine::compute_hash(c, s);
}

// The seat that receives the next card of a deal: seat 0's ten cards come first, then seat 1's...
// (the order of the sampled deal), so it follows from the hand sizes; -1 once all are dealt.
int deal_receiver(const Config& c, const State& s) {
  for (int p = 0; p < c.players; ++p)
    if (s.hand_size[p] < kHandSize) return p;
  return -1;
}

// Scores the round (declarer -1: a washout), then deals the next or ends the game.
template <bool kKeyed>
void end_round(const Config& c, State& s, int declarer) {
  for (int p = 0; p < c.players; ++p) {
    int points;
    if (p == declarer) {
      points = declarer_score(c, s.hands[p]);
      ++s.declarations[p];
    } else {
      points = takeaway_score(c, s.hands[p]);  // YC-8: takeaway only for those who did not win
    }
    s.last_round[p] = static_cast<int16_t>(points);
    s.scores[p] = static_cast<int16_t>(s.scores[p] + points);
    s.best_round[p] = std::max<int16_t>(s.best_round[p], static_cast<int16_t>(points));
  }
  s.last_declarer = static_cast<int8_t>(declarer);
  ++s.round;
  if (s.round == c.rounds) {
    s.phase = kOver;
    s.current = -1;
    s.last_taken = -1;
    if constexpr (kKeyed) s.hash = Engine::compute_hash(c, s);
    return;
  }
  // YC-11: the winner starts the next round; after a washout, the starter's left neighbour
  s.starter = static_cast<int8_t>(declarer >= 0 ? declarer : (s.starter + 1) % c.players);
  start_round<kKeyed>(c, s);
}

// After a discard: the deck running out (YC-9), the turn cap (YC-10), then the next player.
template <bool kKeyed>
void end_turn(const Config& c, State& s) {
  count_turn<kKeyed>(s);
  LastTakenKeys::set<kKeyed>(s.hash, s.last_taken, -1);
  if (s.deck_size == 0) {
    if (c.deck_out == kWashout) return end_round<kKeyed>(c, s, -1);
    if (c.deck_out == kReshuffleCentre) {
      // everything in the centre but the card just discarded becomes the new deck
      start_reshuffled_deck(c, s);
      s.centre.for_each_present([&](int t) {
        const int keep = (t == s.last_discard) ? 1 : 0;
        while (s.centre.get(t) > keep) {
          remove_card<kKeyed>(s, kHolderCentre, s.centre, t);
          s.deck.add(t);
          --s.centre_size;
          ++s.deck_size;
        }
      });
    }
  }
  if (s.turn >= c.max_turns) return end_round<kKeyed>(c, s, -1);
  CurrentKeys::set<kKeyed>(s.hash, s.current, (s.current + 1) % c.players);
  PhaseKeys::set<kKeyed>(s.hash, s.phase, kDraw);
}

// YC-3: the card type that may not be discarded now, or -1.
int forbidden_discard(const Config& c, const State& s) {
  if (!c.forbid_immediate_return || s.last_taken < 0) return -1;
  const Counts64& hand = s.hands[s.current];
  // unless it is the only kind of card left in the hand. A present kind is a 1 in its nibble, so
  // the four words' presence add up nibble by nibble (at most 4 each) and sum_word counts them:
  // no std::popcount, a call into libgcc on the baseline x86-64 build.
  const int kinds = Counts64::sum_word(Counts64::present_nibbles(hand.w[0]) + Counts64::present_nibbles(hand.w[1]) +
                                       Counts64::present_nibbles(hand.w[2]) + Counts64::present_nibbles(hand.w[3]));
  return kinds > 1 ? s.last_taken : -1;
}

// -- explicit chance (engine.hpp, "Chance"): the events the sampled rules draw from s.rng --------

// Calls f(outcome, weight) for every outcome of the pending chance event, ascending: a seat for
// the round-1 starter (1 each), a card type for a dealt or drawn card (its count in the deck).
template <class F>
void for_each_outcome(const Config& c, const State& s, F&& f) {
  if (s.phase == kStarterDraw) {
    for (int p = 0; p < c.players; ++p) f(starter_outcome(c, p), 1);
  } else if (s.phase == kDeal || s.phase == kDeckDraw) {
    s.deck.for_each_present([&](int t) { f(t, s.deck.get(t)); });
  }
}

YC_COLD bool is_chance_outcome(const Config& c, const State& s, int a) {
  if (s.phase == kStarterDraw) return a >= starter_outcome(c, 0) && a < starter_outcome(c, c.players);
  return a < c.num_types && s.deck.get(a) > 0;
}

// The card a player holds after drawing it (from the deck or the centre): the discard phase,
// unless auto_declare ends the round on a complete hand (YC-5).
template <bool kKeyed = true>
YC_HOT void finish_draw(const Config& c, State& s, int p, int t) {
  add_card<kKeyed>(s, p, s.hands[p], t);
  ++s.hand_size[p];
  PhaseKeys::set<kKeyed>(s.hash, s.phase, kDiscard);
  if (c.auto_declare && is_complete_hand(c, s.hands[p], s.hand_size[p])) end_round<kKeyed>(c, s, p);
}

// Explicit mode, action 0: the player has chosen to draw from the deck; chance gives the card.
YC_COLD void begin_deck_draw(State& s, int p) {
  set_drawer(s, p);
  Keys::set(s.hash, kFCurrent, s.current, kChancePlayer);
  Keys::set(s.hash, kFPhase, s.phase, kDeckDraw);
}

// legal_actions at a chance node: the outcomes of chance_outcomes, in the same order.
YC_COLD int chance_legal_actions(const Config& c, const State& s, int16_t* out) {
  int n = 0;
  for_each_outcome(c, s, [&](int outcome, int) { out[n++] = static_cast<int16_t>(outcome); });
  return n;
}

// Explicit mode: resolves the pending event (the starter, a dealt card, the card drawn from the
// deck) with `outcome` and goes on where the sampled rules would have gone on after the same
// draw. Always keyed: explicit chance is cold, and under apply_unkeyed the key is stale all the
// same (exact changes XORed into a stale key leave it stale; rekey recomputes it from scratch).
YC_COLD void apply_chance(const Config& c, State& s, int outcome) {
  if (s.phase == kStarterDraw) {  // YC-11: round 1's starter; the deal follows
    Keys::set(s.hash, kFStarter, s.starter, outcome - starter_outcome(c, 0));
    Keys::set(s.hash, kFPhase, s.phase, kDeal);
    return;
  }
  const int t = outcome;
  s.deck.sub(t);
  --s.deck_size;
  if (s.phase == kDeal) {
    const int p = deal_receiver(c, s);
    add_card(s, p, s.hands[p], t);
    ++s.hand_size[p];
    if (deal_receiver(c, s) < 0) {  // the last card of the deal: the starter draws first
      Keys::set(s.hash, kFPhase, s.phase, kDraw);
      Keys::set(s.hash, kFCurrent, s.current, s.starter);
    }
    return;
  }
  const int p = s.drawer();  // kDeckDraw
  set_drawer(s, -1);
  Keys::set(s.hash, kFCurrent, s.current, p);
  note_deck_draw(s, p, t);
  finish_draw(c, s, p, t);
}

}  // namespace

void Engine::new_state(const Config& c, State& s, uint64_t seed) {
  s = State{};
  s.rng = Rng::from_seed(seed);
  s.round = 0;
  s.last_declarer = -1;
  if (c.first_player < 0 && c.explicit_chance) {
    // the starter is the first chance node, before the deal's (starter stays 0 until drawn)
    start_round<true>(c, s);
    Keys::set(s.hash, kFPhase, s.phase, kStarterDraw);
    return;
  }
  // YC-11: round 1's starter is configured or drawn (before the deal)
  s.starter = static_cast<int8_t>(c.first_player >= 0 ? c.first_player : uniform_seat(s.rng, c.players));
  start_round<true>(c, s);
}

int Engine::legal_actions(const Config& c, const State& s, int16_t* out) {
  int n = 0;
  if (s.phase == kDraw) {
    // YC-1: the deck, or any card of the centre
    if (s.deck_size) out[n++] = 0;
    s.centre.for_each_present([&](int t) { out[n++] = static_cast<int16_t>(c.take_action(t)); });
  } else if (s.phase == kDiscard) {
    const int forbidden = forbidden_discard(c, s);
    s.hands[s.current].for_each_present([&](int t) {
      if (t != forbidden) out[n++] = static_cast<int16_t>(c.discard_action(t));
    });
    if (is_complete_hand(c, s.hands[s.current], s.hand_size[s.current]))
      out[n++] = static_cast<int16_t>(c.declare_action());  // YC-4, YC-5
  } else if (is_chance_phase(s.phase)) [[unlikely]] {
    return chance_legal_actions(c, s, out);
  }
  return n;
}

bool Engine::is_legal(const Config& c, const State& s, int a) {
  if (a < 0 || a >= c.num_actions) return false;
  if (s.phase == kDraw) {
    if (a == 0) return s.deck_size > 0;
    return a <= c.num_types && s.centre.get(a - 1) > 0;
  }
  if (is_chance_phase(s.phase)) return is_chance_outcome(c, s, a);
  if (s.phase != kDiscard) return false;
  if (a == c.declare_action()) return is_complete_hand(c, s.hands[s.current], s.hand_size[s.current]);
  const int t = a - c.discard_action(0);
  return t >= 0 && s.hands[s.current].get(t) > 0 && t != forbidden_discard(c, s);
}

namespace {

template <bool kKeyed>
void apply_move(const Config& c, State& s, int a) {
  const int p = s.current;
  if (s.phase == kDraw) {
    int t;
    if (a == 0) {
      if (c.explicit_chance) return begin_deck_draw(s, p);
      t = draw_kind(s.rng, s.deck, s.deck_size);
      s.deck.sub(t);
      --s.deck_size;
      if (s.deck_number) [[unlikely]] note_deck_draw(s, p, t);
    } else {
      t = a - 1;
      remove_card<kKeyed>(s, kHolderCentre, s.centre, t);
      --s.centre_size;
      add_card<kKeyed>(s, kHolderKnown + p, s.known[p], t);
      LastTakenKeys::set<kKeyed>(s.hash, s.last_taken, t);
    }
    finish_draw<kKeyed>(c, s, p, t);
    return;
  }
  if (is_chance_phase(s.phase)) [[unlikely]]
    return apply_chance(c, s, a);
  if (a == c.declare_action()) return end_round<kKeyed>(c, s, p);
  const int t = a - c.discard_action(0);
  if (s.deck_number) [[unlikely]] forget_redrawn(s, p, t);  // before the hand and `known` change
  remove_card<kKeyed>(s, p, s.hands[p], t);
  --s.hand_size[p];
  if (s.known[p].get(t)) remove_card<kKeyed>(s, kHolderKnown + p, s.known[p], t);  // no longer sure
  add_card<kKeyed>(s, kHolderCentre, s.centre, t);
  ++s.centre_size;
  LastDiscardKeys::set<kKeyed>(s.hash, s.last_discard, t);
  end_turn<kKeyed>(c, s);
}

}  // namespace

void Engine::apply(const Config& c, State& s, int a) { apply_move<true>(c, s, a); }

void Engine::apply_unkeyed(const Config& c, State& s, int a) { apply_move<false>(c, s, a); }

int Engine::chance_outcomes(const Config& c, const State& s, int16_t* outcomes, uint32_t* weights) {
  int n = 0;
  for_each_outcome(c, s, [&](int outcome, int weight) {
    outcomes[n] = static_cast<int16_t>(outcome);
    weights[n++] = static_cast<uint32_t>(weight);
  });
  return n;
}

void Engine::returns(const Config& c, const State& s, double* out) {
  if (c.reward == 1) {
    for (int p = 0; p < c.players; ++p) out[p] = s.scores[p];
    return;
  }
  for (int p = 0; p < c.players; ++p) out[p] = 0.0;
  if (s.phase != kOver) return;
  // YC-13: the highest total pays the bill; ties shared or broken by the tie_break option
  auto key = [&](int p) {
    return c.tie_break == 0 ? (int64_t{s.scores[p]} << 32)
                            : (int64_t{s.scores[p]} << 32) | (int64_t{s.declarations[p]} << 16) | s.best_round[p];
  };
  int64_t best = key(0);
  for (int p = 1; p < c.players; ++p) best = std::max(best, key(p));
  int winners = 0;
  for (int p = 0; p < c.players; ++p) winners += key(p) == best;
  for (int p = 0; p < c.players; ++p) out[p] = key(p) == best ? 1.0 / winners : 0.0;
}

uint64_t Engine::compute_hash(const Config& c, const State& s) {
  uint64_t h = 0;
  for (int p = 0; p < c.players; ++p) {
    h ^= holder_key(p, s.hands[p]) ^ holder_key(kHolderKnown + p, s.known[p]);
    h ^= Keys::key(kFScore + p, s.scores[p]) ^ Keys::key(kFBestRound + p, s.best_round[p]) ^
         Keys::key(kFLastRound + p, s.last_round[p]) ^ Keys::key(kFDeclarations + p, s.declarations[p]);
  }
  h ^= holder_key(kHolderCentre, s.centre);
  h ^= Keys::key(kFRound, s.round) ^ Keys::key(kFPhase, s.phase) ^ Keys::key(kFCurrent, s.current) ^
       Keys::key(kFStarter, s.starter) ^ Keys::key(kFTurn, s.turn) ^ Keys::key(kFLastTaken, s.last_taken) ^
       Keys::key(kFLastDiscard, s.last_discard) ^ Keys::key(kFLastDeclarer, s.last_declarer) ^
       drawer_key(s.drawer_plus_one);
  return h;
}

}  // namespace dimsum::yum_cha
