// The golden program: the same games, step by step, on every platform (issue 27).
//
// C++ over the core only (no Python), so that it builds with any toolchain and runs under an
// emulator: .ci/golden builds it natively, with clang + libc++, for aarch64 and big-endian
// s390x (qemu-user), for Windows (MinGW, under wine) and with MSVC's branches forced, and
// compares every digest with the committed ones (expected.txt, made on x86_64 by
// `.ci/golden --update`, with states.bin: the states `write` gives there).
//
// configs.txt names the configurations (made by make_configs.py from the Python packages):
//     <label> <game> <seed> <options as JSON, for the Python twin> <n> <n config values>
// For each, one game from new_state(seed), the action at each step legal[splitmix64(seed ^ step)
// % n] (the outcomes at a chance node), at most kMaxSteps steps. Each step gives two digests
// (FNV-1a 64 over little-endian values):
//   keys  the player to act, the legal actions, the action chosen, the state's bytes as
//         to_bytes writes them (little-endian: common/byte_order.hpp) and its key. The Python
//         twin (tests/test_golden_bytes.py) computes the same one through the Python API.
//   all   keys, and the key computed from scratch, the exported fields, every player's
//         observation, the returns, the chance weights and the heuristic's move.
// Then three lines per configuration: 20 random playouts (returns, lengths), the heuristic's
// moves along the game, and one IS-MCTS search (200 simulations, one thread) at the first
// decision.
//
// Commands (exit status 0 when all is well, 1 on a difference, 2 on bad use):
//   golden print CONFIGS                    the digest lines (expected.txt's format)
//   golden check CONFIGS EXPECTED           compares; names the configuration and first differing step
//   golden write CONFIGS FILE               the state bytes of every 10th step into FILE
//   golden read CONFIGS FILE EXPECTED       loads FILE's states (written on any machine), validates
//                                           them and checks their keys digests against EXPECTED
#include <algorithm>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "dimsum_core/batch/playouts.hpp"
#include "dimsum_core/bots/heuristic.hpp"
#include "dimsum_core/bots/ismcts.hpp"
#include "dimsum_core/common/byte_order.hpp"
#include "dimsum_core/common/game_api.hpp"
#include "dimsum_core/games.hpp"

namespace {

using dimsum::GameApi;

constexpr int kMaxSteps = 120;       // steps traced per configuration (the game may end sooner)
constexpr int kStateEvery = 10;      // `write` keeps the state of every 10th step
constexpr int kPlayouts = 20;
constexpr int64_t kSimulations = 200;

// Room for any list legal_actions writes: the longest legal list of any game (kMaxActions), or a
// chance node's outcomes (ids below the config's num_actions).
template <class... G>
constexpr int max_actions(dimsum::GameList<G...>) {
  return std::max({G::kMaxActions...});
}
std::vector<int16_t> list_room(const GameApi& api, const void* config) {
  dimsum::ConfigInfo info;
  api.config_info(config, &info);
  return std::vector<int16_t>(static_cast<size_t>(std::max(max_actions(dimsum::AllGames{}), info.num_actions)));
}

// FNV-1a 64 over values written little-endian, so that the digest means the same everywhere.
struct Digest {
  uint64_t h = 0xCBF29CE484222325ull;
  void bytes(const void* p, size_t n) {
    const auto* b = static_cast<const unsigned char*>(p);
    for (size_t i = 0; i < n; ++i) h = (h ^ b[i]) * 0x100000001B3ull;
  }
  template <class T>
  void value(T v) {  // an integer, in little-endian bytes
    unsigned char out[sizeof(T)];
    dimsum::store_little_endian(v, out);
    bytes(out, sizeof(T));
  }
  void real(double v) {
    uint64_t bits;
    std::memcpy(&bits, &v, sizeof bits);
    value(bits);
  }
  void real(float v) {
    uint32_t bits;
    std::memcpy(&bits, &v, sizeof bits);
    value(bits);
  }
};

struct Config {
  std::string label, game;
  uint64_t seed = 0;
  std::vector<int64_t> values;
  const GameApi* api = nullptr;
  std::vector<uint64_t> built;  // the C++ Config, aligned
};

struct Line {  // one line of expected.txt
  std::string label, step;
  uint64_t keys = 0, all = 0;
};

std::string hex(uint64_t v) {
  char text[17];
  std::snprintf(text, sizeof text, "%016" PRIx64, v);
  return text;
}

[[noreturn]] void usage(const std::string& why) {
  std::fprintf(stderr, "golden: %s\nusage: golden print CONFIGS | check CONFIGS EXPECTED | write CONFIGS FILE | "
               "read CONFIGS FILE EXPECTED\n", why.c_str());
  std::exit(2);
}

std::vector<Config> read_configs(const char* path) {
  std::ifstream in(path);
  if (!in) usage(std::string("cannot read ") + path);
  std::vector<Config> configs;
  std::string text;
  while (std::getline(in, text)) {
    if (text.empty() || text[0] == '#') continue;
    std::istringstream row(text);
    Config c;
    std::string options;
    size_t n = 0;
    row >> c.label >> c.game >> c.seed >> options >> n;
    c.values.resize(n);
    for (auto& v : c.values) row >> v;
    if (!row) usage("bad line in " + std::string(path) + ": " + text.substr(0, 60));
    c.api = dimsum::find_game(c.game.c_str());
    if (!c.api) usage("no game " + c.game + " in this build");
    c.built.assign(c.api->config_size / 8 + 1, 0);
    char err[512];
    if (!c.api->config_from_values(c.values.data(), static_cast<int>(n), c.built.data(), err, sizeof err))
      usage(c.label + ": " + err);
    configs.push_back(std::move(c));
  }
  return configs;
}

std::vector<Line> read_expected(const char* path) {
  std::ifstream in(path);
  if (!in) usage(std::string("cannot read ") + path);
  std::vector<Line> lines;
  std::string text;
  while (std::getline(in, text)) {
    if (text.empty() || text[0] == '#') continue;
    std::istringstream row(text);
    Line l;
    std::string keys, all;
    row >> l.label >> l.step >> keys >> all;
    l.keys = std::stoull(keys, nullptr, 16);
    l.all = std::stoull(all, nullptr, 16);
    lines.push_back(l);
  }
  return lines;
}

// The state's bytes as to_bytes writes them (after its header).
std::vector<unsigned char> state_bytes(const GameApi& api, const void* state) {
  std::vector<unsigned char> out(api.state_size);
  api.write_bytes(state, out.data());
  return out;
}

// The keys digest of one step (the Python twin's): the player to act, the legal actions (the
// outcomes at a chance node), the action chosen (-1 once over), the bytes and the key.
uint64_t keys_digest(const GameApi& api, const void* state, const std::vector<int16_t>& legal, int action) {
  Digest d;
  d.value(static_cast<int32_t>(api.current_player(state)));
  d.value(static_cast<int32_t>(legal.size()));
  for (int16_t a : legal) d.value(a);
  d.value(static_cast<int32_t>(action));
  const auto bytes = state_bytes(api, state);
  d.bytes(bytes.data(), bytes.size());
  d.value(api.hash(state));
  return d.h;
}

// Everything else the core says about the position (see the file's comment).
template <class G>
void digest_rest(Digest& d, const Config& cfg, const typename G::State& s) {
  const GameApi& api = *cfg.api;
  const auto& c = *reinterpret_cast<const typename G::Config*>(cfg.built.data());
  const dimsum::ConfigInfo info = G::config_info(c);
  d.value(api.compute_hash(&c, &s));
  std::vector<int64_t> fields(static_cast<size_t>(info.num_fields));
  d.value(static_cast<int32_t>(api.export_fields(&c, &s, fields.data())));
  for (int64_t v : fields) d.value(v);
  std::vector<float> obs(static_cast<size_t>(info.observation_size));
  for (int p = 0; p < info.players; ++p) {
    api.observe(&c, &s, p, obs.data());
    for (float v : obs) d.real(v);
  }
  double returns[dimsum::kMaxPlayers];
  api.returns(&c, &s, returns);
  for (int p = 0; p < info.players; ++p) d.real(returns[p]);
  std::vector<int16_t> outcomes(static_cast<size_t>(info.num_chance_outcomes) + 1);
  std::vector<uint32_t> weights(outcomes.size());
  const int n = api.chance_outcomes(&c, &s, outcomes.data(), weights.data());
  for (int i = 0; i < n; ++i) d.value(weights[static_cast<size_t>(i)]);
  char err[512];
  d.value(static_cast<int32_t>(api.validate(&c, &s, err, sizeof err)));
}

struct Trace {
  std::vector<Line> lines;
  std::vector<std::pair<int, std::vector<unsigned char>>> states;  // (step, bytes) every kStateEvery
};

template <class G>
Trace trace_game(const Config& cfg) {
  using State = typename G::State;
  const GameApi& api = *cfg.api;
  const auto& c = *reinterpret_cast<const typename G::Config*>(cfg.built.data());
  Trace t;
  State s;
  api.new_state(&c, &s, cfg.seed);
  std::vector<int16_t> legal = list_room(api, &c);
  Digest heuristic;  // the heuristic's moves along the game
  bool searched = false;
  Digest search;
  for (int step = 0;; ++step) {
    const int n = api.legal_actions(&c, &s, legal.data());
    const std::vector<int16_t> list(legal.begin(), legal.begin() + n);
    const bool over = n == 0 || step == kMaxSteps;
    const int action = over ? -1 : list[static_cast<size_t>(dimsum::splitmix64(cfg.seed ^ static_cast<uint64_t>(step)) %
                                                            static_cast<uint64_t>(n))];
    Line line{cfg.label, std::to_string(step), keys_digest(api, &s, list, action), 0};
    Digest all;
    all.value(line.keys);
    digest_rest<G>(all, cfg, s);
    line.all = all.h;
    t.lines.push_back(line);
    if (step % kStateEvery == 0) t.states.emplace_back(step, state_bytes(api, &s));
    if (G::current_player(s) >= 0) {
      dimsum::Rng rng = dimsum::Rng::from_seed(cfg.seed + static_cast<uint64_t>(step));
      heuristic.value(static_cast<int32_t>(dimsum::heuristic_move<G>(c, s, rng)));
      if (!searched) {
        searched = true;
        dimsum::bots::SearchParams p;
        p.simulations = kSimulations;
        p.seed = cfg.seed;
        p.min_return = -1;  // a generous range: the scaling is what is compared, not its use
        p.max_return = 1;
        const dimsum::bots::SearchResult r = dimsum::bots::ismcts_search<G>(c, s, p);
        search.value(static_cast<int32_t>(r.action));
        search.value(r.simulations);
        search.value(r.rollout_steps);
        for (const auto& stat : r.root) {
          search.value(static_cast<int32_t>(stat.action));
          search.value(stat.visits);
          search.real(stat.mean);
        }
      }
    }
    if (over) break;
    if (api.apply_timed) api.apply_timed(&c, &s, action, -1);  // -1: the game's own cost, as Python's apply
    else api.apply(&c, &s, action);
  }
  const dimsum::ConfigInfo info = G::config_info(c);
  std::vector<double> returns(static_cast<size_t>(kPlayouts * info.players));
  std::vector<int64_t> lengths(kPlayouts);
  dimsum::random_playouts<G>(c, cfg.seed, kPlayouts, 1, returns.data(), lengths.data());
  Digest playouts;
  for (double r : returns) playouts.real(r);
  for (int64_t l : lengths) playouts.value(l);
  t.lines.push_back({cfg.label, "playouts", 0, playouts.h});
  t.lines.push_back({cfg.label, "heuristic", 0, heuristic.h});
  t.lines.push_back({cfg.label, "ismcts", 0, search.h});
  return t;
}

Trace trace(const Config& cfg) {
  Trace t;
  dimsum::dispatch_game(cfg.game.c_str(), [&]<class G>() { t = trace_game<G>(cfg); });
  return t;
}

void print_line(const Line& l) {
  std::printf("%s %s %s %s\n", l.label.c_str(), l.step.c_str(), hex(l.keys).c_str(), hex(l.all).c_str());
}

int print(const std::vector<Config>& configs) {
  std::printf("# label step keys-digest all-digest (tests/golden_cpp/golden.cpp; regenerate: .ci/golden --update)\n");
  for (const Config& c : configs)
    for (const Line& l : trace(c).lines) print_line(l);
  return 0;
}

const Line* find_line(const std::vector<Line>& expected, const std::string& label, const std::string& step) {
  for (const Line& l : expected)
    if (l.label == label && l.step == step) return &l;
  return nullptr;
}

int check(const std::vector<Config>& configs, const std::vector<Line>& expected) {
  int bad = 0, steps = 0;
  for (const Config& c : configs) {
    const Trace t = trace(c);
    size_t expected_here = 0;
    for (const Line& l : expected) expected_here += l.label == c.label;
    for (const Line& l : t.lines) {
      ++steps;
      const Line* want = find_line(expected, c.label, l.step);
      if (want && want->keys == l.keys && want->all == l.all) continue;
      const char* what = !want ? "not in the expected digests"
                         : want->keys != l.keys ? "the keys digest (actions, state bytes, key) differs"
                                                : "the full digest (fields, observations, returns, bots) differs";
      std::printf("MISMATCH configuration %s (%s, seed %" PRIu64 "): first differing step %s: %s\n  got      ",
                  c.label.c_str(), c.game.c_str(), c.seed, l.step.c_str(), what);
      print_line(l);
      if (want) {
        std::printf("  expected ");
        print_line(*want);
      }
      ++bad;
      break;
    }
    if (expected_here != t.lines.size() && !bad) {
      std::printf("MISMATCH configuration %s: %zu lines expected, %zu traced\n", c.label.c_str(), expected_here,
                  t.lines.size());
      ++bad;
    }
  }
  if (bad) return 1;
  std::printf("golden: %zu configurations, %d digests, all as expected\n", configs.size(), steps);
  return 0;
}

// FILE: per state, the label's length (1 byte), the label, the step (4 bytes, little-endian),
// the state's bytes (little-endian: what to_bytes writes after its header).
int write_states(const std::vector<Config>& configs, const char* path) {
  std::ofstream out(path, std::ios::binary);
  int written = 0;
  for (const Config& c : configs) {
    for (const auto& [step, bytes] : trace(c).states) {
      unsigned char head[4];
      dimsum::store_little_endian(static_cast<uint32_t>(step), head);
      out.put(static_cast<char>(c.label.size()));
      out.write(c.label.data(), static_cast<std::streamsize>(c.label.size()));
      out.write(reinterpret_cast<const char*>(head), 4);
      out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
      ++written;
    }
  }
  if (!out) usage(std::string("cannot write ") + path);
  std::printf("golden: %d states written to %s\n", written, path);
  return 0;
}

int read_states(const std::vector<Config>& configs, const char* path, const std::vector<Line>& expected) {
  std::ifstream in(path, std::ios::binary);
  if (!in) usage(std::string("cannot read ") + path);
  int loaded = 0, bad = 0;
  for (int length; (length = in.get()) != EOF;) {
    std::string label(static_cast<size_t>(length), '\0');
    unsigned char head[4];
    in.read(label.data(), length);
    in.read(reinterpret_cast<char*>(head), 4);
    uint32_t step;
    dimsum::load_little_endian(head, step);
    const Config* cfg = nullptr;
    for (const Config& c : configs)
      if (c.label == label) cfg = &c;
    if (!in || !cfg) usage(std::string(path) + ": unreadable or unknown configuration '" + label + "'");
    const GameApi& api = *cfg->api;
    std::vector<unsigned char> bytes(api.state_size);
    in.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    std::vector<uint64_t> state(api.state_size / 8 + 1);
    api.read_bytes(bytes.data(), state.data());
    char err[512] = "";
    std::vector<int16_t> legal = list_room(api, cfg->built.data());
    const int n = api.validate(cfg->built.data(), state.data(), err, sizeof err)
                      ? api.legal_actions(cfg->built.data(), state.data(), legal.data())
                      : -1;
    const Line* want = find_line(expected, label, std::to_string(step));
    const bool over = n == 0 || step == kMaxSteps;
    const std::vector<int16_t> list(legal.begin(), legal.begin() + std::max(n, 0));
    const int action = n <= 0 || over ? -1 : list[static_cast<size_t>(dimsum::splitmix64(cfg->seed ^ step) %
                                                                       static_cast<uint64_t>(n))];
    const bool keyed = api.hash(state.data()) == api.compute_hash(cfg->built.data(), state.data());
    if (n < 0 || !keyed || !want || keys_digest(api, state.data(), list, action) != want->keys) {
      std::printf("MISMATCH %s: configuration %s step %u loads %s\n", path, label.c_str(), step,
                  n < 0 ? err : !keyed ? "with a key that is not its position's" : "as another position");
      ++bad;
    }
    ++loaded;
  }
  if (bad) return 1;
  std::printf("golden: %d states from %s load, validate and match their digests\n", loaded, path);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) usage("no command");
  const std::string command = argv[1];
  const auto configs = read_configs(argv[2]);
  if (command == "print" && argc == 3) return print(configs);
  if (command == "check" && argc == 4) return check(configs, read_expected(argv[3]));
  if (command == "write" && argc == 4) return write_states(configs, argv[3]);
  if (command == "read" && argc == 5) return read_states(configs, argv[3], read_expected(argv[4]));
  usage("unknown command or wrong arguments: " + command);
}
