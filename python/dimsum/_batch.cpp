// pybind11 bindings of the batch side: called once per batch, so the binding's cost vanishes
// and pybind11's numpy ownership and GIL release serve best. No game logic here.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <string>
#include <vector>

#include "dimsum_core/batch/playouts.hpp"
#include "dimsum_core/common/chance.hpp"
#include "dimsum_core/games.hpp"

namespace py = pybind11;

namespace {

// A game's C++ Config from the flat ints dimsum.games.<name>.config_ints builds.
template <class G>
typename G::Config config_from(const std::vector<int64_t>& ints) {
  typename G::Config c{};
  char err[512];
  if (!G::config_from_ints(ints.data(), static_cast<int>(ints.size()), c, err, sizeof err)) throw py::value_error(err);
  return c;
}

py::tuple random_playouts(const std::string& game, const std::vector<int64_t>& config_ints, int64_t n_games,
                          uint64_t seed, int threads) {
  if (n_games < 0) throw py::value_error("n_games must be >= 0");
  if (threads < 1) throw py::value_error("threads must be >= 1");
  py::array_t<double> returns;
  py::array_t<int64_t> lengths(n_games);
  const bool found = dimsum::dispatch_game(game.c_str(), [&]<class G>() {
    const auto c = config_from<G>(config_ints);
    const int players = G::config_info(c).players;
    returns = py::array_t<double>({n_games, static_cast<int64_t>(players)});
    double* r = returns.mutable_data();
    int64_t* l = lengths.mutable_data();
    py::gil_scoped_release release;
    dimsum::random_playouts<G>(c, seed, n_games, threads, r, l);
  });
  if (!found) throw py::value_error("unknown game " + game);
  return py::make_tuple(returns, lengths);
}

// The project RNG's outputs, for the known-answer tests shared with reference/rng.py.
py::dict rng_vectors(uint64_t seed, int n, const std::vector<uint64_t>& bounds, const std::vector<int>& counts) {
  dimsum::Rng rng = dimsum::Rng::from_seed(seed);
  py::list u64, bounded, draws, shuffled;
  for (int i = 0; i < n; ++i) u64.append(rng.next_u64());
  for (uint64_t b : bounds) bounded.append(rng.bounded(b));
  dimsum::Counts64 multiset{};
  int total = 0;
  for (size_t k = 0; k < counts.size() && k < 64; ++k) {
    multiset.set(static_cast<int>(k), counts[k] & 15);
    total += counts[k] & 15;
  }
  for (int i = 0; i < n && total > 0; ++i) draws.append(dimsum::draw_kind(rng, multiset, total));
  std::vector<int> items(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) items[static_cast<size_t>(i)] = i;
  rng.shuffle(items.data(), items.size());
  for (int x : items) shuffled.append(x);
  py::dict out;
  out["u64"] = u64;
  out["bounded"] = bounded;
  out["draws"] = draws;
  out["shuffle"] = shuffled;
  out["derive_seed"] = dimsum::derive_seed(seed, 7);
  return out;
}

}  // namespace

PYBIND11_MODULE(_batch, m, py::mod_gil_not_used()) {
  m.doc() = "dimsum's batch engine (pybind11): random playouts in C++ with the GIL released.";
  m.def("random_playouts", &random_playouts, py::arg("game"), py::arg("config_ints"), py::arg("n_games"),
        py::arg("seed"), py::arg("threads") = 1,
        "Plays n_games uniformly random games in C++; returns (returns[n_games, players], lengths[n_games]).");
  m.def("rng_vectors", &rng_vectors, py::arg("seed"), py::arg("n"), py::arg("bounds"), py::arg("counts"),
        "The C++ RNG's outputs for a seed (known-answer tests against dimsum.reference.rng).");
}
