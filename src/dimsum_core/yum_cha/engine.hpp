// Yum Cha: config, state and the rules' entry points. docs/rules/yum_cha.md is the spec;
// python/dimsum/reference/yum_cha.py is the readable oracle this must agree with step by step.
#pragma once

#include <cstdint>
#include <type_traits>

#include "../common/bits.hpp"
#include "../common/engine.hpp"
#include "../common/rng.hpp"

namespace dimsum::yum_cha {

inline constexpr int kMaxPlayers = 6;
inline constexpr int kMaxTypes = 64;   // a collection is a Counts64
inline constexpr int kMaxTiers = 16;
inline constexpr int kMaxRounds = 16;
inline constexpr int kHandSize = 10;   // rulebook: hand limit of 10; 11 held between draw and discard

enum Kind : uint8_t { kDimSum = 0, kTea = 1, kTakeaway = 2 };
enum DeckOut : uint8_t { kWashout = 0, kReshuffleCentre = 1, kCentreOnly = 2 };
// Phases 3-5 are chance nodes, reached only in explicit chance mode (current is kChancePlayer):
// the round-1 starter to draw, the next card of a deal, the card of a draw from the deck.
enum Phase : int8_t { kDraw = 0, kDiscard = 1, kOver = 2, kStarterDraw = 3, kDeal = 4, kDeckDraw = 5 };
constexpr bool is_chance_phase(int phase) { return phase >= kStarterDraw; }

struct Config {
  int8_t players, rounds, first_player, num_types, num_tiers;
  bool auto_declare, forbid_immediate_return;
  uint8_t deck_out;                      // DeckOut
  uint8_t tie_break;                     // 0 share, 1 declarations then best round
  uint8_t reward;                        // 0 win_share, 1 score
  int16_t max_turns;
  int16_t total_cards;
  uint8_t kind[kMaxTypes], tier[kMaxTypes], value[kMaxTypes], copies[kMaxTypes];
  uint8_t tier_points[kMaxTiers], tier_first[kMaxTiers], tier_end[kMaxTiers];  // types [first, end)
  uint8_t tiers_by_points[kMaxTiers];    // tier indices, highest points first (stable)
  uint8_t num_teas, tea_first;           // teas are types [tea_first, tea_first + num_teas)
  int8_t takeaway_type;                  // -1 if the deck has none
  Counts64 full_deck;
  // the action space: 0 draw, 1+t take t, 1+T+t discard t, 1+2T declare
  int16_t num_actions, observation_size;

  constexpr int take_action(int t) const { return 1 + t; }
  constexpr int discard_action(int t) const { return 1 + num_types + t; }
  constexpr int declare_action() const { return 1 + 2 * num_types; }
  bool explicit_chance;  // engine.hpp, "Chance": stop at every random event
};

struct State {
  Rng rng;
  uint64_t hash;
  Counts64 hands[kMaxPlayers];
  Counts64 known[kMaxPlayers];  // YC-14: what the others saw p take from the centre
  Counts64 centre, deck;
  int16_t scores[kMaxPlayers], best_round[kMaxPlayers], last_round[kMaxPlayers];
  uint8_t declarations[kMaxPlayers], hand_size[kMaxPlayers];
  uint16_t turn;
  uint8_t deck_size, centre_size;
  int8_t round, phase, current, starter, last_taken, last_discard, last_declarer;
  // Explicit chance only (zero in sampled states, so their bytes are unchanged): 1 + the seat
  // whose draw from the deck is pending in phase kDeckDraw, else 0. Read it with drawer().
  uint8_t drawer_plus_one;
  // deck_out = reshuffle_centre only (zero otherwise; redrawn.hpp says why): the number of the
  // deck being drawn from, 0 the dealt one, then one per reshuffle (renumbered: redrawn.hpp), and
  // per seat the cards it drew from a reshuffled deck and still holds unknown to the others, each
  // redrawn_code(deck, type), in descending order, 0 past the last.
  uint8_t deck_number;
  uint8_t reserved_[3];  // always zero: no padding, so equal states have equal bytes
  uint16_t redrawn[kMaxPlayers][kHandSize + 1];
  uint8_t reserved_tail_[4];  // always zero, as reserved_

  constexpr int drawer() const { return drawer_plus_one - 1; }
};
static_assert(std::has_unique_object_representations_v<State>, "State must have no padding bytes");
static_assert(sizeof(State) == 688, "State's layout is kStateVersion 2's: saved bytes must stay valid");

// The engine contract (common/engine.hpp says what each member must guarantee).
struct Engine {
  using Config = yum_cha::Config;
  using State = yum_cha::State;
  static constexpr const char* kName = "yum_cha";
  static constexpr uint16_t kGameId = 3;
  static constexpr uint16_t kStateVersion = 2;  // 2: deck_number, redrawn
  static constexpr int kMaxPlayers = yum_cha::kMaxPlayers;
  static constexpr int kMaxActions = 2 + 2 * kMaxTypes;

  // schema.cpp: the declared boundary
  static std::span<const ConfigField<Config>> config_fields();
  static bool finish_config(Config& c, char* err, int errlen);
  static std::span<const StateField<Config, State>> state_fields();
  static void finish_import(const Config& c, State& s);
  static std::span<const ObservationSlice<Config>> observation();
  static ConfigInfo config_info(const Config& c);
  // rules.cpp
  static void new_state(const Config& c, State& s, uint64_t seed);
  static int current_player(const State& s) { return s.current; }
  static int legal_actions(const Config& c, const State& s, int16_t* out);
  static bool is_legal(const Config& c, const State& s, int action);  // without generating the list
  static void apply(const Config& c, State& s, int action);
  static void apply_unkeyed(const Config& c, State& s, int action);  // engine.hpp, "Key upkeep"
  static void returns(const Config& c, const State& s, double* out);
  static uint64_t compute_hash(const Config& c, const State& s);
  static int chance_outcomes(const Config& c, const State& s, int16_t* outcomes, uint32_t* weights);
  // observe.cpp
  static void observe(const Config& c, const State& s, int player, float* out);
  // BatchEnv's rows, updated in place (common/observation_row.hpp, SparseRow)
  static void observe_sparse(const Config& c, const State& s, int player, float* out, const uint64_t* before,
                             uint64_t* now);
  // state_io.cpp: states from outside, and what a player cannot see
  static bool validate(const Config& c, const State& s, char* err, int errlen);
  static void resample(const Config& c, const State& s, int player, uint64_t seed, State& out);
  // heuristic.cpp: the "heuristic" bot and IS-MCTS's heuristic rollouts (common/engine.hpp)
  static int heuristic_action(const Config& c, const State& s, Rng& rng);
};
static_assert(dimsum::Engine<Engine>);

// Chance outcomes (explicit mode): card types [0, T) are "draw <card>" (a dealt card or the card
// drawn from the deck), then seats [T, T + players) are "seat N starts" (round 1's starter).
constexpr int starter_outcome(const Config& c, int seat) { return c.num_types + seat; }
constexpr int num_chance_outcomes(const Config& c) { return c.num_types + c.players; }

// Hand arithmetic (scoring.cpp), exposed for tests and bots.
bool is_complete_hand(const Config& c, const Counts64& hand, int hand_size);
int declarer_score(const Config& c, const Counts64& hand);
int takeaway_score(const Config& c, const Counts64& hand);

}  // namespace dimsum::yum_cha
