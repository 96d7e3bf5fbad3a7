// dimsum._batch (pybind11): the batch side, called once per batch, so the binding's cost
// vanishes and pybind11's numpy ownership and GIL release serve best. One file per topic
// (boost-histogram's register_* layout); no game logic here, and no game named.
#include <pybind11/pybind11.h>

#include <algorithm>
#include <thread>

#include "bindings.hpp"

namespace dimsum::bindings {
void register_opponent_env(py::module_& m);  // opponent_env.cpp
}  // namespace dimsum::bindings

PYBIND11_MODULE(_batch, m, pybind11::mod_gil_not_used()) {
  m.doc() = "dimsum's batch engine (pybind11): BatchEnv and random playouts in C++ with the GIL released.";
  dimsum::bindings::register_playouts(m);
  dimsum::bindings::register_batch_env(m);
  dimsum::bindings::register_opponent_env(m);
  m.def("hardware_threads", [] { return std::max(1u, std::thread::hardware_concurrency()); },
        "std::thread::hardware_concurrency() (at least 1).");
}
