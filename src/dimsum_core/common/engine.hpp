// The engine contract: what a game's traits struct must provide, and what it may leave to the
// defaults. Every game (yum_cha/engine.hpp, nice_buns/engine.hpp, dim_sum_jam/engine.hpp) is a
// struct `Engine` with static members over its own Config and State; make_api<G>()
// (game_api.hpp) turns it into a type-erased table for the Python bindings, and the batch
// engine and the playout driver call it directly so that the rules inline into their loops.
//
// Read this the way OpenSpiel's spiel.h is read: each requirement below says what a game must
// guarantee, not only what it must declare.
#pragma once

#include <concepts>
#include <cstdint>
#include <span>
#include <type_traits>

#include "action_list.hpp"
#include "errors.hpp"
#include "rng.hpp"
#include "schema.hpp"

namespace dimsum {

// The sizes the bindings and the batch engine need for one config.
struct ConfigInfo {
  int num_actions;          // actions are the ints [0, num_actions), the same set in every state
  int players;
  int observation_size;     // the sum of the observation slices' sizes
  int num_fields;           // values in the flat state field form
  int max_game_length;      // a hard bound on the actions of one game (chance outcomes included)
  // Chance outcomes share the id range of actions (legal_actions lists them at a chance node):
  // they are the ints [0, num_chance_outcomes), with num_chance_outcomes <= num_actions.
  // build_config checks it; a game whose outcomes outnumber its actions pads num_actions.
  int num_chance_outcomes;
};

// The most seats any game may have. The bindings and the bots keep one value per player (a
// state's returns, IS-MCTS's rollout results) in fixed buffers on the stack, so that reading
// the returns never allocates; this bounds them at compile time. Each game declares its own
// G::kMaxPlayers (at most this: make_api checks it), and a game with more seats raises this one
// (the buffers grow by 8 bytes a seat; nothing else depends on it).
inline constexpr int kMaxPlayers = 16;

// current_player at a chance node (explicit chance mode, below); -1 is the end of the game.
inline constexpr int kChancePlayer = -2;
inline constexpr int kTerminalPlayer = -1;

// What a game is. For a game G with `using Config = ...; using State = ...;`:
//
// Identity.
//   G::kName: the registry name ("yum_cha"), the same as the Python package dimsum.games.<kName>.
//   G::kGameId: a small number unique among the games, written into to_bytes' header.
//   G::kStateVersion: bumped whenever State's layout or the meaning of a field changes, so that
//     old bytes are refused with a message naming the version instead of read wrongly.
//   G::kMaxActions: the most legal actions any state of any config can have (the capacity of
//     LegalActions<G>).
//   G::kMaxPlayers: the most players any config can have (its "players" option's maximum), in
//     [1, dimsum::kMaxPlayers]; build_config refuses a config with more.
//
// Data. Config and State are trivially copyable, with no padding and no pointers: a state is
//   copied as bytes (clone, to_bytes, the batch engine's arrays), so equal positions must have
//   equal bytes. State has a `hash` member (uint64_t) that apply keeps equal to compute_hash.
//
// The declared boundary (schema.hpp), each a table the generic code walks:
//   G::config_fields(): the Config's fields, in the order Python hands them over by name;
//     G::finish_config(c, err, errlen) then derives what follows from them (action offsets,
//     sizes) and checks what involves several fields, returning false with a message if the
//     combination is invalid.
//   G::state_fields(): the State's readable fields. Exported, they determine the position and the
//     RNG completely: importing an export gives back the same bytes. G::finish_import(c, s)
//     recomputes what the State caches and the fields do not carry (sizes, masks).
//   G::observation(): the observation's slices; observe writes exactly these, in order.
//
// The rules.
//   G::config_info(c): sizes of a config (ConfigInfo above).
//   G::new_state(c, s, seed): the opening position; every random choice comes from an Rng
//     seeded with `seed` and kept in the state, so the same seed deals the same game.
//   G::current_player(s): the seat to act, kChancePlayer at a chance node, or -1 once the game is
//     over. Inline: the loops call it every step.
//   G::legal_actions(c, s, out): writes the legal actions in ascending order and returns their
//     number; at least one unless the game is over, none when it is.
//   G::apply(c, s, a): plays an action that is legal (callers check first; apply does not), and
//     keeps s.hash equal to compute_hash(c, s). Inline, for the same reason as current_player.
//   G::returns(c, s, out): one value per player; the final results once the game is over.
//   G::observe(c, s, player, out): writes exactly observation_size floats, only what `player`
//     may see, each within its slice's bounds.
//   G::compute_hash(c, s): the Zobrist key of the position from scratch (the RNG is not part of
//     it); used to check imported states and apply's incremental key.
//   G::chance_outcomes(c, s, outcomes, weights): at a chance node, every possible outcome (ids in
//     [0, num_chance_outcomes), ascending) with its weight, a positive integer: the probability
//     of an outcome is its weight over the sum of the weights (remaining counts, die faces), so
//     exact probabilities cross to Python without rounding. Returns their number; 0 elsewhere.
//   G::validate(c, s, err, errlen): true if s is a position the rules can reach or could have
//     reached (every invariant the rules rely on holds); otherwise false with a message of the
//     form "<game> state field '<name>': <what is wrong>; <what is allowed>". Every state that
//     comes from outside (bytes, a dict) passes through it before any rule touches it.
//
// Chance. Every random event (a deal, a draw from a deck or a bag, a die, a shuffle, the start
//   player) is a chance event. Each Config has a bool member `explicit_chance`, declared as the
//   config field "explicit_chance" (after the rule fields, so that sampled configs keep their
//   fingerprints). Sampled (false): apply draws every event from s.rng where it happens, and a
//   state is never a chance node. Explicit (true): the game stops before each event instead:
//   current_player is kChancePlayer, legal_actions lists the outcomes chance_outcomes lists (in
//   the same order), and apply(c, s, outcome) plays one and goes on to the next decision or the
//   next event. Chance outcomes share the id range of actions: [0, num_chance_outcomes) with
//   num_chance_outcomes <= num_actions (build_config refuses a config where it fails); a game
//   whose outcomes outnumber its actions pads num_actions. One event is one outcome: a deal of
//   ten cards is ten chance nodes, a shuffle is a draw per position, so no node has a
//   combinatorial number of outcomes. A chance node takes no time on a clock. Played with
//   outcomes drawn by their weights, explicit mode has the same distribution of games as sampled
//   mode (tests/test_chance.py checks it). More: outcomes are listed in the order and with the
//   integer weights of the sampled draw (common/chance.hpp), so that an outcome drawn by weight
//   from s.rng (bots/chance.hpp, resolve_chance_as_sampled) IS the sampled draw; the bots play
//   alike in both modes by it (tests/test_bots_chance_modes.py).
//   Search-safe copies: s.rng is the game's future. A copy keeps it (so a search on copies knows
//   the coming draws); reseed(s, seed) replaces it, and resample does too.
//
// What has a default (a game declares its own only when the default is wrong for it):
//   G::is_legal(c, s, a): by default, generates the legal list and searches it.
//   G::resample(c, s, player, seed, out): a state consistent with all `player` has seen, the
//     hidden parts drawn from `seed`. By default a copy reseeded with `seed`: right for a game of
//     perfect information, where only the future dice and draws are hidden.
//   G::finish_import(c, s): by default nothing.
//   G::apply_unkeyed(c, s, a): see "Key upkeep" below; by default apply.
//   G::heuristic_action(c, s, rng): the game's heuristic player (bots/heuristic.hpp), the
//     "heuristic" bot, the "heuristic" opponent of a learner-seat BatchEnv and IS-MCTS's
//     heuristic rollouts. s is a decision node (current_player >= 0); the result is one of the
//     legal actions of s. It reads only what the player to act may see: its own hand, the public
//     part of the position and the rules; where it looks ahead by applying an action, it does so
//     on a copy whose future randomness was replaced from `rng` (never the state's own generator,
//     which is the real future). `rng` also breaks ties, so a seed fixes every choice. By default
//     a uniformly random legal action drawn from `rng`: a game without a heuristic gets the
//     random policy for the "heuristic" bot and for IS-MCTS's heuristic rollouts.
//   G::random_action(c, s, rng): a uniformly random legal action of the decision node s, drawn
//     as LegalActions<G>(c, s).pick(rng) draws it: exactly one rng.bounded(n), n the number of
//     legal actions, and the result the entry of that index in the ascending legal list, so a
//     game that declares it plays bit for bit the same random games. It exists to skip writing
//     the list: IS-MCTS's random rollouts (bots/rollout.hpp) draw one action a step. By default
//     the list is generated and picked from (tests/test_random_action.py checks every game
//     against that).
//   G::random_decisions(c, s, max_decisions, rng): the games of random_decisions_loop<G> below,
//     bit for bit (the same state after it, the same calls on both generators in the same order,
//     the same count), compiled in the game's own translation unit, where apply_unkeyed and
//     random_action are defined and may inline into the loop: from outside (the rollout is
//     instantiated in the bindings) each step is two calls. Most games declare it as that one
//     line (Pig marked DIMSUM_FLATTEN, where that measured faster in CPU time, not only in
//     instructions); Nice Buns plays the decisions its automatic steps reach inside them
//     (nice_buns/rules.cpp, Autoplay). By default the loop.
//
// Key upkeep. apply keeps s.hash exact, so that the per-move API's `hash` is O(1) after every
// move. Loops that never read the key (the playout driver, BatchEnv) need not pay for it: a
// game may declare G::apply_unkeyed(c, s, a), the same move leaving s.hash stale (in Yum Cha the
// key's upkeep was 162 of the 532 instructions of a random step). Such loops call the free
// function apply_unkeyed<G>, and key a state before it leaves them (to_bytes, clone_state,
// anything Python sees) with rekey<G>: one compute_hash. Nothing else may read a stale key.
template <class G>
concept Engine =
    std::is_trivially_copyable_v<typename G::Config> && std::is_trivially_copyable_v<typename G::State> &&
    std::has_unique_object_representations_v<typename G::State> &&
    requires(typename G::Config& mc, const typename G::Config& c, typename G::State& s, const typename G::State& cs,
             int16_t* actions, uint32_t* weights, double* returns, float* obs, char* err) {
      { G::kName } -> std::convertible_to<const char*>;
      { G::kGameId } -> std::convertible_to<uint16_t>;
      { G::kStateVersion } -> std::convertible_to<uint16_t>;
      { G::kMaxActions } -> std::convertible_to<int>;
      { G::kMaxPlayers } -> std::convertible_to<int>;
      { G::config_fields() } -> std::same_as<std::span<const ConfigField<typename G::Config>>>;
      { G::finish_config(mc, err, 0) } -> std::same_as<bool>;
      { G::state_fields() } -> std::same_as<std::span<const StateField<typename G::Config, typename G::State>>>;
      { G::observation() } -> std::same_as<std::span<const ObservationSlice<typename G::Config>>>;
      { G::config_info(c) } -> std::same_as<ConfigInfo>;
      G::new_state(c, s, uint64_t{0});
      { G::current_player(cs) } -> std::same_as<int>;
      { G::legal_actions(c, cs, actions) } -> std::same_as<int>;
      G::apply(c, s, 0);
      G::returns(c, cs, returns);
      G::observe(c, cs, 0, obs);
      { G::chance_outcomes(c, cs, actions, weights) } -> std::same_as<int>;
      { c.explicit_chance } -> std::convertible_to<bool>;
      { s.rng } -> std::convertible_to<Rng&>;
      { G::compute_hash(c, cs) } -> std::same_as<uint64_t>;
      { G::validate(c, cs, err, 0) } -> std::same_as<bool>;
      { cs.hash } -> std::convertible_to<uint64_t>;
    };

// The defaults, as free functions the bindings and drivers call: each uses the game's own
// member when it declares one.
template <class G>
bool is_legal(const typename G::Config& c, const typename G::State& s, int action) {
  if constexpr (requires { G::is_legal(c, s, action); }) {
    return G::is_legal(c, s, action);
  } else {
    int16_t actions[G::kMaxActions];
    const int n = G::legal_actions(c, s, actions);
    for (int i = 0; i < n; ++i)
      if (actions[i] == action) return true;
    return false;
  }
}

template <class G>
void resample(const typename G::Config& c, const typename G::State& s, int player, uint64_t seed,
              typename G::State& out) {
  if constexpr (requires { G::resample(c, s, player, seed, out); }) {
    G::resample(c, s, player, seed, out);
  } else {
    out = s;
    out.rng = Rng::from_seed(seed);
  }
}

// A uniformly random legal action of the decision node s (the G::random_action contract above).
template <class G>
int random_action(const typename G::Config& c, const typename G::State& s, Rng& rng) {
  if constexpr (requires { G::random_action(c, s, rng); }) {
    return G::random_action(c, s, rng);
  } else {
    return LegalActions<G>(c, s).pick(rng);
  }
}

// Plays a legal action, keeping the key only if the game has no apply_unkeyed ("Key upkeep").
template <class G>
void apply_unkeyed(const typename G::Config& c, typename G::State& s, int action) {
  if constexpr (requires { G::apply_unkeyed(c, s, action); }) {
    G::apply_unkeyed(c, s, action);
  } else {
    G::apply(c, s, action);
  }
}

// Inlines every call in the body of the function it marks, recursively (GCC and Clang; elsewhere
// nothing). Pig's G::random_decisions is so marked: its rules in one function, its searches took
// 11% less CPU. Nice Buns' is not: flattened, its rollouts ran 8% fewer instructions (callgrind)
// and took 2-4% more CPU than the loop with the calls (its rules are too big for one function).
#if defined(__GNUC__) || defined(__clang__)
#define DIMSUM_FLATTEN __attribute__((flatten))
#else
#define DIMSUM_FLATTEN
#endif

// Inlines the function it marks wherever it is called, which the compiler's own limits may not
// (GCC and Clang; MSVC's __forceinline). Nice Buns' steps inside settle's loop are so marked (the
// cascade, the draw, act, the tray's top-up, the next turn): called, they cost about 9% more
// instructions a rollout (their entries and exits).
#if defined(__GNUC__) || defined(__clang__)
#define DIMSUM_FORCE_INLINE inline __attribute__((always_inline))
#elif defined(_MSC_VER)
#define DIMSUM_FORCE_INLINE __forceinline
#else
#define DIMSUM_FORCE_INLINE inline
#endif

// Plays uniformly random decisions (random_action, applied unkeyed: s.hash is stale after) until
// the game is over, s is a chance node (explicit chance mode: the caller resolves it) or
// max_decisions were played; returns how many were.
template <class G>
int64_t random_decisions_loop(const typename G::Config& c, typename G::State& s, int64_t max_decisions, Rng& rng) {
  int64_t played = 0;
  for (; played < max_decisions && G::current_player(s) >= 0; ++played)
    apply_unkeyed<G>(c, s, random_action<G>(c, s, rng));
  return played;
}

// The same, through the game's G::random_decisions where it declares one (the loop compiled in its
// own translation unit, the contract above).
template <class G>
int64_t random_decisions(const typename G::Config& c, typename G::State& s, int64_t max_decisions, Rng& rng) {
  if constexpr (requires { G::random_decisions(c, s, max_decisions, rng); }) {
    return G::random_decisions(c, s, max_decisions, rng);
  } else {
    return random_decisions_loop<G>(c, s, max_decisions, rng);
  }
}

// Makes s.hash exact again after apply_unkeyed: the key from scratch, once.
template <class G>
void rekey(const typename G::Config& c, typename G::State& s) {
  s.hash = G::compute_hash(c, s);
}

// The player cap of every game, checked where its API is made (game_api.hpp, make_api).
template <class G>
inline constexpr bool kWithinPlayerCap = G::kMaxPlayers >= 1 && G::kMaxPlayers <= kMaxPlayers;

// A Config from the packed values of its declared fields (schema.hpp, config_from_values), then
// finished by the game and checked against the contract's limits (the game's kMaxPlayers, chance
// outcome ids inside the action range); false with a message if anything is wrong.
template <class G>
bool build_config(const int64_t* values, int n, typename G::Config& c, char* err, int errlen) {
  if (!config_from_values<typename G::Config>(G::kName, G::config_fields(), values, n, c, err, errlen) ||
      !G::finish_config(c, err, errlen))
    return false;
  const ConfigInfo info = G::config_info(c);
  if (info.players < 1 || info.players > G::kMaxPlayers)
    return fail(err, errlen, "%s config: %d players; this game declares 1 to %d (its Engine::kMaxPlayers)", G::kName,
                info.players, G::kMaxPlayers);
  if (info.num_chance_outcomes < 0 || info.num_chance_outcomes > info.num_actions)
    return fail(err, errlen,
                "%s config: %d chance outcomes but %d actions; chance outcomes share the id range of actions, so "
                "num_chance_outcomes must be in [0, num_actions] (a game whose outcomes outnumber its actions "
                "pads num_actions)",
                G::kName, info.num_chance_outcomes, info.num_actions);
  return true;
}

template <class G>
void finish_import(const typename G::Config& c, typename G::State& s) {
  if constexpr (requires { G::finish_import(c, s); }) G::finish_import(c, s);
}

// A timed game (a clock in its state, ARCHITECTURE section 4) also declares these:
//   G::check_ticks(c, ticks, err, errlen): may `ticks` (>= 0) be charged in this config.
//   G::apply_timed(c, s, a, ticks): a legal action taking `ticks` (< 0: the action's default
//     cost); returns the ticks charged.
//   G::advance(c, s, ticks): `ticks` pass with no action (the game must not be over).
// and declares its clock (a TickClock) as the scalar state fields clock_top, clock_capacity and
// clock_lying: the binding's state.clock reads them (Game construction checks they exist).
template <class G>
concept TimedGame = requires(const typename G::Config& c, typename G::State& s, char* err) {
  { G::apply_timed(c, s, 0, int64_t{0}) } -> std::same_as<int64_t>;
  G::advance(c, s, int64_t{0});
  { G::check_ticks(c, int64_t{0}, err, 0) } -> std::same_as<bool>;
};

}  // namespace dimsum
