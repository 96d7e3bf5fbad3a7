// The policy network's input row (PolicyNet::make_input; policy_net.hpp says what it is): the
// legal actions as 0/1 and the observation, normalized as in training and centred (zero wherever
// the observation is zero), with its non-zero entries listed as they are written, so that the
// first layer sums those alone. Four values at a time with SSE2 (or the vector extension), eight
// with AVX2, sixteen with AVX-512; the same bits at every width. Float operations are not contracted here either: the
// normalization must round as center_inputs' does (policy_net.cpp's top says why).

// policy_simd.hpp first: it turns off contraction for the rest of this file
#include "policy_simd.hpp"

#include "policy_net.hpp"

#include "../common/observation_row.hpp"

#include <algorithm>
#include <array>
#include <cstring>

namespace dimsum::bots {

using namespace policy_simd;

namespace {

// The mask's part of the input for four actions: input[k] = 1.0f where legal[k] != 0, else 0.0f,
// and the legal ones' indices base + k appended to nonzero[n...] (as append_lanes); the new n.
inline int mask_input4(const uint8_t* legal, float* input, int32_t base, int32_t* nonzero, int n) {
  const unsigned mask = nonzero_lanes(legal);
  write_four_bits(input, mask, 4);  // 1.0f in the legal lanes (common/observation_row.hpp)
  return append_lanes(mask, base, nonzero, n);
}

// What the observation's input is: clip((x - offset) * scale, -clip, clip) - at_zero, or x itself
// when offset is null (not normalized); and +0.0 wherever x is zero (where the formula gives
// at_zero - at_zero anyway: the first layer's bias holds that input, policy_net.hpp).
struct InputScale {
  const float* offset;
  const float* scale;
  const float* at_zero;
  float clip;
};

#if defined(__GNUC__)
// input[i, i + lanes) from the observation's values there, where Floats is a register of `lanes`
// floats (Floats4 with SSE2 or NEON, Floats8 with AVX2, Floats16 with AVX-512): one source for
// every width, so that each lane is the same operations in the same order, the same bits, as
// center_inputs' scalar ones. Always inlined, so compiled with the instruction set of the
// function it is in; it stores to memory rather than returning a register, as a register wider
// than SSE2's passed by value has an ABI of its own (GCC's -Wpsabi). The comparisons are lane
// masks (a NaN is non-zero, -0.0 zero; std::clamp keeps a NaN), the selects bitwise.
template <class Floats>
DIMSUM_ALWAYS_INLINE void input_lanes(const float* observation, const InputScale& norm, int i, float* input) {
  using Ints = decltype(Floats{} < Floats{});
  Floats v;
  __builtin_memcpy(&v, observation + i, sizeof v);
  const Floats zero = {};
  const Ints seen = v != zero;
  if (norm.offset != nullptr) {
    Floats offset, scale, at_zero;
    __builtin_memcpy(&offset, norm.offset + i, sizeof offset);
    __builtin_memcpy(&scale, norm.scale + i, sizeof scale);
    __builtin_memcpy(&at_zero, norm.at_zero + i, sizeof at_zero);
    const Floats lo = zero - norm.clip, hi = zero + norm.clip;
    v = (v - offset) * scale;
    // std::clamp(v, lo, hi) = v < lo ? lo : (hi < v ? hi : v), then less at_zero
    const Ints below = v < lo, above = hi < v;
    Ints clamped = (above & reinterpret_cast<Ints>(hi)) | (~above & reinterpret_cast<Ints>(v));
    clamped = (below & reinterpret_cast<Ints>(lo)) | (~below & clamped);
    v = reinterpret_cast<Floats>(clamped) - at_zero;
  }
  const Ints out = reinterpret_cast<Ints>(v) & seen;  // +0.0 wherever the observation is zero
  __builtin_memcpy(input + i, &out, sizeof out);
}
#endif

#ifdef DIMSUM_POLICY_AVX
// make_input eight values at a time with AVX2, sixteen with AVX-512, with no branch per group:
// the group's mask of non-zero values picks their indices (AVX-512: one compress, vpcompressd;
// AVX2: a 256-entry table of the lanes set in each 8-bit mask, widened to eight ints), stored
// whole, as append_lanes stores four (the lanes past the count are junk, overwritten next), so
// nonzero[n + lanes - 1] must be in the buffer: it is, n counting at most the values before the
// group and the group lying in the row. A branch per group of four (the SSE2 loop, skipping zeros)
// mispredicts on a row whose zeros and values mix, as Yum Cha's do: that loop was a third of a
// batched row there. The values are input_lanes', as the SSE2 loop's: the same bits.

// Row m: the lanes set in the 8-bit mask m, ascending, a byte each (then zeros).
constexpr std::array<uint64_t, 256> kEightLanes = [] {
  std::array<uint64_t, 256> table{};
  for (unsigned m = 0; m < 256; ++m) {
    int count = 0;
    for (unsigned k = 0; k < 8; ++k) {
      if ((m >> k & 1u) != 0) table[m] |= uint64_t{k} << (8 * count++);
    }
  }
  return table;
}();

// A width's lane operations, for the loops below: Floats (input_lanes' register), the lanes set
// where x[0, kLanes) is not zero and where bytes[0, kLanes) are (bit k for lane k), 1.0f where a
// lane's bit is set (else 0.0f), and the indices at + k of the set lanes appended to
// nonzero[n...] (the new n).
struct Avx2Lanes {
  using Floats = Floats8;
  static constexpr int kLanes = 8;
  __attribute__((target("avx2,popcnt"))) static unsigned nonzero(const float* x) {
    const __m256 listed = _mm256_cmp_ps(_mm256_loadu_ps(x), _mm256_setzero_ps(), _CMP_NEQ_UQ);
    return static_cast<unsigned>(_mm256_movemask_ps(listed));
  }
  __attribute__((target("avx2,popcnt"))) static unsigned nonzero(const uint8_t* bytes) {
    const __m128i eight = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(bytes));
    const __m128i zero_bytes = _mm_cmpeq_epi8(eight, _mm_setzero_si128());
    return ~static_cast<unsigned>(_mm_movemask_epi8(zero_bytes)) & 0xffu;
  }
  __attribute__((target("avx2,popcnt"))) static void ones(float* out, unsigned set) {
    // lane k's bit to all ones: the byte k of the bits, widened, compared with the bit itself
    const __m256i bits = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
    const __m256i lanes = _mm256_cmpeq_epi32(_mm256_and_si256(_mm256_set1_epi32(static_cast<int>(set)), bits), bits);
    _mm256_storeu_ps(out, _mm256_and_ps(_mm256_castsi256_ps(lanes), _mm256_set1_ps(1.0f)));
  }
  __attribute__((target("avx2,popcnt"))) static int append(unsigned set, int32_t at, int32_t* nonzero,
                                                                         int n) {
    const __m128i bytes = _mm_cvtsi64_si128(static_cast<long long>(kEightLanes[set]));  // the set lanes, a byte each
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(nonzero + n),
                        _mm256_add_epi32(_mm256_cvtepu8_epi32(bytes), _mm256_set1_epi32(at)));
    return n + __builtin_popcount(set);
  }
};

struct Avx512Lanes {
  using Floats = Floats16;
  static constexpr int kLanes = 16;
  __attribute__((target("avx512f,popcnt"))) static unsigned nonzero(const float* x) {
    return _mm512_cmp_ps_mask(_mm512_loadu_ps(x), _mm512_setzero_ps(), _CMP_NEQ_UQ);
  }
  __attribute__((target("avx512f,popcnt"))) static unsigned nonzero(const uint8_t* bytes) {
    const __m128i sixteen = _mm_loadu_si128(reinterpret_cast<const __m128i*>(bytes));
    const __m128i zero_bytes = _mm_cmpeq_epi8(sixteen, _mm_setzero_si128());
    return ~static_cast<unsigned>(_mm_movemask_epi8(zero_bytes)) & 0xffffu;
  }
  __attribute__((target("avx512f,popcnt"))) static void ones(float* out, unsigned set) {
    _mm512_storeu_ps(out, _mm512_maskz_mov_ps(static_cast<__mmask16>(set), _mm512_set1_ps(1.0f)));
  }
  __attribute__((target("avx512f,popcnt"))) static int append(unsigned set, int32_t at,
                                                                            int32_t* nonzero, int n) {
    const __m512i indices = _mm512_add_epi32(_mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
                                             _mm512_set1_epi32(at));
    _mm512_storeu_si512(nonzero + n, _mm512_maskz_compress_epi32(static_cast<__mmask16>(set), indices));
    return n + __builtin_popcount(set);
  }
};

// input[0, kLanes * groups) from the observation (input_lanes), its non-zero entries appended as
// base + i; the new n. Inlined, with every call in it, into a function of the width's target
// (flatten): the lanes' operations are that target's.
template <class Lanes>
inline int observation_groups(const float* observation, int groups, InputScale norm, float* input, int32_t base,
                              int32_t* nonzero, int n) {
  for (int i = 0; i < Lanes::kLanes * groups; i += Lanes::kLanes) {
    input_lanes<typename Lanes::Floats>(observation, norm, i, input);
    n = Lanes::append(Lanes::nonzero(input + i), base + i, nonzero, n);
  }
  return n;
}

// input[0, kLanes * groups) = 1.0f where legal[k] != 0, else 0.0f, and the legal ones appended as
// base + k (as mask_input4, kLanes actions at a time); the new n.
template <class Lanes>
inline int mask_groups(const uint8_t* legal, int groups, float* input, int32_t base, int32_t* nonzero, int n) {
  for (int a = 0; a < Lanes::kLanes * groups; a += Lanes::kLanes) {
    const unsigned is_legal = Lanes::nonzero(legal + a);
    Lanes::ones(input + a, is_legal);
    n = Lanes::append(is_legal, base + a, nonzero, n);
  }
  return n;
}

// (the scale by value: a local the stores cannot alias, so its fields stay in registers)
__attribute__((target("avx2,popcnt"), flatten)) int observation_groups_avx2(const float* observation, int groups,
                                                                            InputScale norm, float* input,
                                                                            int32_t base, int32_t* nonzero, int n) {
  return observation_groups<Avx2Lanes>(observation, groups, norm, input, base, nonzero, n);
}

__attribute__((target("avx512f,popcnt"), flatten)) int observation_groups_avx512(const float* observation,
                                                                                 int groups, InputScale norm,
                                                                                 float* input, int32_t base,
                                                                                 int32_t* nonzero, int n) {
  return observation_groups<Avx512Lanes>(observation, groups, norm, input, base, nonzero, n);
}

__attribute__((target("avx2,popcnt"), flatten)) int mask_groups_avx2(const uint8_t* legal, int groups, float* input,
                                                                     int32_t base, int32_t* nonzero, int n) {
  return mask_groups<Avx2Lanes>(legal, groups, input, base, nonzero, n);
}

__attribute__((target("avx512f,popcnt"), flatten)) int mask_groups_avx512(const uint8_t* legal, int groups,
                                                                          float* input, int32_t base,
                                                                          int32_t* nonzero, int n) {
  return mask_groups<Avx512Lanes>(legal, groups, input, base, nonzero, n);
}
#endif

}  // namespace

int PolicyNet::observation_input(const float* observation, float* input, int32_t base, int32_t* nonzero, int n) const {
  // zero exactly where the observation is zero: the same arithmetic as obs_at_zero's, std::clamp's
  const int size = observation_size;
  const float* offset = obs_scale.empty() ? nullptr : obs_offset.data();  // null: not normalized
  const InputScale norm{offset, obs_scale.data(), obs_at_zero.data(), obs_clip};
  int i = 0;
#ifdef DIMSUM_POLICY_AVX
  if (isa() == Isa::kAvx512) {
    n = observation_groups_avx512(observation, size / 16, norm, input, base, nonzero, n);
    i = size / 16 * 16;
  } else if (isa() == Isa::kAvx2) {
    n = observation_groups_avx2(observation, size / 8, norm, input, base, nonzero, n);
    i = size / 8 * 8;
  }
#endif
#if defined(__GNUC__)
  // four values at a time, skipped at once when all four are zero: most of a one-hot observation
  for (; i + 4 <= size; i += 4) {
    if (nonzero_lanes(observation + i) == 0) {  // four zeros: an input of zeros, nothing to list
      std::fill(input + i, input + i + 4, 0.0f);
      continue;
    }
    input_lanes<Floats4>(observation, norm, i, input);
    n = append_lanes(nonzero_lanes(input + i), base + i, nonzero, n);  // no branch: none may be non-zero
  }
#endif
  for (; i < size; ++i) {  // the last values (every value without the vector extension), as input_lanes
    const float x = observation[i];
    const float v = x == 0.0f               ? 0.0f
                    : norm.offset != nullptr ? std::clamp((x - norm.offset[i]) * norm.scale[i], -norm.clip, norm.clip) -
                                                   norm.at_zero[i]
                                           : x;
    input[i] = v;
    nonzero[n] = base + i;  // written always, kept only if v is not zero
    n += v != 0.0f;
  }
  return n;
}

namespace {

// The input's parts in their order (PolicyNet::inputs), each written by its writer, which takes
// where the part starts in the row (a pointer into it and its index, base) and the count of
// non-zero entries listed so far, and returns the new count.
template <class MaskPart, class ObservationPart>
int write_parts(const PolicyNet& net, float* input, MaskPart mask_part, ObservationPart observation_part) {
  int n = 0;
  int32_t base = 0;
  for (InputPart part : net.inputs) {
    const bool mask = part == InputPart::kActionMask;
    n = mask ? mask_part(input, base, n) : observation_part(input, base, n);
    const int width = mask ? net.num_actions : net.observation_size;
    input += width;
    base += width;
  }
  return n;
}

}  // namespace

int PolicyNet::make_input(const float* observation, const uint8_t* legal_mask, float* input, int32_t* nonzero) const {
  const auto mask_part = [&](float* in, int32_t base, int n) {
    // sixteen actions at a time with AVX-512, eight with AVX2; else eight at a time, skipped at once when none is
    // legal (most of them), else four by four by the lane table
    int a = 0;
#ifdef DIMSUM_POLICY_AVX
    if (isa() == Isa::kAvx512) {
      n = mask_groups_avx512(legal_mask, num_actions / 16, in, base, nonzero, n);
      a = num_actions / 16 * 16;
    } else if (isa() == Isa::kAvx2) {
      n = mask_groups_avx2(legal_mask, num_actions / 8, in, base, nonzero, n);
      a = num_actions / 8 * 8;
    }
#endif
    for (; a + 8 <= num_actions; a += 8) {
      uint64_t word;
      std::memcpy(&word, legal_mask + a, sizeof word);
      if (word == 0) {
        std::fill(in + a, in + a + 8, 0.0f);
        continue;
      }
      n = mask_input4(legal_mask + a, in + a, base + a, nonzero, n);
      n = mask_input4(legal_mask + a + 4, in + a + 4, base + a + 4, nonzero, n);
    }
    if (a + 4 <= num_actions) {
      n = mask_input4(legal_mask + a, in + a, base + a, nonzero, n);
      a += 4;
    }
    for (int k = a; k < num_actions; ++k) {  // the last one to three actions
      in[k] = legal_mask[k] ? 1.0f : 0.0f;
      nonzero[n] = base + k;  // written always, kept only if the action is legal
      n += legal_mask[k] != 0;
    }
    return n;
  };
  const auto observation_part = [&](float* in, int32_t base, int n) {
    return observation_input(observation, in, base, nonzero, n);
  };
  return write_parts(*this, input, mask_part, observation_part);
}

int PolicyNet::make_input(const float* observation, const int16_t* legal, int num_legal, float* input,
                          int32_t* nonzero) const {
  const auto mask_part = [&](float* in, int32_t base, int n) {
    // the legal actions are the mask's non-zero entries: listed from them, not found by a scan
    std::fill(in, in + num_actions, 0.0f);
    for (int k = 0; k < num_legal; ++k) {
      in[legal[k]] = 1.0f;
      nonzero[n + k] = base + legal[k];
    }
    if (!std::is_sorted(nonzero + n, nonzero + n + num_legal)) std::sort(nonzero + n, nonzero + n + num_legal);
    return n + num_legal;
  };
  const auto observation_part = [&](float* in, int32_t base, int n) {
    return observation_input(observation, in, base, nonzero, n);
  };
  return write_parts(*this, input, mask_part, observation_part);
}

}  // namespace dimsum::bots
