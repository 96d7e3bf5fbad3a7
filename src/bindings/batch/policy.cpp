// The policy network (dimsum_core/bots/policy_net.hpp) for python/dimsum/bots/policy.py: a
// PolicyNet built once from a policy file's arrays (read and checked in
// python/dimsum/baselines/policy_file.py; the shapes are checked again here, since anything may
// call this), then policy_action per move and logits for whole batches, with the GIL released.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <ctime>
#include <limits>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "bindings.hpp"
#include "decision_state.hpp"
#include "dimsum_core/bots/policy_net.hpp"
#include "dimsum_core/games.hpp"

namespace dimsum::bindings {
namespace {

using bots::Activation;
using bots::InputPart;
using bots::PolicyNet;
using FloatArray = py::array_t<float, py::array::c_style | py::array::forcecast>;
using LayerArgs = std::tuple<FloatArray, FloatArray, std::string>;

std::vector<float> finite_values(const FloatArray& a, const std::string& what) {
  std::vector<float> v(a.data(), a.data() + a.size());
  for (float x : v) {
    if (!std::isfinite(x)) throw py::value_error(what + " has a value that is not finite");
  }
  return v;
}

PolicyNet make_net(const std::vector<std::string>& inputs, int num_actions, int observation_size,
                   const std::vector<LayerArgs>& layers, const std::optional<FloatArray>& obs_offset,
                   const std::optional<FloatArray>& obs_scale, float obs_clip) {
  PolicyNet net;
  if (num_actions < 1 || observation_size < 0) throw py::value_error("num_actions must be >= 1, observation_size >= 0");
  net.num_actions = num_actions;
  net.observation_size = observation_size;
  for (const std::string& part : inputs) {
    if (part != "action_mask" && part != "observation")
      throw py::value_error("an input part is 'action_mask' or 'observation', got '" + part + "'");
    net.inputs.push_back(part == "action_mask" ? InputPart::kActionMask : InputPart::kObservation);
  }
  if (net.inputs.empty()) throw py::value_error("the network needs at least one input part");
  if (obs_offset.has_value() != obs_scale.has_value())
    throw py::value_error("obs_offset and obs_scale are given together or not at all");
  if (obs_offset) {
    if (obs_offset->size() != observation_size || obs_scale->size() != observation_size)
      throw py::value_error("obs_offset and obs_scale need observation_size values each");
    if (!(obs_clip > 0) || !std::isfinite(obs_clip)) throw py::value_error("obs_clip must be a positive number");
    net.obs_offset = finite_values(*obs_offset, "obs_offset");
    net.obs_scale = finite_values(*obs_scale, "obs_scale");
    net.obs_clip = obs_clip;
  }
  int width = net.input_size();
  for (size_t k = 0; k < layers.size(); ++k) {
    const auto& [weight, bias, activation] = layers[k];
    const std::string name = "layer " + std::to_string(k);
    if (weight.ndim() != 2 || weight.shape(1) != width || bias.ndim() != 1 || bias.shape(0) != weight.shape(0))
      throw py::value_error(name + ": weight must be (out, " + std::to_string(width) + ") and bias (out,)");
    bots::DenseLayer layer;
    layer.in = width;
    layer.out = static_cast<int>(weight.shape(0));
    const std::vector<float> w = finite_values(weight, name + " weight");
    layer.weight_t.resize(w.size());
    for (int o = 0; o < layer.out; ++o) {
      for (int i = 0; i < layer.in; ++i) layer.weight_t[static_cast<size_t>(i) * layer.out + o] = w[static_cast<size_t>(o) * layer.in + i];
    }
    layer.bias = finite_values(bias, name + " bias");
    if (activation == "tanh") layer.activation = Activation::kTanh;
    else if (activation == "relu") layer.activation = Activation::kRelu;
    else if (activation == "none") layer.activation = Activation::kNone;
    else throw py::value_error(name + ": activation is 'tanh', 'relu' or 'none', got '" + activation + "'");
    width = layer.out;
    net.layers.push_back(std::move(layer));
  }
  if (net.layers.empty() || width != num_actions)
    throw py::value_error("the last layer must give num_actions (" + std::to_string(num_actions) + ") logits");
  net.positive_zero_biases();
  net.center_inputs();
  return net;
}

py::array_t<float> batch_logits(const PolicyNet& net, const FloatArray& observations,
                                const py::array_t<uint8_t, py::array::c_style | py::array::forcecast>& masks) {
  if (observations.ndim() != 2 || observations.shape(1) != net.observation_size || masks.ndim() != 2 ||
      masks.shape(1) != net.num_actions || masks.shape(0) != observations.shape(0))
    throw py::value_error("logits takes observations (n, " + std::to_string(net.observation_size) + ") and masks (n, " +
                          std::to_string(net.num_actions) + ")");
  const int64_t n = observations.shape(0);
  py::array_t<float> out({n, static_cast<int64_t>(net.num_actions)});
  const float* obs = observations.data();
  const uint8_t* mask = masks.data();
  float* logits = out.mutable_data();
  py::gil_scoped_release release;
  // the rows' inputs and their non-zero entries, a chunk of rows at a time, each chunk evaluated
  // together (each row's logits are forward()'s, bit for bit, whatever it is grouped with). The
  // chunk's buffers are this thread's, kept between calls: whole-batch buffers (megabytes for a
  // few thousand rows) were fresh pages for the kernel to fault in and clear on every call, a
  // sixth of a batch's time.
  constexpr int64_t kChunkRows = 64;
  const auto width = static_cast<size_t>(net.input_size());
  thread_local std::vector<float> inputs;
  thread_local std::vector<int32_t> nonzero;
  thread_local std::vector<int> counts;
  inputs.resize(std::max(inputs.size(), kChunkRows * width));  // make_input writes every value
  nonzero.resize(std::max(nonzero.size(), kChunkRows * width));
  counts.resize(kChunkRows);
  for (int64_t first = 0; first < n; first += kChunkRows) {
    const int64_t rows = std::min(kChunkRows, n - first);
    for (int64_t r = 0; r < rows; ++r) {
      const auto k = static_cast<size_t>(r);
      const int64_t row = first + r;
      counts[k] = net.make_input(obs + row * net.observation_size, mask + row * net.num_actions,
                                 inputs.data() + k * width, nonzero.data() + k * width);
    }
    const bots::RowNonzero rows_nonzero{nonzero.data(), counts.data(), width};
    net.forward_rows(inputs.data(), static_cast<int>(rows), logits + first * net.num_actions, bots::thread_scratch(),
                     nullptr, &rows_nonzero);
  }
  return out;
}

// For tests/test_policy_legal_logits.py: the logits of each row's legal actions as a move or a
// policy opponent's round computes them (forward_rows told to read those alone, which may sum only
// the registers that hold them), NaN at every other action; the whole batch as one call (tiles of
// rows), or row by row (`alone`, a move's single row). Not public API (no stub).
py::array_t<float> legal_logits(const PolicyNet& net, const FloatArray& observations,
                                const py::array_t<uint8_t, py::array::c_style | py::array::forcecast>& masks,
                                bool alone) {
  if (observations.ndim() != 2 || observations.shape(1) != net.observation_size || masks.ndim() != 2 ||
      masks.shape(1) != net.num_actions || masks.shape(0) != observations.shape(0))
    throw py::value_error("legal logits take observations (n, " + std::to_string(net.observation_size) +
                          ") and masks (n, " + std::to_string(net.num_actions) + ")");
  const int64_t n = observations.shape(0);
  const auto width = static_cast<size_t>(net.input_size());
  const auto actions = static_cast<size_t>(net.num_actions);
  std::vector<float> inputs(static_cast<size_t>(n) * width);
  std::vector<int32_t> nonzero(static_cast<size_t>(n) * width);
  std::vector<int> nonzero_counts(static_cast<size_t>(n));
  std::vector<int16_t> legal(static_cast<size_t>(n) * actions);
  std::vector<int> legal_counts(static_cast<size_t>(n), 0);
  std::vector<float> logits(static_cast<size_t>(n) * actions, std::numeric_limits<float>::quiet_NaN());
  for (int64_t r = 0; r < n; ++r) {
    const auto k = static_cast<size_t>(r);
    const uint8_t* mask = masks.data() + r * net.num_actions;
    nonzero_counts[k] = net.make_input(observations.data() + r * net.observation_size, mask, inputs.data() + k * width,
                                       nonzero.data() + k * width);
    for (int a = 0; a < net.num_actions; ++a)
      if (mask[a] != 0) legal[k * actions + static_cast<size_t>(legal_counts[k]++)] = static_cast<int16_t>(a);
  }
  {
    py::gil_scoped_release release;
    const int64_t step = alone ? 1 : n;
    for (int64_t first = 0; first < n; first += step) {
      const auto k = static_cast<size_t>(first);
      const int rows = static_cast<int>(std::min(step, n - first));
      const bots::RowActions only{legal.data() + k * actions, legal_counts.data() + k, actions};
      const bots::RowNonzero listed{nonzero.data() + k * width, nonzero_counts.data() + k, width};
      net.forward_rows(inputs.data() + k * width, rows, logits.data() + k * actions, bots::thread_scratch(), &only,
                       &listed);
    }
  }
  // the outputs a choice does not read: NaN, whatever the kernels left there
  for (size_t r = 0; r < static_cast<size_t>(n); ++r) {
    std::vector<bool> wanted(actions, false);
    for (int j = 0; j < legal_counts[r]; ++j) wanted[static_cast<size_t>(legal[r * actions + static_cast<size_t>(j)])] = true;
    for (size_t a = 0; a < actions; ++a)
      if (!wanted[a]) logits[r * actions + a] = std::numeric_limits<float>::quiet_NaN();
  }
  py::array_t<float> out({n, static_cast<int64_t>(net.num_actions)});
  std::copy(logits.begin(), logits.end(), out.mutable_data());
  return out;
}

int policy_action(const PolicyNet& net, const std::string& game, const py::bytes& config, int64_t state_size,
                  int64_t state_version, const py::bytes& state, bool greedy, double temperature, uint64_t seed,
                  uint64_t call) {
  if (!greedy && !(temperature > 0 && std::isfinite(temperature)))
    throw py::value_error("temperature must be a positive number when the policy samples (greedy=False)");
  int action = -1;
  on_game(game, [&]<class G>() {
    const auto c = config_from_bytes<G>(config, state_size, state_version);
    const ConfigInfo info = G::config_info(c);
    if (info.observation_size != net.observation_size || info.num_actions != net.num_actions)
      throw py::value_error(std::string(G::kName) + ": this network takes " + std::to_string(net.observation_size) +
                            " observation values and " + std::to_string(net.num_actions) + " actions; the game has " +
                            std::to_string(info.observation_size) + " and " + std::to_string(info.num_actions));
    const auto s = decision_state<G>(c, state);
    py::gil_scoped_release release;
    Rng rng = Rng::from_seed(derive_seed(seed, call));
    action = bots::policy_move<G>(net, c, s, greedy, temperature, rng);
  });
  return action;
}

// For benchmarks/policy_inference.py: the greedy move at each of `states` (State.to_bytes() each),
// `repeat` times over, in one C++ loop, and the process CPU seconds of those moves alone (the
// states are decoded and checked before the clock starts): what a move costs without Python's
// per-call overhead. Not public API (no stub): a measuring tool.
// The moves themselves: a function of its own (never inlined), so that callgrind can count it
// alone (benchmarks/policy_callgrind.py, --toggle-collect='*policy_moves_loop*').
template <class G>
#if defined(__GNUC__)
__attribute__((noinline))
#endif
void policy_moves_loop(const PolicyNet& net, const typename G::Config& c, const std::vector<typename G::State>& states,
                       int repeat, std::vector<int>& actions) {
  Rng rng = Rng::from_seed(0);  // greedy: nothing is drawn
  for (int k = 0; k < repeat; ++k) {
    for (size_t i = 0; i < states.size(); ++i)
      actions[i] = bots::policy_move<G>(net, c, states[i], /*greedy=*/true, 1.0, rng);
  }
}

std::tuple<std::vector<int>, double> policy_moves_cpu(const PolicyNet& net, const std::string& game,
                                                      const py::bytes& config, int64_t state_size,
                                                      int64_t state_version, const std::vector<py::bytes>& states,
                                                      int repeat) {
  if (repeat < 1) throw py::value_error("repeat must be >= 1");
  std::vector<int> actions(states.size(), -1);
  double seconds = 0;
  on_game(game, [&]<class G>() {
    const auto c = config_from_bytes<G>(config, state_size, state_version);
    const ConfigInfo info = G::config_info(c);
    if (info.observation_size != net.observation_size || info.num_actions != net.num_actions)
      throw py::value_error(std::string(G::kName) + ": this network does not fit this game's configuration");
    std::vector<typename G::State> decoded;
    decoded.reserve(states.size());
    for (const py::bytes& b : states) decoded.push_back(decision_state<G>(c, b));
    py::gil_scoped_release release;
    const std::clock_t start = std::clock();
    policy_moves_loop<G>(net, c, decoded, repeat, actions);
    seconds = static_cast<double>(std::clock() - start) / CLOCKS_PER_SEC;
  });
  return {actions, seconds};
}

}  // namespace

void register_policy(py::module_& m) {
  py::class_<PolicyNet>(m, "PolicyNet", "A small MLP policy in C++ (dimsum_core/bots/policy_net.hpp).")
      .def(py::init(&make_net), py::arg("inputs"), py::arg("num_actions"), py::arg("observation_size"),
           py::arg("layers"), py::arg("obs_offset") = py::none(), py::arg("obs_scale") = py::none(),
           py::arg("obs_clip") = 0.0f,
           "inputs: the parts of the input in order ('action_mask', 'observation'); layers: (weight (out, in), "
           "bias (out,), activation 'tanh'|'relu'|'none'); obs_offset/obs_scale/obs_clip: the observation's "
           "normalization, clip((x - offset) * scale, -clip, clip).")
      .def_property_readonly("num_actions", [](const PolicyNet& n) { return n.num_actions; })
      .def_property_readonly("observation_size", [](const PolicyNet& n) { return n.observation_size; })
      .def_property_readonly("input_size", &PolicyNet::input_size)
      .def("logits", &batch_logits, py::arg("observations"), py::arg("masks"),
           "The logits (n, num_actions) float32 of n observations and legal masks, unmasked.");
  m.def("policy_action", &policy_action, py::arg("net"), py::arg("game"), py::arg("config"), py::arg("state_size"),
        py::arg("state_version"), py::arg("state"), py::arg("greedy"), py::arg("temperature"), py::arg("seed"),
        py::arg("call"),
        "The policy's legal action for the player to act in `state` (State.to_bytes()): greedy, or drawn from "
        "softmax(logits / temperature) over the legal actions with derive_seed(seed, call).");
  m.def("policy_kernels", &bots::policy_kernels,
        "The kernels networks are evaluated with in this process: 'base' (SSE2 on x86-64), 'avx', 'avx2' or 'avx512', the "
        "CPU's widest unless the environment variable DIMSUM_POLICY_ISA caps them (read once). The same bits on each.");
  m.def("_policy_legal_logits", &legal_logits, py::arg("net"), py::arg("observations"), py::arg("masks"),
        py::arg("alone") = false,
        "Tests only: each row's legal actions' logits as a move computes them (NaN elsewhere), the batch at once "
        "or row by row.");
  m.def("_policy_moves_cpu", &policy_moves_cpu, py::arg("net"), py::arg("game"), py::arg("config"),
        py::arg("state_size"), py::arg("state_version"), py::arg("states"), py::arg("repeat") = 1,
        "Benchmarks only: the greedy move at each state (State.to_bytes()), `repeat` times, and the CPU seconds "
        "those moves took in C++.");
}

}  // namespace dimsum::bindings
