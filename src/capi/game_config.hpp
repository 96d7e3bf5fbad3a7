// A game's Config from dimsum_env_create's options JSON: the game's default config (what
// dimsum.make(game) builds, default_configs.inc) with the fields the JSON names replaced, then
// built and checked by the core exactly as the Python binding builds it (build_config).
//
// The JSON names the core's config fields (schema.cpp of each game; docs/C_API.md lists them):
// a one-value field takes an integer (or true/false), a fixed list field an array of its values
// (flat, or one array per row), a counted list field an array of its rows (each a value, or an
// array of the row's values when a row has several).
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "dimsum_core/common/engine.hpp"
#include "dimsum_core/common/schema.hpp"
#include "json_options.hpp"

namespace dimsum::capi {

// The packed default config of game `name` (Game.config_values of dimsum.make(name)), or null.
const std::vector<int64_t>* default_config(const char* name);

// v's integers, depth-first, appended to out.
inline void flatten(const JsonValue& v, std::vector<int64_t>& out) {
  if (!v.is_array) {
    out.push_back(v.number);
    return;
  }
  for (const JsonValue& item : v.items) flatten(item, out);
}

inline std::string field_list(const FieldInfo* infos, int n) {
  std::string names;
  for (int i = 0; i < n; ++i) {
    if (infos[i].flags & kDerived) continue;
    if (!names.empty()) names += ", ";
    names += infos[i].name;
  }
  return names;
}

// Field f's packed values (a counted field's row count first) from the JSON value given for it.
inline bool field_values(const char* game, const FieldInfo& f, const JsonValue& v, std::vector<int64_t>& out,
                         std::string& err) {
  const std::string where = std::string(game) + " config field '" + f.name + "': ";
  out.clear();
  if (f.flags & kCounted) {
    if (!v.is_array) return err = where + "a list of rows expected ([...])", false;
    out.push_back(static_cast<int64_t>(v.items.size()));
    for (const JsonValue& row : v.items) {
      const size_t before = out.size();
      flatten(row, out);
      if (out.size() - before != static_cast<size_t>(f.cols))
        return err = where + "each row has " + std::to_string(f.cols) + " value(s)", false;
    }
    return true;
  }
  const size_t size = static_cast<size_t>(f.rows) * static_cast<size_t>(f.cols);
  if (f.rank == 0 && v.is_array) return err = where + "one integer expected, got a list", false;
  if (f.rank > 0 && !v.is_array) return err = where + "a list of " + std::to_string(size) + " values expected", false;
  flatten(v, out);
  if (out.size() != size)
    return err = where + std::to_string(size) + " value(s) expected, got " + std::to_string(out.size()), false;
  return true;
}

// G's Config from `json` (null or empty: the defaults); false with a message if the JSON is bad,
// names a field G has not (or one derived from the others), or gives a value the game refuses.
// Explicit chance is refused: a batched env steps games whose chance is drawn inside apply.
template <class G>
bool config_from_json(const char* json, typename G::Config& c, std::string& err) {
  const std::vector<int64_t>* defaults = default_config(G::kName);
  if (defaults == nullptr) return err = std::string(G::kName) + ": no default config (default_configs.inc)", false;
  FieldInfo infos[kMaxSchemaFields];
  const int n = config_field_infos<typename G::Config>(G::config_fields(), infos);
  // the defaults cut into one packed segment per field (none for a derived one)
  std::vector<std::vector<int64_t>> segments(static_cast<size_t>(n));
  size_t at = 0;
  for (int i = 0; i < n; ++i) {
    const FieldInfo& f = infos[i];
    if (f.flags & kDerived) continue;
    size_t rows = static_cast<size_t>(f.rows);
    if (f.flags & kCounted) {
      if (at >= defaults->size()) return err = std::string(G::kName) + ": default_configs.inc is stale", false;
      rows = static_cast<size_t>((*defaults)[at]);
    }
    const size_t size = (f.flags & kCounted ? 1 : 0) + rows * static_cast<size_t>(f.cols);
    if (at + size > defaults->size()) return err = std::string(G::kName) + ": default_configs.inc is stale", false;
    segments[static_cast<size_t>(i)].assign(defaults->begin() + static_cast<std::ptrdiff_t>(at),
                                            defaults->begin() + static_cast<std::ptrdiff_t>(at + size));
    at += size;
  }
  if (at != defaults->size()) return err = std::string(G::kName) + ": default_configs.inc is stale", false;
  if (json != nullptr && json[0] != '\0') {
    JsonObject given;
    if (!parse_options_json(json, given, err)) return false;
    for (const auto& [key, value] : given) {
      int found = -1;
      for (int i = 0; i < n; ++i)
        if (key == infos[i].name) found = i;
      if (found < 0 || (infos[found].flags & kDerived)) {
        err = std::string(G::kName) + " has no config field '" + key + "'" +
              (found >= 0 ? " that can be set (it is derived from the others)" : "") +
              "; its fields: " + field_list(infos, n);
        return false;
      }
      if (!field_values(G::kName, infos[found], value, segments[static_cast<size_t>(found)], err)) return false;
    }
  }
  std::vector<int64_t> packed;
  for (int i = 0; i < n; ++i) {
    if (std::strcmp(infos[i].name, "explicit_chance") == 0 && !segments[static_cast<size_t>(i)].empty() &&
        segments[static_cast<size_t>(i)][0] != 0) {
      err = std::string(G::kName) + ": explicit_chance must be 0: a batched env draws chance inside each action";
      return false;
    }
    packed.insert(packed.end(), segments[static_cast<size_t>(i)].begin(), segments[static_cast<size_t>(i)].end());
  }
  char buf[512] = "";
  if (!build_config<G>(packed.data(), static_cast<int>(packed.size()), c, buf, sizeof buf)) {
    err = buf;
    return false;
  }
  return true;
}

}  // namespace dimsum::capi
