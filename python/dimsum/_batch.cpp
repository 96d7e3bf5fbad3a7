// pybind11 bindings of the batch side: called once per batch, so the binding's cost vanishes
// and pybind11's numpy ownership and GIL release serve best. No game logic here.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <string>
#include <vector>

#include "dimsum_core/batch/playouts.hpp"
#include "dimsum_core/common/chance.hpp"
#include "dimsum_core/common/tick_clock.hpp"
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

// ---------------------------------------------------------------------------------------------
// The tick clock's own C++ tests: named checks run at compile time (static_assert below) and
// again at run time through tick_clock_self_test, plus a script driver for the Python
// differential test against dimsum.reference.tick_clock.

using dimsum::TickClock;

struct ClockCheck {
  const char* name;
  bool (*check)();
};

constexpr TickClock clock_at(int32_t capacity, int32_t top, bool lying) {
  TickClock c = TickClock::full(capacity);
  c.top = top;
  c.lying = lying;
  return c;
}

constexpr ClockCheck kClockChecks[] = {
    {"a new clock is a full standing glass",
     [] {
       const TickClock c = TickClock::full(1200);
       return c.top == 1200 && c.bottom() == 0 && !c.lying && !c.ran_out() && c.valid();
     }},
    {"run drains the top and stops at zero",
     [] {
       TickClock c = TickClock::full(100);
       return c.run(30) == 30 && c.top == 70 && c.run(500) == 70 && c.top == 0 && c.ran_out() && c.run(5) == 0;
     }},
    {"run of zero or negative ticks changes nothing",
     [] {
       TickClock c = clock_at(100, 40, false);
       return c.run(0) == 0 && c.run(-3) == 0 && c.top == 40;
     }},
    {"run of more ticks than an int32 holds stops at zero",
     [] {
       TickClock c = clock_at(1000000, 999999, false);
       return c.run(int64_t{1} << 40) == 999999 && c.top == 0;
     }},
    {"flip is physical: capacity - top",
     [] {
       TickClock c = clock_at(1200, 1000, false), empty = clock_at(1200, 0, false);
       const bool once = c.flip() && c.top == 200, twice = c.flip() && c.top == 1000;
       return once && twice && empty.flip() && empty.top == 1200;
     }},
    {"refill gives a full glass",
     [] {
       TickClock c = clock_at(1200, 700, false);
       return c.refill() && c.top == 1200;
     }},
    {"a lying glass is frozen and cannot be flipped, refilled or laid down",
     [] {
       TickClock c = clock_at(1200, 500, true);
       return c.run(300) == 0 && c.top == 500 && !c.ran_out() && !c.flip() && !c.refill() && !c.lay_down() &&
              c.top == 500 && c.lying;
     }},
    {"stand on either side",
     [] {
       TickClock same = clock_at(1200, 500, true), turned = clock_at(1200, 500, true);
       return same.stand(false) && turned.stand(true) && same.top == 500 && turned.top == 700 && !same.lying &&
              !turned.lying && !same.stand(false);
     }},
    {"an empty lying glass runs out when stood on its empty side",
     [] {
       TickClock c = clock_at(1200, 0, true);
       const bool before = c.ran_out();
       return !before && c.stand(false) && c.ran_out();
     }},
    {"valid refuses a top beyond the capacity, a bad capacity and stray bytes",
     [] {
       TickClock stray = clock_at(10, 5, false), odd = clock_at(10, 5, false);
       stray.reserved_[1] = 1;
       odd.lying = 2;
       return !clock_at(10, 11, false).valid() && !clock_at(0, 0, false).valid() &&
              !clock_at(10000000, 0, false).valid() && !stray.valid() && !odd.valid();
     }},
};

constexpr int failed_clock_checks() {
  int failed = 0;
  for (const ClockCheck& c : kClockChecks) failed += c.check() ? 0 : 1;
  return failed;
}
static_assert(failed_clock_checks() == 0, "a TickClock check fails at compile time");

py::list tick_clock_self_test() {
  py::list failed;
  for (const ClockCheck& c : kClockChecks)
    if (!c.check()) failed.append(c.name);
  return failed;
}

// Runs ops on a clock: (0, ticks) run, (1, _) flip, (2, _) refill, (3, _) lay down, (4, turned) stand.
// After each op: (result, top, lying, ran_out), result = ticks run for run, 1/0 done/refused otherwise.
py::list tick_clock_script(int32_t capacity, int32_t top, bool lying,
                           const std::vector<std::pair<int, int64_t>>& ops) {
  TickClock c = clock_at(capacity, top, lying);
  if (!c.valid()) throw py::value_error("tick_clock_script: invalid clock");
  py::list out;
  for (const auto& [op, arg] : ops) {
    int64_t result;
    switch (op) {
      case 0: result = c.run(arg); break;
      case 1: result = c.flip(); break;
      case 2: result = c.refill(); break;
      case 3: result = c.lay_down(); break;
      case 4: result = c.stand(arg != 0); break;
      default: throw py::value_error("tick_clock_script: unknown op");
    }
    out.append(py::make_tuple(result, c.top, bool(c.lying), c.ran_out()));
  }
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
  m.def("tick_clock_self_test", &tick_clock_self_test, "Names of the failing C++ TickClock checks (empty: all pass).");
  m.def("tick_clock_script", &tick_clock_script, py::arg("capacity"), py::arg("top"), py::arg("lying"), py::arg("ops"),
        "Runs (op, arg) operations on a C++ TickClock; returns (result, top, lying, ran_out) after each.");
}
