// A BatchEnv in which one seat learns (per env: the same seat in every env, or one each): step()
// takes that seat's actions only, and the other
// seats are played here, in C++, by an opponent policy (opponent_policy.hpp) until the learner is
// to act again or the game is over. In Dim Sum Jam, a cooperative game, the other seats are the
// learner's team-mates (every seat shares one return), played by the same policy.
//
// It is BatchEnv<G, LearnerSeat<G>>: the same engine (checks, masks, auto-reset, threads), with
// the LearnerSeat hook playing the other seats after each deal and after each learner action.
// - Env i's k-th game is dealt from derive_seed(derive_seed(seed, i), k), as in BatchEnv, and its
//   other seats draw from Rng(derive_seed(game_seed, kOpponentStream)): a stream per game, so a
//   game's play depends on (seed, i, k) and the learner's actions only, never on threads or on
//   how many envs there are.
// - A game that ends before the learner's first turn is skipped: env i moves on to game k + 1.
//   After kMaxSkippedDeals such games in a row the configuration gives the learner no turn (say
//   another seat always starts and the game can end at once): the env keeps that game over and
//   reports a fault instead of dealing for ever.
// - max_steps counts every seat's actions. Seats are played through it after a deal (a cut
//   waits for a step), and after a learner action only until it: a game cut while another seat
//   is to act is truncated on that step, as in BatchEnv.
// - The other seats are played either by a named C++ function (opponent_policy.hpp) or by a policy
//   network (bots/policy_net.hpp, the "policy" bot), greedy: the network needs its weights, so it
//   comes as an object rather than a name. It reads the acting seat's observation and legal
//   actions only, as the policy bot does; the env's net is shared and read-only, so the threads
//   evaluate it side by side. After a step's actions the network plays a block's envs together
//   (policy_rounds.hpp: one batched evaluation per round of moves, blocks of kPolicyBlock envs);
//   after a deal, env by env (bots::policy_move). Both give the same moves, bit for bit.
// - The final observations of an ended game are the learner's view alone, unless the env was
//   built with every_seat_final (an explicit request, for a caller entitled to every seat's
//   view): the learner-seat env hands a learner nothing of another seat's.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "../bots/policy_net.hpp"
#include "../common/rng.hpp"
#include "batch_env.hpp"
#include "opponent_policy.hpp"
#include "policy_rounds.hpp"

namespace dimsum {

// Salt of the other seats' per-game streams ("OPPONENT"), never equal to a deal's stream.
inline constexpr uint64_t kOpponentStream = 0x4F50504F4E454E54ull;
inline constexpr int kMaxSkippedDeals = 1000;
// Envs per block when a network plays the other seats: a round's batch is a block's waiting envs,
// and more rows share each read of a weight column (two tiles of bots/policy_net.cpp's rows).
inline constexpr int64_t kPolicyBlock = 64;

template <class G>
class LearnerSeat {
 public:
  // learners: env i's learning seat, one per env; every_seat_final: hand out every seat's final
  // observation (else the learner's only)
  // act: the other seats' policy, or null when `net` plays them (greedy)
  LearnerSeat(std::vector<int> learners, OpponentAct<G> act, int num_envs, bool every_seat_final = false,
              std::shared_ptr<const bots::PolicyNet> net = nullptr)
      : learners_(std::move(learners)),
        act_(act),
        net_(std::move(net)),
        every_seat_final_(every_seat_final),
        rngs_(static_cast<size_t>(num_envs), Rng::from_seed(0)),
        skipped_(static_cast<size_t>(num_envs), 0) {}

  // Moves the flag, not the vectors' contents: a BatchEnv is built once, its hook moved in.
  LearnerSeat(LearnerSeat&& o) noexcept
      : learners_(std::move(o.learners_)), act_(o.act_), net_(std::move(o.net_)), every_seat_final_(o.every_seat_final_),
        rngs_(std::move(o.rngs_)), skipped_(std::move(o.skipped_)), starved_(o.starved_.load()) {}

  template <class>
  bool after_deal(const typename G::Config& c, typename G::State& s, int& steps, int /*max_steps*/, size_t i,
                  uint64_t game_seed) {
    rngs_[i] = Rng::from_seed(derive_seed(game_seed, kOpponentStream));
    if (play_others(c, s, steps, INT32_MAX, i)) {
      skipped_[i] = 0;
      return true;
    }
    if (++skipped_[i] < kMaxSkippedDeals) return false;
    starved_.store(true, std::memory_order_relaxed);  // keep this game over: every action is refused
    skipped_[i] = 0;
    return true;
  }

  template <class>
  void after_actions(const typename G::Config& c, typename G::State* states, int* steps, int max_steps, size_t first,
                     size_t last) {
    if (!net_) {
      for (size_t i = first; i < last; ++i) play_others(c, states[i], steps[i], max_steps, i);
      return;
    }
    play_policy_rounds<G>(*net_, c, states, steps, rngs_.data(), first, last, [&](size_t i) {
      const int player = G::current_player(states[i]);
      return player != learners_[i] && player >= 0 && steps[i] < max_steps;
    });
  }

  int64_t min_block() const { return net_ ? kPolicyBlock : 0; }

  bool takes(size_t i, int player) const { return player == learners_[i]; }

  int final_views(int players) const { return every_seat_final_ ? players : 1; }
  int final_view_seat(size_t i, int k) const { return every_seat_final_ ? k : learners_[i]; }

  const char* fault() const {
    return starved_.load(std::memory_order_relaxed)
               ? "BatchEnv: in an env, 1000 games in a row ended before the learner seat's first turn: this "
                 "configuration gives that seat no turn to learn from (choose another learner_seat or options)"
               : nullptr;
  }

 private:
  // The other seats act until the learner is to act (true), or the game is over or cut (false).
  bool play_others(const typename G::Config& c, typename G::State& s, int& steps, int max_steps, size_t i) {
    for (;;) {
      const int player = G::current_player(s);
      if (player == learners_[i]) return true;
      if (player < 0 || steps >= max_steps) return false;
      const int action = net_ ? bots::policy_move<G>(*net_, c, s, /*greedy=*/true, 1.0, rngs_[i]) : act_(c, s, rngs_[i]);
      apply_unkeyed<G>(c, s, action);  // no key is read in a batch (engine.hpp)
      ++steps;
    }
  }

  std::vector<int> learners_;  // env i's learning seat
  OpponentAct<G> act_;
  std::shared_ptr<const bots::PolicyNet> net_;  // plays the other seats when set (act_ is null then)
  bool every_seat_final_;  // final observations: every seat's (asked for), else the learner's only
  std::vector<Rng> rngs_;  // env i's current game's stream for the other seats
  std::vector<int> skipped_;  // games in a row env i skipped (over before the learner's turn)
  std::atomic<bool> starved_{false};
};

// A learner-seat BatchEnv of game `G`: `learners` one seat in [0, players) per env, `opponent`
// a name of opponent_policies<G>() or "policy" with `net` a network made for this configuration
// (std::invalid_argument naming what is wrong otherwise); every_seat_final: final observations
// of every seat, not the learner's alone.
template <class G>
std::unique_ptr<BatchEnvBase> make_opponent_env(const typename G::Config& c, int num_envs, uint64_t seed,
                                                int threads, int max_steps, std::vector<int> learners,
                                                std::string_view opponent, bool every_seat_final = false,
                                                std::shared_ptr<const bots::PolicyNet> net = nullptr) {
  const int players = G::config_info(c).players;
  if (learners.size() != static_cast<size_t>(num_envs)) {
    throw std::invalid_argument("learner_seat must give one seat per env (" + std::to_string(num_envs) + "), got " +
                                std::to_string(learners.size()));
  }
  for (const int learner : learners) {
    if (learner < 0 || learner >= players) {
      throw std::invalid_argument("learner_seat must be a seat in 0.." + std::to_string(players - 1) + ", got " +
                                  std::to_string(learner));
    }
  }
  if ((opponent == "policy") != (net != nullptr)) {
    throw std::invalid_argument("a policy network plays the other seats with opponent \"policy\" only, and that "
                                "opponent needs one (opponent_weights)");
  }
  if (net) {
    const ConfigInfo info = G::config_info(c);
    if (info.observation_size != net->observation_size || info.num_actions != net->num_actions) {
      throw std::invalid_argument(std::string(G::kName) + ": the opponent network takes " +
                                  std::to_string(net->observation_size) + " observation values and " +
                                  std::to_string(net->num_actions) + " actions; the game has " +
                                  std::to_string(info.observation_size) + " and " + std::to_string(info.num_actions));
    }
    return std::make_unique<BatchEnv<G, LearnerSeat<G>>>(
        c, num_envs, seed, threads, max_steps,
        LearnerSeat<G>(std::move(learners), nullptr, num_envs, every_seat_final, std::move(net)));
  }
  const OpponentAct<G> act = find_opponent_policy<G>(opponent);
  if (act == nullptr) {
    std::string known;
    for (const auto& p : opponent_policies<G>()) known += (known.empty() ? "" : ", ") + std::string(p.name);
    known += ", policy (with a network)";
    throw std::invalid_argument("unknown opponent policy '" + std::string(opponent) + "' for " + G::kName +
                                "; known: " + known);
  }
  return std::make_unique<BatchEnv<G, LearnerSeat<G>>>(
      c, num_envs, seed, threads, max_steps, LearnerSeat<G>(std::move(learners), act, num_envs, every_seat_final));
}

}  // namespace dimsum
