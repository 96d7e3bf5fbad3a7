// The policy network's arithmetic (policy_net.hpp says what and why).
//
// Same bits on every platform: every float operation here is an IEEE-754 single-precision add,
// multiply, divide or compare, each rounded on its own, in an order fixed by the source. A fused
// multiply-add (one rounding for a * b + c) would change the last bits, so no compiler may
// contract one in this file: GCC does in C++ by default (-ffp-contract=fast, even with
// -std=c++20) wherever the target has FMA (aarch64, and this file's AVX-512 kernels), Clang by
// default within an expression (-ffp-contract=on). Both are told not to here, before any code
// (so that the headers' inline functions compiled here follow it too); MSVC does not contract
// without /fp:contract. tests/test_policy_arithmetic.py checks the activations' bits against the
// same operations in numpy, and the kernels' bits against each other.
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

#include "policy_net.hpp"

#include "../common/observation_row.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

#if defined(__SSE2__) || defined(_M_X64)
// x86-64 always has SSE2: make_input finds the non-zero values of a group of four with one
// compare and a movemask (the portable fallback tests them one by one).
#include <emmintrin.h>
#define DIMSUM_POLICY_SSE2 1
#endif
#if defined(__GNUC__) && defined(__x86_64__) && defined(__linux__)
// The kernels are compiled for any x86-64 (SSE2) and for AVX and AVX-512 (twice and four times as
// wide), chosen at run time. Not FMA: each lane does the same multiply, then add, as SSE2 and a
// scalar loop do, so every build and every CPU gives the same bits (a fused multiply-add rounds
// once, not twice). GCC and Clang declare every intrinsic whatever the -m flags, each usable in a
// function of that target.
#include <immintrin.h>
#define DIMSUM_POLICY_AVX 1
#define DIMSUM_ALWAYS_INLINE __attribute__((always_inline)) inline
#else
#define DIMSUM_ALWAYS_INLINE inline
#endif

namespace dimsum::bots {
namespace {

// tanh as a rational function, x * P(x^2) / Q(x^2), of x clamped to +-7.905 (where tanh is
// within a float's rounding of +-1), and x itself below 0.0004 (numerator x, denominator 1): the
// coefficients of Eigen 3.4's single-precision tanh (generic_fast_tanh_float), evaluated with
// separate multiplies and adds. Within 4.2e-7 of tanh over every float (6.9 units in the last
// place at most; checked for every float in [0, 10] against tanh in double precision); odd.
// Why not std::tanh: libm's tanhf is a scalar call per value (31% of a Nice Buns move when it was
// used), and its last bits are each C library's own (glibc's, Apple's and Microsoft's differ),
// so the same network gave different logits per platform. This is plain arithmetic: the same
// bits everywhere, four values at a time below (8 and 16 in the AVX and AVX-512 kernels).
constexpr float kTanhClamp = 7.90531110763549805f;
constexpr float kTanhTiny = 0.0004f;
constexpr float kTanhP[] = {-2.76076847742355e-16f, 2.00018790482477e-13f, -8.60467152213735e-11f,
                            5.12229709037114e-08f,  1.48572235717979e-05f, 6.37261928875436e-04f,
                            4.89352455891786e-03f};
constexpr float kTanhQ[] = {1.19825839466702e-06f, 1.18534705686654e-04f, 2.26843463243900e-03f,
                            4.89352518554385e-03f};

#if defined(__GNUC__)
// Four values at once with GCC's (and Clang's) vector extension: SSE2 on x86-64, NEON on aarch64.
// A plain loop over tanh_rational is not vectorized: under -ftrapping-math (the default) the
// compiler keeps the comparisons as branches. Here they are lane masks and bitwise selects.
typedef float Floats4 __attribute__((vector_size(16)));
typedef int32_t Ints4 __attribute__((vector_size(16)));

inline Floats4 select4(Ints4 mask, Floats4 a, Floats4 b) {
  return reinterpret_cast<Floats4>((mask & reinterpret_cast<Ints4>(a)) | (~mask & reinterpret_cast<Ints4>(b)));
}

// Whether any lane of a comparison's mask is set.
inline bool any_lane(Ints4 mask) {
  uint64_t halves[2];
  __builtin_memcpy(halves, &mask, sizeof halves);
  return (halves[0] | halves[1]) != 0;
}

// y[0..lanes) = tanh_rational of each, in place, where Floats is a register of `lanes` floats
// (Floats4 here, Floats8 and Floats16 in the AVX and AVX-512 kernels below): one source for every
// width, so that each lane is the same operations in the same order, the same bits, whatever the
// width. Always inlined, so compiled with the instruction set of the function it is in; it takes a
// pointer, not a register, as a register wider than SSE2's passed by value has an ABI of its own
// (GCC's -Wpsabi). The selects are mask ? a : b in bits, (mask & a) | (~mask & b).
template <class Floats>
__attribute__((always_inline)) inline void tanh_lanes(float* y) {
  using Ints = decltype(Floats{} < Floats{});
  Floats x;
  __builtin_memcpy(&x, y, sizeof x);
  const Floats zero = {};
  const Floats hi = zero + kTanhClamp, lo = zero - kTanhClamp, one = zero + 1.0f;
  const Ints below = x < lo;
  Floats c = reinterpret_cast<Floats>((below & reinterpret_cast<Ints>(lo)) | (~below & reinterpret_cast<Ints>(x)));
  const Ints above = c > hi;
  c = reinterpret_cast<Floats>((above & reinterpret_cast<Ints>(hi)) | (~above & reinterpret_cast<Ints>(c)));
  const Floats c2 = c * c;
  Floats p = zero + kTanhP[0];
  for (int k = 1; k < 7; ++k) p = p * c2 + kTanhP[k];
  p = p * c;
  Floats q = zero + kTanhQ[0];
  for (int k = 1; k < 4; ++k) q = q * c2 + kTanhQ[k];
  const Ints magnitude = reinterpret_cast<Ints>(x) & 0x7fffffff;
  const Ints tiny = reinterpret_cast<Floats>(magnitude) < kTanhTiny;
  const Floats num = reinterpret_cast<Floats>((tiny & reinterpret_cast<Ints>(x)) | (~tiny & reinterpret_cast<Ints>(p)));
  const Floats den = reinterpret_cast<Floats>((tiny & reinterpret_cast<Ints>(one)) | (~tiny & reinterpret_cast<Ints>(q)));
  const Floats t = num / den;
  __builtin_memcpy(y, &t, sizeof t);
}

// tanh of y[0..n) in place, `lanes` values at a time (tanh_lanes<Floats>), then the last ones
// padded with zeros (each lane is computed on its own: the padding changes no other lane's bits).
template <class Floats>
__attribute__((always_inline)) inline void tanh_all_lanes(float* y, size_t n) {
  constexpr size_t kLanes = sizeof(Floats) / sizeof(float);
  size_t k = 0;
  for (; k + kLanes <= n; k += kLanes) tanh_lanes<Floats>(y + k);
  if (k < n) {
    float padded[kLanes] = {};
    __builtin_memcpy(padded, y + k, (n - k) * sizeof(float));
    tanh_lanes<Floats>(padded);
    __builtin_memcpy(y + k, padded, (n - k) * sizeof(float));
  }
}

inline void tanh_all(float* y, size_t n) { tanh_all_lanes<Floats4>(y, n); }
#else
// One value, for compilers without the vector extension (MSVC): the same operations as a lane.
inline float tanh_rational(float x) {
  float c = x < -kTanhClamp ? -kTanhClamp : x;
  c = c > kTanhClamp ? kTanhClamp : c;
  const float c2 = c * c;
  float p = kTanhP[0];
  for (int k = 1; k < 7; ++k) p = p * c2 + kTanhP[k];
  p = p * c;
  float q = kTanhQ[0];
  for (int k = 1; k < 4; ++k) q = q * c2 + kTanhQ[k];
  const bool tiny = std::fabs(x) < kTanhTiny;
  return (tiny ? x : p) / (tiny ? 1.0f : q);
}

inline void tanh_all(float* y, size_t n) {
  for (size_t k = 0; k < n; ++k) y[k] = tanh_rational(y[k]);
}
#endif

// y[0..n) = activation(y[0..n)).
inline void activate(Activation activation, float* y, size_t n) {
  if (activation == Activation::kTanh) {
    tanh_all(y, n);
  } else if (activation == Activation::kRelu) {
    for (size_t k = 0; k < n; ++k) y[k] = std::max(y[k], 0.0f);
  }
}

}  // namespace

int PolicyNet::input_size() const {
  int size = 0;
  for (InputPart part : inputs) size += part == InputPart::kActionMask ? num_actions : observation_size;
  return size;
}

namespace {

// Listing a group of four values' non-zero entries without a branch or a loop per value: a
// 4-bit mask of the non-zero lanes picks a row of this table, the lanes set in it (ascending, then
// zeros) and how many, whose four indices are stored at once (append_lanes). A branch per value
// mispredicts on one-hot data, and a branch-free store per value is four dependent steps.
struct LaneTable {
  alignas(16) int32_t lanes[16][4];  // row m: the bits set in m, ascending, then zeros
  int32_t count[16];                 // how many bits m has
};

constexpr LaneTable lane_table() {
  LaneTable t{};
  for (int m = 0; m < 16; ++m) {
    int c = 0;
    for (int k = 0; k < 4; ++k) {
      if ((m >> k & 1) != 0) t.lanes[m][c++] = k;
    }
    t.count[m] = c;
  }
  return t;
}

constexpr LaneTable kLaneTable = lane_table();

// Bit k set when x[k] != 0 (k < 4): a NaN counts as non-zero and -0.0 as zero, as `x[k] != 0.0f` has it.
inline unsigned nonzero_lanes(const float* x) {
#ifdef DIMSUM_POLICY_SSE2
  return static_cast<unsigned>(_mm_movemask_ps(_mm_cmpneq_ps(_mm_loadu_ps(x), _mm_setzero_ps())));
#else
  return unsigned{x[0] != 0.0f} | unsigned{x[1] != 0.0f} << 1 | unsigned{x[2] != 0.0f} << 2 |
         unsigned{x[3] != 0.0f} << 3;
#endif
}

// Bit k set when bytes[k] != 0 (k < 4): the legal actions among four of a mask.
inline unsigned nonzero_lanes(const uint8_t* bytes) {
#ifdef DIMSUM_POLICY_SSE2
  int32_t word;
  std::memcpy(&word, bytes, sizeof word);
  const __m128i zero_bytes = _mm_cmpeq_epi8(_mm_cvtsi32_si128(word), _mm_setzero_si128());
  return ~static_cast<unsigned>(_mm_movemask_epi8(zero_bytes)) & 0xfu;  // the low four bytes' bits, inverted
#else
  return unsigned{bytes[0] != 0} | unsigned{bytes[1] != 0} << 1 | unsigned{bytes[2] != 0} << 2 |
         unsigned{bytes[3] != 0} << 3;
#endif
}

// Appends base + k for each bit k set in `mask` (4 bits), ascending, to nonzero[n...]; the new n.
// Four indices are stored whatever the count (those past it are junk, overwritten by the next
// append or past the list's end), so nonzero[n + 3] must be in the buffer: it is wherever n is at
// most the index of the group's first value and the group lies in the row (n counts values before it).
inline int append_lanes(unsigned mask, int32_t base, int32_t* nonzero, int n) {
#if defined(__GNUC__)
  // one vector load, add and store (a plain loop of four was compiled as four scalar ones)
  Ints4 indices;
  __builtin_memcpy(&indices, kLaneTable.lanes[mask], sizeof indices);
  indices += base;
  __builtin_memcpy(nonzero + n, &indices, sizeof indices);
#else
  for (int k = 0; k < 4; ++k) nonzero[n + k] = base + kLaneTable.lanes[mask][k];
#endif
  return n + kLaneTable.count[mask];
}

// Appends base + k to nonzero[n...] for each k < count with x[k] != 0, ascending; the new n.
// Four values at a time by the lane table; the last one to three by a branch-free store each
// (the index is written always and kept only when x[k] is not zero). nonzero has room for
// base + count ints, n <= base (see append_lanes).
inline int append_nonzero(const float* x, int count, int32_t base, int32_t* nonzero, int n) {
  int k = 0;
  for (; k + 4 <= count; k += 4) n = append_lanes(nonzero_lanes(x + k), base + k, nonzero, n);
  for (; k < count; ++k) {
    nonzero[n] = base + k;
    n += x[k] != 0.0f;
  }
  return n;
}

// The mask's part of the input for four actions: input[k] = 1.0f where legal[k] != 0, else 0.0f,
// and the legal ones' indices base + k appended to nonzero[n...] (as append_lanes); the new n.
inline int mask_input4(const uint8_t* legal, float* input, int32_t base, int32_t* nonzero, int n) {
  const unsigned mask = nonzero_lanes(legal);
  write_four_bits(input, mask, 4);  // 1.0f in the legal lanes (common/observation_row.hpp)
  return append_lanes(mask, base, nonzero, n);
}

#ifdef DIMSUM_POLICY_AVX
// make_input sixteen values at a time on a CPU with AVX-512F, with no branch per group: the
// group's 16-bit mask of non-zero values picks their indices with one compress (vpcompressd),
// stored whole, as append_lanes stores four (the lanes past the count are junk, overwritten next),
// so nonzero[n + 15] must be in the buffer: it is, n counting at most the values before the group
// and the group lying in the row. A branch per group of four (the SSE2 loop, skipping zeros)
// mispredicts on a row whose zeros and values mix, as Yum Cha's do: that loop was a third of a
// batched row there. The bits are the SSE2 loop's: the same operations per value, in that order.
bool has_avx512_input() {
  static const bool yes = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("popcnt");
  return yes;
}

// What the observation's input is: clip((x - offset) * scale, -clip, clip) - at_zero, or x itself
// when offset is null (not normalized).
struct InputScale {
  const float* offset;
  const float* scale;
  const float* at_zero;
  float clip;
};

// Appends base + i + k to nonzero[n...] for each lane k of `listed`; the new n.
__attribute__((target("avx512f,popcnt"), always_inline)) inline int append_lanes16(__mmask16 listed, int32_t at,
                                                                                  int32_t* nonzero, int n) {
  const __m512i indices = _mm512_add_epi32(_mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
                                           _mm512_set1_epi32(at));
  _mm512_storeu_si512(nonzero + n, _mm512_maskz_compress_epi32(listed, indices));
  return n + __builtin_popcount(listed);
}

// input[0, 16 * groups) from the observation, as observation_input's four-lane loop writes it
// (zero, +0.0, wherever the observation is zero), its non-zero entries appended as base + i; the new n.
__attribute__((target("avx512f,popcnt"))) int observation_groups_avx512(const float* observation, int groups,
                                                                        const InputScale& norm, float* input,
                                                                        int32_t base, int32_t* nonzero, int n) {
  const __m512 zero = _mm512_setzero_ps();
  const __m512 lo = _mm512_set1_ps(-norm.clip), hi = _mm512_set1_ps(norm.clip);
  for (int i = 0; i < 16 * groups; i += 16) {
    __m512 v = _mm512_loadu_ps(observation + i);
    const __mmask16 seen = _mm512_cmp_ps_mask(v, zero, _CMP_NEQ_UQ);  // x != 0: NaN too, not -0.0
    if (norm.offset != nullptr) {
      v = _mm512_mul_ps(_mm512_sub_ps(v, _mm512_loadu_ps(norm.offset + i)), _mm512_loadu_ps(norm.scale + i));
      // std::clamp(v, lo, hi): v < lo ? lo : (hi < v ? hi : v), a NaN kept
      v = _mm512_mask_blend_ps(_mm512_cmp_ps_mask(v, lo, _CMP_LT_OQ), v, lo);
      v = _mm512_mask_blend_ps(_mm512_cmp_ps_mask(hi, v, _CMP_LT_OQ), v, hi);
      v = _mm512_maskz_sub_ps(seen, v, _mm512_loadu_ps(norm.at_zero + i));
    } else {
      v = _mm512_maskz_mov_ps(seen, v);
    }
    _mm512_storeu_ps(input + i, v);
    n = append_lanes16(_mm512_cmp_ps_mask(v, zero, _CMP_NEQ_UQ), base + i, nonzero, n);
  }
  return n;
}

// input[0, 16 * groups) = 1.0f where legal[k] != 0, else 0.0f, and the legal ones appended as
// base + k (as mask_input4, sixteen actions at a time); the new n.
__attribute__((target("avx512f,popcnt"))) int mask_groups_avx512(const uint8_t* legal, int groups, float* input,
                                                                 int32_t base, int32_t* nonzero, int n) {
  const __m512 ones = _mm512_set1_ps(1.0f);
  for (int a = 0; a < 16 * groups; a += 16) {
    const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(legal + a));
    const auto zero_bytes = static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(bytes, _mm_setzero_si128())));
    const auto is_legal = static_cast<__mmask16>(~zero_bytes & 0xffffu);
    _mm512_storeu_ps(input + a, _mm512_maskz_mov_ps(is_legal, ones));
    n = append_lanes16(is_legal, base + a, nonzero, n);
  }
  return n;
}
#endif

}  // namespace

int PolicyNet::observation_input(const float* observation, float* input, int32_t base, int32_t* nonzero, int n) const {
  // zero exactly where the observation is zero: the same arithmetic as obs_at_zero's, std::clamp's
  const int size = observation_size;
  const bool normalized = !obs_scale.empty();
  const float* offset = obs_offset.data();
  const float* scale = obs_scale.data();
  const float* at_zero = obs_at_zero.data();
  int i = 0;
#ifdef DIMSUM_POLICY_AVX
  if (has_avx512_input()) {
    const InputScale norm{normalized ? offset : nullptr, scale, at_zero, obs_clip};
    n = observation_groups_avx512(observation, size / 16, norm, input, base, nonzero, n);
    i = size / 16 * 16;
  }
#endif
#if defined(__GNUC__)
  // four values at a time (the comparisons as lane masks, as in tanh_lanes), written, then
  // skipped at once when all four are zero: most of a one-hot observation
  const Floats4 zero = {0, 0, 0, 0};
  const Floats4 lo = zero - obs_clip, hi = zero + obs_clip;
  for (; i + 4 <= size; i += 4) {
    Floats4 v;
    __builtin_memcpy(&v, observation + i, sizeof v);
    if (!any_lane(v != zero)) {  // four zeros: an input of zeros (see obs_at_zero), nothing to list
      __builtin_memcpy(input + i, &zero, sizeof zero);
      continue;
    }
    if (normalized) {
      Floats4 off, sc, z;
      __builtin_memcpy(&off, offset + i, sizeof off);
      __builtin_memcpy(&sc, scale + i, sizeof sc);
      __builtin_memcpy(&z, at_zero + i, sizeof z);
      v = (v - off) * sc;
      v = select4(v < lo, lo, select4(hi < v, hi, v)) - z;  // std::clamp(v, lo, hi) - z
    }
    __builtin_memcpy(input + i, &v, sizeof v);
    n = append_lanes(nonzero_lanes(input + i), base + i, nonzero, n);  // no branch: none may be non-zero
  }
#endif
  for (; i < size; ++i) {  // the last values (every value without the vector extension)
    const float v = normalized ? std::clamp((observation[i] - offset[i]) * scale[i], -obs_clip, obs_clip) - at_zero[i]
                               : observation[i];
    input[i] = v;
    nonzero[n] = base + i;  // written always, kept only if v is not zero
    n += v != 0.0f;
  }
  return n;
}

int PolicyNet::make_input(const float* observation, const uint8_t* legal_mask, float* input, int32_t* nonzero) const {
  int n = 0;
  int32_t base = 0;
  for (InputPart part : inputs) {
    if (part == InputPart::kActionMask) {
      // eight actions at a time, skipped at once when none is legal (most of them), else four by
      // four by the lane table
      int a = 0;
#ifdef DIMSUM_POLICY_AVX
      if (has_avx512_input()) {
        n = mask_groups_avx512(legal_mask, num_actions / 16, input, base, nonzero, n);
        a = num_actions / 16 * 16;
      }
#endif
      for (; a + 8 <= num_actions; a += 8) {
        uint64_t word;
        std::memcpy(&word, legal_mask + a, sizeof word);
        if (word == 0) {
          std::fill(input + a, input + a + 8, 0.0f);
          continue;
        }
        n = mask_input4(legal_mask + a, input + a, base + a, nonzero, n);
        n = mask_input4(legal_mask + a + 4, input + a + 4, base + a + 4, nonzero, n);
      }
      if (a + 4 <= num_actions) {
        n = mask_input4(legal_mask + a, input + a, base + a, nonzero, n);
        a += 4;
      }
      for (int k = a; k < num_actions; ++k) {  // the last one to three actions
        input[k] = legal_mask[k] ? 1.0f : 0.0f;
        nonzero[n] = base + k;  // written always, kept only if the action is legal
        n += legal_mask[k] != 0;
      }
      input += num_actions;
      base += num_actions;
    } else {
      n = observation_input(observation, input, base, nonzero, n);
      input += observation_size;
      base += observation_size;
    }
  }
  return n;
}

int PolicyNet::make_input(const float* observation, const int16_t* legal, int num_legal, float* input,
                          int32_t* nonzero) const {
  int n = 0;
  int32_t base = 0;
  for (InputPart part : inputs) {
    if (part == InputPart::kActionMask) {
      // the legal actions are the mask's non-zero entries: listed from them, not found by a scan
      std::fill(input, input + num_actions, 0.0f);
      for (int k = 0; k < num_legal; ++k) {
        input[legal[k]] = 1.0f;
        nonzero[n + k] = base + legal[k];
      }
      if (!std::is_sorted(nonzero + n, nonzero + n + num_legal)) std::sort(nonzero + n, nonzero + n + num_legal);
      n += num_legal;
      input += num_actions;
      base += num_actions;
    } else {
      n = observation_input(observation, input, base, nonzero, n);
      input += observation_size;
      base += observation_size;
    }
  }
  return n;
}

namespace {

// Rows of a tile: forward_rows evaluates a tile's rows layer by layer, its activations
// (kRowTile x a layer's width) staying in the L1 cache.
constexpr int kRowTile = 32;
// Outputs a pass keeps in registers, for a group of rows at once (each weight read once for the
// group): their sums never go to memory between the input's columns.
constexpr int kOutTile = 16;

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

// tanh of y[0..n) in place, 8 values a register (tanh_all's four; the same bits, tanh_lanes): a
// value's tanh is 19 multiplies and adds and a divide, so the width of a register is what bounds it.
__attribute__((target("avx"))) void tanh_all_avx(float* y, size_t n) { tanh_all_lanes<Floats8>(y, n); }

// Outputs [o0, o0 + 2 * lanes) of the four rows x[0..4), where Vec is a register of `lanes`
// floats (Floats8 for AVX, Floats16 for AVX-512): the sums of four rows by two registers stay in 8
// registers and each pair of weight registers is read once for the four rows. Lane k gives
// exactly what dense_outputs gives for output o0 + k, though it adds every product, zeros
// included: with no bias -0.0 (PolicyNet::positive_zero_biases) a sum is never -0.0, so adding a
// product of +-0 changes no bit, and a branch per row and input costs more than the product in
// rows that are dense anyway (the hidden layers'; a first layer mostly zeros goes to the sparse
// kernels). No target of its own: it is always inlined into the AVX or AVX-512 function that
// calls it, and compiled with that function's instruction set.
template <class Vec>
DIMSUM_ALWAYS_INLINE void dense_outputs_4rows(const DenseLayer& layer, const float* const* x, int o0,
                                              float* const* y) {
  constexpr int kLanes = sizeof(Vec) / sizeof(float);
  Vec b0, b1;
  __builtin_memcpy(&b0, layer.bias.data() + o0, sizeof b0);
  __builtin_memcpy(&b1, layer.bias.data() + o0 + kLanes, sizeof b1);
  Vec a00 = b0, a01 = b1, a10 = b0, a11 = b1, a20 = b0, a21 = b1, a30 = b0, a31 = b1;
  const auto out = static_cast<size_t>(layer.out);
  const float* w = layer.weight_t.data() + o0;
  const float *x0 = x[0], *x1 = x[1], *x2 = x[2], *x3 = x[3];
  for (int i = 0; i < layer.in; ++i, w += out) {
    Vec w0, w1;
    __builtin_memcpy(&w0, w, sizeof w0);
    __builtin_memcpy(&w1, w + kLanes, sizeof w1);
    const float v0 = x0[i], v1 = x1[i], v2 = x2[i], v3 = x3[i];
    a00 += v0 * w0, a01 += v0 * w1;
    a10 += v1 * w0, a11 += v1 * w1;
    a20 += v2 * w0, a21 += v2 * w1;
    a30 += v3 * w0, a31 += v3 * w1;
  }
  const Vec sums[4][2] = {{a00, a01}, {a10, a11}, {a20, a21}, {a30, a31}};
  for (int r = 0; r < 4; ++r) __builtin_memcpy(y[r] + o0, sums[r], sizeof sums[r]);
}

// Outputs [o0, o0 + 16) of the four rows x[0..4).
__attribute__((target("avx"))) void dense_outputs_avx(const DenseLayer& layer, const float* const* x, int o0,
                                                      float* const* y) {
  dense_outputs_4rows<Floats8>(layer, x, o0, y);
}

// Outputs [o0, o0 + 64) of one row x: its sums in 8 registers over every input (zeros skipped),
// what a single move's hidden layers take (a 64-wide layer in one pass). Lane k does exactly what
// dense_outputs does for output o0 + k.
__attribute__((target("avx"))) void dense_row_avx64(const DenseLayer& layer, const float* x, int o0, float* y) {
  const float* b = layer.bias.data() + o0;
  Floats8 a0 = load8(b), a1 = load8(b + 8), a2 = load8(b + 16), a3 = load8(b + 24), a4 = load8(b + 32),
          a5 = load8(b + 40), a6 = load8(b + 48), a7 = load8(b + 56);
  const auto out = static_cast<size_t>(layer.out);
  const float* w = layer.weight_t.data() + o0;
  for (int i = 0; i < layer.in; ++i, w += out) {
    const float v = x[i];
    if (v == 0.0f) continue;
    a0 += v * load8(w), a1 += v * load8(w + 8), a2 += v * load8(w + 16), a3 += v * load8(w + 24);
    a4 += v * load8(w + 32), a5 += v * load8(w + 40), a6 += v * load8(w + 48), a7 += v * load8(w + 56);
  }
  const Floats8 sums[8] = {a0, a1, a2, a3, a4, a5, a6, a7};
  __builtin_memcpy(y + o0, sums, sizeof sums);
}

// A layer's last outputs, fewer than 16 (Nice Buns 2p's 101 are 6 x 16 + 5, Yum Cha's 66 are
// 4 x 16 + 2), in one or two AVX registers a row rather than one scalar multiply-add per output:
// masked loads and stores (vmaskmovps), which neither read nor write the lanes past the last
// output, so nothing past the weights' end or a row of y is touched. The lanes off the mask sum
// zeros, never stored. Lane k does exactly what dense_outputs does for output o0 + k.
struct TailMasks {
  __m256i lanes[2];  // lane k of lanes[j] is all ones when 8 * j + k < width
};

// 16 ones then 16 zeros: a mask for the first `width` lanes is read at 16 - width (AVX has no
// 256-bit integer compare to build it).
alignas(32) constexpr int32_t kTailMaskBits[32] = {-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1};

__attribute__((target("avx"))) inline TailMasks tail_masks(int width) {
  const int32_t* first = kTailMaskBits + 16 - width;  // 0 < width < 16
  return TailMasks{{_mm256_loadu_si256(reinterpret_cast<const __m256i*>(first)),
                    _mm256_loadu_si256(reinterpret_cast<const __m256i*>(first + 8))}};
}

// Outputs [o0, o0 + width) of the four rows x[0..4) in kRegs registers a row (kRegs = 1 when
// width <= 8), adding every product, zeros included, as dense_outputs_4rows does (and why).
template <int kRegs>
__attribute__((target("avx"), always_inline)) inline void dense_tail_4rows(const DenseLayer& layer,
                                                                            const float* const* x, int o0,
                                                                            const TailMasks& m, float* const* y) {
  const float* b = layer.bias.data() + o0;
  __m256 a[4][kRegs];
  for (int j = 0; j < kRegs; ++j) {
    const __m256 bias = _mm256_maskload_ps(b + 8 * j, m.lanes[j]);
    for (int r = 0; r < 4; ++r) a[r][j] = bias;
  }
  const auto out = static_cast<size_t>(layer.out);
  const float* w = layer.weight_t.data() + o0;
  for (int i = 0; i < layer.in; ++i, w += out) {
    __m256 wj[kRegs];
    for (int j = 0; j < kRegs; ++j) wj[j] = _mm256_maskload_ps(w + 8 * j, m.lanes[j]);
    for (int r = 0; r < 4; ++r) {
      const __m256 v = _mm256_set1_ps(x[r][i]);
      for (int j = 0; j < kRegs; ++j) a[r][j] = _mm256_add_ps(a[r][j], _mm256_mul_ps(v, wj[j]));
    }
  }
  for (int r = 0; r < 4; ++r)
    for (int j = 0; j < kRegs; ++j) _mm256_maskstore_ps(y[r] + o0 + 8 * j, m.lanes[j], a[r][j]);
}

// Outputs [o0, layer.out) of the four rows x[0..4): the last fewer than 16.
__attribute__((target("avx"))) void dense_tail_4rows_avx(const DenseLayer& layer, const float* const* x, int o0,
                                                         float* const* y) {
  const int width = layer.out - o0;
  const TailMasks m = tail_masks(width);
  if (width <= 8) dense_tail_4rows<1>(layer, x, o0, m, y);
  else dense_tail_4rows<2>(layer, x, o0, m, y);
}

// Outputs [o0, o0 + width) of the row x, summed over the inputs x[idx[j]] for j < n (ascending),
// or over every input when idx is null (kSparse false), zeros skipped: as dense_outputs<1, 0> and
// sparse_outputs<0> do, lane k for output o0 + k.
template <int kRegs, bool kSparse>
__attribute__((target("avx"), always_inline)) inline void tail_row(const DenseLayer& layer, const float* x,
                                                                   const int32_t* idx, int n, int o0,
                                                                   const TailMasks& m, float* y) {
  const float* b = layer.bias.data() + o0;
  __m256 a[kRegs];
  for (int j = 0; j < kRegs; ++j) a[j] = _mm256_maskload_ps(b + 8 * j, m.lanes[j]);
  const auto out = static_cast<size_t>(layer.out);
  const float* weights = layer.weight_t.data() + o0;
  const int count = kSparse ? n : layer.in;
  for (int k = 0; k < count; ++k) {
    const int i = kSparse ? idx[k] : k;
    const float v = x[i];
    if (!kSparse && v == 0.0f) continue;
    const __m256 vs = _mm256_set1_ps(v);
    const float* w = weights + static_cast<size_t>(i) * out;
    for (int j = 0; j < kRegs; ++j)
      a[j] = _mm256_add_ps(a[j], _mm256_mul_ps(vs, _mm256_maskload_ps(w + 8 * j, m.lanes[j])));
  }
  for (int j = 0; j < kRegs; ++j) _mm256_maskstore_ps(y + o0 + 8 * j, m.lanes[j], a[j]);
}

// Outputs [o0, layer.out) of one row: the last fewer than 16, over every input (idx null) or over
// the n listed in idx.
__attribute__((target("avx"))) void tail_row_avx(const DenseLayer& layer, const float* x, const int32_t* idx, int n,
                                                 int o0, float* y) {
  const int width = layer.out - o0;
  const TailMasks m = tail_masks(width);
  if (idx == nullptr) {
    if (width <= 8) tail_row<1, false>(layer, x, nullptr, 0, o0, m, y);
    else tail_row<2, false>(layer, x, nullptr, 0, o0, m, y);
  } else {
    if (width <= 8) tail_row<1, true>(layer, x, idx, n, o0, m, y);
    else tail_row<2, true>(layer, x, idx, n, o0, m, y);
  }
}

// Outputs [o0, layer.out) of one row x, fewer than 64: 16 at a time, then the last ones.
__attribute__((target("avx"))) void dense_row_rest_avx(const DenseLayer& layer, const float* x, int o0, float* y) {
  const float* xs[1] = {x};
  float* ys[1] = {y};
  for (; o0 + kOutTile <= layer.out; o0 += kOutTile) dense_outputs<1, kOutTile>(layer, xs, o0, kOutTile, ys);
  if (o0 < layer.out) tail_row_avx(layer, x, nullptr, 0, o0, y);
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
    if (o0 < layer.out) dense_tail_4rows_avx(layer, xs, o0, ys);
  }
  for (; r < rows; ++r) {  // the last rows, one by one: 64 outputs at a time, then the rest
    const float* row = x + static_cast<size_t>(r) * in;
    float* row_y = y + static_cast<size_t>(r) * out;
    int o0 = 0;
    for (; o0 + 64 <= layer.out; o0 += 64) dense_row_avx64(layer, row, o0, row_y);
    dense_row_rest_avx(layer, row, o0, row_y);
  }
}
#endif

// Sparse inputs. A network's first layer reads the observation and the legal mask: one-hot
// slices and bit sets, mostly zeros (Dim Sum Jam: about a tenth of 1,541 inputs are not), which
// the dense kernels above test one by one, for every tile of outputs. For such rows the
// non-zero inputs are listed once and only they are summed: the same products added in the same
// order (bias, then i ascending, zeros skipped), so the same bits as the dense path.

// The indices of the non-zero entries of x[0..in), ascending, into idx; returns how many.
int nonzero_indices(const float* x, int in, int32_t* idx) { return append_nonzero(x, in, 0, idx, 0); }

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

// The `rows` rows of x, each from its non-zero inputs (row r's: nz.idx[r * nz.stride...], nz.counts[r]).
DIMSUM_ALWAYS_INLINE void sparse_sums(const DenseLayer& layer, const float* x, int rows, const RowNonzero& nz, float* y) {
  const auto in = static_cast<size_t>(layer.in);
  const auto out = static_cast<size_t>(layer.out);
  const int32_t* idx = nz.idx;
  const int* counts = nz.counts;
  for (int r = 0; r < rows; ++r) {
    const float* row = x + static_cast<size_t>(r) * in;
    const int32_t* row_idx = idx + static_cast<size_t>(r) * nz.stride;
    float* row_y = y + static_cast<size_t>(r) * out;
    int o0 = 0;
    for (; o0 + kOutTile <= layer.out; o0 += kOutTile)
      sparse_outputs<kOutTile>(layer, row, row_idx, counts[r], o0, kOutTile, row_y);
    if (o0 < layer.out) sparse_outputs<0>(layer, row, row_idx, counts[r], o0, layer.out - o0, row_y);
  }
}

void sparse_sums_sse2(const DenseLayer& layer, const float* x, int rows, const RowNonzero& nz, float* y) {
  sparse_sums(layer, x, rows, nz, y);
}

#ifdef DIMSUM_POLICY_AVX
// AVX-512: 16 floats a register, so four rows by 32 outputs in 8 registers (of 32), each pair of
// weight registers read once for the four rows. Not FMA either: the same bits as AVX and SSE2.
typedef float Floats16 __attribute__((vector_size(64)));

// tanh of y[0..n) in place, 16 values a register (as tanh_all_avx: the same bits).
__attribute__((target("avx512f"))) void tanh_all_avx512(float* y, size_t n) { tanh_all_lanes<Floats16>(y, n); }

// Outputs [o0, o0 + 32) of the four rows x[0..4).
__attribute__((target("avx512f"))) void dense_outputs_avx512(const DenseLayer& layer, const float* const* x, int o0,
                                                             float* const* y) {
  dense_outputs_4rows<Floats16>(layer, x, o0, y);
}

__attribute__((target("avx512f"))) inline Floats16 load16(const float* p) {
  Floats16 v;
  __builtin_memcpy(&v, p, sizeof v);
  return v;
}

// Outputs [o0, o0 + 64) of one row x in four AVX-512 registers, half dense_row_avx64's multiplies
// and adds: a move's hidden layers. Every product added, zeros included, as dense_outputs_4rows
// does (and why): an activation is seldom zero, and a branch per input costs more than its
// product when one is. Lane k does exactly what dense_outputs does for output o0 + k.
__attribute__((target("avx512f"))) void dense_row_avx512_64(const DenseLayer& layer, const float* x, int o0, float* y) {
  const float* b = layer.bias.data() + o0;
  Floats16 a0 = load16(b), a1 = load16(b + 16), a2 = load16(b + 32), a3 = load16(b + 48);
  const auto out = static_cast<size_t>(layer.out);
  const float* w = layer.weight_t.data() + o0;
  for (int i = 0; i < layer.in; ++i, w += out) {
    const float v = x[i];
    a0 += v * load16(w), a1 += v * load16(w + 16), a2 += v * load16(w + 32), a3 += v * load16(w + 48);
  }
  const Floats16 sums[4] = {a0, a1, a2, a3};
  __builtin_memcpy(y + o0, sums, sizeof sums);
}

// As dense_sums_avx, four rows at a time 32 outputs wide (then 16, then the rest).
__attribute__((target("avx512f"))) void dense_sums_avx512(const DenseLayer& layer, const float* x, int rows,
                                                          float* y) {
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
    for (; o0 + 32 <= layer.out; o0 += 32) dense_outputs_avx512(layer, xs, o0, ys);
    for (; o0 + kOutTile <= layer.out; o0 += kOutTile) dense_outputs_avx(layer, xs, o0, ys);
    if (o0 < layer.out) dense_tail_4rows_avx(layer, xs, o0, ys);
  }
  for (; r < rows; ++r) {  // the last rows (a move's one), one by one: 64 outputs at a time, then the rest
    const float* row = x + static_cast<size_t>(r) * in;
    float* row_y = y + static_cast<size_t>(r) * out;
    int o0 = 0;
    for (; o0 + 64 <= layer.out; o0 += 64) dense_row_avx512_64(layer, row, o0, row_y);
    dense_row_rest_avx(layer, row, o0, row_y);
  }
}

// Outputs [o0, o0 + 64) of the row x from its n non-zero inputs idx[0..n): the sums in 8 AVX
// registers, so each non-zero input's index and value are read once for 64 outputs (four times
// fewer than in 16-output passes). Lane k does what sparse_outputs does for output o0 + k.
__attribute__((target("avx"))) void sparse_outputs_avx64(const DenseLayer& layer, const float* x, const int32_t* idx,
                                                         int n, int o0, float* y) {
  const float* b = layer.bias.data() + o0;
  Floats8 a0 = load8(b), a1 = load8(b + 8), a2 = load8(b + 16), a3 = load8(b + 24), a4 = load8(b + 32),
          a5 = load8(b + 40), a6 = load8(b + 48), a7 = load8(b + 56);
  const auto out = static_cast<size_t>(layer.out);
  const float* weights = layer.weight_t.data() + o0;
  for (int j = 0; j < n; ++j) {
    const float v = x[idx[j]];
    const float* w = weights + static_cast<size_t>(idx[j]) * out;
    a0 += v * load8(w), a1 += v * load8(w + 8), a2 += v * load8(w + 16), a3 += v * load8(w + 24);
    a4 += v * load8(w + 32), a5 += v * load8(w + 40), a6 += v * load8(w + 48), a7 += v * load8(w + 56);
  }
  const Floats8 sums[8] = {a0, a1, a2, a3, a4, a5, a6, a7};
  __builtin_memcpy(y + o0, sums, sizeof sums);
}

__attribute__((target("avx"))) void sparse_sums_avx(const DenseLayer& layer, const float* x, int rows,
                                                    const RowNonzero& nz, float* y) {
  const auto in = static_cast<size_t>(layer.in);
  const auto out = static_cast<size_t>(layer.out);
  for (int r = 0; r < rows; ++r) {
    const float* row = x + static_cast<size_t>(r) * in;
    const int32_t* row_idx = nz.idx + static_cast<size_t>(r) * nz.stride;
    float* row_y = y + static_cast<size_t>(r) * out;
    const int n = nz.counts[r];
    int o0 = 0;
    for (; o0 + 64 <= layer.out; o0 += 64) sparse_outputs_avx64(layer, row, row_idx, n, o0, row_y);
    for (; o0 + kOutTile <= layer.out; o0 += kOutTile) sparse_outputs<kOutTile>(layer, row, row_idx, n, o0, kOutTile, row_y);
    if (o0 < layer.out) tail_row_avx(layer, row, row_idx, n, o0, row_y);
  }
}

// As sparse_outputs_avx64 in four AVX-512 registers: half the multiplies and adds (instructions)
// a non-zero input for the same 64 outputs. Lane k does what sparse_outputs does for output o0 + k.

__attribute__((target("avx512f"))) void sparse_outputs_avx512_64(const DenseLayer& layer, const float* x,
                                                                 const int32_t* idx, int n, int o0, float* y) {
  const float* b = layer.bias.data() + o0;
  // four named registers, not an array of them: the array went through memory every input
  Floats16 a0 = load16(b), a1 = load16(b + 16), a2 = load16(b + 32), a3 = load16(b + 48);
  const auto out = static_cast<size_t>(layer.out);
  const float* weights = layer.weight_t.data() + o0;
  for (int j = 0; j < n; ++j) {
    const float v = x[idx[j]];
    const float* w = weights + static_cast<size_t>(idx[j]) * out;
    a0 += v * load16(w), a1 += v * load16(w + 16), a2 += v * load16(w + 32), a3 += v * load16(w + 48);
  }
  const Floats16 sums[4] = {a0, a1, a2, a3};
  __builtin_memcpy(y + o0, sums, sizeof sums);
}

// As sparse_sums_avx, 64 outputs at a time in AVX-512 registers.
__attribute__((target("avx512f"))) void sparse_sums_avx512(const DenseLayer& layer, const float* x, int rows,
                                                           const RowNonzero& nz, float* y) {
  const auto in = static_cast<size_t>(layer.in);
  const auto out = static_cast<size_t>(layer.out);
  for (int r = 0; r < rows; ++r) {
    const float* row = x + static_cast<size_t>(r) * in;
    const int32_t* row_idx = nz.idx + static_cast<size_t>(r) * nz.stride;
    float* row_y = y + static_cast<size_t>(r) * out;
    const int n = nz.counts[r];
    int o0 = 0;
    for (; o0 + 64 <= layer.out; o0 += 64) sparse_outputs_avx512_64(layer, row, row_idx, n, o0, row_y);
    for (; o0 + kOutTile <= layer.out; o0 += kOutTile) sparse_outputs<kOutTile>(layer, row, row_idx, n, o0, kOutTile, row_y);
    if (o0 < layer.out) tail_row_avx(layer, row, row_idx, n, o0, row_y);
  }
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
// ([rows][layer.in]) into y ([rows][layer.out]). `given`: the rows' non-zero inputs, listed as
// they were written (make_input), or null.
void dense_rows(const DenseLayer& layer, const float* x, int rows, float* y, PolicyScratch& scratch,
                const RowNonzero* given) {
#ifdef DIMSUM_POLICY_AVX
  static const bool avx = __builtin_cpu_supports("avx");
  static const bool avx512 = __builtin_cpu_supports("avx512f");
#else
  constexpr bool avx = false;
#endif
  RowNonzero nz{};
  bool sparse = false;
  if (given != nullptr) {
    int64_t total = 0;
    for (int r = 0; r < rows; ++r) total += given->counts[r];
    nz = *given;
    sparse = 4 * total < int64_t{rows} * layer.in;
  } else {
    sparse = list_nonzero(layer, x, rows, scratch);
    nz = RowNonzero{scratch.nonzero.data(), scratch.nonzero_counts.data(), static_cast<size_t>(layer.in)};
  }
  if (sparse) {
#ifdef DIMSUM_POLICY_AVX
    if (avx512) sparse_sums_avx512(layer, x, rows, nz, y);
    else if (avx) sparse_sums_avx(layer, x, rows, nz, y);
    else sparse_sums_sse2(layer, x, rows, nz, y);
#else
    sparse_sums_sse2(layer, x, rows, nz, y);
#endif
  } else {
#ifdef DIMSUM_POLICY_AVX
    if (avx512) dense_sums_avx512(layer, x, rows, y);
    else if (avx) dense_sums_avx(layer, x, rows, y);
    else dense_sums_sse2(layer, x, rows, y);
#else
    (void)avx;
    dense_sums_sse2(layer, x, rows, y);
#endif
  }
  const size_t values = static_cast<size_t>(rows) * static_cast<size_t>(layer.out);
#ifdef DIMSUM_POLICY_AVX
  if (layer.activation == Activation::kTanh && avx) {  // wider registers, the same bits (tanh_all_avx)
    if (avx512) tanh_all_avx512(y, values);
    else tanh_all_avx(y, values);
    return;
  }
#endif
  activate(layer.activation, y, values);
}

}  // namespace

PolicyScratch& thread_scratch() {
  thread_local PolicyScratch scratch;
  return scratch;
}

void PolicyNet::positive_zero_biases() {
  for (DenseLayer& layer : layers)
    for (float& b : layer.bias) b += 0.0f;  // -0.0 + 0.0 is +0.0; every other value is unchanged
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
  if (layer.activation == Activation::kNone) return;
  for (int k = 0; k < n; ++k) {
    float o = y[legal[k]];
    activate(layer.activation, &o, 1);  // the very function dense_rows applies: the same bits
    y[legal[k]] = o;
  }
}

}  // namespace

void PolicyNet::forward_rows(const float* inputs, int rows, float* logits, PolicyScratch& scratch,
                             const RowActions* only, const RowNonzero* nonzero) const {
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
      RowNonzero tile_nonzero{};
      if (l == 0 && nonzero != nullptr)
        tile_nonzero = RowNonzero{nonzero->idx + static_cast<size_t>(first) * nonzero->stride, nonzero->counts + first,
                                  nonzero->stride};
      dense_rows(layer, x, n, y, scratch, l == 0 && nonzero != nullptr ? &tile_nonzero : nullptr);
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
  scratch.input_nonzero.resize(static_cast<size_t>(input_size()));
  int count = make_input(observation, legal_mask, scratch.input.data(), scratch.input_nonzero.data());
  const RowNonzero nonzero{scratch.input_nonzero.data(), &count, 0};
  forward_rows(scratch.input.data(), 1, out, scratch, nullptr, &nonzero);
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
