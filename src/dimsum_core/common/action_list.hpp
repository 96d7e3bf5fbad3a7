// A fixed-capacity list of actions: legal-move generation writes here, never to the heap.
#pragma once

#include <cstdint>

namespace dimsum {

template <int Capacity>
struct ActionList {
  int16_t items[Capacity];  // left uninitialized: only [0, size) is ever read
  int size = 0;

  void push(int action) { items[size++] = static_cast<int16_t>(action); }
  int operator[](int i) const { return items[i]; }
  const int16_t* begin() const { return items; }
  const int16_t* end() const { return items + size; }
};

// The legal actions of a state of game G, generated onto the stack (sorted).
template <class G>
struct LegalActions : ActionList<G::kMaxActions> {
  LegalActions(const typename G::Config& c, const typename G::State& s) {
    this->size = G::legal_actions(c, s, this->items);
  }
  // One of them, uniformly (the list must not be empty).
  template <class R>
  int pick(R& rng) const { return this->items[rng.bounded(static_cast<uint64_t>(this->size))]; }
};

}  // namespace dimsum
