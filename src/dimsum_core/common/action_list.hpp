// A fixed-capacity list of actions: legal-move generation writes here, never to the heap.
#pragma once

#include <cstdint>

namespace dimsum {

template <int Capacity>
struct ActionList {
  int16_t items[Capacity];
  int size = 0;

  void push(int action) { items[size++] = static_cast<int16_t>(action); }
  int operator[](int i) const { return items[i]; }
  const int16_t* begin() const { return items; }
  const int16_t* end() const { return items + size; }
};

}  // namespace dimsum
