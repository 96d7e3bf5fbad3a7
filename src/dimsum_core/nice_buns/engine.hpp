// Nice Buns: config, state and the rules' entry points. docs/rules/nice_buns.md is the spec;
// python/dimsum/reference/nice_buns.py is the readable oracle this must agree with step by step
// (same RNG calls in the same order, so a seed gives the same game in both).
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "../common/engine.hpp"
#include "../common/rng.hpp"

namespace dimsum::nice_buns {

inline constexpr int kMaxPlayers = 6;  // six plates
inline constexpr int kColours = 4;     // 0 blue, 1 green, 2 red, 3 yellow (colour order)
inline constexpr int kKinds = 5;       // the colours and 4 = fish head
inline constexpr int kFish = 4;
inline constexpr int kDice = 3;        // 0 small, 1 medium, 2 large
inline constexpr int kDone = 3;        // the die pointer after the large die
inline constexpr int kMaxFaces = 12;
inline constexpr int kMaxDraw = 6;     // buns one draw face takes
// The state field current_player, read in: derive it from the position (a dict may leave it out).
// Not -2: that is kChancePlayer, the current player at a chance node.
inline constexpr int kDeriveCurrent = -3;

enum FaceAction : uint8_t { kDraw = 0, kPutBack, kTake, kGive, kSteal, kSwap };
// The phases up to kOver are the sampled game's. Explicit chance mode (engine.hpp, "Chance") adds
// one phase per kind of random event, the game stopped before it (a chance node):
//   kStartPlayerPhase  the start player (NB-1, start_player -1);
//   kTrayPhase         one bun for the tray (NB-10): at set-up before the choice of dice (chooser_takes
//                      -1), in play after a take or after buns went back to the bag;
//   kStartingBunPhase  one starting bun for the first seat still owed one (NB-1);
//   kRollPhase         the roll of the die at `die` (small, medium, large in turn);
//   kDrawPhase         one bun from the bag for the draw die at `die` (NB-4).
enum Phase : int8_t {
  kSplitPhase = 0, kChoosePhase, kActPhase, kFishPhase, kPlatePhase, kOver,
  kStartPlayerPhase, kTrayPhase, kStartingBunPhase, kRollPhase, kDrawPhase
};
inline constexpr int kFirstChancePhase = kStartPlayerPhase, kLastPhase = kDrawPhase;
constexpr bool is_chance_phase(int phase) { return phase >= kFirstChancePhase; }

// The four ways to split the dice (NB-2), each named by the mask of its first group.
inline constexpr uint8_t kSplits[4] = {0b111, 0b011, 0b101, 0b110};

// A multiset of buns: a count per kind, one byte each, in one word (kind k in bits 8k..8k+7).
// The bag (up to 255 of a kind), the tray and every player's unplated buns are one of these.
struct Buns {
  uint64_t w;

  static constexpr int shift(int kind) { return 8 * kind; }
  constexpr int get(int kind) const { return static_cast<int>((w >> shift(kind)) & 255u); }
  constexpr void add(int kind, int n = 1) { w += static_cast<uint64_t>(n) << shift(kind); }
  constexpr void sub(int kind, int n = 1) { w -= static_cast<uint64_t>(n) << shift(kind); }
  // The sum of the counts of kinds [0, kinds): bytes folded into 16-bit lanes, then added.
  constexpr int total(int kinds = kKinds) const {
    const uint64_t x = kinds >= 8 ? w : w & ((1ull << (8 * kinds)) - 1);
    const uint64_t pairs = (x & 0x00FF00FF00FF00FFull) + ((x >> 8) & 0x00FF00FF00FF00FFull);
    return static_cast<int>((pairs * 0x0001000100010001ull) >> 48);
  }
  constexpr int coloured() const { return total(kColours); }
  // Bit k set when kind k has at least one bun.
  constexpr unsigned present() const { return nonzero_bytes(w) & ((1u << kKinds) - 1); }
  // Bit k set when colour k has exactly `n` buns: the bytes equal to n are the zero bytes of w ^ n.
  constexpr unsigned colours_with(int n) const {
    return ~nonzero_bytes(w ^ (static_cast<uint8_t>(n) * 0x0101010101010101ull)) & ((1u << kColours) - 1);
  }
  // Bit k set when colour k has `n` buns or more (0 < n < 128): a byte with its top bit set
  // stays at 0x80 or above after the subtraction (so no byte borrows from the next) and has its
  // top bit left set exactly when its low seven bits are n or more; a top bit set before is n or more.
  constexpr unsigned colours_at_least(int n) const {
    constexpr uint64_t kTop = 0x8080808080808080ull;
    const uint64_t top = (((w | kTop) - static_cast<uint64_t>(n) * 0x0101010101010101ull) | w) & kTop;
    return static_cast<unsigned>(((top >> 7) * 0x0102040810204080ull) >> 56) & ((1u << kColours) - 1);
  }
  // True when some colour has `n` buns or more (0 < n < 128): colours_at_least(n) != 0 without
  // gathering the bits (the cascade's first test only asks whether there is one).
  constexpr bool any_colour_at_least(int n) const {
    constexpr uint64_t kTop = 0x8080808080808080ull, kColourTops = 0x80808080ull;
    return ((((w | kTop) - static_cast<uint64_t>(n) * 0x0101010101010101ull) | w) & kColourTops) != 0;
  }
  // Bit i set when byte i of x is not zero, without a loop (present() runs several times a
  // step): adding 0x7F to a byte's low seven bits carries into its top bit unless they are all
  // zero, OR the top bit itself, then one multiply gathers the eight top bits (byte i's lands
  // on bit 56 + i; no two partial products meet, so nothing carries).
  static constexpr unsigned nonzero_bytes(uint64_t x) {
    constexpr uint64_t kLow7 = 0x7F7F7F7F7F7F7F7Full, kTop = 0x8080808080808080ull;
    const uint64_t top = (((x & kLow7) + kLow7) | x) & kTop;
    return static_cast<unsigned>(((top >> 7) * 0x0102040810204080ull) >> 56);
  }
  constexpr int largest_colour_count() const {
    int best = 0;
    for (int k = 0; k < kColours; ++k) best = get(k) > best ? get(k) : best;
    return best;
  }
};

// The byte tricks above, checked where they are written: each byte on its own, 0, 1, 0x7F, 0x80, 0xFF.
static_assert(Buns{0x000000FF80007F01ull}.present() == 0b11011u);
static_assert(Buns{0x0000000003000300ull}.colours_with(3) == 0b1010u && Buns{0}.colours_with(0) == 0b1111u);
static_assert(Buns{0x00000000FF050403ull}.colours_at_least(4) == 0b1110u && Buns{0x7F80}.colours_at_least(127) == 0b11u);
static_assert(!Buns{0x0000FF0002020202ull}.any_colour_at_least(3) &&
              Buns{0x0000000003000000ull}.any_colour_at_least(3) &&
              Buns{0x0000000080000000ull}.any_colour_at_least(3) && !Buns{0x7E}.any_colour_at_least(127));

struct Face {
  uint8_t action;   // FaceAction
  uint8_t count;    // draw: buns drawn
  uint8_t colours;  // take: bitmask of the colours that may be taken
};

struct Config {
  int8_t players, start_player;  // start_player -1: drawn at random
  uint8_t fish_tiebreak;         // 0 owner, 1 colour_order
  bool manual_plating, mandatory_dice, fish_movable;
  int32_t max_turns;
  uint8_t colour_counts[kColours], fish_heads, tray_size, starting_buns, set_size, greedy_size, sets_to_win;
  uint8_t num_faces[kDice];
  Face faces[kDice][kMaxFaces];
  // the action space (dimsum.games.nice_buns.Config): 0 split, 4 choose, 12 take, 16 put back,
  // then give, steal, swap, fish to, plate, keep, pass
  int16_t num_actions, observation_size;
  int16_t give, steal, swap, fish_to, plate, keep, pass;

  static constexpr int kSplit = 0, kChoose = 4, kTake = 12, kPutBack = 16, kGiveFirst = 21;
  constexpr int give_action(int kind, int target) const { return give + kind * players + target; }
  constexpr int steal_action(int kind, int target) const { return steal + kind * players + target; }
  constexpr int swap_action(int mine, int target, int theirs) const {
    return swap + (mine * players + target) * kKinds + theirs;
  }
  bool explicit_chance;  // engine.hpp, "Chance": stop at every random event
};

// The chance outcomes (explicit mode), one range for every event of a config:
//   [0, 5)                a bun of kind k drawn (the tray, a starting bun, a draw die);
//   then per die, small, medium, large: face f rolled (one outcome per face, weight 1);
//   then seat p starts.
constexpr int face_outcome(const Config& c, int die, int face) {
  int o = kKinds + face;
  for (int d = 0; d < die; ++d) o += c.num_faces[d];
  return o;
}
constexpr int seat_outcome(const Config& c, int seat) { return face_outcome(c, kDice, 0) + seat; }
constexpr int num_chance_outcomes(const Config& c) { return seat_outcome(c, c.players); }


struct State {
  Rng rng;
  uint64_t hash;                 // Zobrist key: the buns (fronts, tray) and the scalar block below
  Buns front[kMaxPlayers];       // unplated buns in front of each seat
  Buns bag, tray;                // the bag is not hashed: it is everything not elsewhere
  // -- the scalar block: hashed as one (see hashing.hpp); keep these last and contiguous --
  uint32_t turn;                 // 1 = the first turn
  int8_t phase, current, roller;   // roller -1 only before the start player is drawn
  int8_t split;                  // index into kSplits, -1 before the split
  int8_t chooser_takes;          // dice the chooser took (a 3-bit mask), -1 before the choice
  int8_t die;                    // the next die to act, kDone after the large die (kRollPhase: to roll)
  int8_t draws_left;             // buns the draw die at `die` still takes
  int8_t winner;                 // -1: none
  uint8_t dice[kDice];           // the face rolled on each die
  int8_t cascade[2];             // seats whose cascade (NB-9) is pending, first deciding; -1 unused
  uint8_t cascade_len;
  int8_t fish_on[kMaxPlayers];   // colour the seat's fish heads are attached to, -1 none
  uint8_t plates[kMaxPlayers];   // bitmask of plated colours
  uint8_t reserved_[2];          // always zero: no padding, so equal states have equal bytes
};
static_assert(std::has_unique_object_representations_v<State>, "State must have no padding bytes");
static_assert(std::is_standard_layout_v<State>);
inline constexpr size_t kScalarBlockBytes = sizeof(State) - offsetof(State, turn);
static_assert(kScalarBlockBytes == 32, "the scalar block is four words");

// The engine contract (common/engine.hpp says what each member must guarantee). is_legal and
// resample are the defaults: the legal list is searched, and a state is resampled by reseeding
// (NB-12: only the bag's order is hidden, and the bag is a multiset).
struct Engine {
  using Config = nice_buns::Config;
  using State = nice_buns::State;
  static constexpr const char* kName = "nice_buns";
  static constexpr uint16_t kGameId = 2;
  static constexpr uint16_t kStateVersion = 1;
  // the largest legal list: swap, 5 kinds x 5 other seats x 5 kinds, plus pass
  static constexpr int kMaxPlayers = nice_buns::kMaxPlayers;
  static constexpr int kMaxActions = kKinds * (kMaxPlayers - 1) * kKinds + 1;

  // schema.cpp: the declared boundary
  static std::span<const ConfigField<Config>> config_fields();
  static bool finish_config(Config& c, char* err, int errlen);
  static std::span<const StateField<Config, State>> state_fields();
  static void finish_import(const Config& c, State& s);
  static std::span<const ObservationSlice<Config>> observation();
  static ConfigInfo config_info(const Config& c);
  // rules.cpp
  static void new_state(const Config& c, State& s, uint64_t seed);
  static int current_player(const State& s) { return s.current; }  // kChancePlayer in a chance phase
  static int legal_actions(const Config& c, const State& s, int16_t* out);
  // legal_actions' list picked from uniformly without writing it (common/engine.hpp)
  static int random_action(const Config& c, const State& s, Rng& rng);
  // random_decisions_loop<Engine>'s games, the decisions settle reaches played inside it (rules.cpp, Autoplay)
  static int64_t random_decisions(const Config& c, State& s, int64_t max_decisions, Rng& rng);
  static void apply(const Config& c, State& s, int action);
  static void apply_unkeyed(const Config& c, State& s, int action);  // common/engine.hpp, "Key upkeep"
  static void returns(const Config& c, const State& s, double* out);
  static uint64_t compute_hash(const Config& c, const State& s);
  static int chance_outcomes(const Config& c, const State& s, int16_t* outcomes, uint32_t* weights);
  // observe.cpp
  static void observe(const Config& c, const State& s, int player, float* out);
  // state_io.cpp: states from outside
  static bool validate(const Config& c, const State& s, char* err, int errlen);
  // heuristic.cpp: the "heuristic" bot and IS-MCTS's heuristic rollouts (common/engine.hpp)
  static int heuristic_action(const Config& c, const State& s, Rng& rng);
};
static_assert(dimsum::Engine<Engine>);

// Shared by rules.cpp, observe.cpp and state_io.cpp.
inline const Face& face_of(const Config& c, const State& s, int die) { return c.faces[die][s.dice[die]]; }
// (roller + 1) % players, without a division or a branch (masks, not selects: the compiler
// kept the ternaries as jumps, and who holds a die follows the random split).
inline int chooser_of(const Config& c, const State& s) {
  const int next = s.roller + 1;
  return next & -static_cast<int>(next < c.players);
}
// NB-2/NB-3: the chooser acts the dice of the group they took, the roller the rest. Branch-free:
// the group is the random choice of the turn, so a jump here mispredicted often.
inline int holder_of(const Config& c, const State& s, int die) {
  const int chooser_acts = -((s.chooser_takes >> die) & 1);  // all ones when the chooser acts the die
  return s.roller ^ ((chooser_of(c, s) ^ s.roller) & chooser_acts);
}
// Who decides now, from the other fields (State::current caches it).
int derive_current(const Config& c, const State& s);
// The legal actions of the die at s.die (a choice face), sorted, with 'pass' if allowed.
int die_options(const Config& c, const State& s, int16_t* out);
// Explicit mode, set-up: the first seat still owed a starting bun (NB-1), -1 when none is.
int seat_owed_a_bun(const Config& c, const State& s);
// The colours seat p may still receive as a starting bun: the bag's, the colours p holds at 0.
inline Buns starting_choices(const State& s, int p) {
  Buns allowed{s.bag.w & ((1ull << (8 * kColours)) - 1)};
  for (int k = 0; k < kColours; ++k)
    if (s.front[p].get(k)) allowed.sub(k, allowed.get(k));
  return allowed;
}
// NB-10: the tray is short and the bag holds a coloured bun to top it up with.
inline bool tray_wants_bun(const Config& c, const State& s) {
  return s.tray.total(kColours) < c.tray_size && s.bag.coloured() > 0;
}

}  // namespace dimsum::nice_buns
