// The C++ bots (dimsum_core/bots/): the heuristic of each game and IS-MCTS, for
// python/dimsum/bots/heuristic.py and ismcts.py. A position crosses as State.to_bytes() (a
// header and the raw state, 0.05 us from Python): its length, magic and game checked (the
// Python wrapper has checked that the state is of the bot's game and configuration) and the
// position validated before any rule reads it, so that no bytes from Python can crash the
// search. The search runs with the GIL released and polls for signals every kPollEvery
// (bindings.hpp; the trees on worker threads while the caller polls, or one tree on the caller
// polling between simulations): Ctrl-C stops the trees within a simulation and raises
// KeyboardInterrupt, and the bot is usable afterwards. A search guided by a policy (rollout or
// guide 'policy') takes the network built by python/dimsum/bots/policy.py's load_net, checked
// here to fit the game's observation and actions.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <string>

#include "bindings.hpp"
#include "decision_state.hpp"
#include "dimsum_core/bots/heuristic.hpp"
#include "dimsum_core/bots/ismcts.hpp"
#include "dimsum_core/bots/policy_net.hpp"
#include "dimsum_core/games.hpp"

namespace dimsum::bindings {
namespace {

int heuristic_action(const std::string& game, const py::bytes& config, int64_t state_size, int64_t state_version,
                     const py::bytes& state, uint64_t seed, uint64_t call) {
  int action = -1;
  on_game(game, [&]<class G>() {
    const auto c = config_from_bytes<G>(config, state_size, state_version);
    const auto s = decision_state<G>(c, state);
    Rng rng = Rng::from_seed(derive_seed(seed, call));
    action = heuristic_move<G>(c, s, rng);
  });
  return action;
}

py::tuple ismcts_search(const std::string& game, const py::bytes& config, int64_t state_size,
                        int64_t state_version, const py::bytes& state, int64_t simulations, double seconds, double c,
                        double bias,
                        const std::string& rollout, int threads, uint64_t seed, uint64_t call, double min_return,
                        double max_return, const std::string& guide, const bots::PolicyNet* net) {
  bots::SearchParams p;
  if (rollout != "random" && rollout != "heuristic" && rollout != "policy")
    throw py::value_error("rollout must be 'random', 'heuristic' or 'policy', got '" + rollout + "'");
  if (guide != "heuristic" && guide != "policy" && guide != "policy_ucb" && guide != "policy_heuristic")
    throw py::value_error("guide must be 'heuristic', 'policy', 'policy_ucb' or 'policy_heuristic', got '" + guide +
                          "'");
  p.simulations = simulations;
  p.seconds = seconds;
  p.c = c;
  p.bias = bias;
  p.rollout = rollout == "heuristic" ? bots::Rollout::kHeuristic
              : rollout == "policy"  ? bots::Rollout::kPolicy
                                     : bots::Rollout::kRandom;
  p.guide = guide == "policy"       ? bots::Guide::kPolicy
            : guide == "policy_ucb" ? bots::Guide::kPolicyUcb
            : guide == "policy_heuristic" ? bots::Guide::kPolicyHeuristic
                                    : bots::Guide::kHeuristic;
  p.net = net;
  p.threads = threads;
  p.seed = derive_seed(seed, call);
  p.min_return = min_return;
  p.max_return = max_return;
  bots::check_search_params(p);  // std::invalid_argument: ValueError saying what is allowed
  bots::SearchResult result;
  bool interrupted = false;  // signalled(): its error is set, raised once the trees have stopped
  try {
    on_game(game, [&]<class G>() {
      const auto cfg = config_from_bytes<G>(config, state_size, state_version);
      if (net != nullptr) {
        const ConfigInfo info = G::config_info(cfg);
        if (info.observation_size != net->observation_size || info.num_actions != net->num_actions)
          throw py::value_error(std::string(G::kName) + ": this network takes " +
                                std::to_string(net->observation_size) + " observation values and " +
                                std::to_string(net->num_actions) + " actions; the game has " +
                                std::to_string(info.observation_size) + " and " + std::to_string(info.num_actions));
      }
      const auto s = decision_state<G>(cfg, state);
      py::gil_scoped_release release;
      result = bots::ismcts_search<G>(cfg, s, p, signalled, kPollEvery, &interrupted);
    });
  } catch (const ThreadStartError& e) {
    raise_thread_start_error("ismcts", e, threads);  // threads > 1: a worker a tree, the caller polls
  }
  if (interrupted) throw py::error_already_set();
  py::list root;
  for (const bots::RootStat& r : result.root) root.append(py::make_tuple(r.action, r.visits, r.mean));
  return py::make_tuple(result.action, result.simulations, result.rollout_steps, root, result.tree_steps);
}

}  // namespace

void register_bots(py::module_& m) {
  m.def("heuristic_action", &heuristic_action, py::arg("game"), py::arg("config"), py::arg("state_size"),
        py::arg("state_version"), py::arg("state"), py::arg("seed"), py::arg("call"),
        "The game's heuristic move for the player to act in `state` (State.to_bytes()), its choices drawn "
        "from derive_seed(seed, call).");
  m.def("ismcts_search", &ismcts_search, py::arg("game"), py::arg("config"), py::arg("state_size"),
        py::arg("state_version"), py::arg("state"), py::arg("simulations"), py::arg("seconds"), py::arg("c"),
        py::arg("bias"),
        py::arg("rollout"), py::arg("threads"), py::arg("seed"), py::arg("call"), py::arg("min_return"),
        py::arg("max_return"), py::arg("guide") = "heuristic", py::arg("net") = py::none(),
        "IS-MCTS for the player to act in `state` (State.to_bytes()), seeded derive_seed(seed, call); rollout 'random', "
        "'heuristic' or 'policy', guide 'heuristic', 'policy', 'policy_ucb' or 'policy_heuristic' (the policy's: `net`, a PolicyNet); returns (action, simulations, "
        "rollout_steps, [(action, visits, mean reward in [0, 1]) per legal root action], tree_steps: actions "
        "applied descending the trees).");
}

}  // namespace dimsum::bindings
