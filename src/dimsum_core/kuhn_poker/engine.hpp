// Kuhn poker: config, state and the rules' entry points. docs/rules/kuhn_poker.md is the spec
// (OpenSpiel's "kuhn_poker", its rules and its one option); python/dimsum/reference/kuhn_poker.py is
// the readable oracle this must agree with step by step (same RNG calls in the same order).
//
// Kuhn poker is dimsum's hidden-information template (Pig is the perfect-information one; see
// docs/ADDING_A_GAME.md): the smallest complete Engine with private cards, a chance deal and its
// own resample. Each of n players antes 1 chip and is dealt one card of a deck of n + 1; then
// each in turn passes or bets 1 chip. After a bet every other seat calls (bets) or folds
// (passes), once; the highest card that stayed in wins the pot.
#pragma once

#include <bit>
#include <cstdint>
#include <type_traits>

#include "../common/engine.hpp"
#include "../common/rng.hpp"

namespace dimsum::kuhn_poker {

inline constexpr int kMaxPlayers = 10;  // OpenSpiel's kuhn_poker: 2 to 10 players
inline constexpr int kMaxCards = kMaxPlayers + 1;
inline constexpr int kNoCard = -1;      // a seat not dealt yet (explicit chance), or not played

// The decisions (OpenSpiel's ActionType: kPass = 0, kBet = 1). Chance outcomes share the id range
// (common/engine.hpp): outcome k is "card k is dealt", so ids 2 and up are never legal at a decision.
enum Action : int { kPass = 0, kBet = 1 };

struct Config {
  int8_t players;
  // derived (finish_config)
  int8_t num_cards;       // players + 1: the deck is the cards 0 (lowest) to players (highest)
  int16_t num_actions;    // num_cards: pass, bet, and the ids the deal's outcomes share
  int16_t observation_size;
  bool explicit_chance;   // engine.hpp, "Chance": stop before each card of the deal

  // The most betting decisions of a game: everyone passes but the last seat, who bets, and
  // every other seat answers (KP-4).
  constexpr int max_decisions() const { return 2 * players - 1; }
};

struct State {
  Rng rng;
  uint64_t hash;                  // Zobrist key of everything below (hashing.hpp)
  uint32_t bets;                  // bit i: the i-th betting decision was a bet (0: a pass)
  uint8_t held[kMaxPlayers];      // each seat's card + 1; 0 until dealt, and past `players` (card_of)
  uint8_t decisions;              // betting decisions made (OpenSpiel: history size - players)
  int8_t current;                 // the seat to act, kChancePlayer while dealing, -1 once over
};
static_assert(std::has_unique_object_representations_v<State>, "State must have no padding bytes");
static_assert(sizeof(State) == 56, "State's layout is kStateVersion 1's: saved bytes must stay valid");

// The engine contract (common/engine.hpp says what each member must guarantee). is_legal is the
// default; resample is Kuhn poker's own: the cards of the other seats are hidden.
struct Engine {
  using Config = kuhn_poker::Config;
  using State = kuhn_poker::State;
  static constexpr const char* kName = "kuhn_poker";
  static constexpr uint16_t kGameId = 5;
  static constexpr uint16_t kStateVersion = 1;
  static constexpr int kMaxActions = kMaxCards;  // a chance node of the deal lists every card left
  static constexpr int kMaxPlayers = kuhn_poker::kMaxPlayers;

  // schema.cpp: the declared boundary
  static std::span<const ConfigField<Config>> config_fields();
  static bool finish_config(Config& c, char* err, int errlen);
  static std::span<const StateField<Config, State>> state_fields();
  static std::span<const ObservationSlice<Config>> observation();
  static ConfigInfo config_info(const Config& c);
  // rules.cpp
  static void new_state(const Config& c, State& s, uint64_t seed);
  static int current_player(const State& s) { return s.current; }
  static int legal_actions(const Config& c, const State& s, int16_t* out);
  static void apply(const Config& c, State& s, int action);
  static void apply_unkeyed(const Config& c, State& s, int action);  // common/engine.hpp, "Key upkeep"
  static int64_t random_decisions(const Config& c, State& s, int64_t max_decisions, Rng& rng);
  static void returns(const Config& c, const State& s, double* out);
  static uint64_t compute_hash(const Config& c, const State& s);
  static int chance_outcomes(const Config& c, const State& s, int16_t* outcomes, uint32_t* weights);
  // observe.cpp
  static void observe(const Config& c, const State& s, int player, float* out);
  // state_io.cpp: states from outside, and what a seat cannot see redrawn
  static bool validate(const Config& c, const State& s, char* err, int errlen);
  static void resample(const Config& c, const State& s, int player, uint64_t seed, State& out);
  // heuristic.cpp: bet or call with the highest card (KP-7)
  static int heuristic_action(const Config& c, const State& s, Rng& rng);
};
static_assert(dimsum::Engine<Engine>);

// Shared by rules.cpp, observe.cpp, state_io.cpp and heuristic.cpp. Everything about the betting
// is read off the bit set `bets` (bit i: decision i was a bet); decision i is seat i % players's.
constexpr uint32_t low_bits(int n) { return (uint32_t{1} << n) - 1; }
// A seat's card, kNoCard before it is dealt (the state keeps card + 1, so that an empty seat is 0).
constexpr int card_of(const State& s, int seat) { return s.held[seat] - 1; }
// The cards no seat holds: the deck still to deal from (every card, in sampled mode, at new_state).
inline uint32_t undealt(const Config& c, const State& s) {
  uint32_t deck = low_bits(c.num_cards);
  for (int p = 0; p < c.players; ++p)
    if (s.held[p]) deck &= ~(uint32_t{1} << card_of(s, p));
  return deck;
}
// The seats dealt so far: the deal goes seat 0, 1, ... (KP-2), so the next seat to deal to.
inline int seats_dealt(const Config& c, const State& s) {
  int k = 0;
  while (k < c.players && s.held[k]) ++k;
  return k;
}
// The seat that bet first, -1 if nobody has: a bet comes in the first round (all passed ends it),
// so decision index and seat agree.
inline int first_bettor(const State& s) { return s.bets ? std::countr_zero(s.bets) : -1; }
// The seats that put a second chip in (the bettor, and every seat that called): a seat after the
// first bettor answered in the first round (bit p), one before it in the second (bit players + p).
inline uint32_t bettors(const Config& c, const State& s) { return (s.bets | (s.bets >> c.players)) & low_bits(c.players); }
// KP-4, KP-5: the betting ends when all passed, or when every seat answered the first bet.
inline bool betting_over(const Config& c, const State& s) {
  const int fb = first_bettor(s);
  return s.decisions == (fb < 0 ? c.players : c.players + fb);
}
// KP-5, KP-6: the highest card among the seats still in (all, if nobody bet; else the bettors).
inline int winner(const Config& c, const State& s) {
  const uint32_t in = s.bets ? bettors(c, s) : low_bits(c.players);
  int best = -1;
  for (int p = 0; p < c.players; ++p)
    if ((in >> p & 1u) && (best < 0 || s.held[p] > s.held[best])) best = p;
  return best;
}

}  // namespace dimsum::kuhn_poker
