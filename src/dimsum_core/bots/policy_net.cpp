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
      // zero exactly where the observation is zero: the same arithmetic as obs_at_zero's
      for (int i = 0; i < observation_size; ++i) {
        input[i] = std::clamp((observation[i] - obs_offset[i]) * obs_scale[i], -obs_clip, obs_clip) - obs_at_zero[i];
      }
      input += observation_size;
    }
  }
}

namespace {

// Rows of a tile: forward_rows evaluates a tile's rows layer by layer, its activations
// (kRowTile x a layer's width) staying in the L1 cache.
constexpr int kRowTile = 32;
// Outputs a pass keeps in registers, for a group of rows at once (each weight read once for the
// group): their sums never go to memory between the input's columns.
constexpr int kOutTile = 16;

#if defined(__GNUC__) && defined(__x86_64__) && defined(__linux__)
// The kernel is compiled twice: for any x86-64 (SSE2) and for AVX (twice as wide), chosen at run
// time. Not FMA: each lane does the same multiply, then add, as SSE2 and a scalar loop do, so
// every build and every CPU gives the same bits (a fused multiply-add rounds once, not twice).
#define DIMSUM_POLICY_AVX 1
#define DIMSUM_ALWAYS_INLINE __attribute__((always_inline)) inline
#else
#define DIMSUM_ALWAYS_INLINE inline
#endif


// Outputs [o0, o0 + width) of the kRows rows x[0..kRows) of a dense layer, before the
// activation: bias, then x[r][i] * W[o][i] added for i ascending, zero inputs skipped (one-hot
// slices and illegal actions: most of the input), each row on its own, so a row's sums depend
// neither on the rows it is grouped with nor on the group's size. Width is kOutTile (kWidth)
// except at a layer's last outputs (kWidth 0).
template <int kRows, int kWidth>
DIMSUM_ALWAYS_INLINE void dense_outputs(const DenseLayer& layer, const float* const* x, int o0, int width,
                                        float* const* y) {
  const int n = kWidth > 0 ? kWidth : width;
  float a[kRows][kOutTile];
  for (int r = 0; r < kRows; ++r)
    for (int k = 0; k < n; ++k) a[r][k] = layer.bias[static_cast<size_t>(o0 + k)];
  const auto out = static_cast<size_t>(layer.out);
  const float* w = layer.weight_t.data() + o0;
  for (int i = 0; i < layer.in; ++i, w += out) {
    for (int r = 0; r < kRows; ++r) {
      const float v = x[r][i];
      if (v == 0.0f) continue;
      for (int k = 0; k < n; ++k) a[r][k] += v * w[k];
    }
  }
  for (int r = 0; r < kRows; ++r)
    for (int k = 0; k < n; ++k) y[r][o0 + k] = a[r][k];
}

// Every output of the kRows rows x[0..kRows) into y[0..kRows).
template <int kRows>
DIMSUM_ALWAYS_INLINE void dense_group(const DenseLayer& layer, const float* const* x, float* const* y) {
  int o0 = 0;
  for (; o0 + kOutTile <= layer.out; o0 += kOutTile) dense_outputs<kRows, kOutTile>(layer, x, o0, kOutTile, y);
  if (o0 < layer.out) dense_outputs<kRows, 0>(layer, x, o0, layer.out - o0, y);
}

// The `rows` rows of x ([rows][layer.in]) into y ([rows][layer.out]), before the activation,
// kGroup rows at a time, then the rest one by one.
template <int kGroup>
DIMSUM_ALWAYS_INLINE void dense_sums(const DenseLayer& layer, const float* x, int rows, float* y) {
  const auto in = static_cast<size_t>(layer.in);
  const auto out = static_cast<size_t>(layer.out);
  int r = 0;
  for (; r + kGroup <= rows; r += kGroup) {
    const float* xs[kGroup];
    float* ys[kGroup];
    for (int g = 0; g < kGroup; ++g) {
      xs[g] = x + static_cast<size_t>(r + g) * in;
      ys[g] = y + static_cast<size_t>(r + g) * out;
    }
    dense_group<kGroup>(layer, xs, ys);
  }
  for (; r < rows; ++r) {
    const float* xs[1] = {x + static_cast<size_t>(r) * in};
    float* ys[1] = {y + static_cast<size_t>(r) * out};
    dense_group<1>(layer, xs, ys);
  }
}

// SSE2 has 16 registers of 4 floats: two rows of 16 sums, and the weights.
void dense_sums_sse2(const DenseLayer& layer, const float* x, int rows, float* y) { dense_sums<2>(layer, x, rows, y); }

#ifdef DIMSUM_POLICY_AVX
// AVX: 8 floats a register (GCC's vector extension, so that the sums of four rows by 16 outputs
// stay in 8 registers: a plain array of them went through memory). Lane k of a register does
// exactly what dense_outputs does for output o0 + k.
typedef float Floats8 __attribute__((vector_size(32)));

__attribute__((target("avx"))) inline Floats8 load8(const float* p) {
  Floats8 v;
  __builtin_memcpy(&v, p, sizeof v);
  return v;
}

// Outputs [o0, o0 + 16) of the four rows x[0..4).
__attribute__((target("avx"))) void dense_outputs_avx(const DenseLayer& layer, const float* const* x, int o0,
                                                      float* const* y) {
  const Floats8 b0 = load8(layer.bias.data() + o0), b1 = load8(layer.bias.data() + o0 + 8);
  Floats8 a00 = b0, a01 = b1, a10 = b0, a11 = b1, a20 = b0, a21 = b1, a30 = b0, a31 = b1;
  const auto out = static_cast<size_t>(layer.out);
  const float* w = layer.weight_t.data() + o0;
  const float *x0 = x[0], *x1 = x[1], *x2 = x[2], *x3 = x[3];
  for (int i = 0; i < layer.in; ++i, w += out) {
    const Floats8 w0 = load8(w), w1 = load8(w + 8);
    if (const float v = x0[i]; v != 0.0f) a00 += v * w0, a01 += v * w1;
    if (const float v = x1[i]; v != 0.0f) a10 += v * w0, a11 += v * w1;
    if (const float v = x2[i]; v != 0.0f) a20 += v * w0, a21 += v * w1;
    if (const float v = x3[i]; v != 0.0f) a30 += v * w0, a31 += v * w1;
  }
  const Floats8 sums[4][2] = {{a00, a01}, {a10, a11}, {a20, a21}, {a30, a31}};
  for (int r = 0; r < 4; ++r) __builtin_memcpy(y[r] + o0, sums[r], sizeof sums[r]);
}

__attribute__((target("avx"))) void dense_sums_avx(const DenseLayer& layer, const float* x, int rows, float* y) {
  const auto in = static_cast<size_t>(layer.in);
  const auto out = static_cast<size_t>(layer.out);
  int r = 0;
  for (; r + 4 <= rows; r += 4) {
    const float* xs[4];
    float* ys[4];
    for (int g = 0; g < 4; ++g) {
      xs[g] = x + static_cast<size_t>(r + g) * in;
      ys[g] = y + static_cast<size_t>(r + g) * out;
    }
    int o0 = 0;
    for (; o0 + kOutTile <= layer.out; o0 += kOutTile) dense_outputs_avx(layer, xs, o0, ys);
    if (o0 < layer.out) dense_outputs<4, 0>(layer, xs, o0, layer.out - o0, ys);
  }
  dense_sums<2>(layer, x + static_cast<size_t>(r) * in, rows - r, y + static_cast<size_t>(r) * out);
}
#endif

// Sparse inputs. A network's first layer reads the observation and the legal mask: one-hot
// slices and bit sets, mostly zeros (Dim Sum Jam: about a tenth of 1,541 inputs are not), which
// the dense kernels above test one by one, for every tile of outputs. For such rows the
// non-zero inputs are listed once and only they are summed: the same products added in the same
// order (bias, then i ascending, zeros skipped), so the same bits as the dense path.

// The indices of the non-zero entries of x[0..in), ascending, into idx; returns how many.
int nonzero_indices(const float* x, int in, int32_t* idx) {
  int n = 0;
  for (int i = 0; i < in; ++i) {
    idx[n] = i;          // written always, kept only if x[i] is not zero: no branch on the data
    n += x[i] != 0.0f;
  }
  return n;
}

// Outputs [o0, o0 + width) of the row x, from its n non-zero inputs idx[0..n).
template <int kWidth>
DIMSUM_ALWAYS_INLINE void sparse_outputs(const DenseLayer& layer, const float* x, const int32_t* idx, int n, int o0,
                                         int width, float* y) {
  const int w_n = kWidth > 0 ? kWidth : width;
  float a[kOutTile];
  for (int k = 0; k < w_n; ++k) a[k] = layer.bias[static_cast<size_t>(o0 + k)];
  const auto out = static_cast<size_t>(layer.out);
  const float* weights = layer.weight_t.data() + o0;
  for (int j = 0; j < n; ++j) {
    const float v = x[idx[j]];
    const float* w = weights + static_cast<size_t>(idx[j]) * out;
    for (int k = 0; k < w_n; ++k) a[k] += v * w[k];
  }
  for (int k = 0; k < w_n; ++k) y[o0 + k] = a[k];
}

// The `rows` rows of x, each from its non-zero inputs (idx: `layer.in` ints per row, counts[r]).
DIMSUM_ALWAYS_INLINE void sparse_sums(const DenseLayer& layer, const float* x, int rows, const int32_t* idx,
                                      const int* counts, float* y) {
  const auto in = static_cast<size_t>(layer.in);
  const auto out = static_cast<size_t>(layer.out);
  for (int r = 0; r < rows; ++r) {
    const float* row = x + static_cast<size_t>(r) * in;
    const int32_t* row_idx = idx + static_cast<size_t>(r) * in;
    float* row_y = y + static_cast<size_t>(r) * out;
    int o0 = 0;
    for (; o0 + kOutTile <= layer.out; o0 += kOutTile)
      sparse_outputs<kOutTile>(layer, row, row_idx, counts[r], o0, kOutTile, row_y);
    if (o0 < layer.out) sparse_outputs<0>(layer, row, row_idx, counts[r], o0, layer.out - o0, row_y);
  }
}

void sparse_sums_sse2(const DenseLayer& layer, const float* x, int rows, const int32_t* idx, const int* counts,
                      float* y) {
  sparse_sums(layer, x, rows, idx, counts, y);
}

#ifdef DIMSUM_POLICY_AVX
__attribute__((target("avx"))) void sparse_sums_avx(const DenseLayer& layer, const float* x, int rows,
                                                    const int32_t* idx, const int* counts, float* y) {
  sparse_sums(layer, x, rows, idx, counts, y);
}
#endif

// Whether the rows of x are sparse enough for sparse_sums (then their non-zero indices are in
// scratch.nonzero and scratch.nonzero_counts): under a quarter of the inputs non-zero, over the
// rows. Narrow layers (the hidden ones: dense activations) are not scanned.
bool list_nonzero(const DenseLayer& layer, const float* x, int rows, PolicyScratch& scratch) {
  if (layer.in < 128) return false;
  const auto in = static_cast<size_t>(layer.in);
  if (scratch.nonzero.size() < static_cast<size_t>(rows) * in) scratch.nonzero.resize(static_cast<size_t>(rows) * in);
  if (scratch.nonzero_counts.size() < static_cast<size_t>(rows)) scratch.nonzero_counts.resize(static_cast<size_t>(rows));
  int64_t total = 0;
  for (int r = 0; r < rows; ++r) {
    const auto k = static_cast<size_t>(r);
    total += scratch.nonzero_counts[k] = nonzero_indices(x + k * in, layer.in, scratch.nonzero.data() + k * in);
  }
  return 4 * total < int64_t{rows} * layer.in;
}

// y[r] = activation(bias + sum over i of x[r][i] * W[:, i]) for the `rows` rows of x
// ([rows][layer.in]) into y ([rows][layer.out]).
void dense_rows(const DenseLayer& layer, const float* x, int rows, float* y, PolicyScratch& scratch) {
#ifdef DIMSUM_POLICY_AVX
  static const bool avx = __builtin_cpu_supports("avx");
#else
  constexpr bool avx = false;
#endif
  if (list_nonzero(layer, x, rows, scratch)) {
    const int32_t* idx = scratch.nonzero.data();
    const int* counts = scratch.nonzero_counts.data();
#ifdef DIMSUM_POLICY_AVX
    if (avx) sparse_sums_avx(layer, x, rows, idx, counts, y);
    else sparse_sums_sse2(layer, x, rows, idx, counts, y);
#else
    sparse_sums_sse2(layer, x, rows, idx, counts, y);
#endif
  } else {
#ifdef DIMSUM_POLICY_AVX
    if (avx) dense_sums_avx(layer, x, rows, y);
    else dense_sums_sse2(layer, x, rows, y);
#else
    (void)avx;
    dense_sums_sse2(layer, x, rows, y);
#endif
  }
  const size_t n = static_cast<size_t>(rows) * static_cast<size_t>(layer.out);
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

void PolicyNet::center_inputs() {
  if (obs_scale.empty() || layers.empty() || !obs_at_zero.empty()) return;  // nothing to fold, or folded
  obs_at_zero.resize(static_cast<size_t>(observation_size));
  for (int i = 0; i < observation_size; ++i)
    obs_at_zero[i] = std::clamp((0.0f - obs_offset[i]) * obs_scale[i], -obs_clip, obs_clip);
  // the whole input at zero (the mask parts stay 0), through the first layer without activation
  std::vector<float> at_zero(static_cast<size_t>(input_size()), 0.0f);
  float* part = at_zero.data();
  for (InputPart p : inputs) {
    if (p == InputPart::kObservation) std::copy(obs_at_zero.begin(), obs_at_zero.end(), part);
    part += p == InputPart::kActionMask ? num_actions : observation_size;
  }
  DenseLayer& first = layers.front();
  std::vector<float> folded(static_cast<size_t>(first.out));
  dense_sums_sse2(first, at_zero.data(), 1, folded.data());  // bias + W0 * at_zero, in the kernels' order
  first.bias = std::move(folded);
}

void PolicyNet::forward(const float* input, float* logits) const { forward_rows(input, 1, logits, thread_scratch()); }

namespace {

// The last layer's outputs `legal[0..n)` alone of the row x into y (the others untouched): each
// as dense_rows computes it (bias, then x[i] * W[o][i] for i ascending, zeros skipped), one
// scalar multiply-add at a time. A move has a few legal actions out of tens or hundreds (Dim Sum
// Jam: 4 of 448 on average), so this skips most of the last layer.
void legal_outputs(const DenseLayer& layer, const float* x, const int16_t* legal, int n, float* y) {
  for (int k = 0; k < n; ++k) y[legal[k]] = layer.bias[static_cast<size_t>(legal[k])];
  const auto out = static_cast<size_t>(layer.out);
  for (int i = 0; i < layer.in; ++i) {
    const float v = x[i];
    if (v == 0.0f) continue;
    const float* w = layer.weight_t.data() + static_cast<size_t>(i) * out;
    for (int k = 0; k < n; ++k) y[legal[k]] += v * w[legal[k]];
  }
  for (int k = 0; k < n; ++k) {
    float& o = y[legal[k]];
    if (layer.activation == Activation::kTanh) o = std::tanh(o);
    if (layer.activation == Activation::kRelu) o = std::max(o, 0.0f);
  }
}

}  // namespace

void PolicyNet::forward_rows(const float* inputs, int rows, float* logits, PolicyScratch& scratch,
                             const RowActions* only) const {
  const int in0 = input_size();
  size_t widest = 0;
  for (const DenseLayer& layer : layers) widest = std::max(widest, static_cast<size_t>(layer.out));
  const size_t tile_floats = static_cast<size_t>(kRowTile) * widest;
  if (scratch.layer_a.size() < tile_floats) scratch.layer_a.resize(tile_floats);
  if (scratch.layer_b.size() < tile_floats) scratch.layer_b.resize(tile_floats);
  const auto num_layers = static_cast<int>(layers.size());
  for (int first = 0; first < rows; first += kRowTile) {
    const int n = std::min(kRowTile, rows - first);
    // the last layer for the legal actions alone when they are few: a scalar multiply-add costs
    // some 8 times a vector lane's, so only below an eighth of the outputs
    bool legal_only = false;
    if (only != nullptr && num_layers > 0) {
      int64_t wanted = 0;
      for (int r = first; r < first + n; ++r) wanted += only->counts[r];
      legal_only = 8 * wanted < int64_t{n} * layers.back().out;
    }
    const float* x = inputs + static_cast<size_t>(first) * static_cast<size_t>(in0);
    int width = in0;
    float* y = scratch.layer_a.data();
    for (int l = 0; l < num_layers; ++l) {
      const DenseLayer& layer = layers[static_cast<size_t>(l)];
      if (l == num_layers - 1 && legal_only) {
        for (int r = first; r < first + n; ++r) {
          const auto k = static_cast<size_t>(r - first);
          legal_outputs(layer, x + k * static_cast<size_t>(width), only->actions + static_cast<size_t>(r) * only->stride,
                        only->counts[r], logits + static_cast<size_t>(r) * static_cast<size_t>(layer.out));
        }
        break;
      }
      dense_rows(layer, x, n, y, scratch);
      x = y;
      width = layer.out;
      y = y == scratch.layer_a.data() ? scratch.layer_b.data() : scratch.layer_a.data();
      if (l == num_layers - 1) {
        std::copy(x, x + static_cast<size_t>(n) * static_cast<size_t>(width),
                  logits + static_cast<size_t>(first) * static_cast<size_t>(width));
      }
    }
    if (num_layers == 0) {
      std::copy(x, x + static_cast<size_t>(n) * static_cast<size_t>(width),
                logits + static_cast<size_t>(first) * static_cast<size_t>(width));
    }
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
