// What the topic files of dimsum._batch share: each registers its part of the module
// (module.cpp calls them).
#pragma once

#include <pybind11/pybind11.h>

namespace dimsum::bindings {

namespace py = pybind11;

void register_playouts(py::module_& m);
void register_batch_env(py::module_& m);

}  // namespace dimsum::bindings
