// The options JSON of dimsum_env_create: one object whose values are integers (true/false read as
// 1/0) or arrays of them, nested (a list field's rows). Parsed here, without a JSON library: no
// strings as values, no floats, no null, since no config field takes them; anything else is
// refused with a message naming where the text went wrong.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace dimsum::capi {

struct JsonValue {
  bool is_array = false;
  int64_t number = 0;              // when not an array
  std::vector<JsonValue> items;    // when an array
};

using JsonObject = std::vector<std::pair<std::string, JsonValue>>;  // in the order given

// `text` as an object into `out`; false with a message in `err` if it is not one of the form above
// (a key given twice included). Nesting deeper than kMaxJsonDepth is refused (no field is deeper).
inline constexpr int kMaxJsonDepth = 8;
bool parse_options_json(std::string_view text, JsonObject& out, std::string& err);

}  // namespace dimsum::capi
