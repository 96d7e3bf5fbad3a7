// Test-only hooks into the C++ core, kept out of the shipped modules: the RNG's known-answer
// outputs (tests/test_rng.py) and the tick clock's own checks and a script driver
// (tests/dim_sum_jam/test_tick_clock.py). Built and driven by tests/cpp/core_hooks.py.
//
// Reads one command a line (from stdin, or one command from argv) and prints one line of JSON
// for each:
//   rng_vectors SEED N NB BOUND... NC COUNT...
//       -> {"u64": [N], "bounded": [NB], "draws": [...], "shuffle": [N], "derive_seed": X}
//   clock_checks
//       -> ["name of a failing TickClock check", ...]  (empty: all pass)
//   clock_script CAPACITY TOP LYING NOPS OP ARG ...
//       ops: 0 run(ARG ticks), 1 flip, 2 refill, 3 lay down, 4 stand(turned = ARG != 0)
//       -> [[result, top, lying, ran_out], ...] after each op; result = ticks run for a run,
//          1/0 done/refused otherwise
// A bad command prints {"error": "..."}.
#include <cstdint>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "dimsum_core/common/bits.hpp"
#include "dimsum_core/common/chance.hpp"
#include "dimsum_core/common/rng.hpp"
#include "dimsum_core/common/tick_clock.hpp"

namespace {

using dimsum::TickClock;

template <class T>
T read(std::istream& in) {
  T value;
  if (!(in >> value)) throw std::runtime_error("a number is missing or malformed");
  return value;
}

std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (const char ch : s) {
    if (ch == '"' || ch == '\\') out += '\\';
    out += ch;
  }
  return out + "\"";
}

template <class T>
std::string list(const std::vector<T>& items) {
  std::ostringstream out;
  out << '[';
  for (size_t i = 0; i < items.size(); ++i) out << (i ? ", " : "") << items[i];
  out << ']';
  return out.str();
}

// -- the RNG ----------------------------------------------------------------------------------

std::string rng_vectors(std::istream& in) {
  const uint64_t seed = read<uint64_t>(in);
  const int n = read<int>(in);
  std::vector<uint64_t> bounds(static_cast<size_t>(read<int>(in)));
  for (uint64_t& b : bounds) b = read<uint64_t>(in);
  std::vector<int> counts(static_cast<size_t>(read<int>(in)));
  for (int& c : counts) c = read<int>(in);
  if (n < 0) throw std::runtime_error("n must be >= 0");

  dimsum::Rng rng = dimsum::Rng::from_seed(seed);
  std::vector<uint64_t> u64, bounded;
  std::vector<int> draws, shuffled;
  for (int i = 0; i < n; ++i) u64.push_back(rng.next_u64());
  for (const uint64_t b : bounds) bounded.push_back(rng.bounded(b));
  dimsum::Counts64 multiset{};
  int total = 0;
  for (size_t k = 0; k < counts.size() && k < 64; ++k) {
    multiset.set(static_cast<int>(k), counts[k] & 15);
    total += counts[k] & 15;
  }
  for (int i = 0; i < n && total > 0; ++i) draws.push_back(dimsum::draw_kind(rng, multiset, total));
  for (int i = 0; i < n; ++i) shuffled.push_back(i);
  rng.shuffle(shuffled.data(), shuffled.size());
  std::ostringstream out;
  out << "{\"u64\": " << list(u64) << ", \"bounded\": " << list(bounded) << ", \"draws\": " << list(draws)
      << ", \"shuffle\": " << list(shuffled) << ", \"derive_seed\": " << dimsum::derive_seed(seed, 7) << '}';
  return out.str();
}

// -- the tick clock: named checks, run at compile time (the static_assert) and at run time -----

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

std::string clock_checks() {
  std::vector<std::string> failed;
  for (const ClockCheck& c : kClockChecks)
    if (!c.check()) failed.push_back(quoted(c.name));
  return list(failed);
}

std::string clock_script(std::istream& in) {
  const int32_t capacity = read<int32_t>(in), top = read<int32_t>(in);
  const bool lying = read<int>(in) != 0;
  const int n_ops = read<int>(in);
  TickClock c = clock_at(capacity, top, lying);
  if (!c.valid()) throw std::runtime_error("clock_script: invalid clock");
  std::vector<std::string> after;
  for (int i = 0; i < n_ops; ++i) {
    const int op = read<int>(in);
    const int64_t arg = read<int64_t>(in);
    int64_t result;
    switch (op) {
      case 0: result = c.run(arg); break;
      case 1: result = c.flip(); break;
      case 2: result = c.refill(); break;
      case 3: result = c.lay_down(); break;
      case 4: result = c.stand(arg != 0); break;
      default: throw std::runtime_error("clock_script: unknown op " + std::to_string(op));
    }
    std::ostringstream row;
    row << '[' << result << ", " << c.top << ", " << (c.lying ? "true" : "false") << ", "
        << (c.ran_out() ? "true" : "false") << ']';
    after.push_back(row.str());
  }
  return list(after);
}

std::string run(const std::string& line) {
  std::istringstream in(line);
  std::string command;
  in >> command;
  try {
    if (command == "rng_vectors") return rng_vectors(in);
    if (command == "clock_checks") return clock_checks();
    if (command == "clock_script") return clock_script(in);
    throw std::runtime_error("unknown command " + quoted(command));
  } catch (const std::exception& e) {
    return "{\"error\": " + quoted(e.what()) + "}";
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1) {
    std::string line;
    for (int i = 1; i < argc; ++i) line += std::string(i > 1 ? " " : "") + argv[i];
    std::cout << run(line) << '\n';
    return 0;
  }
  for (std::string line; std::getline(std::cin, line);) {
    if (line.find_first_not_of(" \t\r") != std::string::npos) std::cout << run(line) << '\n';
  }
  return 0;
}
