// Nice Buns' boundary, declared once: the config fields Python hands over by name
// (dimsum.games.nice_buns.config_values), the state fields behind to_dict / state_from_dict /
// state.field(name), and the observation slices. common/schema.hpp walks these tables.
#include <algorithm>

#include "../common/schema.hpp"
#include "engine.hpp"

namespace dimsum::nice_buns {
namespace {

using CF = ConfigField<Config>;
using SF = StateField<Config, State>;
using OS = ObservationSlice<Config>;
using Member = MemberFields<Config, State>;

// -- config ------------------------------------------------------------------------------------
// The order and the values are the fingerprint's (to_bytes' header, the bench signature):
// append, never reorder.

template <int D>
void set_face(Config& c, int f, const int64_t* v) {
  c.faces[D][f] = Face{narrow<uint8_t>(v[0]), narrow<uint8_t>(v[1]), narrow<uint8_t>(v[2])};
  c.num_faces[D] = narrow<uint8_t>(f + 1);
}

constexpr CF kConfig[] = {
    Member::config<&Config::players>("players", "number of players (six plates)", {2, kMaxPlayers}),
    Member::config<&Config::start_player>("start_player", "seat that rolls first, -1: drawn at random (NB-1)",
        {-1, kMaxPlayers - 1}),
    Member::config<&Config::fish_tiebreak>("fish_tiebreak", "0 the owner chooses, 1 colour order (NB-7)", {0, 1}),
    Member::config<&Config::manual_plating>("manual_plating", "complete sets are plated by the owner's choice (NB-9)",
        {0, 1}),
    Member::config<&Config::mandatory_dice>("mandatory_dice",
        "the medium and large dice must be used when possible (no 'pass')",
        {0, 1}),
    Member::config<&Config::fish_movable>("fish_movable",
        "fish heads count as buns for put back, give, steal and swap",
        {0, 1}),
    Member::config<&Config::max_turns>("max_turns", "turn cap: the game is a draw after this many turns",
        {1, 100000}),
    Member::config<&Config::max_game_length>("max_game_length", "a hard bound on the actions of one game",
        {1, 1 << 30}),
    {"colour_counts", "buns of each colour (blue, green, red, yellow)", kColours, 1, 0, {1, 60},
     [](Config& c, int k, const int64_t* v) { c.colour_counts[k] = narrow<uint8_t>(*v); }},
    Member::config<&Config::fish_heads>("fish_heads", "fish heads in the game", {0, 60}),
    Member::config<&Config::tray_size>("tray_size", "buns on the serving tray (NB-10)", {1, 20}),
    Member::config<&Config::starting_buns>("starting_buns", "non-matching buns each player starts with (NB-1)",
        {0, kColours}),
    Member::config<&Config::set_size>("set_size", "buns of one colour in a set", {2, 9}),
    Member::config<&Config::greedy_size>("greedy_size", "buns of one colour that are greedy (NB-8): set_size + 1",
        {3, 10}),
    Member::config<&Config::sets_to_win>("sets_to_win", "plated sets that win", {1, kColours}),
    {"small_die", "per face: action (0 draw, 1 put back, 2 take, 3 give, 4 steal, 5 swap), draw count, "
     "take-colour bitmask", kMaxFaces, 3, 1, {0, 15}, set_face<0>, kCounted},
    {"medium_die", "as small_die", kMaxFaces, 3, 1, {0, 15}, set_face<1>, kCounted},
    {"large_die", "as small_die", kMaxFaces, 3, 1, {0, 15}, set_face<2>, kCounted},
    Member::chance_mode(),  // last: engine.hpp, "Chance"
};

constexpr const char* kDieField[kDice] = {"small_die", "medium_die", "large_die"};

// -- per-config bounds -------------------------------------------------------------------------
int most_of_a_kind(const Config& c) {  // the most buns of one kind in the game
  int most = c.fish_heads;
  for (int k = 0; k < kColours; ++k) most = std::max<int>(most, c.colour_counts[k]);
  return most;
}
int most_faces(const Config& c) { return std::max({c.num_faces[0], c.num_faces[1], c.num_faces[2]}); }
int most_drawn(const Config& c) {  // the largest count of a draw face, 0 without one
  int most = 0;
  for (int d = 0; d < kDice; ++d)
    for (int f = 0; f < c.num_faces[d]; ++f)
      if (c.faces[d][f].action == kDraw) most = std::max<int>(most, c.faces[d][f].count);
  return most;
}
Bounds seat_or_none(const Config& c) { return Bounds{-1, c.players - 1}; }

// -- state: named as in the readable dict (state_dict.py) ----------------------------------------
constexpr SF kFields[] = {
    Member::state<&State::phase>("phase",
        "0 split, 1 choose, 2 act, 3 fish, 4 plate, 5 over; explicit chance mode only, a chance node before: "
        "6 the start player, 7 a bun for the tray, 8 a starting bun, 9 the roll of the die at 'die', "
        "10 a bun for the draw die",
        [](const Config& c) { return Bounds{kSplitPhase, c.explicit_chance ? kLastPhase : kOver}; }),
    Member::state<&State::current>(
        "current_player",
        "the seat to decide, -2 at a chance node, -1 once the game is over; it follows from the position, and "
        "on the way in kDeriveCurrent (-3) asks for it to be derived (the dict may leave it out)",
        [](const Config& c) { return Bounds{kDeriveCurrent, c.players - 1}; }),
    Member::state<&State::turn>("turn", "the turn number, 1 = the first turn",
        [](const Config& c) { return Bounds{1, c.max_turns}; }),
    Member::state<&State::roller>("roller",
        "the seat that rolled this turn (the chooser is the next seat); -1 before the start player is drawn "
        "(explicit chance mode)",
        [](const Config& c) { return Bounds{c.explicit_chance && c.start_player < 0 ? -1 : 0, c.players - 1}; }),
    {"dice", "the face index rolled on the small, medium and large die", [](const Config&) { return vector(kDice); },
     [](const Config& c) { return Bounds{0, most_faces(c) - 1}; },
     [](const Config&, const State& s, int d) -> int64_t { return s.dice[d]; },
     [](const Config&, State& s, int d, int64_t v) { s.dice[d] = narrow<uint8_t>(v); }},
    Member::state<&State::split>("split", "how the roller split the dice, an index into kSplits; -1 before the split",
        [](const Config&) { return Bounds{-1, 3}; }),
    Member::state<&State::chooser_takes>("chooser_takes",
        "the dice the chooser took (bit d: die d); -1 before the choice",
        [](const Config&) { return Bounds{-1, 7}; }),
    Member::state<&State::die>("die",
        "the next die to act: 0 small, 1 medium, 2 large, 3 done (in the roll phase: the next die to roll)",
        [](const Config&) { return Bounds{0, kDone}; }),
    Member::state<&State::draws_left>("draws_left", "buns the draw die at `die` still takes",
        [](const Config& c) { return Bounds{0, most_drawn(c)}; }),
    {"cascade", "the seats whose cascade (NB-9) is pending, the deciding one first; -1 unused",
     [](const Config&) { return vector(2); }, seat_or_none,
     [](const Config&, const State& s, int i) -> int64_t { return s.cascade[i]; },
     [](const Config&, State& s, int i, int64_t v) { s.cascade[i] = narrow<int8_t>(v); }},
    {"bag", "buns in the bag per kind (blue, green, red, yellow, fish head)", [](const Config&) { return vector(kKinds); },
     [](const Config& c) { return Bounds{0, most_of_a_kind(c)}; },
     [](const Config&, const State& s, int k) -> int64_t { return s.bag.get(k); },
     [](const Config&, State& s, int k, int64_t v) { s.bag.add(k, narrow<int>(v)); }},
    {"tray", "buns on the serving tray per colour", [](const Config&) { return vector(kColours); },
     [](const Config& c) { return Bounds{0, c.tray_size}; },
     [](const Config&, const State& s, int k) -> int64_t { return s.tray.get(k); },
     [](const Config&, State& s, int k, int64_t v) { s.tray.add(k, narrow<int>(v)); }},
    {"front", "per seat, its unplated buns per kind", [](const Config& c) { return matrix(c.players, kKinds); },
     [](const Config& c) { return Bounds{0, most_of_a_kind(c)}; },
     [](const Config&, const State& s, int i) -> int64_t { return s.front[i / kKinds].get(i % kKinds); },
     [](const Config&, State& s, int i, int64_t v) { s.front[i / kKinds].add(i % kKinds, narrow<int>(v)); }},
    Member::per_player<&State::fish_on>("fish_on", "per seat, the colour its fish heads are attached to, -1 none",
        [](const Config&) { return Bounds{-1, kColours - 1}; }),
    Member::per_player<&State::plates>("plate", "per seat, the plated colours as a bitmask (bit k: colour k)",
        [](const Config&) { return Bounds{0, (1 << kColours) - 1}; }),
    Member::state<&State::winner>("winner", "the seat that won, -1 none", seat_or_none),
    Member::rng(),
};

// -- observation: everything is public (NB-12); seats are absolute, like the action targets ------
int players(const Config& c) { return c.players; }
Bounds one_hot(const Config&) { return Bounds{0, 1}; }
Bounds buns(const Config& c) { return Bounds{0, most_of_a_kind(c)}; }
constexpr int kFaceFeatures = 6 + 1 + kColours;  // action one-hot, draw count, take colours

constexpr OS kObservation[] = {
    {"observer", "one-hot: the observing seat (every seat below is an absolute seat number)", players, one_hot},
    {"current_player", "one-hot: who decides now (all zero when the game is over or at a chance node)", players,
     one_hot},
    {"phase", "one-hot: split, choose, act, fish, plate, over (all zero at a chance node)",
     [](const Config&) { return kOver + 1; }, one_hot},
    {"turn", "the turn number (1 = the first turn)", [](const Config&) { return 1; },
     [](const Config& c) { return Bounds{1, c.max_turns}; }},
    {"roller", "one-hot: who rolled this turn (the chooser is the next seat); all zero before the start player is "
     "drawn", players, one_hot},
    {"dice",
     "for small, medium, large: the rolled face as action one-hot (draw, put_back, take, give, steal, swap), "
     "draw count, and the take colours (blue, green, red, yellow)",
     [](const Config&) { return kDice * kFaceFeatures; },
     [](const Config& c) { return Bounds{0, std::max(1, most_drawn(c))}; }},
    {"split", "one-hot: how the roller split the dice (all zero before the split)", [](const Config&) { return 4; },
     one_hot},
    {"chooser_dice", "the dice the chooser took (small, medium, large); zero before the choice",
     [](const Config&) { return kDice; }, one_hot},
    {"die", "one-hot: the next die to act (small, medium, large, done); zero before the choice",
     [](const Config&) { return kDone + 1; }, one_hot},
    {"draws_left", "buns the current draw die still takes from the bag", [](const Config&) { return 1; },
     [](const Config& c) { return Bounds{0, most_drawn(c)}; }},
    {"bag", "buns in the bag per kind (public: derivable from everything else)", [](const Config&) { return kKinds; },
     buns},
    {"tray", "buns on the serving tray per colour", [](const Config&) { return kColours; },
     [](const Config& c) { return Bounds{0, c.tray_size}; }},
    {"front", "per seat: unplated buns per kind", [](const Config& c) { return c.players * kKinds; }, buns},
    {"fish_on", "per seat: one-hot colour the fish heads are attached to",
     [](const Config& c) { return c.players * kColours; }, one_hot},
    {"plates", "per seat: 1 for each colour plated", [](const Config& c) { return c.players * kColours; }, one_hot},
    {"cascade", "one-hot seats whose cascade is pending: first (deciding now), second",
     [](const Config& c) { return 2 * c.players; }, one_hot},
    {"winner", "one-hot: the winner (all zero unless won)", players, one_hot},
};

}  // namespace

std::span<const CF> Engine::config_fields() { return kConfig; }
std::span<const SF> Engine::state_fields() { return kFields; }
std::span<const OS> Engine::observation() { return kObservation; }

// What follows from the fields: the action space and the observation size; and the checks that
// involve several fields.
bool Engine::finish_config(Config& c, char* err, int errlen) {
  if (!check_seat_field(kName, "start_player", c.start_player, c.players, err, errlen)) return false;
  if (c.greedy_size != c.set_size + 1)
    return fail(err, errlen, "nice_buns config field 'greedy_size': %d; set_size + 1 (%d) is allowed", c.greedy_size,
                c.set_size + 1);
  int bag_total = 0;
  for (int k = 0; k < kColours; ++k) bag_total += c.colour_counts[k];
  if (bag_total < c.tray_size + c.players * c.starting_buns)
    return fail(err, errlen, "nice_buns config field 'colour_counts': %d coloured buns; at least the tray and the "
                "starting buns (%d) are allowed", bag_total, c.tray_size + c.players * c.starting_buns);
  for (int d = 0; d < kDice; ++d)
    for (int f = 0; f < c.num_faces[d]; ++f) {
      const Face& face = c.faces[d][f];
      const bool ok = face.action == kDraw   ? in_range(face.count, 1, kMaxDraw) && face.colours == 0
                      : face.action == kTake ? face.count == 0 && in_range(face.colours, 1, 15)
                                             : in_range(face.action, kPutBack, kSwap) && face.count == 0 &&
                                                   face.colours == 0;
      if (!ok)
        return fail(err, errlen, "nice_buns config field '%s'[%d]: action %d count %d colours %d; a draw face draws "
                    "1-%d buns, a take face has a non-empty colour mask, the others have neither", kDieField[d], f,
                    face.action, face.count, face.colours, kMaxDraw);
    }
  const int P = c.players;
  c.give = Config::kGiveFirst;
  c.steal = static_cast<int16_t>(c.give + kKinds * P);
  c.swap = static_cast<int16_t>(c.steal + kKinds * P);
  c.fish_to = static_cast<int16_t>(c.swap + kKinds * kKinds * P);
  c.plate = static_cast<int16_t>(c.fish_to + kColours);
  c.keep = static_cast<int16_t>(c.plate + kColours);
  c.pass = static_cast<int16_t>(c.keep + 1);
  c.num_actions = static_cast<int16_t>(c.pass + 1);
  c.observation_size = static_cast<int16_t>(observation_size<Config>(kObservation, c));
  return true;
}

ConfigInfo Engine::config_info(const Config& c) {
  return ConfigInfo{c.num_actions, c.players, c.observation_size, state_field_count<Config, State>(kFields, c),
                    c.max_game_length, num_chance_outcomes(c)};
}

// What the State caches and the fields do not carry: the cascade's length, the unused seats'
// "no fish" marker, and the player to decide when the fields leave it to be derived.
void Engine::finish_import(const Config& c, State& s) {
  s.cascade_len = static_cast<uint8_t>(s.cascade[0] < 0 ? 0 : s.cascade[1] < 0 ? 1 : 2);
  for (int p = c.players; p < kMaxPlayers; ++p) s.fish_on[p] = -1;
  if (s.current == kDeriveCurrent) s.current = static_cast<int8_t>(derive_current(c, s));
}

}  // namespace dimsum::nice_buns
