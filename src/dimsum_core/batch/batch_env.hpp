// The batched environment: num_envs games of one configuration stepped together, with
// observations, masks and rewards written into caller-owned arrays, on a persistent thread pool.
//
// Contract (docs/API.md, "BatchEnv", is the user-facing version):
// - Env i's k-th game (k = 0 after reset) is dealt from derive_seed(derive_seed(seed, i), k).
//   Every env only ever touches its own state and its own rows of the outputs, so results never
//   depend on the thread count, on the batch size, or on which thread ran which env.
// - step() is all or nothing: every env's action is checked before any env moves, against the
//   legal mask this engine wrote for that env (its own copy: the caller's legal_mask array may
//   have been written to), so legality costs one bit lookup per env, never a move generation.
// - Auto-reset in the same step (Gymnasium's AutoresetMode.SAME_STEP): an env whose game ended
//   (terminated: the rules ended it; truncated: it reached max_steps actions) reports the final
//   returns as its rewards, keeps the final state's returns in final_returns and its final
//   observations in the step's FinalObservations (compact: rows of the ended envs only): the
//   views the Seats hook names (EverySeat: every player's; LearnerSeat: the learner's only,
//   unless every seat's were asked for), and is already dealt its next game, whose first
//   observation, mask and player are what obs / legal_mask / current_player show.
// - The states are stepped with apply_unkeyed (engine.hpp, "Key upkeep"): nothing here reads a
//   key, and get_state keys the copy it hands out.
// - Seats (a hook, default EverySeat): whose actions step() takes. EverySeat: the action of
//   whichever seat is to act. opponent_env.hpp's LearnerSeat: one seat's, the others played in
//   C++ between steps (after each deal and after each action), so that seat is always to act.
// - Ticks (timed games): step() may charge each env's action a given number of ticks instead of
//   its default cost (G::apply_timed); the other seats' moves always cost their default.
// The template is instantiated once per game (the rules inline into the loops); BatchEnvBase
// is the type-erased face the Python binding holds.
#pragma once

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <utility>
#include <vector>

#include "../common/action_list.hpp"
#include "../common/engine.hpp"
#include "../common/game_api.hpp"
#include "../common/observation_row.hpp"
#include "../common/rng.hpp"
#include "../common/thread_pool.hpp"

namespace dimsum {

// Does game G write BatchEnv's rows sparse (G::observe_sparse, common/observation_row.hpp)? A
// game without it has its rows written whole by G::observe every step.
template <class G>
concept SparseObserve = requires(const typename G::Config& c, const typename G::State& s, float* out, uint64_t* marks) {
  G::observe_sparse(c, s, 0, out, marks, marks);
};

// Does game G rewrite BatchEnv's rows where they changed (G::observe_changes: the row holds the
// observation of the state and seat it was last written for; only the entries that differ in
// the new one are stored, common/observation_row.hpp, "Changes")? Such a game's rows are written
// whole only by reset() and set_state.
template <class G>
concept ChangedObserve = requires(const typename G::Config& c, const typename G::State& s, float* out) {
  G::observe_changes(c, s, 0, s, 0, out);
};

// Salt of sample_actions' per-env streams, so they never coincide with the deals' streams.
inline constexpr uint64_t kSampleSalt = 0x53414D504C450001ull;  // "SAMPLE"

// Where a BatchEnv writes; every array is C-contiguous, rows indexed by env. Owned by the
// caller (the binding allocates them once as numpy arrays), set once, overwritten every step.
struct BatchOutputs {
  float* obs = nullptr;                 // [num_envs][observation_size], for the player to act
  double* rewards = nullptr;            // [num_envs][players]
  bool* terminated = nullptr;           // [num_envs]
  bool* truncated = nullptr;            // [num_envs]
  int32_t* current_player = nullptr;    // [num_envs]
  bool* legal_mask = nullptr;           // [num_envs][num_actions]
  double* final_returns = nullptr;      // [num_envs][players], rows of ended envs
};

// The final observations of each env that ended in the last step (none after reset), compact:
// row j ([views][observation_size] floats) is env envs[j]'s, envs ascending. `views` is the
// Seats hook's final_views: every player's view in player order (EverySeat), or the learner
// seat's alone (LearnerSeat's default: a learner must never be shown another seat's view). It
// takes memory for the most envs that ever ended in one step, not for every env (a row per env
// was 21.9 KB an env in Dim Sum Jam, written only when a game ends). The buffer
// is shared, not reused when it grows, so that a numpy view the binding made of the old one
// stays valid; a step writes into it again (docs/API.md: arrays are overwritten by the next call).
struct FinalObservations {
  int count = 0;                                 // envs that ended in the last step
  int views = 0;                                 // observations per ended env (players, or 1)
  const int32_t* envs = nullptr;                 // [count], ascending
  std::shared_ptr<std::vector<float>> buffer;    // at least [count][views][observation_size]
};

class BatchEnvBase {
 public:
  virtual ~BatchEnvBase() = default;

  virtual const ConfigInfo& info() const = 0;
  virtual int num_envs() const = 0;
  virtual int threads() const = 0;
  virtual int max_steps() const = 0;
  virtual uint64_t seed() const = 0;
  virtual size_t state_size() const = 0;

  virtual void set_outputs(const BatchOutputs& out) = 0;
  // Deals game 0 of every env from `seed` and writes the outputs (rewards 0, no env ended).
  virtual void reset(uint64_t seed) = 0;
  // Applies one action per env, auto-resetting ended games, and returns -1; or, if any env's
  // action is out of range or illegal, returns the lowest such env and moves nothing. `ticks`
  // (timed games only; null: each action's default cost) is the time each env's action took,
  // every value already accepted by check_ticks.
  virtual int step(const int64_t* actions, const int64_t* ticks = nullptr) = 0;
  // Is the game timed, and may `ticks` be charged for an action in this configuration
  // (G::check_ticks); false with a message if not.
  virtual bool timed() const = 0;
  virtual bool check_ticks(int64_t ticks, char* err, int errlen) const = 0;
  // Why the env cannot go on (the Seats hook found no game to hand to step()), or null.
  virtual const char* fault() const = 0;
  // The envs that ended in the last step and their final observations (valid until the next call).
  virtual FinalObservations final_observations() const = 0;
  // One uniformly random legal action per env, env i from derive_seed(seed ^ kSampleSalt, i).
  virtual void sample_actions(uint64_t seed, int64_t* out) = 0;

  // Env i's raw State bytes (the per-move API's State holds the very same bytes).
  virtual void get_state(int i, void* out) const = 0;
  // Replaces env i's state (validated; must not be terminal) and rewrites its outputs;
  // `steps` is how many actions its game has had, for truncation at max_steps.
  virtual bool set_state(int i, const void* bytes, int steps, char* err, int errlen) = 0;
};

// The Seats hook of BatchEnv: every seat's actions come through step(), nothing is played
// between steps. A Seats type offers these (LearnerSeat in opponent_env.hpp is the other):
// - after_deal(c, s, steps, max_steps, env, game_seed): play what is not step()'s to play;
//   `steps` counts every action of the game. Return false if the game ended (or reached
//   max_steps) before it was step()'s turn again.
// - after_actions(c, states, steps, max_steps, first, last): the same after step()'s actions, in
//   envs [first, last) at once (states and steps indexed by env), so that a hook may play a
//   block's envs together (a policy network evaluates them as one batch); env i's play must
//   depend on env i alone, never on the block. min_block(): the fewest envs such a block should
//   have (0: no preference).
// - takes(env, player): may a state whose `player` is to act be handed to step() in that env
//   (set_state).
// - fault(): null, or why no game could be handed to step() (the env then holds a game over,
//   whose empty mask refuses every action; the binding raises the message).
// - final_views(players): how many observations of an ended game the step hands out per env,
//   and final_view_seat(env, k): whose the k-th is. Whoever steps the env sees these, so a hook
//   names only seats whose views its caller may see.
struct EverySeat {
  template <class G>
  bool after_deal(const typename G::Config&, typename G::State&, int&, int, size_t, uint64_t) { return true; }
  template <class G>
  void after_actions(const typename G::Config&, typename G::State*, int*, int, size_t, size_t) {}
  int64_t min_block() const { return 0; }
  bool takes(size_t, int) const { return true; }
  const char* fault() const { return nullptr; }
  // the caller plays every seat, so it may see every seat's last view
  int final_views(int players) const { return players; }
  int final_view_seat(size_t, int k) const { return k; }
};

template <class G, class Seats = EverySeat>
class BatchEnv final : public BatchEnvBase {
  using Config = typename G::Config;
  using State = typename G::State;

 public:
  // max_steps: actions after which a game is truncated (<= 0: the game's max_game_length).
  BatchEnv(const Config& c, int num_envs, uint64_t seed, int threads, int max_steps, Seats seats = Seats{})
      : config_(c),
        info_(G::config_info(c)),
        num_envs_(num_envs),
        seed_(seed),
        max_steps_(max_steps > 0 ? max_steps : info_.max_game_length),
        states_(static_cast<size_t>(num_envs)),
        game_index_(static_cast<size_t>(num_envs), 0),
        steps_(static_cast<size_t>(num_envs), 0),
        mask_words_((info_.num_actions + 63) / 64),
        legal_(static_cast<size_t>(num_envs) * static_cast<size_t>(mask_words_), 0),
        legal_before_(static_cast<size_t>(num_envs) * static_cast<size_t>(mask_words_ + 1), 0),
        obs_words_(SparseObserve<G> ? sparse_row_words(info_.observation_size) : 0),
        obs_before_(static_cast<size_t>(num_envs) * static_cast<size_t>(obs_words_), 0),
        obs_now_(static_cast<size_t>(num_envs) * static_cast<size_t>(obs_words_), 0),
        shown_(ChangedObserve<G> ? static_cast<size_t>(num_envs) : 0),
        shown_player_(ChangedObserve<G> ? static_cast<size_t>(num_envs) : 0, -1),
        seats_(std::move(seats)),
        pool_(std::max(1, std::min(threads, num_envs))) {}

  const ConfigInfo& info() const override { return info_; }
  int num_envs() const override { return num_envs_; }
  int threads() const override { return pool_.size(); }
  int max_steps() const override { return max_steps_; }
  uint64_t seed() const override { return seed_; }
  size_t state_size() const override { return sizeof(State); }

  void set_outputs(const BatchOutputs& out) override { out_ = out; }

  void reset(uint64_t seed) override {
    seed_ = seed;
    ended_.clear();
    for_each_env([this](size_t i) {
      game_index_[i] = 0;
      deal(i);
      std::fill_n(out_.rewards + row(i, info_.players), info_.players, 0.0);
      out_.terminated[i] = false;
      out_.truncated[i] = false;
      write_current(i, /*whole=*/true);
    });
  }

  int step(const int64_t* actions, const int64_t* ticks = nullptr) override {
    const int bad = first_illegal(actions);
    if (bad >= 0) return bad;
    // a block at a time: its envs' actions, then the Seats hook's play in all of them together,
    // then their outputs
    const int64_t block = std::max(grain(), seats_.min_block());
    pool_.run(num_envs_, block, [this, actions, ticks](int64_t first, int64_t last) {
      for (int64_t i = first; i < last; ++i) {
        apply_action(static_cast<size_t>(i), static_cast<int>(actions[i]), ticks == nullptr ? int64_t{-1} : ticks[i]);
      }
      seats_.template after_actions<G>(config_, states_.data(), steps_.data(), max_steps_, static_cast<size_t>(first),
                                       static_cast<size_t>(last));
      for (int64_t i = first; i < last; ++i) step_env(static_cast<size_t>(i));
    });
    finish_ended_games();
    return -1;
  }

  FinalObservations final_observations() const override {
    return {static_cast<int>(ended_.size()), seats_.final_views(info_.players), ended_.data(), final_obs_};
  }

  bool timed() const override { return TimedGame<G>; }
  const char* fault() const override { return seats_.fault(); }

  bool check_ticks(int64_t ticks, char* err, int errlen) const override {
    if constexpr (TimedGame<G>) {
      return G::check_ticks(config_, ticks, err, errlen);
    } else {
      std::snprintf(err, static_cast<size_t>(errlen), "%s is not timed: its actions take no ticks", G::kName);
      return false;
    }
  }

  void sample_actions(uint64_t seed, int64_t* out) override {
    const uint64_t salted = seed ^ kSampleSalt;
    for_each_env([this, salted, out](size_t i) {
      Rng rng = Rng::from_seed(derive_seed(salted, i));
      out[i] = pick_legal(i, rng);
    });
  }

  void get_state(int i, void* out) const override {
    State s = states_[index(i)];
    rekey<G>(config_, s);  // stepped unkeyed: the copy gets its exact key
    store_little_endian(s, out);  // the bytes of State.to_bytes (common/byte_order.hpp)
  }

  bool set_state(int i, const void* bytes, int steps, char* err, int errlen) override {
    State s;
    load_little_endian(bytes, s);
    if (!G::validate(config_, s, err, errlen)) return false;
    if (G::current_player(s) < 0) {
      std::snprintf(err, static_cast<size_t>(errlen), "the state is terminal: a BatchEnv only holds games in play");
      return false;
    }
    if (!seats_.takes(index(i), G::current_player(s))) {
      std::snprintf(err, static_cast<size_t>(errlen), "player %d is to act, not this env's learner seat",
                    G::current_player(s));
      return false;
    }
    states_[index(i)] = s;
    steps_[index(i)] = std::max(0, steps);
    write_current(index(i), /*whole=*/true);
    return true;
  }

 private:
  // Batches of fewer envs than this per thread run inline: handing work to another thread
  // costs 0.1-2 us and a step of an env 0.2-0.5 us, and a worker preempted mid-block makes the
  // caller wait a time slice. At 64 envs on 2 threads a second thread gained 0-8% on a quiet
  // machine and lost 25% with a competing process (benchmarks/test_bench_batch.py, 2026-12-01).
  static constexpr int64_t kMinEnvsPerThread = 64;

  // Envs per block handed to a thread: a few microseconds of work, so that a worker preempted
  // inside its block holds back little (thread_pool.hpp), yet enough that claiming a block (an
  // atomic add on the thread's own cursor) stays under a few per cent. The whole batch (inline)
  // if small.
  int64_t grain() const {
    if (num_envs_ < kMinEnvsPerThread * pool_.size()) return num_envs_;
    return std::clamp<int64_t>(num_envs_ / (16 * pool_.size()), 2, 8);
  }

  template <class F>
  void for_each_env(F&& f) {
    pool_.run(num_envs_, grain(), [&f](int64_t first, int64_t last) {
      for (int64_t i = first; i < last; ++i) f(static_cast<size_t>(i));
    });
  }

  static size_t index(int i) { return static_cast<size_t>(i); }

  // Is `a` legal in env i's current state: one bit of the mask write_current made for it.
  bool legal(size_t i, int64_t a) const {
    if (a < 0 || a >= info_.num_actions) return false;
    const uint64_t word = legal_[i * static_cast<size_t>(mask_words_) + static_cast<size_t>(a >> 6)];
    return (word >> (a & 63)) & 1;
  }

  // LegalActions<G>(config_, states_[i]).pick(rng), read from what write_current kept rather
  // than generated again: the k-th legal action in ascending order is the k-th set bit, found
  // through the counts of the words before it. -1 if there is none (never: an env always holds
  // a game in play).
  int64_t pick_legal(size_t i, Rng& rng) const {
    const uint16_t* before = legal_before_.data() + row(i, mask_words_ + 1);
    const int count = before[mask_words_];
    if (count == 0) return -1;
    const auto k = static_cast<int>(rng.bounded(static_cast<uint64_t>(count)));
    int w = 0;
    while (before[w + 1] <= k) ++w;
    return int64_t{64} * w + nth_set_bit(legal_[row(i, mask_words_) + static_cast<size_t>(w)], k - before[w]);
  }

  // The position of the k-th (from 0) set bit of `word`, which has more than k. Portable (no
  // BMI2): the set bits of each byte counted in parallel, their running sums in one multiply,
  // then the byte that holds it, then at most 7 steps inside it. A loop over the bits cost
  // more than generating the legal list again (Dim Sum Jam has up to 64 legal actions a word).
  static int nth_set_bit(uint64_t word, int k) {
    uint64_t x = word - ((word >> 1) & 0x5555555555555555ull);
    x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0Full;
    const uint64_t through = x * 0x0101010101010101ull;  // byte b: set bits in bytes 0..b
    int byte = 0;
    while (static_cast<int>((through >> (8 * byte)) & 0xFF) <= k) ++byte;
    if (byte > 0) k -= static_cast<int>((through >> (8 * (byte - 1))) & 0xFF);
    uint64_t bits = (word >> (8 * byte)) & 0xFF;
    for (; k > 0; --k) bits &= bits - 1;  // drop the k lowest set bits
    return 8 * byte + std::countr_zero(bits);
  }

  // The lowest env whose action is illegal, or -1. On the pool in blocks of kCheckGrain envs
  // (a check costs about a nanosecond an env, handing a block to another thread 0.1-2 us, so a
  // batch of up to kCheckGrain envs is checked inline): a block stops at its first illegal env,
  // and the lowest of those is the batch's first.
  static constexpr int64_t kCheckGrain = 2048;

  int first_illegal(const int64_t* actions) {
    std::atomic<int64_t> first{num_envs_};
    pool_.run(num_envs_, std::max(grain(), kCheckGrain), [this, actions, &first](int64_t lo, int64_t hi) {
      for (int64_t i = lo; i < hi; ++i) {
        if (legal(static_cast<size_t>(i), actions[i])) continue;
        int64_t seen = first.load(std::memory_order_relaxed);
        while (i < seen && !first.compare_exchange_weak(seen, i, std::memory_order_relaxed)) {
        }
        return;
      }
    });
    const int64_t bad = first.load(std::memory_order_relaxed);
    return bad < num_envs_ ? static_cast<int>(bad) : -1;
  }

  static size_t row(size_t i, int width) { return i * static_cast<size_t>(width); }

  // Deals env i's game k = game_index_[i], and the next ones while the Seats hook finds a game
  // over before step()'s first turn (nothing to act on in it).
  void deal(size_t i) {
    const uint64_t env_seed = derive_seed(seed_, i);
    for (;;) {
      const uint64_t game_seed = derive_seed(env_seed, game_index_[i]);
      G::new_state(config_, states_[i], game_seed);
      steps_[i] = 0;
      if (seats_.template after_deal<G>(config_, states_[i], steps_[i], max_steps_, i, game_seed)) return;
      ++game_index_[i];
    }
  }

  // Env i's action; `ticks` < 0: the action's default cost (the same as G::apply).
  void apply_action(size_t i, int action, int64_t ticks) {
    State& s = states_[i];
    if constexpr (TimedGame<G>) {
      // the default cost is G::apply's move, so it is stepped unkeyed like every other game's
      if (ticks < 0) apply_unkeyed<G>(config_, s, action);
      else G::apply_timed(config_, s, action, ticks);
    } else {
      apply_unkeyed<G>(config_, s, action);
    }
    ++steps_[i];
  }

  // Env i's outputs once its action and the Seats hook's play are done. An ended game stays in
  // place (its final observations are written once the step knows how many games ended:
  // finish_ended_games), so every other env is finished here.
  void step_env(size_t i) {
    const State& s = states_[i];
    const bool terminated = G::current_player(s) < 0;
    const bool truncated = !terminated && steps_[i] >= max_steps_;
    out_.terminated[i] = terminated;
    out_.truncated[i] = truncated;
    double* rewards = out_.rewards + row(i, info_.players);
    if (terminated || truncated) {
      G::returns(config_, s, rewards);
      std::copy_n(rewards, info_.players, out_.final_returns + row(i, info_.players));
    } else {
      std::fill_n(rewards, info_.players, 0.0);
      write_current(i);
    }
  }

  // The ended envs, ascending, then for each: the Seats hook's views of its final state (every
  // player's, or the learner's alone) into its compact row, its next game, its outputs. A few
  // envs end in a step (one in the length of a game), so the scan is the step's only cost that
  // grows with num_envs here.
  void finish_ended_games() {
    ended_.clear();
    for (int i = 0; i < num_envs_; ++i)
      if (out_.terminated[i] | out_.truncated[i]) ended_.push_back(i);
    if (ended_.empty()) return;
    const int views = seats_.final_views(info_.players);
    const size_t row_size = static_cast<size_t>(views) * static_cast<size_t>(info_.observation_size);
    const size_t needed = ended_.size() * row_size;
    if (!final_obs_ || final_obs_->size() < needed) {
      // a new buffer (views of the old one stay valid), room for twice as many as before
      const size_t before = final_obs_ ? final_obs_->size() : 0;
      final_obs_ = std::make_shared<std::vector<float>>(std::max(needed, 2 * before));
    }
    float* rows = final_obs_->data();
    const auto n = static_cast<int64_t>(ended_.size());
    // an ended env costs several env-steps (an observation per player, a deal): small blocks
    pool_.run(n, n < 4 * pool_.size() ? n : 2, [this, rows, row_size, views](int64_t first, int64_t last) {
      for (int64_t j = first; j < last; ++j) {
        const auto i = static_cast<size_t>(ended_[static_cast<size_t>(j)]);
        float* final_obs = rows + static_cast<size_t>(j) * row_size;
        for (int k = 0; k < views; ++k)
          G::observe(config_, states_[i], seats_.final_view_seat(i, k),
                     final_obs + row(index(k), info_.observation_size));
        ++game_index_[i];
        deal(i);
        write_current(i);
      }
    });
  }

  // obs, mask and player to act of env i's current (never terminal) state; the mask twice: the
  // caller's bools, and the bits step() checks actions against and sample_actions picks from
  // (with the running counts of legal actions per word), so an env-step generates the legal
  // list once.
  // The observation: a game with G::observe_sparse has its row updated in place (SparseRow,
  // common/observation_row.hpp: the non-zeros written, the entries the env's last write left
  // non-zero and this one did not zeroed; the cost of the non-zeros and of what changed, not
  // of the row); a game with G::observe_changes gets the state and seat the row was last
  // written for (shown_) and stores only the entries that differ. The values are G::observe's,
  // bit for bit.
  // The mask likewise: the previous legal actions (from the env's own bits) cleared, the new
  // ones set. Both need the arrays as this env left them: `whole` (reset, set_state) rewrites
  // the row and the mask whole, so whatever the caller wrote into them is gone then. Whoever
  // the row was written for (another seat, the game before an auto-reset) does not matter:
  // the marks say which entries to clear.
  // Never inlined: benchmarks/callgrind_batch.py reads the env-step's floor as what runs outside
  // the game's functions and this one (an inlined copy would count as floor); the call costs a
  // few instructions an env-step.
  [[gnu::noinline]] void write_current(size_t i, bool whole = false) {
    const State& s = states_[i];
    const int player = G::current_player(s);
    out_.current_player[i] = player;
    float* obs = out_.obs + row(i, info_.observation_size);
    if constexpr (SparseObserve<G>) {
      uint64_t* before = obs_before_.data() + row(i, obs_words_);
      uint64_t* now = obs_now_.data() + row(i, obs_words_);
      if (whole) zero_sparse_row(obs, info_.observation_size, before);
      if (player >= 0) G::observe_sparse(config_, s, player, obs, before, now);  // else all zero (unreachable)
      finish_sparse_row(obs, before, now, obs_words_);
    } else if constexpr (ChangedObserve<G>) {
      int& shown_player = shown_player_[i];
      if (player < 0) {
        std::fill_n(obs, info_.observation_size, 0.0f);  // unreachable: a new game is never over
      } else if (whole || shown_player < 0) {
        G::observe(config_, s, player, obs);
      } else {
        G::observe_changes(config_, shown_[i], shown_player, s, player, obs);
      }
      shown_[i] = s;
      shown_player = player;  // < 0: not a state's row, the next write is whole
    } else if (player >= 0) {
      G::observe(config_, s, player, obs);
    } else {
      std::fill_n(obs, info_.observation_size, 0.0f);  // unreachable: a new game is never over
    }
    bool* mask = out_.legal_mask + row(i, info_.num_actions);
    uint64_t* bits = legal_.data() + row(i, mask_words_);
    if (whole) std::fill_n(mask, info_.num_actions, false);
    // the last legal actions only (a few), not the whole row; the bits zeroed in the same pass
    for (int w = 0; w < mask_words_; ++w) {
      for (uint64_t was = whole ? 0 : bits[w]; was != 0; was &= was - 1) mask[64 * w + std::countr_zero(was)] = false;
      bits[w] = 0;
    }
    uint16_t* before = legal_before_.data() + row(i, mask_words_ + 1);
    uint64_t word = 0;  // bits[w], built in a register: the list is sorted
    int w = 0;
    int count = 0;
    before[0] = 0;
    for (const int a : LegalActions<G>(config_, s)) {
      mask[a] = true;
      if (a >> 6 != w) {
        bits[w] = word;
        word = 0;
        for (++w; w <= a >> 6; ++w) before[w] = static_cast<uint16_t>(count);
        w = a >> 6;
      }
      word |= uint64_t{1} << (a & 63);
      ++count;
    }
    bits[w] = word;
    for (++w; w <= mask_words_; ++w) before[w] = static_cast<uint16_t>(count);
  }

  const Config config_;
  const ConfigInfo info_;
  const int num_envs_;
  uint64_t seed_;
  const int max_steps_;
  std::vector<State> states_;
  std::vector<uint64_t> game_index_;  // k of env i's current game
  std::vector<int> steps_;            // actions so far in env i's current game
  const int mask_words_;              // 64-bit words per env in legal_
  std::vector<uint64_t> legal_;       // env i's legal actions as bits: [num_envs][mask_words_]
  std::vector<uint16_t> legal_before_;  // legal actions in the words before word w: [num_envs][mask_words_ + 1]
  const int obs_words_;                 // words per env in obs_nonzero_ (0: G writes rows whole)
  std::vector<uint64_t> obs_before_;    // env i's row entries its last write left non-zero: [num_envs][obs_words_]
  std::vector<uint64_t> obs_now_;       // those the write under way sets (all zero between writes): the same shape
  std::vector<State> shown_;            // ChangedObserve: the state env i's row was last written from
  std::vector<int> shown_player_;       // and for whom (-1: none yet, the next write is whole)
  std::vector<int32_t> ended_;          // the envs that ended in the last step, ascending
  std::shared_ptr<std::vector<float>> final_obs_;  // their final observations (FinalObservations)
  BatchOutputs out_;
  Seats seats_;
  ThreadPool pool_;
};

// A BatchEnv of game `G` over a built (already validated) configuration.
template <class G>
std::unique_ptr<BatchEnvBase> make_batch_env(const typename G::Config& c, int num_envs, uint64_t seed, int threads,
                                             int max_steps) {
  return std::make_unique<BatchEnv<G>>(c, num_envs, seed, threads, max_steps);
}

}  // namespace dimsum
