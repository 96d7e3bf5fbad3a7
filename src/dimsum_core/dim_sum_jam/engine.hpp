// Dim Sum Jam: config, state and the rules' entry points. docs/rules/dim_sum_jam.md is the spec;
// python/dimsum/reference/dim_sum_jam.py is the readable oracle this must agree with step by step.
//
// Tokens are bits of 64-bit masks (token id = type * 7 + number - 1): hands, the bag and the
// discard pile. Each table holds a card id and one slot per icon (-1 empty, a token id, or
// kTea), with the empty icon spaces as a 7-bit mask. The order deck is its sequence of backs
// (a VIP-back mask read from bit 0 = the top, and a length); a face is drawn when the card is
// turned up, uniformly from the unseen cards of that back. Cards out of the game are a mask.
// The hourglass is a TickClock (common/tick_clock.hpp).
//
// Explicit chance (engine.hpp, "Chance"): State::chance names the pending random event and what
// follows it once resolved; the outcome ids are tokens, then cards, then the two backs of the
// set-up shuffle, then the seats (chance_token .. chance_seat below).
#pragma once

#include <cstdint>
#include <type_traits>

#include "../common/engine.hpp"
#include "../common/rng.hpp"
#include "../common/tick_clock.hpp"

namespace dimsum::dim_sum_jam {

inline constexpr int kMaxPlayers = 5;
inline constexpr int kTypes = 7;
inline constexpr int kTokens = 49;
inline constexpr int kTables = 7;
inline constexpr int kMaxIcons = 7;
inline constexpr int kMaxCards = 64;
inline constexpr int8_t kEmpty = -1;
inline constexpr int8_t kTea = kTokens;  // an exotic tea lying on an order card
inline constexpr uint64_t kAllTokens = (1ull << kTokens) - 1;
inline constexpr int64_t kMaxTicksPerCall = 1'000'000;

// The action space (448 actions, the same for every config): see dimsum.games.dim_sum_jam.
inline constexpr int kPlay = 0;                            // + token * 7 + table
inline constexpr int kTeaPlay = kPlay + kTokens * kTables;  // + table * 7 + type
inline constexpr int kFlip = kTeaPlay + kTables * kTypes;
inline constexpr int kTakeTea = kFlip + 1;
inline constexpr int kReverse = kTakeTea + 1;
inline constexpr int kDiscard = kReverse + 1;  // + token
inline constexpr int kDone = kDiscard + kTokens;
inline constexpr int kStandSame = kDone + 1;
inline constexpr int kStandTurned = kStandSame + 1;
inline constexpr int kCannotServe = kStandTurned + 1;
inline constexpr int kNumActions = kCannotServe + 1;

enum Phase : int8_t { kPlayPhase = 0, kReward, kTimeoutDiscard, kStuckDiscard, kStand, kOver };
enum Outcome : int8_t { kRunning = -1, kWin = 0, kDeckOut = 1, kComplaints = 2 };
enum ReverseTrigger : uint8_t { kOnFulfil = 0, kOnSelfTable = 1, kTeamOnce = 2 };
// The pending chance event (State::chance, explicit mode only). Set-up, in the rulebook's order:
// the shuffle of the top section's backs (one node per position), the seven table cards, the
// start player, the deal; in play: the face of the card turned up after a fulfilment (then the
// reward), the draw after a play or a reward (then the turn passes to `required`), and the
// one-token-at-a-time replenish after discarding (then the time-out or the stuck rule goes on).
enum Chance : uint8_t {
  kNoChance = 0, kChanceShuffle, kChanceSetupCard, kChanceSetupSeat, kChanceSetupDeal,
  kChanceCard, kChanceDraw, kChanceRefill, kLastChance = kChanceRefill
};

struct Config {
  int8_t players, hand_limit, tea_supply, complaint_limit, max_free_redraws;
  int8_t num_cards, deck_length, deck_top_regular, deck_vips, deck_bottom_regular, extra_vips;
  bool play_next_hand, reverse_variant, flip_full, stand_same_only, timeout_all_players, resume_free_play;
  bool decline_tea, opening_first_round, draw_after_tea, time_on;
  bool timeout_flips_first;  // DSJ-22's other reading: a time-out's flip comes before the reward it interrupted
  uint8_t reverse_trigger;
  uint8_t most_icons, most_same_icons;  // the most icons on a card, the most of one type on a card
  int32_t glass_ticks, ticks_per_action, ticks_per_team_decision;
  int32_t observation_size;
  uint64_t vip_mask, regular_mask, all_cards;
  uint8_t num_icons[kMaxCards];
  int8_t icons[kMaxCards][kMaxIcons];  // a token type per icon space; -1 past the card's icons
  uint64_t type_tokens[1 << kTypes];  // token mask of a set of types
  uint64_t icon_type_bytes[kMaxCards];  // byte i: 1 << the type of icon space i, 0 past the card's icons
  bool explicit_chance;  // engine.hpp, "Chance": stop at every random event
};

struct State {
  Rng rng;
  uint64_t hash;
  uint64_t hands[kMaxPlayers];
  uint64_t bag, discard;
  uint64_t out;        // cards fulfilled and out of the game
  uint64_t deck_vips;  // bit i: the i-th card of the deck from the top has a VIP back
  TickClock clock;
  int8_t table_card[kTables];           // -1: no card
  int8_t slots[kTables][kMaxIcons];     // kEmpty, a token, or kTea; kEmpty past the card's icons
  uint8_t empty_slots[kTables];         // bit i: icon space i is empty
  int8_t phase, active, direction, discarder, resume, required, opening_left, outcome;
  uint8_t case3, redraws, draw_pending, reverse_used, tea_supply, tea_reception, complaints, deck_len;
  uint8_t chance;        // the pending chance event (Chance), kNoChance in sampled mode
  uint8_t shuffle_left;  // kChanceShuffle: deck positions [0, shuffle_left) still without a back
  uint8_t reserved_[3];  // always zero: no padding, so equal states have equal bytes
};
static_assert(std::has_unique_object_representations_v<State>, "State must have no padding bytes");
static_assert(sizeof(State) == 208);

// The engine contract (common/engine.hpp says what each member must guarantee); a timed game.
struct Engine {
  using Config = dim_sum_jam::Config;
  using State = dim_sum_jam::State;
  static constexpr const char* kName = "dim_sum_jam";
  static constexpr uint16_t kGameId = 1;
  static constexpr uint16_t kStateVersion = 1;
  static constexpr int kMaxPlayers = dim_sum_jam::kMaxPlayers;
  static constexpr int kMaxActions = kNumActions;

  // schema.cpp: the declared boundary
  static std::span<const ConfigField<Config>> config_fields();
  static bool finish_config(Config& c, char* err, int errlen);
  static std::span<const StateField<Config, State>> state_fields();
  static void finish_import(const Config& c, State& s);
  static std::span<const ObservationSlice<Config>> observation();
  static ConfigInfo config_info(const Config& c);
  // rules.cpp
  static void new_state(const Config& c, State& s, uint64_t seed);
  static int current_player(const State& s) {
    return s.phase == kOver ? -1 : s.chance ? kChancePlayer : s.phase == kTimeoutDiscard ? s.discarder : s.active;
  }
  static int legal_actions(const Config& c, const State& s, int16_t* out);
  static void apply(const Config& c, State& s, int action) { apply_timed(c, s, action, -1); }
  static void apply_unkeyed(const Config& c, State& s, int action);  // common/engine.hpp, "Key upkeep"
  static void returns(const Config& c, const State& s, double* out);
  static uint64_t compute_hash(const Config& c, const State& s);
  static int chance_outcomes(const Config& c, const State& s, int16_t* outcomes, uint32_t* weights);
  // observe.cpp
  static void observe(const Config& c, const State& s, int player, float* out);
  // BatchEnv's rows: `out` holds observe(was, was_player); store what differs in observe(s, player)
  static void observe_changes(const Config& c, const State& was, int was_player, const State& s, int player,
                              float* out);
  // state_io.cpp: states from outside. resample is the default (copy and reseed): hands,
  // tables, the discard pile, the bag's contents and the deck's backs are public; the hidden
  // orders (bag, faces within a back) are never fixed, so resampling is reseeding.
  static bool validate(const Config& c, const State& s, char* err, int errlen);
  // heuristic.cpp: the "heuristic" bot and IS-MCTS's heuristic rollouts (common/engine.hpp)
  static int heuristic_action(const Config& c, const State& s, Rng& rng);

  // rules.cpp: time (ARCHITECTURE section 4). ticks < 0 charges the action's default cost; returns
  // the ticks charged. check_ticks says whether `ticks` may be charged at all in this config.
  static bool check_ticks(const Config& c, int64_t ticks, char* err, int errlen);
  static int64_t apply_timed(const Config& c, State& s, int action, int64_t ticks);
  static void advance(const Config& c, State& s, int64_t ticks);
  static int64_t default_ticks(const Config& c, int action);
};
static_assert(dimsum::Engine<Engine> && dimsum::TimedGame<Engine>);

// Rule helpers (rules.cpp) that validate also needs.
bool has_play(const Config& c, const State& s);            // the active player has a token or tea play
uint64_t unseen(const Config& c, const State& s);          // cards neither on a table nor out
int vips_left(const Config& c, const State& s, int excluding_table);
uint64_t face_pool(const Config& c, const State& s);        // the faces the deck's top card may show
int shuffle_vips_left(const Config& c, const State& s);     // VIP backs the set-up shuffle has still to place
int top_section(const Config& c);                           // cards in the deck's top section

// The chance outcome ids (one fixed range per config): a token drawn, a card turned up, the back
// of one shuffled position (regular, VIP), the start player.
constexpr int chance_token(int t) { return t; }
constexpr int chance_card(int card) { return kTokens + card; }
constexpr int chance_back(const Config& c, bool vip) { return kTokens + c.num_cards + vip; }
constexpr int chance_seat(const Config& c, int seat) { return kTokens + c.num_cards + 2 + seat; }
constexpr int num_chance_outcomes(const Config& c) { return chance_seat(c, c.players); }

}  // namespace dimsum::dim_sum_jam
