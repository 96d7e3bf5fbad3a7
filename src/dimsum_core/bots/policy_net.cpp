// The policy network's arithmetic (policy_net.hpp says what and why).
//
// Same bits on every platform: every float operation here is an IEEE-754 single-precision add,
// multiply, divide or compare, each rounded on its own, in an order fixed by the source. A fused
// multiply-add (one rounding for a * b + c) would change the last bits, so no compiler may
// contract one in this file: GCC does in C++ by default (-ffp-contract=fast, even with
// -std=c++20) wherever the target has FMA (aarch64, and this file's AVX-512 kernels), Clang by
// default within an expression (-ffp-contract=on). Both are told not to by policy_simd.hpp,
// included first (so that the headers' inline functions compiled here follow it too); MSVC does
// not contract without /fp:contract. tests/test_policy_arithmetic.py checks the activations' bits against the
// same operations in numpy; tests/test_policy_golden.py every kernel width's logits against the
// recorded ones (DIMSUM_POLICY_ISA caps the width: policy_simd.hpp). The input row is policy_input.cpp's.
// policy_simd.hpp first: it turns off contraction for the rest of this file
#include "policy_simd.hpp"

#include "policy_net.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string_view>

namespace dimsum::bots {

using namespace policy_simd;

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

namespace policy_simd {

Isa detect_isa() {
  Isa widest = Isa::kBase;
#ifdef DIMSUM_POLICY_AVX
  if (__builtin_cpu_supports("avx")) widest = Isa::kAvx;
  // the AVX2 and AVX-512 input rows count a group's non-zero values with popcnt (every such CPU has it)
  if (widest == Isa::kAvx && __builtin_cpu_supports("avx2") && __builtin_cpu_supports("popcnt"))
    widest = Isa::kAvx2;
  if (widest == Isa::kAvx2 && __builtin_cpu_supports("avx512f")) widest = Isa::kAvx512;
#endif
  const char* cap = std::getenv("DIMSUM_POLICY_ISA");
  if (cap == nullptr) return widest;
  const std::string_view name(cap);
  const Isa limit = name == "base"   ? Isa::kBase
                    : name == "avx"  ? Isa::kAvx
                    : name == "avx2" ? Isa::kAvx2
                                     : Isa::kAvx512;
  return std::min(widest, limit);
}

}  // namespace policy_simd

const char* policy_kernels() {
  switch (isa()) {
    case Isa::kAvx512: return "avx512";
    case Isa::kAvx2: return "avx2";
    case Isa::kAvx: return "avx";
    default: return "base";
  }
}

int PolicyNet::input_size() const {
  int size = 0;
  for (InputPart part : inputs) size += part == InputPart::kActionMask ? num_actions : observation_size;
  return size;
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
// AVX: 8 floats a register (Floats8, GCC's vector extension, so that the sums of four rows by 16
// outputs stay in 8 registers: a plain array of them went through memory). Lane k of a register
// does exactly what dense_outputs does for output o0 + k.
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

// A layer's last outputs past its full registers (Nice Buns 2p's 101 are 6 x 16 + 5 for AVX, 3 x 32
// + 5 for AVX-512; Yum Cha's 66 are 4 x 16 + 2, 2 x 32 + 2), in registers whose last is masked
// rather than one scalar multiply-add per output: a masked load reads, and a masked store writes,
// none of the lanes past the last output (nor faults on them), so nothing past the weights' end
// or a row of y is touched. The lanes off the mask sum zeros, never stored. Lane k does exactly
// what dense_outputs does for output o0 + k. One source for both instruction sets (tail_4rows,
// and row_pass for a row alone, over a set of register operations), flattened into each set's
// functions.

// 16 ones then 16 zeros: AVX's mask for the first `width` lanes is read at 16 - width (AVX has no
// 256-bit integer compare to build it).
alignas(32) constexpr int32_t kTailMaskBits[32] = {-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1};

// The register operations of the tails and of a row alone, per instruction set. The templates below that use them
// are compiled for no target of their own and flattened into functions of one, so registers are
// passed by pointer: a register wider than SSE2's passed by value has an ABI of its own, which
// GCC warns of (-Wpsabi) and Clang refuses outside a function of that target.
// AVX: 8 lanes, masks in vector registers (vmaskmovps, slower than a plain load: a full register
// takes load_full); masks of fewer than 16 outputs.
struct AvxOps {
  using Reg = __m256;
  using Mask = __m256i;
  // *m = register j's lanes of outputs [o0, o0 + width), width < 16
  __attribute__((target("avx"))) static void lanes(Mask* m, int j, int width) {
    *m = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(kTailMaskBits + 16 - width + 8 * j));
  }
  __attribute__((target("avx"))) static void load(Reg* r, const float* p, const Mask* m) {
    *r = _mm256_maskload_ps(p, *m);
  }
  __attribute__((target("avx"))) static void store(float* p, const Mask* m, const Reg* r) {
    _mm256_maskstore_ps(p, *m, *r);
  }
  __attribute__((target("avx"))) static void load_full(Reg* r, const float* p) { *r = _mm256_loadu_ps(p); }
  __attribute__((target("avx"))) static void store_full(float* p, const Reg* r) { _mm256_storeu_ps(p, *r); }
  // *a += v * *w: a multiply, then an add (not fused)
  __attribute__((target("avx"))) static void add_product(Reg* a, float v, const Reg* w) {
    *a = _mm256_add_ps(*a, _mm256_mul_ps(_mm256_set1_ps(v), *w));
  }
};

// AVX-512: 16 lanes, mask registers (a masked load is an ordinary load, vmaskmovps is not).
struct Avx512Ops {
  using Reg = __m512;
  using Mask = __mmask16;
  // *m = register j's lanes of outputs [o0, o0 + width): all but in the last register
  static void lanes(Mask* m, int j, int width) { *m = static_cast<Mask>((1u << std::min(16, width - 16 * j)) - 1u); }
  __attribute__((target("avx512f"))) static void load(Reg* r, const float* p, const Mask* m) {
    *r = _mm512_maskz_loadu_ps(*m, p);
  }
  __attribute__((target("avx512f"))) static void store(float* p, const Mask* m, const Reg* r) {
    _mm512_mask_storeu_ps(p, *m, *r);
  }
  __attribute__((target("avx512f"))) static void load_full(Reg* r, const float* p) { *r = _mm512_loadu_ps(p); }
  __attribute__((target("avx512f"))) static void store_full(float* p, const Reg* r) { _mm512_storeu_ps(p, *r); }
  __attribute__((target("avx512f"))) static void add_product(Reg* a, float v, const Reg* w) {
    *a = _mm512_add_ps(*a, _mm512_mul_ps(_mm512_set1_ps(v), *w));
  }
};

// One register of the four rows' sums, a0..a3, each plus its row's input v0..v3 times *w.
template <class Ops>
inline void add_products_4rows(typename Ops::Reg* a0, typename Ops::Reg* a1, typename Ops::Reg* a2,
                               typename Ops::Reg* a3, float v0, float v1, float v2, float v3,
                               const typename Ops::Reg* w) {
  Ops::add_product(a0, v0, w), Ops::add_product(a1, v1, w), Ops::add_product(a2, v2, w), Ops::add_product(a3, v3, w);
}

// One register of the four rows' sums stored at y[r] + o, its lanes *m.
template <class Ops>
inline void store_4rows(float* const* y, int o, const typename Ops::Mask* m, const typename Ops::Reg* a0,
                        const typename Ops::Reg* a1, const typename Ops::Reg* a2, const typename Ops::Reg* a3) {
  Ops::store(y[0] + o, m, a0), Ops::store(y[1] + o, m, a1), Ops::store(y[2] + o, m, a2), Ops::store(y[3] + o, m, a3);
}

// Outputs [o0, o0 + width) of the four rows x[0..4), in kRegs (1 or 2) registers a row, adding
// every product, zeros included, as dense_outputs_4rows does (and why). The sums are named
// registers, not an array of them: GCC stored such an array to the stack at every input.
template <class Ops, int kRegs>
inline void tail_4rows(const DenseLayer& layer, const float* const* x, int o0, int width, float* const* y) {
  static_assert(kRegs == 1 || kRegs == 2);
  using Reg = typename Ops::Reg;
  constexpr int kLanes = sizeof(Reg) / sizeof(float);
  typename Ops::Mask m0, m1;
  Ops::lanes(&m0, 0, width), Ops::lanes(&m1, kRegs - 1, width);
  const float* b = layer.bias.data() + o0;
  Reg a00, a01;  // a<row><register>
  Ops::load(&a00, b, &m0), Ops::load(&a01, b + (kRegs - 1) * kLanes, &m1);
  Reg a10 = a00, a20 = a00, a30 = a00, a11 = a01, a21 = a01, a31 = a01;
  const int in = layer.in;
  const auto out = static_cast<size_t>(layer.out);
  const float* w = layer.weight_t.data() + o0;
  const float *x0 = x[0], *x1 = x[1], *x2 = x[2], *x3 = x[3];
  for (int i = 0; i < in; ++i, w += out) {
    Reg wj;
    Ops::load(&wj, w, &m0);
    add_products_4rows<Ops>(&a00, &a10, &a20, &a30, x0[i], x1[i], x2[i], x3[i], &wj);
    if constexpr (kRegs == 2) {
      Ops::load(&wj, w + kLanes, &m1);
      add_products_4rows<Ops>(&a01, &a11, &a21, &a31, x0[i], x1[i], x2[i], x3[i], &wj);
    }
  }
  store_4rows<Ops>(y, o0, &m0, &a00, &a10, &a20, &a30);
  if constexpr (kRegs == 2) store_4rows<Ops>(y, o0 + kLanes, &m1, &a01, &a11, &a21, &a31);
}

// The shape of a row's pass (row_pass): kRegs registers of Ops (1 to 8); when kMasked, the last
// one's lanes are a mask (a layer's last outputs); when kContiguous, register j is at offset[0]
// + j * kLanes, from origin() = offset[0] on a constant known when compiling, so that each
// weight's address is a register and a constant (an address of two registers costs the multiply
// that reads it one more micro-operation on Intel cores, which a first layer's row, four
// multiplies an input, paid in time), else at offset[j] (from origin() = 0).
template <class OpsT, int kRegsT, bool kMaskedT, bool kContiguousT>
struct PassShape {
  using Ops = OpsT;
  static constexpr int kRegs = kRegsT, kLanes = sizeof(typename Ops::Reg) / sizeof(float);
  static constexpr bool kMasked = kMaskedT, kContiguous = kContiguousT;
  static int origin(const int* offset) { return kContiguous ? offset[0] : 0; }
  template <int kJ>
  static int at(const int* offset) {
    if constexpr (kContiguous) return kJ * kLanes;
    else return offset[kJ];
  }
};

// Register kJ of a pass of shape P: its weights or biases from p + its offset, all lanes but the
// last register's when masked (a masked load is an instruction of its own; a full one is folded
// into the multiply). Nothing past P::kRegs.
template <class P, int kJ>
DIMSUM_ALWAYS_INLINE void load_block(typename P::Ops::Reg* r, const float* p, const int* offset,
                                     const typename P::Ops::Mask* last) {
  if constexpr (kJ == P::kRegs - 1 && P::kMasked) P::Ops::load(r, p + P::template at<kJ>(offset), last);
  else if constexpr (kJ < P::kRegs) P::Ops::load_full(r, p + P::template at<kJ>(offset));
}

template <class P, int kJ>
DIMSUM_ALWAYS_INLINE void add_block(typename P::Ops::Reg* a, float v, const float* w, const int* offset,
                                    const typename P::Ops::Mask* last) {
  if constexpr (kJ < P::kRegs) {
    typename P::Ops::Reg wj;
    load_block<P, kJ>(&wj, w, offset, last);
    P::Ops::add_product(a, v, &wj);
  }
}

template <class P, int kJ>
DIMSUM_ALWAYS_INLINE void store_block(float* y, const int* offset, const typename P::Ops::Mask* last,
                                      const typename P::Ops::Reg* a) {
  if constexpr (kJ == P::kRegs - 1 && P::kMasked) P::Ops::store(y + P::template at<kJ>(offset), last, a);
  else if constexpr (kJ < P::kRegs) P::Ops::store_full(y + P::template at<kJ>(offset), a);
}

// A pass of shape P over one row's inputs: register j sums the outputs from its offset on, all its
// lanes but the last register's first last_width when masked (its masked load reads, and its
// masked store writes, no lane past the layer's last output). Over every input, every product
// added (zeros included, as dense_outputs_4rows does, and why), or over the inputs x[idx[j]] for
// j < n, ascending (kSparse). Lane k of register j does exactly what dense_outputs does for output
// offset + k. A row alone takes it: a move's layers, the rows past a tile's fours, and the
// registers of a last layer that hold the legal actions (legal_outputs_only). Eight registers a
// pass keep a row's adds in flight (an add waits for the one before it in its register, 4 cycles:
// four registers or fewer wait on that, not on the arithmetic). Named registers, as in
// tail_4rows; those past P::kRegs are never used.
template <class P, bool kSparse>
inline void row_pass(const DenseLayer& layer, const float* x, const int32_t* idx, int n, const int* offset,
                     int last_width, float* y) {
  static_assert(P::kRegs >= 1 && P::kRegs <= 8);
  typename P::Ops::Mask m;
  P::Ops::lanes(&m, 0, last_width);
  const int origin = P::origin(offset);
  const float* b = layer.bias.data() + origin;
  typename P::Ops::Reg a0, a1, a2, a3, a4, a5, a6, a7;
  load_block<P, 0>(&a0, b, offset, &m), load_block<P, 1>(&a1, b, offset, &m), load_block<P, 2>(&a2, b, offset, &m);
  load_block<P, 3>(&a3, b, offset, &m), load_block<P, 4>(&a4, b, offset, &m), load_block<P, 5>(&a5, b, offset, &m);
  load_block<P, 6>(&a6, b, offset, &m), load_block<P, 7>(&a7, b, offset, &m);
  const auto out = static_cast<size_t>(layer.out);
  const float* weights = layer.weight_t.data() + origin;
  const int count = kSparse ? n : layer.in;
  for (int k = 0; k < count; ++k) {
    const int i = kSparse ? idx[k] : k;
    const float v = x[i];
    const float* w = weights + static_cast<size_t>(i) * out;
    add_block<P, 0>(&a0, v, w, offset, &m), add_block<P, 1>(&a1, v, w, offset, &m);
    add_block<P, 2>(&a2, v, w, offset, &m), add_block<P, 3>(&a3, v, w, offset, &m);
    add_block<P, 4>(&a4, v, w, offset, &m), add_block<P, 5>(&a5, v, w, offset, &m);
    add_block<P, 6>(&a6, v, w, offset, &m), add_block<P, 7>(&a7, v, w, offset, &m);
  }
  float* const out_y = y + origin;
  store_block<P, 0>(out_y, offset, &m, &a0), store_block<P, 1>(out_y, offset, &m, &a1);
  store_block<P, 2>(out_y, offset, &m, &a2), store_block<P, 3>(out_y, offset, &m, &a3);
  store_block<P, 4>(out_y, offset, &m, &a4), store_block<P, 5>(out_y, offset, &m, &a5);
  store_block<P, 6>(out_y, offset, &m, &a6), store_block<P, 7>(out_y, offset, &m, &a7);
}

// A pass of `count` registers (none: nothing).
template <class Ops, bool kSparse, bool kMasked, bool kContiguous>
inline void row_pass_of(const DenseLayer& layer, const float* x, const int32_t* idx, int n, const int* offset,
                        int count, int last_width, float* y) {
  auto pass = [&]<int kRegs>() {
    row_pass<PassShape<Ops, kRegs, kMasked, kContiguous>, kSparse>(layer, x, idx, n, offset, last_width, y);
  };
  switch (count) {
    case 1: return pass.template operator()<1>();
    case 2: return pass.template operator()<2>();
    case 3: return pass.template operator()<3>();
    case 4: return pass.template operator()<4>();
    case 5: return pass.template operator()<5>();
    case 6: return pass.template operator()<6>();
    case 7: return pass.template operator()<7>();
    case 8: return pass.template operator()<8>();
    default: return;
  }
}

// One row's outputs in `count` registers (kContiguous: side by side from offset[0] on; else from
// offset[0..count) on, ascending), the last one's first last_width lanes: passes of eight
// registers, then one of the rest.
template <class Ops, bool kSparse, bool kContiguous>
inline void row_blocks(const DenseLayer& layer, const float* x, const int32_t* idx, int n, const int* offset,
                       int count, int last_width, float* y) {
  constexpr int kLanes = sizeof(typename Ops::Reg) / sizeof(float);
  int start = offset[0];  // kContiguous: the next pass's first output
  for (; count > 8; count -= 8) {
    row_pass<PassShape<Ops, 8, false, kContiguous>, kSparse>(layer, x, idx, n, kContiguous ? &start : offset, kLanes, y);
    start += 8 * kLanes, offset += kContiguous ? 0 : 8;
  }
  if (kContiguous) offset = &start;
  if (last_width < kLanes) row_pass_of<Ops, kSparse, true, kContiguous>(layer, x, idx, n, offset, count, last_width, y);
  else row_pass_of<Ops, kSparse, false, kContiguous>(layer, x, idx, n, offset, count, last_width, y);
}

// Every output of one row x, over every input (idx null) or over the n listed in idx: registers
// side by side, eight a pass, the last masked past the layer's last output.
template <class Ops>
inline void row_outputs(const DenseLayer& layer, const float* x, const int32_t* idx, int n, float* y) {
  constexpr int kLanes = sizeof(typename Ops::Reg) / sizeof(float);
  const int count = (layer.out + kLanes - 1) / kLanes;
  const int first[1] = {0};
  const int last_width = layer.out - (count - 1) * kLanes;
  if (idx == nullptr) row_blocks<Ops, false, true>(layer, x, nullptr, 0, first, count, last_width, y);
  else row_blocks<Ops, true, true>(layer, x, idx, n, first, count, last_width, y);
}

// Outputs [o0, layer.out) of the four rows x[0..4): the last fewer than 16.
__attribute__((target("avx"), flatten)) void dense_tail_4rows_avx(const DenseLayer& layer, const float* const* x,
                                                                  int o0, float* const* y) {
  const int width = layer.out - o0;
  if (width <= 8) tail_4rows<AvxOps, 1>(layer, x, o0, width, y);
  else tail_4rows<AvxOps, 2>(layer, x, o0, width, y);
}

// Every output of one row (row_outputs), over every input (idx null) or over the n listed in idx.
__attribute__((target("avx"), flatten)) void row_outputs_avx(const DenseLayer& layer, const float* x,
                                                             const int32_t* idx, int n, float* y) {
  row_outputs<AvxOps>(layer, x, idx, n, y);
}

// One row's outputs in the registers from offset[0..count) on, over every input (row_blocks).
__attribute__((target("avx"), flatten)) void row_blocks_avx(const DenseLayer& layer, const float* x, const int* offset,
                                                            int count, int last_width, float* y) {
  row_blocks<AvxOps, false, false>(layer, x, nullptr, 0, offset, count, last_width, y);
}

// Outputs [o0, layer.out) of the four rows x[0..4): the last fewer than 32.
__attribute__((target("avx512f"), flatten)) void dense_tail_4rows_avx512(const DenseLayer& layer,
                                                                         const float* const* x, int o0,
                                                                         float* const* y) {
  const int width = layer.out - o0;
  if (width <= 16) tail_4rows<Avx512Ops, 1>(layer, x, o0, width, y);
  else tail_4rows<Avx512Ops, 2>(layer, x, o0, width, y);
}

// As row_outputs_avx and row_blocks_avx, 16 lanes a register.
__attribute__((target("avx512f"), flatten)) void row_outputs_avx512(const DenseLayer& layer, const float* x,
                                                                    const int32_t* idx, int n, float* y) {
  row_outputs<Avx512Ops>(layer, x, idx, n, y);
}

__attribute__((target("avx512f"), flatten)) void row_blocks_avx512(const DenseLayer& layer, const float* x,
                                                                   const int* offset, int count, int last_width,
                                                                   float* y) {
  row_blocks<Avx512Ops, false, false>(layer, x, nullptr, 0, offset, count, last_width, y);
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
  for (; r < rows; ++r)  // the last rows (a move's one), one by one
    row_outputs_avx(layer, x + static_cast<size_t>(r) * in, nullptr, 0, y + static_cast<size_t>(r) * out);
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
// weight registers read once for the four rows (Floats16). Not FMA either: the same bits as AVX and SSE2.

// tanh of y[0..n) in place, 16 values a register (as tanh_all_avx: the same bits).
__attribute__((target("avx512f"))) void tanh_all_avx512(float* y, size_t n) { tanh_all_lanes<Floats16>(y, n); }

// Outputs [o0, o0 + 32) of the four rows x[0..4).
__attribute__((target("avx512f"))) void dense_outputs_avx512(const DenseLayer& layer, const float* const* x, int o0,
                                                             float* const* y) {
  dense_outputs_4rows<Floats16>(layer, x, o0, y);
}

// As dense_sums_avx, four rows at a time 32 outputs wide, then the rest in masked registers.
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
    if (o0 < layer.out) dense_tail_4rows_avx512(layer, xs, o0, ys);
  }
  for (; r < rows; ++r)  // the last rows (a move's one), one by one
    row_outputs_avx512(layer, x + static_cast<size_t>(r) * in, nullptr, 0, y + static_cast<size_t>(r) * out);
}

// Each of the `rows` rows of x from its non-zero inputs (row r's: nz.idx[r * nz.stride...],
// nz.counts[r]), a row at a time (row_outputs: the rows list different inputs).
template <class Ops>
inline void sparse_rows(const DenseLayer& layer, const float* x, int rows, const RowNonzero& nz, float* y) {
  const auto in = static_cast<size_t>(layer.in);
  const auto out = static_cast<size_t>(layer.out);
  for (int r = 0; r < rows; ++r) {
    const auto k = static_cast<size_t>(r);
    row_outputs<Ops>(layer, x + k * in, nz.idx + k * nz.stride, nz.counts[r], y + k * out);
  }
}

__attribute__((target("avx"), flatten)) void sparse_sums_avx(const DenseLayer& layer, const float* x, int rows,
                                                             const RowNonzero& nz, float* y) {
  sparse_rows<AvxOps>(layer, x, rows, nz, y);
}

__attribute__((target("avx512f"), flatten)) void sparse_sums_avx512(const DenseLayer& layer, const float* x, int rows,
                                                                    const RowNonzero& nz, float* y) {
  sparse_rows<Avx512Ops>(layer, x, rows, nz, y);
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
  const Isa kernels = isa();
  const bool avx = kernels >= Isa::kAvx, avx512 = kernels == Isa::kAvx512;
  RowNonzero nz{};
  bool sparse = false;
  if (given != nullptr) {
    int64_t total = 0;
    for (int r = 0; r < rows; ++r) total += given->counts[r];
    nz = *given;
    // Listed already, so the sparse kernels pay no scan: they win below about full density (a
    // non-zero input costs a row the vector multiplies and adds an input costs the dense kernels,
    // whose only edge is reading each weight once for four rows). Under three quarters non-zero:
    // Yum Cha's rows (a fifth to a third) batched 8-10% faster than at the scan's quarter.
    sparse = 4 * total < 3 * int64_t{rows} * layer.in;
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
    (void)avx, (void)avx512;  // base kernels only
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
// scalar multiply-add at a time: the portable kernels' way of skipping most of a last layer.
void legal_outputs(const DenseLayer& layer, const float* x, const int16_t* legal, int n, float* y) {
  for (int k = 0; k < n; ++k) y[legal[k]] = layer.bias[static_cast<size_t>(legal[k])];
  const auto out = static_cast<size_t>(layer.out);
  for (int i = 0; i < layer.in; ++i) {
    const float v = x[i];
    if (v == 0.0f) continue;
    const float* w = layer.weight_t.data() + static_cast<size_t>(i) * out;
    for (int k = 0; k < n; ++k) y[legal[k]] += v * w[legal[k]];
  }
}

#ifdef DIMSUM_POLICY_AVX
// The registers of `lanes` outputs (lanes * j for block j) that hold the legal actions
// legal[0..n) of a layer of `out` outputs, ascending, into offset (room for 64); how many, or -1
// when the layer has over 64 such blocks.
int legal_blocks(const int16_t* legal, int n, int out, int lanes, int* offset) {
  if ((out + lanes - 1) / lanes > 64) return -1;
  uint64_t touched = 0;
  for (int k = 0; k < n; ++k) touched |= uint64_t{1} << (legal[k] / lanes);
  int count = 0;
  for (; touched != 0; touched &= touched - 1) offset[count++] = std::countr_zero(touched) * lanes;
  return count;
}
#endif

// The last layer of a tile's `rows` rows x ([rows][layer.in]) for each row's legal actions alone
// (row r's are only's row first + r), into y ([rows][layer.out]; the other outputs may be left as
// they were, or hold sums), when that is less work than the whole layer; false, with nothing
// written, when it is not. A move reads a few legal actions out of tens or hundreds (Dim Sum
// Jam: 4 of 448 on average). With vector registers, only the registers of outputs that hold a
// legal action are summed (row_blocks: the same operations, lane for lane, as the whole layer's);
// a row's registers cost it max(4, their number) (an add waits 4 cycles for the one before it in
// its register: fewer registers than 4 wait on that), the whole layer as much for a row alone,
// and its registers a row in a tile of four rows or more, which go four at a time (each weight
// read once for the four, no row waiting on its adds). Taken when the legal registers cost less:
// a Yum Cha move (66 actions, 5 registers of 16; 1 to 3 hold its legal actions) ran 1.25x faster
// with them than with the whole layer (paired runs, 10 rounds, 1.11-1.68x); in a tile of Yum Cha
// rows, where they are 4 cycles an input against 5, neither won (1.01x, 0.72-1.04x). The
// portable kernels add one scalar product at a time, some 8 times a vector lane's cost, so below
// an eighth of the outputs.
bool legal_outputs_only(const DenseLayer& layer, const float* x, int rows, const RowActions& only, int first,
                        float* y) {
  const auto in = static_cast<size_t>(layer.in);
  const auto out = static_cast<size_t>(layer.out);
  const int16_t* legal = only.actions + static_cast<size_t>(first) * only.stride;
  const int* counts = only.counts + first;
  const Isa kernels = isa();
#ifdef DIMSUM_POLICY_AVX
  if (kernels >= Isa::kAvx) {
    const int lanes = kernels == Isa::kAvx512 ? 16 : 8;
    const int whole = (layer.out + lanes - 1) / lanes;
    int offset[64];
    int64_t cost = 0;
    for (int r = 0; r < rows; ++r) {
      const int count = legal_blocks(legal + static_cast<size_t>(r) * only.stride, counts[r], layer.out, lanes, offset);
      if (count < 0) return false;
      cost += std::max(4, count);
    }
    const int64_t whole_cost = int64_t{rows} * (rows < 4 ? std::max(4, whole) : whole);
    if (cost >= whole_cost) return false;
    for (int r = 0; r < rows; ++r) {
      const auto k = static_cast<size_t>(r);
      const int count = legal_blocks(legal + k * only.stride, counts[r], layer.out, lanes, offset);
      if (count == 0) continue;
      const int last_width = std::min(lanes, layer.out - offset[count - 1]);
      if (kernels == Isa::kAvx512) row_blocks_avx512(layer, x + k * in, offset, count, last_width, y + k * out);
      else row_blocks_avx(layer, x + k * in, offset, count, last_width, y + k * out);
    }
  }
#endif
  if (kernels < Isa::kAvx) {
    int64_t wanted = 0;
    for (int r = 0; r < rows; ++r) wanted += counts[r];
    if (8 * wanted >= int64_t{rows} * layer.out) return false;
    for (int r = 0; r < rows; ++r) {
      const auto k = static_cast<size_t>(r);
      legal_outputs(layer, x + k * in, legal + k * only.stride, counts[r], y + k * out);
    }
  }
  if (layer.activation != Activation::kNone) {
    for (int r = 0; r < rows; ++r) {
      for (int j = 0; j < counts[r]; ++j) {
        float& o = y[static_cast<size_t>(r) * out + static_cast<size_t>(legal[static_cast<size_t>(r) * only.stride + j])];
        activate(layer.activation, &o, 1);  // the very function dense_rows applies: the same bits
      }
    }
  }
  return true;
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
    const float* x = inputs + static_cast<size_t>(first) * static_cast<size_t>(in0);
    int width = in0;
    float* y = scratch.layer_a.data();
    for (int l = 0; l < num_layers; ++l) {
      const DenseLayer& layer = layers[static_cast<size_t>(l)];
      // the last layer for the legal actions alone, when that is less work (legal_outputs_only)
      if (l == num_layers - 1 && only != nullptr &&
          legal_outputs_only(layer, x, n, *only, first, logits + static_cast<size_t>(first) * static_cast<size_t>(layer.out)))
        break;
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
