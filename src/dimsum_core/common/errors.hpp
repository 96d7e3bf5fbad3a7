// Writing a readable message into a caller's buffer: the core never throws across the
// binding boundary and never allocates to report a bad input.
#pragma once

#include <cstdarg>
#include <cstdint>
#include <cstdio>

namespace dimsum {

// Formats into err (if given) and returns false, so validators can `return fail(...)`.
inline bool fail(char* err, int errlen, const char* fmt, ...) {
  if (err && errlen > 0) {
    va_list args;
    va_start(args, fmt);
    std::vsnprintf(err, static_cast<size_t>(errlen), fmt, args);
    va_end(args);
  }
  return false;
}

// Range check for values that come from outside (config ints, imported fields).
constexpr bool in_range(int64_t x, int64_t lo, int64_t hi) { return x >= lo && x <= hi; }

}  // namespace dimsum
