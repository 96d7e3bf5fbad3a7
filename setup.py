"""Builds the two extension modules, in one shared library, and the C API over one static library
of the C++ core.

- dimsum._core  (Cython): the per-move API, called millions of times from Python.
- dimsum._batch (pybind11): the batch engine and playout driver, called once per batch. It is
  compiled into _core's shared library (both modules' PyInit_ functions in one file), so that the
  core is linked into one module, not two; python/dimsum/_batch.py loads it from there.
- dimsum/libdimsum.so (.dylib, .dll): the C API (src/capi, python/dimsum/include/dimsum.h), a plain
  shared library for native trainers, built as a second "extension" that is not a Python module.
The core (src/dimsum_core/**/*.cpp) is compiled once, into libdimsum_core, and linked into
both. Environment: DIMSUM_WERROR=1 turns warnings in the core into errors (CI does);
DIMSUM_BUILD_JOBS=N compiles extensions in parallel; DIMSUM_SANITIZE=1 compiles the core and both
extensions with AddressSanitizer and UBSan (not on MSVC; .ci/sanitize builds such a copy apart);
DIMSUM_DEBUG=1 keeps debug information and the symbol table in a release build (which has neither
by default: an installed build is linked stripped; an in-place or editable build keeps its symbol
table, which the benchmarks that count a named C++ function's instructions need).
"""

import os
import sys
from glob import glob

import numpy
import pybind11
from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = os.path.dirname(os.path.abspath(__file__))
CORE = os.path.join("src", "dimsum_core")
BINDINGS = os.path.join("src", "bindings")  # dimsum._batch's sources (pybind11), one file per topic
# The Python modules in _core's shared library, each with its PyInit_<name> (python/dimsum/_batch.py)
PYTHON_MODULES_IN_CORE = ("_core", "_batch")
CAPI = os.path.join("src", "capi")  # the C API's extern "C" layer over the core (docs/C_API.md)
CAPI_HEADER_DIR = os.path.join("python", "dimsum", "include")  # dimsum.h, shipped in the wheel
MSVC = sys.platform == "win32"

core_sources = sorted(glob(os.path.join(CORE, "**", "*.cpp"), recursive=True))
batch_sources = sorted(glob(os.path.join(BINDINGS, "batch", "*.cpp")))
capi_sources = sorted(glob(os.path.join(CAPI, "*.cpp")))
# an extension relinks when any core file changes (the static library is not tracked by itself)
core_files = core_sources + sorted(glob(os.path.join(CORE, "**", "*.hpp"), recursive=True))

if MSVC:
    cxx_flags = ["/std:c++20", "/O2", "/W4", "/permissive-", "/EHsc"]
    core_flags = cxx_flags + (["/WX"] if os.environ.get("DIMSUM_WERROR") == "1" else [])
else:
    # no fused multiply-add: a policy's logits must be the same bits on every platform (GCC contracts
    # a*b+c into one FMA where the target has it, aarch64 always; MSVC's /fp:precise does not)
    cxx_flags = ["-std=c++20", "-O3", "-fvisibility=hidden", "-ffp-contract=off"]
    core_flags = cxx_flags + ["-Wall", "-Wextra", "-Wpedantic"]
    if os.environ.get("DIMSUM_WERROR") == "1":
        core_flags.append("-Werror")
    if sys.platform == "darwin":
        cxx_flags.append("-mmacosx-version-min=11.0")
        core_flags.append("-mmacosx-version-min=11.0")

# No debug information in a release build: Python's own CFLAGS say -g, which made the modules 10-25x
# their code (_batch: 28.6 MB for 1.2 MB of code) and the wheel 13.5 MB. -g0 after it wins; it changes
# no generated instruction (debug information never does), so goldens and instruction counts stay.
# The sanitizer build below keeps -g (its reports need line numbers), and so does DIMSUM_DEBUG=1.
if not MSVC and os.environ.get("DIMSUM_DEBUG") != "1" and os.environ.get("DIMSUM_SANITIZE") != "1":
    cxx_flags.append("-g0")
    core_flags.append("-g0")

# An installed build is also linked without its symbol table (the names of the core's hidden
# functions, which -g0 leaves: 0.1 MB of the wheel compressed). What a module exports (PyInit_*,
# the C API's DIMSUM_API functions) is in the dynamic symbol table, which stripping keeps. An
# in-place or editable build keeps the table (BuildExt.run): callgrind's --toggle-collect finds a
# C++ function by that name (benchmarks/policy_callgrind.py, batch_floor.py, mcts_per_action.py).
KEEP_SYMBOLS = os.environ.get("DIMSUM_DEBUG") == "1" or os.environ.get("DIMSUM_SANITIZE") == "1"
if MSVC:
    STRIP_LINK_FLAGS = []  # MSVC writes symbols to a .pdb beside the module, not into it
elif sys.platform == "darwin":
    STRIP_LINK_FLAGS = ["-Wl,-x"]  # ld64: no local symbols (it has no --strip-all)
else:
    STRIP_LINK_FLAGS = ["-Wl,--strip-all"]

# DIMSUM_SANITIZE=1: ASan + UBSan (with float-cast-overflow, which GCC's "undefined" leaves out:
# a double too large for the integer it is converted to), every UB report fatal, -fno-wrapv (Python's CFLAGS say -fwrapv,
# which would hide signed overflow from UBSan). The extensions then need libasan preloaded
# (LD_PRELOAD, see .ci/sanitize): the interpreter itself is not instrumented.
link_flags = []
if os.environ.get("DIMSUM_SANITIZE") == "1" and not MSVC:
    sanitize = ["-fsanitize=address,undefined,float-cast-overflow",
                "-fno-sanitize-recover=undefined,float-cast-overflow", "-fno-wrapv",
                "-fno-omit-frame-pointer", "-g", "-O1"]
    cxx_flags = [f for f in cxx_flags if f != "-O3"] + sanitize
    core_flags = [f for f in core_flags if f != "-O3"] + sanitize
    link_flags = ["-fsanitize=address,undefined,float-cast-overflow"]

core_library = ("dimsum_core", {"sources": core_sources, "include_dirs": ["src"], "cflags": core_flags})

extensions = [
    Extension(
        "dimsum._core",
        # _batch's pybind11 sources too: one shared library holds both modules (see the docstring)
        sources=[os.path.join("python", "dimsum", "_core.pyx")] + batch_sources,
        include_dirs=["src", numpy.get_include(), pybind11.get_include()],
        language="c++",
        extra_compile_args=cxx_flags,
        extra_link_args=link_flags,
        depends=core_files + sorted(glob(os.path.join("python", "dimsum", "*.pxi")))  # _core.pyx's includes
        + sorted(glob(os.path.join(BINDINGS, "batch", "*.hpp"))),
        define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
    ),
]

# The C API's shared library. setuptools builds it like an extension (the same compiler, flags and
# static core), but it is no Python module: BuildExt names it libdimsum.so (.dylib, .dll), exports
# only what dimsum.h marks DIMSUM_API, and links no Python library. Its soname / install name is
# its own file name, so that a C program linked with -ldimsum finds it through LD_LIBRARY_PATH or
# an rpath set to the package folder (dimsum.get_library()).
CAPI_NAME = "dimsum.libdimsum"
if sys.platform == "darwin":
    capi_link = ["-Wl,-install_name,@rpath/libdimsum.dylib"]
elif MSVC:
    capi_link = []
else:
    capi_link = ["-Wl,-soname,libdimsum.so", "-Wl,--version-script=" + os.path.join(CAPI, "exports.map")]
extensions.append(
    Extension(
        CAPI_NAME,
        sources=capi_sources,
        include_dirs=["src", CAPI_HEADER_DIR],
        language="c++",
        extra_compile_args=core_flags,
        extra_link_args=link_flags + capi_link,
        depends=core_files + sorted(glob(os.path.join(CAPI, "*.hpp")) + glob(os.path.join(CAPI, "*.inc")))
        + [os.path.join(CAPI_HEADER_DIR, "dimsum.h"), os.path.join(CAPI, "exports.map")],
    )
)


class BuildExt(build_ext):
    def finalize_options(self):
        super().finalize_options()
        jobs = os.environ.get("DIMSUM_BUILD_JOBS")
        if jobs and not self.parallel:
            self.parallel = int(jobs)

    def run(self):
        # In-place (--inplace) and editable builds are a developer's: symbols kept.
        developing = bool(self.inplace or getattr(self, "editable_mode", False))
        if self.inplace:
            # built apart from an installed build's stripped modules in build/lib*, which would
            # otherwise count as up to date and be copied into the checkout as they are
            self.build_lib += "-inplace"
        if developing:
            self.remove_stale_batch_modules()
        elif not KEEP_SYMBOLS:
            for ext in self.extensions:  # an installed build: linked without its symbol table
                ext.extra_link_args = list(ext.extra_link_args) + STRIP_LINK_FLAGS
        super().run()

    @staticmethod
    def remove_stale_batch_modules():
        # _batch was once a shared library of its own: one left in the checkout would be imported
        # before python/dimsum/_batch.py (extension modules come first on a package's path)
        for pattern in ("_batch.*.so", "_batch.*.pyd", "_batch.so", "_batch.pyd"):
            for stale in glob(os.path.join(HERE, "python", "dimsum", pattern)):
                os.remove(stale)

    def get_ext_filename(self, fullname):
        # asked with the full name ("dimsum.libdimsum") and with its last part ("libdimsum")
        filename = super().get_ext_filename(fullname)
        if fullname not in (CAPI_NAME, CAPI_NAME.rpartition(".")[2]):
            return filename
        suffix = ".dll" if MSVC else ".dylib" if sys.platform == "darwin" else ".so"
        return os.path.join(os.path.dirname(filename), "libdimsum" + suffix)

    def get_export_symbols(self, ext):
        # a Python module exports PyInit_<name>, _core's shared library both modules' (MSVC links
        # with /EXPORT for these); the C API exports what dimsum.h declares (DIMSUM_API)
        if ext.name == CAPI_NAME:
            return []
        if ext.name == "dimsum._core":
            return ["PyInit_" + name for name in PYTHON_MODULES_IN_CORE]
        return super().get_export_symbols(ext)

    def build_extension(self, ext):
        # macOS links Python modules with -bundle, which a C program cannot link against: the C API
        # is linked as a dynamic library instead (only the flag differs; a module loads either way)
        if ext.name != CAPI_NAME or sys.platform != "darwin":
            return super().build_extension(ext)
        linkers = {name: getattr(self.compiler, name) for name in ("linker_so", "linker_so_cxx")
                   if getattr(self.compiler, name, None)}  # linker_so_cxx: setuptools' C++ linker, if it has one
        for name, command in linkers.items():
            setattr(self.compiler, name, ["-dynamiclib" if flag == "-bundle" else flag for flag in command])
        try:
            return super().build_extension(ext)
        finally:
            for name, command in linkers.items():
                setattr(self.compiler, name, command)

    def get_libraries(self, ext):
        # no libpython: a native trainer loads the C API without an interpreter
        return list(ext.libraries) if ext.name == CAPI_NAME else super().get_libraries(ext)


setup(
    ext_modules=cythonize(
        extensions,
        compiler_directives={"language_level": "3", "freethreading_compatible": True},
    ),
    libraries=[core_library],
    cmdclass={"build_ext": BuildExt},
)
