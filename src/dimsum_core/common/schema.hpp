// A game's boundary, declared once, as data: the fields of its Config (what Python hands over
// by name), the fields of its State (what to_dict, state_from_dict and state.field(name) read
// by name) and the slices of its observation (names, sizes and exact bounds).
//
// Each game writes three constexpr tables in its schema.cpp (arrays of the ConfigField,
// StateField and ObservationSlice below) and hands them out as spans from Engine::config_fields(),
// state_fields() and observation(); the generic code below walks them. No offset into a flat
// list is written by hand anywhere, in C++ or in Python: the bindings ask for FieldInfo rows and
// address every field by name.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <span>
#include <type_traits>

#include "errors.hpp"

namespace dimsum {

// A field's shape: rank 0 is one value, rank 1 a list of `cols`, rank 2 `rows` lists of `cols`.
struct Extent {
  int rows = 1, cols = 1, rank = 0;
  constexpr int size() const { return rows * cols; }
};
constexpr Extent scalar() { return Extent{1, 1, 0}; }
constexpr Extent vector(int n) { return Extent{1, n, 1}; }
constexpr Extent matrix(int rows, int cols) { return Extent{rows, cols, 2}; }

struct Bounds {
  int64_t lo, hi;  // every value is in [lo, hi]
};

// One field (or observation slice) as the bindings see it, for one config.
struct FieldInfo {
  const char* name;
  const char* doc;
  int32_t offset;  // index of its first value in the flat form (or the observation)
  int32_t rows, cols, rank;  // see Extent; a counted config field has rank 1 (cols 1) or 2
  int64_t lo, hi;
  uint32_t flags;  // FieldFlags
};

enum FieldFlags : uint32_t {
  kCounted = 1,  // config: the number of rows (in [min_rows, rows]) precedes the values
  kWord = 2,     // a 64-bit pattern carried as int64 (rng words, masks); bounds do not apply
  // config: keyed into the fingerprint (to_bytes' header) only when not 0. A field appended after
  // states were saved has it, so that at its default (0) saved states keep their keys.
  kKeyedWhenSet = 4,
};

inline constexpr int kMaxSchemaFields = 64;  // rows a table may have (the bindings' buffers)

// A value already checked against its field's bounds, stored in the member's type.
template <class T>
constexpr T narrow(int64_t v) {
  return static_cast<T>(v);
}

// A seat-valued config field (-1: drawn at random) must name a seat of this player count.
inline bool check_seat_field(const char* game, const char* name, int seat, int players, char* err, int errlen) {
  if (seat < players) return true;
  return fail(err, errlen, "%s config field '%s': %d; a seat in [0, %d] or -1 is allowed", game, name, seat,
              players - 1);
}

// "[i]" or "[row][col]" after a field name in a message.
struct IndexText {
  char text[32];  // "[%d][%d]" of two ints: at most 27 bytes
};
inline IndexText index_text(int i, int cols) {
  IndexText t{};
  if (cols > 1 && i >= cols) std::snprintf(t.text, sizeof t.text, "[%d][%d]", i / cols, i % cols);
  else std::snprintf(t.text, sizeof t.text, "[%d]", i);
  return t;
}

// ---------------------------------------------------------------------------------------------
// Config fields: Python passes each one by name; the binding packs them in this order, a
// counted field preceded by its number of rows. `set` stores one row; finish_config derives
// the rest and checks what involves several fields.

template <class C>
struct ConfigField {
  const char* name;
  const char* doc;
  int rows, cols;  // rows: the fixed row count, or the most rows when kCounted
  int min_rows;    // kCounted only
  Bounds bounds;
  void (*set)(C& c, int row, const int64_t* values);  // values: cols ints, in bounds
  uint32_t flags = 0;
};

template <class C>
int config_field_infos(std::span<const ConfigField<C>> fields, FieldInfo* out) {
  for (size_t i = 0; i < fields.size(); ++i) {
    const ConfigField<C>& f = fields[i];
    const bool list = (f.flags & kCounted) || f.rows > 1;
    const int rank = list ? (f.cols > 1 ? 2 : 1) : (f.cols > 1 ? 1 : 0);
    out[i] = FieldInfo{f.name, f.doc, -1, f.rows, f.cols, rank, f.bounds.lo, f.bounds.hi, f.flags};
  }
  return static_cast<int>(fields.size());
}

// Reads the packed values into c (zeroed first); false with "<game> config field '<name>': ..."
// if a value is out of bounds or the list is cut short or too long.
template <class C>
bool config_from_values(const char* game, std::span<const ConfigField<C>> fields, const int64_t* v, int n, C& c,
                        char* err, int errlen) {
  c = C{};
  int at = 0;
  for (const ConfigField<C>& f : fields) {
    int rows = f.rows;
    if (f.flags & kCounted) {
      if (at >= n) return fail(err, errlen, "%s config field '%s': missing", game, f.name);
      if (!in_range(v[at], f.min_rows, f.rows))
        return fail(err, errlen, "%s config field '%s': %lld rows; allowed [%d, %d]", game, f.name,
                    static_cast<long long>(v[at]), f.min_rows, f.rows);
      rows = static_cast<int>(v[at++]);
    }
    if (n - at < rows * f.cols) return fail(err, errlen, "%s config field '%s': missing values", game, f.name);
    for (int r = 0; r < rows; ++r, at += f.cols) {
      for (int k = 0; k < f.cols; ++k)
        if (!(f.flags & kWord) && !in_range(v[at + k], f.bounds.lo, f.bounds.hi))
          return fail(err, errlen, "%s config field '%s'%s: %lld is out of range; allowed [%lld, %lld]", game,
                      f.name, rows * f.cols > 1 ? index_text(r * f.cols + k, f.cols).text : "",
                      static_cast<long long>(v[at + k]),
                      static_cast<long long>(f.bounds.lo), static_cast<long long>(f.bounds.hi));
      f.set(c, r, v + at);
    }
  }
  if (at != n) return fail(err, errlen, "%s config: %d values, the fields take %d", game, n, at);
  return true;
}

// ---------------------------------------------------------------------------------------------
// State fields: the flat int form of a state, one entry per field, in table order. Extents and
// bounds may depend on the config (a hand per player, a count per card type).

template <class C, class S>
struct StateField {
  const char* name;
  const char* doc;
  Extent (*extent)(const C& c);
  Bounds (*bounds)(const C& c);
  int64_t (*get)(const C& c, const S& s, int i);  // i in [0, extent.size())
  void (*set)(const C& c, S& s, int i, int64_t value);
  uint32_t flags = 0;
};

template <class C, class S>
int state_field_infos(std::span<const StateField<C, S>> fields, const C& c, FieldInfo* out) {
  int offset = 0;
  for (size_t i = 0; i < fields.size(); ++i) {
    const StateField<C, S>& f = fields[i];
    const Extent e = f.extent(c);
    const Bounds b = f.bounds(c);
    out[i] = FieldInfo{f.name, f.doc, offset, e.rows, e.cols, e.rank, b.lo, b.hi, f.flags};
    offset += e.size();
  }
  return static_cast<int>(fields.size());
}

template <class C, class S>
int state_field_count(std::span<const StateField<C, S>> fields, const C& c) {
  int total = 0;
  for (const StateField<C, S>& f : fields) total += f.extent(c).size();
  return total;
}

// One field's values into out (extent.size() of them); returns how many.
template <class C, class S>
int read_state_field(const StateField<C, S>& f, const C& c, const S& s, int64_t* out) {
  const int n = f.extent(c).size();
  for (int i = 0; i < n; ++i) out[i] = f.get(c, s, i);
  return n;
}

template <class C, class S>
int export_state_fields(std::span<const StateField<C, S>> fields, const C& c, const S& s, int64_t* out) {
  int at = 0;
  for (const StateField<C, S>& f : fields) at += read_state_field(f, c, s, out + at);
  return at;
}

// Sets every field of s (zeroed first) from the flat form, each value checked against its
// field's bounds: "<game> state field '<name>'[i]: <value> is out of range; allowed [lo, hi]".
// What involves several fields is the game's validate, which runs after this.
template <class C, class S>
bool import_state_fields(const char* game, std::span<const StateField<C, S>> fields, const C& c, const int64_t* v,
                         int n, S& s, char* err, int errlen) {
  const int expected = state_field_count(fields, c);
  if (n != expected) return fail(err, errlen, "%s state: %d field values, expected %d", game, n, expected);
  s = S{};
  int at = 0;
  for (const StateField<C, S>& f : fields) {
    const Bounds b = f.bounds(c);
    const Extent e = f.extent(c);
    for (int i = 0; i < e.size(); ++i, ++at) {
      if (!(f.flags & kWord) && !in_range(v[at], b.lo, b.hi))
        return fail(err, errlen, "%s state field '%s'%s: %lld is out of range; allowed [%lld, %lld]", game, f.name,
                    e.size() > 1 ? index_text(i, e.cols).text : "", static_cast<long long>(v[at]),
                    static_cast<long long>(b.lo), static_cast<long long>(b.hi));
      f.set(c, s, i, v[at]);
    }
  }
  return true;
}

// ---------------------------------------------------------------------------------------------
// Fields that are one member of the Config or the State: most of them. A game writes
// `using Member = MemberFields<Config, State>;` and declares such a field in one line,
// `Member::state<&State::round>("round", "...", bounds)`, instead of a getter and a setter.

template <auto M>
struct MemberType;
template <class Owner, class T, T Owner::*M>
struct MemberType<M> {
  using type = T;
};

template <class C, class S>
struct MemberFields {
  // A scalar config field stored in member M.
  template <auto M>
  static constexpr ConfigField<C> config(const char* name, const char* doc, Bounds bounds, uint32_t flags = 0) {
    using T = typename MemberType<M>::type;
    return ConfigField<C>{name, doc, 1, 1, 0, bounds, [](C& c, int, const int64_t* v) { c.*M = static_cast<T>(*v); },
                          flags};
  }

  // The chance mode (engine.hpp, "Chance"), the same field in every game: declared last in each
  // config table, so that it follows the rule fields.
  static constexpr ConfigField<C> chance_mode() {
    return config<&C::explicit_chance>("explicit_chance",
                                       "1: stop at every random event (chance nodes); 0: draw it inside apply", {0, 1},
                                       kKeyedWhenSet);
  }

  // The state's generator (State::rng, a dimsum::Rng) as the field "rng", its four words: the same
  // field in every game, so that the exported fields fix the state's future draws too.
  static constexpr StateField<C, S> rng() {
    return StateField<C, S>{"rng", "the generator's four state words", [](const C&) { return vector(4); },
                            [](const C&) { return Bounds{0, 0}; },
                            [](const C&, const S& s, int k) { return static_cast<int64_t>(s.rng.s[k]); },
                            [](const C&, S& s, int k, int64_t v) { s.rng.s[k] = static_cast<uint64_t>(v); }, kWord};
  }

  // A scalar state field stored in member M (kWord for a 64-bit pattern).
  template <auto M>
  static constexpr StateField<C, S> state(const char* name, const char* doc, Bounds (*bounds)(const C&),
                                          uint32_t flags = 0) {
    using T = typename MemberType<M>::type;
    return StateField<C, S>{name, doc, [](const C&) { return scalar(); }, bounds,
                            [](const C&, const S& s, int) { return static_cast<int64_t>(s.*M); },
                            [](const C&, S& s, int, int64_t v) { s.*M = static_cast<T>(v); }, flags};
  }

  // One value per player, stored in the array member M (indexed by seat).
  template <auto M>
  static constexpr StateField<C, S> per_player(const char* name, const char* doc, Bounds (*bounds)(const C&),
                                               uint32_t flags = 0) {
    using T = std::remove_extent_t<typename MemberType<M>::type>;
    return StateField<C, S>{name, doc, [](const C& c) { return vector(c.players); }, bounds,
                            [](const C&, const S& s, int p) { return static_cast<int64_t>((s.*M)[p]); },
                            [](const C&, S& s, int p, int64_t v) { (s.*M)[p] = static_cast<T>(v); }, flags};
  }
};

// ---------------------------------------------------------------------------------------------
// Observation slices: observe() writes them in this order; the observation size is their sum.

template <class C>
struct ObservationSlice {
  const char* name;
  const char* doc;
  int (*size)(const C& c);
  Bounds (*bounds)(const C& c);  // every value of the slice is in [lo, hi]
};

template <class C>
int observation_slice_infos(std::span<const ObservationSlice<C>> slices, const C& c, FieldInfo* out) {
  int offset = 0;
  for (size_t i = 0; i < slices.size(); ++i) {
    const int size = slices[i].size(c);
    const Bounds b = slices[i].bounds(c);
    out[i] = FieldInfo{slices[i].name, slices[i].doc, offset, 1, size, 1, b.lo, b.hi, 0};
    offset += size;
  }
  return static_cast<int>(slices.size());
}

template <class C>
int observation_size(std::span<const ObservationSlice<C>> slices, const C& c) {
  int total = 0;
  for (const ObservationSlice<C>& s : slices) total += s.size(c);
  return total;
}

}  // namespace dimsum
