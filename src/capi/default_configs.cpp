// default_config (game_config.hpp): the generated table of each game's default config.
#include <cstring>
#include <vector>

#include "game_config.hpp"

namespace dimsum::capi {
namespace {

struct DefaultConfig {
  const char* game;
  std::vector<int64_t> values;
};

const std::vector<DefaultConfig>& table() {
#define DIMSUM_DEFAULT_CONFIG(name, ...) DefaultConfig{name, {__VA_ARGS__}},
  static const std::vector<DefaultConfig> configs = {
#include "default_configs.inc"
  };
#undef DIMSUM_DEFAULT_CONFIG
  return configs;
}

}  // namespace

const std::vector<int64_t>* default_config(const char* name) {
  for (const DefaultConfig& d : table())
    if (std::strcmp(d.game, name) == 0) return &d.values;
  return nullptr;
}

}  // namespace dimsum::capi
