// Every game compiled into this build, found by name, as a type-erased GameApi.
#include <cstring>

#include "common/game_api.hpp"
#include "games.hpp"

namespace dimsum {
namespace {

template <class... G>
struct ApiTable {
  static constexpr GameApi apis[] = {make_api<G>()...};
};

template <class... G>
const GameApi* find_in(GameList<G...>, const char* name) {
  for (const GameApi& api : ApiTable<G...>::apis)
    if (std::strcmp(api.name, name) == 0) return &api;
  return nullptr;
}

}  // namespace

const GameApi* find_game(const char* name) { return find_in(AllGames{}, name); }

template <class... G>
constexpr int count_games(GameList<G...>) { return sizeof...(G); }

int num_games() { return count_games(AllGames{}); }

template <class... G>
const GameApi* api_at(GameList<G...>, int index) {
  return index >= 0 && index < static_cast<int>(sizeof...(G)) ? &ApiTable<G...>::apis[index] : nullptr;
}

const GameApi* game_at(int index) { return api_at(AllGames{}, index); }

}  // namespace dimsum
