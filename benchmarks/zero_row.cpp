// Clearing Dim Sum Jam's observation row (1,093 float32, 4.4 KB) for 1,024 envs: memset (what
// observe.cpp's zeroing loop compiles to; glibc runs `rep stosb` at this size) against 16-byte
// SSE stores, in thread CPU time (docs/PERFORMANCE.md, "BatchEnv"). Not built by
// setup.py; run by hand:
//
//     g++ -O3 -std=c++20 benchmarks/zero_row.cpp -o /tmp/zero_row && /tmp/zero_row
//
// Why it exists: callgrind counts `rep stosb` as one instruction a byte (4,388 an observe), so
// the instruction counts say the memset is most of a BatchEnv env-step; the clock says it is the
// faster of the two, and what costs is touching the row's 69 cache lines at all.
#include <emmintrin.h>
#include <cstring>
#include <ctime>
#include <cstdio>
// 16-byte stores; the empty asm keeps GCC from turning the loop back into memset
__attribute__((noinline)) void zero_a(float* out, int n) {
  int i = 0;
  const __m128 z = _mm_setzero_ps();
  for (; i + 16 <= n; i += 16) {
    _mm_storeu_ps(out + i, z); _mm_storeu_ps(out + i + 4, z); _mm_storeu_ps(out + i + 8, z); _mm_storeu_ps(out + i + 12, z);
    __asm__("" : "+r"(i));
  }
  for (; i < n; ++i) out[i] = 0.0f;
}
// the plain loop: GCC makes it a memset call
__attribute__((noinline)) void zero_m(float* out, int n) { for (int i = 0; i < n; ++i) out[i] = 0.0f; }
static double cpu() { timespec t; clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t); return t.tv_sec + t.tv_nsec * 1e-9; }
int main() {
  static float buf[1024 * 1100];
  for (int round = 0; round < 5; ++round) {
    double t0 = cpu();
    for (int k = 0; k < 200; ++k) for (int e = 0; e < 1024; ++e) { zero_a(buf + e * 1093, 1093); buf[e*1093+5] = 1; }
    double t1 = cpu();
    for (int k = 0; k < 200; ++k) for (int e = 0; e < 1024; ++e) { zero_m(buf + e * 1093, 1093); buf[e*1093+5] = 1; }
    double t2 = cpu();
    printf("sse %.1f ns  memset %.1f ns  per 1093 floats\n", (t1 - t0) / 204800 * 1e9, (t2 - t1) / 204800 * 1e9);
  }
}
