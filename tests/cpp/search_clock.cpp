// Test-only: prints clock_stride (src/dimsum_core/bots/search_clock.hpp) of each mean seconds a
// simulation read from stdin, one a line ("nan" and "inf" as strtod reads them). Built and run by
// tests/test_search_clock.py.
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>

#include "dimsum_core/bots/search_clock.hpp"

int main() {
  for (std::string line; std::getline(std::cin, line);) {
    const double seconds = std::strtod(line.c_str(), nullptr);
    std::printf("%lld\n", static_cast<long long>(dimsum::bots::clock_stride(seconds)));
  }
  return 0;
}
