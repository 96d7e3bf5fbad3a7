// The list of games compiled into this build. The registry (type-erased) and the batch
// engine (templated, so the rules inline into its loops) both read it from here.
#pragma once

#include <cstring>
#include <utility>

#include "dim_sum_jam/byte_layout.hpp"
#include "dim_sum_jam/engine.hpp"
#include "kuhn_poker/byte_layout.hpp"
#include "kuhn_poker/engine.hpp"
#include "nice_buns/byte_layout.hpp"
#include "nice_buns/engine.hpp"
#include "pig/byte_layout.hpp"
#include "pig/engine.hpp"
#include "yum_cha/byte_layout.hpp"
#include "yum_cha/engine.hpp"

namespace dimsum {

template <class... G>
struct GameList {};

using AllGames = GameList<yum_cha::Engine, nice_buns::Engine, dim_sum_jam::Engine, pig::Engine,
                          kuhn_poker::Engine>;

// Calls f.template operator()<G>() for the game named `name`; returns false if none is.
template <class F, class... G>
bool dispatch_game(GameList<G...>, const char* name, F&& f) {
  return ((std::strcmp(G::kName, name) == 0 ? (f.template operator()<G>(), true) : false) || ...);
}

template <class F>
bool dispatch_game(const char* name, F&& f) {
  return dispatch_game(AllGames{}, name, std::forward<F>(f));
}

}  // namespace dimsum
