// The policy network's arithmetic (policy_net.hpp says what and why).
#include "policy_net.hpp"

#include <algorithm>
#include <cmath>

namespace dimsum::bots {

int PolicyNet::input_size() const {
  int size = 0;
  for (InputPart part : inputs) size += part == InputPart::kActionMask ? num_actions : observation_size;
  return size;
}

void PolicyNet::make_input(const float* observation, const uint8_t* legal_mask, float* input) const {
  for (InputPart part : inputs) {
    if (part == InputPart::kActionMask) {
      for (int a = 0; a < num_actions; ++a) input[a] = legal_mask[a] ? 1.0f : 0.0f;
      input += num_actions;
    } else if (obs_scale.empty()) {
      std::copy(observation, observation + observation_size, input);
      input += observation_size;
    } else {
      for (int i = 0; i < observation_size; ++i) {
        input[i] = std::clamp((observation[i] - obs_offset[i]) * obs_scale[i], -obs_clip, obs_clip);
      }
      input += observation_size;
    }
  }
}

namespace {

// Rows of a tile: forward_rows evaluates a tile's rows layer by layer, its activations
// (kRowTile x a layer's width) staying in the L1 cache.
constexpr int kRowTile = 32;
// Outputs a pass keeps in registers (4 SSE registers a row, two rows at once): their sums never
// go to memory between the input's columns.
constexpr int kOutTile = 16;

// Outputs [o0, o0 + width) of rows x0 (and x1 when kPair) of a dense layer, before the
// activation: bias, then x[i] * W[o][i] added for i ascending, zero inputs skipped (one-hot
// slices and illegal actions: most of the input), each row on its own, so a row's sums do not
// depend on its partner. Width is kOutTile except at a layer's last outputs.
template <bool kPair, int kWidth>
void dense_outputs(const DenseLayer& layer, const float* x0, const float* x1, int o0, int width, float* y0,
                   float* y1) {
  const int n = kWidth > 0 ? kWidth : width;
  float a0[kOutTile], a1[kOutTile];
  for (int k = 0; k < n; ++k) a0[k] = a1[k] = layer.bias[static_cast<size_t>(o0 + k)];
  const auto out = static_cast<size_t>(layer.out);
  const float* w = layer.weight_t.data() + o0;
  for (int i = 0; i < layer.in; ++i, w += out) {
    const float v0 = x0[i];
    if (v0 != 0.0f) {
      for (int k = 0; k < n; ++k) a0[k] += v0 * w[k];
    }
    if constexpr (kPair) {
      const float v1 = x1[i];
      if (v1 != 0.0f) {
        for (int k = 0; k < n; ++k) a1[k] += v1 * w[k];
      }
    }
  }
  for (int k = 0; k < n; ++k) y0[k] = a0[k];
  if constexpr (kPair) {
    for (int k = 0; k < n; ++k) y1[k] = a1[k];
  }
}

template <bool kPair>
void dense_row_outputs(const DenseLayer& layer, const float* x0, const float* x1, float* y0, float* y1) {
  int o0 = 0;
  for (; o0 + kOutTile <= layer.out; o0 += kOutTile)
    dense_outputs<kPair, kOutTile>(layer, x0, x1, o0, kOutTile, y0 + o0, y1 + o0);
  if (o0 < layer.out) dense_outputs<kPair, 0>(layer, x0, x1, o0, layer.out - o0, y0 + o0, y1 + o0);
}

// y[r] = activation(bias + sum over i of x[r][i] * W[:, i]) for the `rows` rows of x
// ([rows][layer.in]) into y ([rows][layer.out]), rows two at a time (each weight read once for
// both). The order of each output's sum does not depend on `rows` or on a row's partner.
void dense_rows(const DenseLayer& layer, const float* x, int rows, float* y) {
  const auto in = static_cast<size_t>(layer.in);
  const auto out = static_cast<size_t>(layer.out);
  int r = 0;
  for (; r + 2 <= rows; r += 2) {
    const size_t k = static_cast<size_t>(r);
    dense_row_outputs<true>(layer, x + k * in, x + (k + 1) * in, y + k * out, y + (k + 1) * out);
  }
  if (r < rows) {
    const size_t k = static_cast<size_t>(r);
    dense_row_outputs<false>(layer, x + k * in, nullptr, y + k * out, nullptr);
  }
  const size_t n = static_cast<size_t>(rows) * out;
  if (layer.activation == Activation::kTanh) {
    for (size_t k = 0; k < n; ++k) y[k] = std::tanh(y[k]);
  } else if (layer.activation == Activation::kRelu) {
    for (size_t k = 0; k < n; ++k) y[k] = std::max(y[k], 0.0f);
  }
}

}  // namespace

PolicyScratch& thread_scratch() {
  thread_local PolicyScratch scratch;
  return scratch;
}

void PolicyNet::forward(const float* input, float* logits) const { forward_rows(input, 1, logits, thread_scratch()); }

void PolicyNet::forward_rows(const float* inputs, int rows, float* logits, PolicyScratch& scratch) const {
  const int in0 = input_size();
  size_t widest = 0;
  for (const DenseLayer& layer : layers) widest = std::max(widest, static_cast<size_t>(layer.out));
  const size_t tile_floats = static_cast<size_t>(kRowTile) * widest;
  if (scratch.layer_a.size() < tile_floats) scratch.layer_a.resize(tile_floats);
  if (scratch.layer_b.size() < tile_floats) scratch.layer_b.resize(tile_floats);
  for (int first = 0; first < rows; first += kRowTile) {
    const int n = std::min(kRowTile, rows - first);
    const float* x = inputs + static_cast<size_t>(first) * static_cast<size_t>(in0);
    int width = in0;
    float* y = scratch.layer_a.data();
    for (const DenseLayer& layer : layers) {
      dense_rows(layer, x, n, y);
      x = y;
      width = layer.out;
      y = y == scratch.layer_a.data() ? scratch.layer_b.data() : scratch.layer_a.data();
    }
    std::copy(x, x + static_cast<size_t>(n) * static_cast<size_t>(width),
              logits + static_cast<size_t>(first) * static_cast<size_t>(width));
  }
}

void PolicyNet::logits(const float* observation, const uint8_t* legal_mask, float* out) const {
  PolicyScratch& scratch = thread_scratch();
  scratch.input.resize(static_cast<size_t>(input_size()));
  make_input(observation, legal_mask, scratch.input.data());
  forward_rows(scratch.input.data(), 1, out, scratch);
}

int choose_action(const float* logits, const int16_t* legal, int n, bool greedy, double temperature, Rng& rng) {
  int best = 0;
  for (int k = 1; k < n; ++k) {
    if (logits[legal[k]] > logits[legal[best]]) best = k;  // strict: the lowest action keeps a tie
  }
  if (greedy || n == 1) return legal[best];
  // softmax over the legal actions, shifted by the largest logit so that exp never overflows
  std::vector<double>& weight = thread_scratch().weight;  // no allocation per move once grown
  weight.resize(static_cast<size_t>(n));
  double total = 0;
  const double top = logits[legal[best]];
  for (int k = 0; k < n; ++k) total += weight[static_cast<size_t>(k)] = std::exp((logits[legal[k]] - top) / temperature);
  // a uniform double in [0, total) from the top 53 bits of one draw
  double r = static_cast<double>(rng.next_u64() >> 11) * 0x1.0p-53 * total;
  for (int k = 0; k < n; ++k) {
    r -= weight[static_cast<size_t>(k)];
    if (r < 0) return legal[k];
  }
  return legal[best];  // rounding left r at or just above 0: the likeliest action
}

}  // namespace dimsum::bots
