// The other seats of a block of learner-seat envs (opponent_env.hpp) played by a policy network,
// greedy, batched across the envs: in rounds, each gathering the input (observation and legal
// actions) of every env whose other seat is to act into one matrix, evaluating it in one
// PolicyNet::forward_rows, then applying each row's choice; until no env of the block waits.
//
// Why rounds: one network evaluation per move read every weight column from memory for one
// input; a round reads it once per tile of rows (bots/policy_net.cpp). An env's moves are the
// same as when it is played alone (bots::policy_move): forward_rows gives each row the logits
// forward() gives it, bit for bit, and greedy choice draws nothing from the env's stream. So
// the play never depends on the block, its size or the thread that runs it.
//
// The working memory is the thread's own (thread_local), grown to the largest block seen:
// nothing is allocated per move.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "../bots/policy_net.hpp"
#include "../common/engine.hpp"
#include "../common/rng.hpp"

namespace dimsum {

struct PolicyRoundScratch {
  std::vector<size_t> waiting;     // envs of the block that may still wait on another seat
  std::vector<int16_t> legal;      // [row][G::kMaxActions]: each row's legal actions
  std::vector<int> legal_count;    // [row]
  std::vector<float> observation;  // one row's observation, before make_input
  std::vector<float> input;        // [row][input_size]
  std::vector<int32_t> nonzero;    // [row][input_size]: each row's non-zero inputs (make_input)
  std::vector<int> nonzero_count;  // [row]
  std::vector<float> logits;       // [row][num_actions]
  bots::PolicyScratch net;
};

// Plays envs [first, last) (states, steps and rngs indexed by env) until waits(env) is false for
// each: waits(env) says that a seat the network plays is to act in env and its game may go on.
// Every move is counted in steps[env].
template <class G, class Waits>
void play_policy_rounds(const bots::PolicyNet& net, const typename G::Config& c, typename G::State* states,
                        int* steps, Rng* rngs, size_t first, size_t last, Waits&& waits) {
  thread_local PolicyRoundScratch scratch;
  const size_t block = last - first;
  const auto max_actions = static_cast<size_t>(G::kMaxActions);
  const auto obs_size = static_cast<size_t>(net.observation_size);
  const auto num_actions = static_cast<size_t>(net.num_actions);
  const auto input_size = static_cast<size_t>(net.input_size());
  if (scratch.legal.size() < block * max_actions) scratch.legal.resize(block * max_actions);
  if (scratch.legal_count.size() < block) scratch.legal_count.resize(block);
  if (scratch.input.size() < block * input_size) scratch.input.resize(block * input_size);
  if (scratch.nonzero.size() < block * input_size) scratch.nonzero.resize(block * input_size);
  if (scratch.nonzero_count.size() < block) scratch.nonzero_count.resize(block);
  if (scratch.logits.size() < block * num_actions) scratch.logits.resize(block * num_actions);
  if (scratch.observation.size() < obs_size) scratch.observation.resize(obs_size);

  std::vector<size_t>& waiting = scratch.waiting;
  waiting.clear();
  for (size_t i = first; i < last; ++i) waiting.push_back(i);
  for (;;) {
    // gather: the envs still waiting (kept in place, in env order) and their inputs
    size_t rows = 0;
    for (const size_t i : waiting) {
      if (!waits(i)) continue;
      waiting[rows] = i;
      const typename G::State& s = states[i];
      int16_t* legal = scratch.legal.data() + rows * max_actions;
      const int n = G::legal_actions(c, s, legal);
      scratch.legal_count[rows] = n;
      G::observe(c, s, G::current_player(s), scratch.observation.data());
      scratch.nonzero_count[rows] = net.make_input(scratch.observation.data(), legal, n,
                                                   scratch.input.data() + rows * input_size,
                                                   scratch.nonzero.data() + rows * input_size);
      ++rows;
    }
    waiting.resize(rows);
    if (rows == 0) return;
    const bots::RowActions only{scratch.legal.data(), scratch.legal_count.data(), max_actions};
    const bots::RowNonzero nonzero{scratch.nonzero.data(), scratch.nonzero_count.data(), input_size};
    net.forward_rows(scratch.input.data(), static_cast<int>(rows), scratch.logits.data(), scratch.net, &only,
                     &nonzero);
    for (size_t r = 0; r < rows; ++r) {
      const size_t i = waiting[r];
      const int action = bots::choose_action(scratch.logits.data() + r * num_actions,
                                             scratch.legal.data() + r * max_actions, scratch.legal_count[r],
                                             /*greedy=*/true, 1.0, rngs[i]);
      apply_unkeyed<G>(c, states[i], action);  // no key is read in a batch (engine.hpp)
      ++steps[i];
    }
  }
}

}  // namespace dimsum
