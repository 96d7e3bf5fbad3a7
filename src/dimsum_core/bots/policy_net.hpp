// A small MLP policy evaluated in plain C++ (no torch at run time): the "policy" bot of
// dimsum.bots (python/dimsum/bots/policy.py). The network comes from a policy file
// (python/dimsum/baselines/policy_file.py, docs/BASELINES.md), read and checked in Python; here
// it is only evaluated.
//
// What it computes is what sb3-contrib's MaskablePPO "MultiInputPolicy" computes on dimsum's
// Dict(action_mask, observation): the input is the parts named in `inputs`, concatenated (the
// legal actions as 0/1, the acting seat's observation as G::observe writes it, optionally
// normalized as VecNormalize did in training), then dense layers, the last one giving a logit
// per action. Illegal actions are never chosen: greedy takes the legal action of highest logit
// (the lowest such action on a tie), sampled draws from softmax(logit / temperature) over the
// legal actions with the project's Rng, so a seed fixes every choice.
//
// Speed: a dense layer is computed as a sum of the input's columns (y += x[i] * W[:, i]), with
// the weights stored transposed so that each column is contiguous: the inner loop is an axpy
// the compiler vectorizes without reassociating sums (no -ffast-math needed), and the inputs
// that are zero (one-hot slices, illegal actions) are skipped outright. forward_rows() takes
// many inputs at once (a BatchEnv's opponents: batch/policy_rounds.hpp) and adds each column
// into every row before the next column, so a column is read from memory once per tile of rows
// rather than once per row; each output still receives bias, then x[i] * W[o][i] for i
// ascending (zeros skipped), so a row's logits are bit for bit those of forward() alone
// (forward() is forward_rows() of one row: the same code). A move reads the logits of its legal
// actions alone (a few out of tens or hundreds), so a move's evaluation computes only the
// registers of the last layer that hold them (the portable kernels: those outputs alone), each sum
// in the same order. Buffers live in a PolicyScratch the caller keeps
// (per thread), so evaluating a move allocates nothing once they have grown. make_input lists
// the input's non-zero entries as it writes the row (the mask's from the legal actions, the
// observation's four values at a time, skipping zeros), so the first layer, whose input is mostly
// zeros, sums those alone without scanning the row again (RowNonzero).
//
// Same bits everywhere: tanh is a fixed rational function of plain float operations (not libm's,
// whose last bits differ between C libraries), vectorized with GCC/Clang's vector extension, and
// no compiler may fuse a multiply and an add in policy_net.cpp (its top says how): each value is
// the same IEEE-754 float operations in the same order on x86-64 (SSE2, AVX, AVX-512) and aarch64.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "../common/action_list.hpp"
#include "../common/engine.hpp"
#include "../common/rng.hpp"

namespace dimsum::bots {

enum class Activation : uint8_t { kNone = 0, kTanh = 1, kRelu = 2 };
enum class InputPart : uint8_t { kActionMask = 0, kObservation = 1 };

struct DenseLayer {
  int in = 0, out = 0;
  std::vector<float> weight_t;  // (in, out): input i's weights, weight_t[i * out + o] = W[o][i]
  std::vector<float> bias;      // (out)
  Activation activation = Activation::kNone;
};

// Working memory of the network (grown on first use, then reused): the activations of a batch
// of rows, and policy_move's per-move buffers.
struct PolicyScratch {
  std::vector<float> layer_a, layer_b;  // activations of the layers, alternately
  std::vector<float> input, observation, logits;
  std::vector<int32_t> input_nonzero;  // the input's non-zero entries, listed by make_input
  std::vector<double> weight;  // choose_action's softmax
  std::vector<int32_t> nonzero;  // a sparse layer's non-zero inputs, per row (policy_net.cpp)
  std::vector<int> nonzero_counts;
};

// The actions of each of a batch's rows: row r's are actions[r * stride, r * stride + counts[r]).
struct RowActions {
  const int16_t* actions = nullptr;
  const int* counts = nullptr;
  size_t stride = 0;
};

// The non-zero inputs of each of a batch's rows, ascending: row r's are idx[r * stride, r * stride +
// counts[r]). make_input lists them as it writes the row, so the first layer sums only those
// without scanning the row again.
struct RowNonzero {
  const int32_t* idx = nullptr;
  const int* counts = nullptr;
  size_t stride = 0;
};

// The calling thread's own scratch (thread_local): what the single-move entry points use.
PolicyScratch& thread_scratch();

struct PolicyNet {
  std::vector<InputPart> inputs;
  int num_actions = 0;
  int observation_size = 0;
  // The observation as the network saw it in training: clip((x - offset) * scale, -clip, clip);
  // both empty when it was not normalized.
  std::vector<float> obs_offset, obs_scale;
  float obs_clip = 0;
  std::vector<DenseLayer> layers;
  // Centred inputs. A normalized observation is dense even where the observation is zero (most of
  // it: one-hot slices, bit sets), as clip(-offset * scale) is not zero. So the input is written
  // relative to that of an all-zero observation, `obs_at_zero`, which is zero where the
  // observation is zero (and the sparse kernel skips it), and the first layer's bias holds that
  // input's contribution: layers[0].bias is bias + W0 * (input at zero), computed once by
  // center_inputs(). Mathematically the same network; the sums are grouped differently, so the
  // logits may differ from an uncentred evaluation in the last bits. Empty: not normalized (the
  // input at zero is zero, nothing is folded, the trained bias is used as it is).
  std::vector<float> obs_at_zero;

  int input_size() const;
  // Makes every bias of -0.0 +0.0 (called once, before center_inputs; the binding does). Then no
  // sum of a layer is ever -0.0 (a sum of finite floats is -0.0 only if all its terms are), so
  // adding a product of zero leaves every sum's bits as they are: the kernels that skip zero
  // inputs and the ones that add every product give the same bits. A trained bias is -0.0 with
  // vanishing odds; it and +0.0 are the same number.
  void positive_zero_biases();
  // Folds the input of an all-zero observation into the first layer's bias (see obs_at_zero);
  // called once, after the normalization and the layers are set (the binding does).
  void center_inputs();
  // Writes the network's input (input_size floats) from one observation and the legal actions:
  // the (normalized) observation less obs_at_zero, and the mask (0/1 per action); and lists the
  // indices of its non-zero entries, ascending, in nonzero (room for input_size ints), returning
  // how many. The legal actions as a mask (0/1 per action), or as a list (ascending or not;
  // then the mask's non-zero entries are the list itself, never scanned for).
  int make_input(const float* observation, const uint8_t* legal_mask, float* input, int32_t* nonzero) const;
  int make_input(const float* observation, const int16_t* legal, int num_legal, float* input, int32_t* nonzero) const;
  // The logits (num_actions) of one input (input_size floats).
  void forward(const float* input, float* logits) const;
  // The logits of `rows` inputs ([rows][input_size] -> [rows][num_actions]), each row's bit for
  // bit what forward() gives it alone. rows >= 0. With `only`, the logits a choice reads: those
  // of each row's legal actions (the others may be left as they were). With `nonzero`, the
  // inputs' non-zero entries as make_input listed them (else the first layer finds them itself).
  void forward_rows(const float* inputs, int rows, float* logits, PolicyScratch& scratch,
                    const RowActions* only = nullptr, const RowNonzero* nonzero = nullptr) const;
  // forward(make_input(observation, legal_mask)).
  void logits(const float* observation, const uint8_t* legal_mask, float* out) const;

 private:
  // make_input's observation part: input[0..observation_size), its non-zero entries appended to
  // nonzero[n...] as base + index; the new count.
  int observation_input(const float* observation, float* input, int32_t base, int32_t* nonzero, int n) const;
};

// The kernels this process evaluates networks with, "base" (SSE2 on x86-64, portable code
// elsewhere), "avx", "avx2" (AVX's layers, an input row eight values at a time) or "avx512": the CPU's widest, unless the environment variable
// DIMSUM_POLICY_ISA caps them (read once). Every width gives the same bits.
const char* policy_kernels();

// A legal action from `logits`: the greedy one (highest logit, the lowest action on a tie) or
// one drawn from softmax(logits / temperature) over the legal actions. n >= 1.
int choose_action(const float* logits, const int16_t* legal, int n, bool greedy, double temperature, Rng& rng);

// The policy's action for the player to act at the decision node s (what that seat sees only).
template <class G>
int policy_move(const PolicyNet& net, const typename G::Config& c, const typename G::State& s, bool greedy,
                double temperature, Rng& rng) {
  const int player = G::current_player(s);
  LegalActions<G> legal(c, s);
  PolicyScratch& scratch = thread_scratch();  // no allocation per move once grown
  scratch.observation.resize(static_cast<size_t>(net.observation_size));
  G::observe(c, s, player, scratch.observation.data());
  scratch.input.resize(static_cast<size_t>(net.input_size()));
  scratch.input_nonzero.resize(static_cast<size_t>(net.input_size()));
  int count = net.make_input(scratch.observation.data(), legal.items, legal.size, scratch.input.data(),
                             scratch.input_nonzero.data());
  scratch.logits.resize(static_cast<size_t>(net.num_actions));
  const RowActions only{legal.items, &legal.size, 0};  // choose_action reads the legal actions' logits alone
  const RowNonzero nonzero{scratch.input_nonzero.data(), &count, 0};
  net.forward_rows(scratch.input.data(), 1, scratch.logits.data(), scratch, &only, &nonzero);
  return choose_action(scratch.logits.data(), legal.items, legal.size, greedy, temperature, rng);
}

}  // namespace dimsum::bots
