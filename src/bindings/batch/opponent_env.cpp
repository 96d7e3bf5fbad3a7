// The learner-seat mode of dimsum.BatchEnv (dimsum::make_opponent_env, batch/opponent_env.hpp) is
// built by _BatchEnv's constructor (learner_seat, opponent); this file names the opponent
// policies a game offers, for the Python side's messages and docs.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <string>
#include <vector>

#include "bindings.hpp"
#include "dimsum_core/batch/opponent_policy.hpp"
#include "dimsum_core/games.hpp"

namespace dimsum::bindings {

void register_opponent_env(py::module_& m) {
  m.def(
      "opponent_policies",
      [](const std::string& game) {
        std::vector<std::string> names;
        const bool found = dispatch_game(game.c_str(), [&]<class G>() {
          for (const auto& p : opponent_policies<G>()) names.emplace_back(p.name);
        });
        if (!found) throw py::value_error("game " + game + " is not compiled into this build of dimsum");
        return names;
      },
      py::arg("game"), "The names of the policies that can play the other seats of a learner-seat BatchEnv.");
}

}  // namespace dimsum::bindings
