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

void PolicyNet::forward(const float* input, float* logits) const {
  std::vector<float> a(input, input + input_size()), b;
  for (const DenseLayer& layer : layers) {
    b.assign(layer.bias.begin(), layer.bias.end());
    float* y = b.data();
    const int out = layer.out;
    for (int i = 0; i < layer.in; ++i) {
      const float x = a[static_cast<size_t>(i)];
      if (x == 0.0f) continue;  // one-hot slices and illegal actions: most of the input
      const float* w = layer.weight_t.data() + static_cast<size_t>(i) * static_cast<size_t>(out);
      for (int o = 0; o < out; ++o) y[o] += x * w[o];
    }
    if (layer.activation == Activation::kTanh) {
      for (float& v : b) v = std::tanh(v);
    } else if (layer.activation == Activation::kRelu) {
      for (float& v : b) v = std::max(v, 0.0f);
    }
    a.swap(b);
  }
  std::copy(a.begin(), a.end(), logits);
}

void PolicyNet::logits(const float* observation, const uint8_t* legal_mask, float* out) const {
  std::vector<float> input(static_cast<size_t>(input_size()));
  make_input(observation, legal_mask, input.data());
  forward(input.data(), out);
}

int choose_action(const float* logits, const int16_t* legal, int n, bool greedy, double temperature, Rng& rng) {
  int best = 0;
  for (int k = 1; k < n; ++k) {
    if (logits[legal[k]] > logits[legal[best]]) best = k;  // strict: the lowest action keeps a tie
  }
  if (greedy || n == 1) return legal[best];
  // softmax over the legal actions, shifted by the largest logit so that exp never overflows
  std::vector<double> weight(static_cast<size_t>(n));
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
