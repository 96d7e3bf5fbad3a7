// The byte form of a state (State.to_bytes, pickles, the C++ bots' input): a 24-byte header,
// then the State's bytes, all little-endian on every host (common/byte_order.hpp;
// docs/ARCHITECTURE.md, "Byte order"). The header's checks (magic, format, game, version, size,
// config fingerprint) are the binding's; this file only lays the bytes out.
#pragma once

#include <cstdint>
#include <cstring>

#include "byte_order.hpp"

namespace dimsum {

struct StateBytesHeader {
  char magic[4];           // "DSUM"
  uint16_t format;         // the byte form's version (1)
  uint16_t game_id;        // GameApi::game_id
  uint32_t state_version;  // GameApi::state_version
  uint32_t state_size;     // GameApi::state_size: the bytes that follow
  uint64_t fingerprint;    // the config's key (python/dimsum/_core.pyx, Game.fingerprint)
};
static_assert(sizeof(StateBytesHeader) == 24 && std::has_unique_object_representations_v<StateBytesHeader>);

template <>
struct ByteLayout<StateBytesHeader>
    : Members<&StateBytesHeader::magic, &StateBytesHeader::format, &StateBytesHeader::game_id,
              &StateBytesHeader::state_version, &StateBytesHeader::state_size, &StateBytesHeader::fingerprint> {};

inline constexpr size_t kStateHeaderBytes = sizeof(StateBytesHeader);

inline void write_state_header(const StateBytesHeader& header, void* out) { store_little_endian(header, out); }

inline StateBytesHeader read_state_header(const void* in) {
  StateBytesHeader header;
  load_little_endian(in, header);
  return header;
}

}  // namespace dimsum
