// dimsum._batch (pybind11): the batch side, called once per batch, so the binding's cost
// vanishes and pybind11's numpy ownership and GIL release serve best. One file per topic
// (boost-histogram's register_* layout); no game logic here, and no game named.
#include <pybind11/pybind11.h>

#include <algorithm>
#include <thread>

#include "bindings.hpp"

PYBIND11_MODULE(_batch, m, pybind11::mod_gil_not_used()) {
  m.doc() = "dimsum's batch engine (pybind11): BatchEnv, random playouts and bots in C++ with the GIL released.";
  dimsum::bindings::register_playouts(m);
  dimsum::bindings::register_batch_env(m);
  dimsum::bindings::register_opponent_env(m);
  dimsum::bindings::register_bots(m);
  dimsum::bindings::register_policy(m);
  m.def("hardware_threads", [] { return std::max(1u, std::thread::hardware_concurrency()); },
        "std::thread::hardware_concurrency() (at least 1).");
}
