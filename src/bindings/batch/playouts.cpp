// random_playouts: whole random games in C++ (dimsum::random_playouts, batch/playouts.hpp),
// with the GIL released; the calling thread polls for signals meanwhile (bindings.hpp,
// Interrupted), so that Ctrl-C stops a long run.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstdint>
#include <string>

#include "bindings.hpp"
#include "dimsum_core/batch/playouts.hpp"
#include "dimsum_core/games.hpp"

namespace dimsum::bindings {
namespace {

py::tuple random_playouts(const std::string& game, const py::bytes& config, int64_t state_size,
                          int64_t state_version, int64_t n_games, uint64_t seed, int threads) {
  if (n_games < 0) throw py::value_error("n_games must be >= 0");
  if (threads < 1) throw py::value_error("threads must be >= 1");
  py::array_t<double> returns;
  py::array_t<int64_t> lengths(n_games);
  bool found;
  try {
    found = dispatch_game(game.c_str(), [&]<class G>() {
      const auto c = config_from_bytes<G>(config, state_size, state_version);
      const int players = G::config_info(c).players;
      returns = py::array_t<double>({n_games, static_cast<int64_t>(players)});
      double* r = returns.mutable_data();
      int64_t* l = lengths.mutable_data();
      py::gil_scoped_release release;
      dimsum::random_playouts<G>(c, seed, n_games, threads, r, l, raise_if_signalled, kPollEvery);
    });
  } catch (const ThreadStartError& e) {
    raise_thread_start_error("random_playouts", e, threads);  // threads > 1: the workers play, the caller polls
  } catch (const Interrupted&) {
    throw py::error_already_set();  // what the signal's handler raised (Ctrl-C: KeyboardInterrupt)
  }
  if (!found) throw py::value_error("game " + game + " is not compiled into this build of dimsum");
  return py::make_tuple(returns, lengths);
}

}  // namespace

void register_playouts(py::module_& m) {
  m.def("random_playouts", &random_playouts, py::arg("game"), py::arg("config"), py::arg("state_size"),
        py::arg("state_version"), py::arg("n_games"), py::arg("seed"), py::arg("threads") = 1,
        "Plays n_games uniformly random games in C++ (config: Game.config_bytes()); returns "
        "(returns[n_games, players], lengths[n_games]).");
}

}  // namespace dimsum::bindings
