// One byte order for everything that leaves the process or feeds a key: little-endian.
//
// A state's bytes (State.to_bytes, pickles, a BatchEnv's states), their header and the words a
// Zobrist key reads are little-endian on every machine, so that bytes written on x86_64 load on
// a big-endian s390x and give the same keys (docs/ARCHITECTURE.md, 5a "Byte order"). On a
// little-endian host (x86_64, aarch64, every wheel we build) every conversion here is a memcpy
// or nothing: the bytes are the struct's own, as they always were.
//
// A struct that crosses as bytes declares its members once (in declaration order, for the reader:
// each member's place is taken from the member itself):
//     template <> struct ByteLayout<State> : Members<&State::rng, &State::hash, ...> {};
// and the conversion reverses each multi-byte integer in it (arrays and nested structs, which
// declare their own ByteLayout, included). The declaration is checked when it is compiled: the
// members' sizes must add up to the struct's size (which has no padding), each named once, so a
// member added later and not declared is a build error, never bytes left in host order.
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace dimsum {

static_assert(std::endian::native == std::endian::little || std::endian::native == std::endian::big,
              "dimsum supports little- and big-endian hosts only");
inline constexpr bool kLittleEndianHost = std::endian::native == std::endian::little;

// A struct's members (see above); specialised next to the struct or in <game>/byte_layout.hpp.
template <class T>
struct ByteLayout;

// The type of the member a pointer to member points to.
template <class P>
struct MemberPointer;
template <class Owner, class T>
struct MemberPointer<T Owner::*> {
  using type = T;
};
template <auto M>
using member_t = typename MemberPointer<decltype(M)>::type;

template <auto A, auto B>
constexpr bool same_member() {
  if constexpr (std::is_same_v<decltype(A), decltype(B)>) return A == B;
  else return false;
}

template <auto... M>
struct Members {
  // Reverses the bytes of each integer of the members of the object of type Owner at p.
  template <class Owner>
  static void reverse(unsigned char* p);

  // Every byte of Owner (which has no padding) in exactly one named member.
  template <class Owner>
  static constexpr bool covers() {
    return (sizeof(member_t<M>) + ...) == sizeof(Owner) && ((count_of<M>() == 1) && ...);
  }

 private:
  template <auto X>
  static constexpr int count_of() {
    return (int{same_member<X, M>()} + ...);
  }
};

namespace byte_order_detail {

// Reverses the byte order of every integer (word) in the object of type T at p: an involution.
template <class T>
void reverse_words(unsigned char* p) {
  if constexpr (std::is_array_v<T>) {
    using E = std::remove_extent_t<T>;
    for (size_t i = 0; i < std::extent_v<T>; ++i) reverse_words<E>(p + i * sizeof(E));
  } else if constexpr (std::is_integral_v<T> || std::is_enum_v<T>) {
    std::reverse(p, p + sizeof(T));
  } else {
    static_assert(std::is_trivially_copyable_v<T> && std::has_unique_object_representations_v<T>,
                  "only structs of integers without padding cross as bytes");
    static_assert(ByteLayout<T>::template covers<T>(),
                  "ByteLayout<T> must name every member of T exactly once (common/byte_order.hpp)");
    ByteLayout<T>::template reverse<T>(p);
  }
}

}  // namespace byte_order_detail

template <auto... M>
template <class Owner>
void Members<M...>::reverse(unsigned char* p) {
  const Owner probe{};  // only its members' addresses are read: their offsets
  const auto* base = reinterpret_cast<const unsigned char*>(&probe);
  (byte_order_detail::reverse_words<member_t<M>>(
       p + (reinterpret_cast<const unsigned char*>(&(probe.*M)) - base)),
   ...);
}

// The object at p (sizeof(T) bytes) from host order to little-endian, in place; and back (the
// same reversal). Nothing at all on a little-endian host; the reversal is compiled (and its
// layout checked) on every host all the same, so that an x86_64 build catches its errors.
template <class T>
inline void host_to_little_endian(void* p) {
  if (!kLittleEndianHost) byte_order_detail::reverse_words<T>(static_cast<unsigned char*>(p));
}
template <class T>
inline void little_endian_to_host(void* p) {
  host_to_little_endian<T>(p);
}

// `object`'s little-endian bytes into out (sizeof(T) bytes, any alignment).
template <class T>
inline void store_little_endian(const T& object, void* out) {
  std::memcpy(out, &object, sizeof(T));
  host_to_little_endian<T>(out);
}

// A T from its little-endian bytes at in (any alignment).
template <class T>
inline void load_little_endian(const void* in, T& object) {
  std::memcpy(&object, in, sizeof(T));
  little_endian_to_host<T>(&object);
}

// The n (<= 8) bytes at p as a little-endian number: byte i is bits 8i..8i+7 on every host.
inline uint64_t load_little_endian_bytes(const void* p, size_t n) {
  uint64_t value = 0;
  if constexpr (kLittleEndianHost) {
    std::memcpy(&value, p, n);
  } else {
    const auto* bytes = static_cast<const unsigned char*>(p);
    for (size_t i = 0; i < n; ++i) value |= static_cast<uint64_t>(bytes[i]) << (8 * i);
  }
  return value;
}

}  // namespace dimsum
