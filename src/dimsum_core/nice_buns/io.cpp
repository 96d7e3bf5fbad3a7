// Nice Buns' boundary with the outside: the config from flat ints, observations, the flat
// field form behind to_dict/state_from_dict, validation of untrusted states, resampling.
// The layouts here must match python/dimsum/games/nice_buns.py and nice_buns_dict.py.
#include <bit>

#include "../common/errors.hpp"
#include "engine.hpp"
#include "hashing.hpp"

namespace dimsum::nice_buns {
namespace {


constexpr int kHeaderFields = 28;  // see nice_buns_dict.py: the flat int form
constexpr int kSeatFields = kKinds + 2;

}  // namespace

bool Engine::config_from_ints(const int64_t* v, int n, Config& c, char* err, int errlen) {
  c = Config{};
  if (n < 19 || v[0] != kConfigFormat) return fail(err, errlen, "nice_buns config: unknown format");
  if (!in_range(v[1], 2, kMaxPlayers) || !in_range(v[2], -1, v[1] - 1) || !in_range(v[3], 0, 1) ||
      !in_range(v[4], 0, 1) || !in_range(v[5], 0, 1) || !in_range(v[6], 0, 1) || !in_range(v[7], 1, 100000) ||
      !in_range(v[8], 1, 1 << 30))
    return fail(err, errlen, "nice_buns config: an option is out of range");
  c.players = static_cast<int8_t>(v[1]);
  c.start_player = static_cast<int8_t>(v[2]);
  c.fish_tiebreak = static_cast<uint8_t>(v[3]);
  c.manual_plating = v[4] != 0;
  c.mandatory_dice = v[5] != 0;
  c.fish_movable = v[6] != 0;
  c.max_turns = static_cast<int32_t>(v[7]);
  c.max_game_length = static_cast<int32_t>(v[8]);
  int bag_total = 0;
  for (int k = 0; k < kColours; ++k) {
    if (!in_range(v[9 + k], 1, 60)) return fail(err, errlen, "nice_buns config: colour %d count out of range", k);
    c.colour_counts[k] = static_cast<uint8_t>(v[9 + k]);
    bag_total += c.colour_counts[k];
  }
  if (!in_range(v[13], 0, 60) || !in_range(v[14], 1, 20) || !in_range(v[15], 0, kColours) || !in_range(v[16], 2, 9) ||
      v[17] != v[16] + 1 || !in_range(v[18], 1, kColours))
    return fail(err, errlen, "nice_buns config: a component count is out of range");
  c.fish_heads = static_cast<uint8_t>(v[13]);
  c.tray_size = static_cast<uint8_t>(v[14]);
  c.starting_buns = static_cast<uint8_t>(v[15]);
  c.set_size = static_cast<uint8_t>(v[16]);
  c.greedy_size = static_cast<uint8_t>(v[17]);
  c.sets_to_win = static_cast<uint8_t>(v[18]);
  if (bag_total < c.tray_size + c.players * c.starting_buns)
    return fail(err, errlen, "nice_buns config: too few coloured buns for the tray and the starting buns");
  int i = 19;
  for (int d = 0; d < kDice; ++d) {
    if (i >= n || !in_range(v[i], 1, kMaxFaces)) return fail(err, errlen, "nice_buns config: die %d has a bad face count", d);
    c.num_faces[d] = static_cast<uint8_t>(v[i++]);
    for (int f = 0; f < c.num_faces[d]; ++f, i += 3) {
      if (i + 3 > n) return fail(err, errlen, "nice_buns config: the dice list is cut short");
      const int64_t action = v[i], count = v[i + 1], colours = v[i + 2];
      const bool ok = action == kDraw ? in_range(count, 1, kMaxDraw) && colours == 0
                      : action == kTake ? count == 0 && in_range(colours, 1, 15)
                                        : in_range(action, kPutBack, kSwap) && count == 0 && colours == 0;
      if (!ok) return fail(err, errlen, "nice_buns config: die %d face %d is invalid", d, f);
      c.faces[d][f] = Face{static_cast<uint8_t>(action), static_cast<uint8_t>(count), static_cast<uint8_t>(colours)};
    }
  }
  if (i != n) return fail(err, errlen, "nice_buns config: %d ints, expected %d", n, i);
  const int P = c.players;
  c.give = Config::kGiveFirst;
  c.steal = static_cast<int16_t>(c.give + kKinds * P);
  c.swap = static_cast<int16_t>(c.steal + kKinds * P);
  c.fish_to = static_cast<int16_t>(c.swap + kKinds * kKinds * P);
  c.plate = static_cast<int16_t>(c.fish_to + kColours);
  c.keep = static_cast<int16_t>(c.plate + kColours);
  c.pass = static_cast<int16_t>(c.keep + 1);
  c.num_actions = static_cast<int16_t>(c.pass + 1);
  c.observation_size = static_cast<int16_t>(61 + 19 * P);
  return true;
}

ConfigInfo Engine::config_info(const Config& c) {
  return ConfigInfo{c.num_actions, c.players, c.observation_size, kHeaderFields + kSeatFields * c.players,
                    c.max_game_length};
}

// The layout of dimsum.games.nice_buns._observation_layout: everything is public (NB-12) and
// seats are absolute, like the action targets.
void Engine::observe(const Config& c, const State& s, int player, float* out) {
  const int P = c.players;
  auto one_hot = [&](int i, int size) {
    for (int j = 0; j < size; ++j) *out++ = j == i ? 1.0f : 0.0f;
  };
  one_hot(player, P);
  one_hot(s.current, P);
  one_hot(s.phase, 6);
  *out++ = static_cast<float>(s.turn);
  one_hot(s.roller, P);
  for (int d = 0; d < kDice; ++d) {
    const Face& f = face_of(c, s, d);
    one_hot(f.action, 6);
    *out++ = f.count;
    for (int k = 0; k < kColours; ++k) *out++ = static_cast<float>(f.colours >> k & 1);
  }
  one_hot(s.split, 4);
  const bool chosen = s.chooser_mask >= 0;
  for (int d = 0; d < kDice; ++d) *out++ = chosen ? static_cast<float>(s.chooser_mask >> d & 1) : 0.0f;
  one_hot(chosen ? s.die : -1, 4);
  *out++ = s.draws_left;
  for (int k = 0; k < kKinds; ++k) *out++ = static_cast<float>(s.bag.get(k));
  for (int k = 0; k < kColours; ++k) *out++ = static_cast<float>(s.tray.get(k));
  for (int p = 0; p < P; ++p)
    for (int k = 0; k < kKinds; ++k) *out++ = static_cast<float>(s.front[p].get(k));
  for (int p = 0; p < P; ++p) one_hot(s.fish_on[p], kColours);
  for (int p = 0; p < P; ++p)
    for (int k = 0; k < kColours; ++k) *out++ = static_cast<float>(s.plates[p] >> k & 1);
  for (int i = 0; i < 2; ++i) one_hot(i < s.cascade_len ? s.cascade[i] : -1, P);
  one_hot(s.winner, P);
}

// ---------------------------------------------------------------------------------------------
// The flat field form (nice_buns_dict.py): 28 header ints, then 7 a seat.

int Engine::export_fields(const Config& c, const State& s, int64_t* out) {
  int64_t* start = out;
  for (int64_t x : {int64_t{s.phase}, int64_t{s.current}, int64_t{s.turn}, int64_t{s.roller}, int64_t{s.dice[0]},
                    int64_t{s.dice[1]}, int64_t{s.dice[2]}, int64_t{s.split}, int64_t{s.chooser_mask}, int64_t{s.die},
                    int64_t{s.draws_left}, int64_t{s.winner}, int64_t{s.cascade_len}, int64_t{s.cascade[0]},
                    int64_t{s.cascade[1]}})
    *out++ = x;
  for (uint64_t w : s.rng.s) *out++ = static_cast<int64_t>(w);
  for (int k = 0; k < kKinds; ++k) *out++ = s.bag.get(k);
  for (int k = 0; k < kColours; ++k) *out++ = s.tray.get(k);
  for (int p = 0; p < c.players; ++p) {
    for (int k = 0; k < kKinds; ++k) *out++ = s.front[p].get(k);
    *out++ = s.fish_on[p];
    *out++ = s.plates[p];
  }
  return static_cast<int>(out - start);
}

bool Engine::import_fields(const Config& c, const int64_t* v, int n, State& s, char* err, int errlen) {
  const int P = c.players;
  const int expected = config_info(c).num_fields;
  if (n != expected) return fail(err, errlen, "nice_buns state: expected %d fields, got %d", expected, n);
  s = State{};
  // ranges first, so that every value fits its field; validate() checks the meaning
  const int64_t lo[15] = {0, -1, 1, 0, 0, 0, 0, -1, -1, 0, 0, -1, 0, -1, -1};
  const int64_t hi[15] = {kOver, P - 1, c.max_turns, P - 1, c.num_faces[0] - 1, c.num_faces[1] - 1,
                          c.num_faces[2] - 1, 3, 7, kDone, kMaxDraw, P - 1, 2, P - 1, P - 1};
  static const char* const names[15] = {"phase", "current player", "turn", "roller", "small die", "medium die",
                                        "large die", "split", "chooser group", "die", "draws_left", "winner",
                                        "cascade length", "cascade[0]", "cascade[1]"};
  for (int i = 0; i < 15; ++i)
    if (!in_range(v[i], lo[i], hi[i])) return fail(err, errlen, "nice_buns state: %s is out of range", names[i]);
  for (int i = 19; i < n; ++i) {
    const bool seat_field = i >= kHeaderFields && (i - kHeaderFields) % kSeatFields >= kKinds;
    const int which = seat_field ? (i - kHeaderFields) % kSeatFields - kKinds : -1;
    const bool ok = which == 0 ? in_range(v[i], -1, kColours - 1) : which == 1 ? in_range(v[i], 0, 15) : in_range(v[i], 0, 255);
    if (!ok) return fail(err, errlen, "nice_buns state: field %d is out of range", i);
  }
  s.phase = static_cast<int8_t>(v[0]);
  s.current = static_cast<int8_t>(v[1]);
  s.turn = static_cast<uint32_t>(v[2]);
  s.roller = static_cast<int8_t>(v[3]);
  for (int d = 0; d < kDice; ++d) s.dice[d] = static_cast<uint8_t>(v[4 + d]);
  s.split = static_cast<int8_t>(v[7]);
  s.chooser_mask = static_cast<int8_t>(v[8]);
  s.die = static_cast<int8_t>(v[9]);
  s.draws_left = static_cast<int8_t>(v[10]);
  s.winner = static_cast<int8_t>(v[11]);
  s.cascade_len = static_cast<uint8_t>(v[12]);
  s.cascade[0] = static_cast<int8_t>(v[13]);
  s.cascade[1] = static_cast<int8_t>(v[14]);
  for (int k = 0; k < 4; ++k) s.rng.s[k] = static_cast<uint64_t>(v[15 + k]);
  for (int k = 0; k < kKinds; ++k) s.bag.add(k, static_cast<int>(v[19 + k]));
  for (int k = 0; k < kColours; ++k) s.tray.add(k, static_cast<int>(v[24 + k]));
  for (int p = 0; p < kMaxPlayers; ++p) s.fish_on[p] = -1;
  for (int p = 0; p < P; ++p) {
    const int64_t* seat = v + kHeaderFields + kSeatFields * p;
    for (int k = 0; k < kKinds; ++k) s.front[p].add(k, static_cast<int>(seat[k]));
    s.fish_on[p] = static_cast<int8_t>(seat[kKinds]);
    s.plates[p] = static_cast<uint8_t>(seat[kKinds + 1]);
  }
  if (!validate(c, s, err, errlen)) return false;
  s.hash = compute_hash(c, s);
  return true;
}

namespace {

// Why seat p is not at rest after its cascade (NB-7 to NB-9), or nullptr.
const char* stability_problem(const Config& c, const State& s, int p) {
  const Buns& f = s.front[p];
  const int fish = f.get(kFish), coloured = f.coloured(), on = s.fish_on[p];
  if (fish == 0 || coloured == 0) {
    if (on >= 0) return "fish_on must be null without fish heads or without coloured buns";
  } else if (on < 0 || f.get(on) != f.largest_colour_count()) {
    return "the fish heads must be on a largest set (NB-7)";
  }
  for (int k = 0; k < kColours; ++k)
    if (f.get(k) + (on == k ? fish : 0) >= c.greedy_size) return "a greedy set must have gone back (NB-8)";
  if (coloured == 0 && fish >= c.greedy_size) return "greedy fish heads must have gone back (NB-8)";
  if (f.colours_with(c.set_size) & s.plates[p]) return "a second set of a plated colour must have gone back (no doubles)";
  if (fish == 0 && !c.manual_plating && f.colours_with(c.set_size))
    return "a complete set must have been plated (NB-9, automatic plating)";
  return nullptr;
}

bool in_cascade(const State& s, int p) {
  return (s.cascade_len > 0 && s.cascade[0] == p) || (s.cascade_len > 1 && s.cascade[1] == p);
}

}  // namespace

// Everything a state from outside (bytes, a dict) must satisfy before the rules may touch it;
// the twin of the checks in nice_buns_dict.py, plus the one that needs the rules.
bool Engine::validate(const Config& c, const State& s, char* err, int errlen) {
  const int P = c.players;
  const int ph = s.phase;
  if (!in_range(ph, kSplitPhase, kOver) || !in_range(s.turn, 1, c.max_turns) || !in_range(s.roller, 0, P - 1) ||
      !in_range(s.split, -1, 3) || !in_range(s.chooser_mask, -1, 7) || !in_range(s.die, 0, kDone) ||
      !in_range(s.draws_left, 0, kMaxDraw) || !in_range(s.winner, -1, P - 1) || !in_range(s.cascade_len, 0, 2))
    return fail(err, errlen, "nice_buns state: a turn field is out of range");
  for (int d = 0; d < kDice; ++d)
    if (s.dice[d] >= c.num_faces[d]) return fail(err, errlen, "nice_buns state: the %d die shows no such face", d);
  if ((s.rng.s[0] | s.rng.s[1] | s.rng.s[2] | s.rng.s[3]) == 0) return fail(err, errlen, "nice_buns state: rng: zero");
  if (s.reserved_[0] | s.reserved_[1]) return fail(err, errlen, "nice_buns state: reserved bytes must be zero");
  for (int i = 0; i < 2; ++i)
    if (i < s.cascade_len ? !in_range(s.cascade[i], 0, P - 1) : s.cascade[i] != -1)
      return fail(err, errlen, "nice_buns state: cascade: bad seat");
  if (s.cascade_len == 2 && s.cascade[0] == s.cascade[1]) return fail(err, errlen, "nice_buns state: cascade: a seat appears twice");
  if (s.chooser_mask >= 0 && (s.split < 0 || (s.chooser_mask != kSplits[s.split] && s.chooser_mask != (7 ^ kSplits[s.split]))))
    return fail(err, errlen, "nice_buns state: chooser_takes: not a group of the split");
  if (s.bag.w >> (8 * kKinds) || s.tray.w >> (8 * kColours)) return fail(err, errlen, "nice_buns state: bag/tray: unknown kind");
  for (int p = 0; p < kMaxPlayers; ++p) {
    if (p >= P ? (s.front[p].w || s.fish_on[p] != -1 || s.plates[p]) : (s.front[p].w >> (8 * kKinds) || s.plates[p] > 15 ||
                                                                       !in_range(s.fish_on[p], -1, kColours - 1)))
      return fail(err, errlen, "nice_buns state: seats[%d]: bad values", p);
  }
  // conservation: every bun is in exactly one place
  for (int k = 0; k < kKinds; ++k) {
    int total = s.bag.get(k);
    for (int p = 0; p < P; ++p) total += s.front[p].get(k) + (k < kColours ? c.set_size * (s.plates[p] >> k & 1) : 0);
    if (k < kColours) total += s.tray.get(k);
    if (total != (k < kColours ? c.colour_counts[k] : c.fish_heads))
      return fail(err, errlen, "nice_buns state: bag/tray/seats: kind %d holds %d buns in all", k, total);
  }
  const int on_tray = s.tray.total(kColours);
  if (on_tray > c.tray_size || (on_tray < c.tray_size && s.bag.coloured() > 0))
    return fail(err, errlen, "nice_buns state: tray: must hold %d buns while the bag has colours (NB-10)", c.tray_size);
  // the phase
  int won = -1, winners = 0;
  for (int p = 0; p < P; ++p)
    if (std::popcount(static_cast<unsigned>(s.plates[p])) >= c.sets_to_win) won = p, ++winners;
  if (winners > 1 || won != s.winner) return fail(err, errlen, "nice_buns state: winner: does not fit the plates");
  if (ph == kOver && s.winner < 0 && !(static_cast<int32_t>(s.turn) == c.max_turns && s.die == kDone))
    return fail(err, errlen, "nice_buns state: phase: a game is over when it is won or the last turn is done");
  if (ph != kOver && s.winner >= 0) return fail(err, errlen, "nice_buns state: phase: a won game is over");
  if (ph == kSplitPhase || ph == kChoosePhase) {
    if ((s.split >= 0) != (ph == kChoosePhase) || s.chooser_mask >= 0 || s.die != 0 || s.draws_left)
      return fail(err, errlen, "nice_buns state: split: does not fit the phase");
  } else if (s.chooser_mask < 0) {
    return fail(err, errlen, "nice_buns state: chooser_takes: must be set in this phase");
  }
  const bool deciding = ph == kFishPhase || ph == kPlatePhase;
  if (deciding != (s.cascade_len > 0)) return fail(err, errlen, "nice_buns state: cascade: does not fit the phase");
  const bool at_draw = s.die < kDone && face_of(c, s, s.die).action == kDraw;
  const int count = at_draw ? face_of(c, s, s.die).count : 0;
  if (deciding && at_draw ? !in_range(s.draws_left, 1, count)
      : ph == kOver && at_draw ? s.draws_left > count
                               : s.draws_left != 0)
    return fail(err, errlen, "nice_buns state: draws_left: does not fit the die");
  if (ph == kActPhase && (s.die == kDone || at_draw))
    return fail(err, errlen, "nice_buns state: die: the act phase waits for a die that asks a decision");
  for (int p = 0; p < P; ++p) {
    if (in_cascade(s, p) || (ph == kOver && s.winner >= 0)) continue;
    if (const char* problem = stability_problem(c, s, p)) return fail(err, errlen, "nice_buns state: seats[%d]: %s", p, problem);
  }
  if (ph == kFishPhase) {
    const Buns& f = s.front[s.cascade[0]];
    if (c.fish_tiebreak != 0 || f.get(kFish) == 0 || f.coloured() == 0 || s.fish_on[s.cascade[0]] >= 0 ||
        std::popcount(f.colours_with(f.largest_colour_count())) < 2)
      return fail(err, errlen, "nice_buns state: phase: no fish choice is due here");
  }
  if (ph == kPlatePhase) {
    const int p = s.cascade[0];
    if (!c.manual_plating || stability_problem(c, s, p) || s.front[p].get(kFish) ||
        !(s.front[p].colours_with(c.set_size) & ~static_cast<unsigned>(s.plates[p])))
      return fail(err, errlen, "nice_buns state: phase: no plate choice is due here");
  }
  if (ph == kActPhase) {
    int16_t options[kMaxActions];
    if (die_options(c, s, options) < 2)
      return fail(err, errlen, "nice_buns state: phase: a die with fewer than two legal actions is resolved "
                               "automatically; build the position one step earlier");
  }
  if (s.current != derive_current(c, s)) return fail(err, errlen, "nice_buns state: current_player: does not fit the position");
  return true;
}

// NB-12: only the bag's order is hidden, and the bag is a multiset: the RNG is reseeded.
void Engine::resample(const Config&, const State& s, int, uint64_t seed, State& out) {
  out = s;
  out.rng = Rng::from_seed(seed);
}

}  // namespace dimsum::nice_buns
