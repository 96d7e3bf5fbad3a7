"""dimsum._batch, the pybind11 module of the batch engine, lives in _core's shared library.

setup.py compiles both modules into one file so that the C++ core is linked once, not twice (half
the wheel). Python finds a module's shared library by the module's name, so this stub loads
``_batch`` from ``_core``'s file (its ``PyInit__batch``) and puts that module in its own place in
``sys.modules``: ``import dimsum._batch`` and ``from dimsum import _batch`` both give the
extension module itself, and pickles name it as before. Its typed interface is _batch.pyi.
"""

import sys
from importlib.machinery import ExtensionFileLoader
from importlib.util import module_from_spec, spec_from_file_location

from . import _core


def _load_from_core() -> None:
    loader = ExtensionFileLoader(__name__, _core.__file__)
    spec = spec_from_file_location(__name__, _core.__file__, loader=loader)
    assert spec is not None  # a spec is always made for a given loader
    module = module_from_spec(spec)  # calls PyInit__batch
    loader.exec_module(module)
    sys.modules[__name__] = module  # the import statement returns what sys.modules holds


_load_from_core()
