// Yum Cha with deck_out = reshuffle_centre: which deck each unknown card came from, so that
// resample (state_io.cpp) redraws only what a seat cannot know. Internal to the yum_cha folder.
//
// Why: a reshuffle makes the centre (but the last discard) the new deck, face down but known to
// every seat card by card. From then on a card drawn from the deck is a card of that deck. Before
// any reshuffle the unknown cards (the deck and the others' hands, less what they took from the
// centre) are one pool: any of them may be anywhere. After one they are not: the deck and the
// others' draws since the reshuffle share that deck's cards, and the cards held before it share
// what was unknown then. resample must keep each card in its pool, or it deals decks the seat
// knows to be impossible (issue 20: 90 of 90 resamples did).
//
// How: the dealt deck is deck 0; each reshuffle starts deck `deck_number` + 1. A card a seat draws
// from deck k >= 1 is listed in `redrawn[seat]` as redrawn_code(k, type) while the seat holds it
// unknown to the others; every other unknown card is from deck 0 (dealt, or drawn before the first
// reshuffle). resample then deals each deck's cards only to the seats' places for that deck (the
// current deck's rest stays the deck): a permutation within each deck, which any history that
// reached the real state can also reach (the deck's cards were all available at each of those
// draws). Which copy a discard of an unknown card was is not known to anyone; the state records
// one valid choice (forget_redrawn). Decks that no seat holds a card of any more are dropped at
// each reshuffle and the rest renumbered 1, 2, ... in order, so deck numbers stay below
// 6 x 11 + 2 and a code fits 16 bits.
#pragma once

#include <cstring>

#include "engine.hpp"

namespace dimsum::yum_cha {

inline constexpr int kRedrawnSlots = kHandSize + 1;                  // a hand holds at most 11 cards
inline constexpr int kMaxDecks = kMaxPlayers * kRedrawnSlots + 2;    // deck 0, the live ones, the current
constexpr uint16_t redrawn_code(int deck, int type) { return static_cast<uint16_t>(deck << 6 | type); }
constexpr int redrawn_deck(uint16_t code) { return code >> 6; }
constexpr int redrawn_type(uint16_t code) { return code & 63; }

inline int redrawn_count(const State& s, int p) {
  int n = 0;
  while (n < kRedrawnSlots && s.redrawn[p][n]) ++n;
  return n;
}

// Inserts `code` into p's list, kept in descending order: equal lists, equal bytes.
inline void insert_redrawn(State& s, int p, uint16_t code) {
  uint16_t* list = s.redrawn[p];
  int i = redrawn_count(s, p);
  for (; i > 0 && list[i - 1] < code; --i) list[i] = list[i - 1];
  list[i] = code;
}

// p drew `type` from the deck: after a reshuffle, a card of the current deck.
inline void note_deck_draw(State& s, int p, int type) {
  if (s.deck_number) insert_redrawn(s, p, redrawn_code(s.deck_number, type));
}

// p discards a copy of `type` (before the hand loses it). A copy the others saw p take is the one
// they account for (the caller lowers `known`); else an unknown copy: one from deck 0 if p holds
// one, else the one from the newest deck (the list's first of that type).
inline void forget_redrawn(State& s, int p, int type) {
  if (!s.deck_number || s.known[p].get(type)) return;
  uint16_t* list = s.redrawn[p];
  const int n = redrawn_count(s, p);
  int tagged = 0, first = -1;
  for (int i = 0; i < n; ++i)
    if (redrawn_type(list[i]) == type && tagged++ == 0) first = i;
  if (tagged < s.hands[p].get(type)) return;  // an untagged copy (deck 0) goes
  for (int i = first; i + 1 < n; ++i) list[i] = list[i + 1];
  list[n - 1] = 0;
}

// A reshuffle: drop the decks nobody holds a card of, renumber the rest 1, 2, ... in order (the
// lists stay sorted), and number the new deck after them.
inline void start_reshuffled_deck(const Config& c, State& s) {
  bool live[256] = {};
  for (int p = 0; p < c.players; ++p)
    for (int i = 0; i < kRedrawnSlots && s.redrawn[p][i]; ++i) live[redrawn_deck(s.redrawn[p][i])] = true;
  uint8_t renumbered[256] = {};
  int decks = 0;
  for (int d = 1; d < 256; ++d)
    if (live[d]) renumbered[d] = static_cast<uint8_t>(++decks);
  for (int p = 0; p < c.players; ++p)
    for (int i = 0; i < kRedrawnSlots && s.redrawn[p][i]; ++i)
      s.redrawn[p][i] = redrawn_code(renumbered[redrawn_deck(s.redrawn[p][i])], redrawn_type(s.redrawn[p][i]));
  s.deck_number = static_cast<uint8_t>(decks + 1);
}

inline void clear_redrawn(State& s) {
  s.deck_number = 0;
  std::memset(s.redrawn, 0, sizeof(s.redrawn));
}

}  // namespace dimsum::yum_cha
