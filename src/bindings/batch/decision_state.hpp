// A position crossing from Python to a C++ bot (bots.cpp, policy.cpp): State.to_bytes() checked
// (its length, magic and game) and validated before any rule reads it, so that no bytes from
// Python can crash a bot; and the dispatch from a game's name to its engine.
#pragma once

#include <pybind11/pybind11.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <utility>

#include "bindings.hpp"
#include "dimsum_core/common/state_bytes.hpp"
#include "dimsum_core/games.hpp"

namespace dimsum::bindings {

// G's state from to_bytes() output; ValueError unless it is a valid decision node.
template <class G>
typename G::State decision_state(const typename G::Config& c, std::string_view bytes) {
  using State = typename G::State;
  const std::string name = G::kName;
  if (bytes.size() != kStateHeaderBytes + sizeof(State) || std::memcmp(bytes.data(), "DSUM", 4) != 0)
    throw py::value_error(name + ": a bot needs a state as State.to_bytes() gives it (" +
                          std::to_string(kStateHeaderBytes + sizeof(State)) + " bytes), got " +
                          std::to_string(bytes.size()) + " bytes");
  if (read_state_header(bytes.data()).game_id != G::kGameId)
    throw py::value_error(name + ": these state bytes are another game's");
  State s;
  load_little_endian(bytes.data() + kStateHeaderBytes, s);  // the canonical byte order (common/byte_order.hpp)
  char err[512];
  if (!G::validate(c, s, err, sizeof err)) throw py::value_error(err);
  const int player = G::current_player(s);
  if (player == kTerminalPlayer) throw py::value_error(name + ": the game is over; nobody may act");
  if (player == kChancePlayer) throw py::value_error(name + ": the state is a chance node; a bot acts only for a player");
  return s;
}

template <class F>
inline void on_game(const std::string& game, F&& f) {
  if (!dispatch_game(game.c_str(), std::forward<F>(f)))
    throw py::value_error("game " + game + " is not compiled into this build of dimsum");
}

}  // namespace dimsum::bindings
