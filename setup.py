"""Builds the two extension modules over one static library of the C++ core.

- dimsum._core  (Cython): the per-move API, called millions of times from Python.
- dimsum._batch (pybind11): the batch engine and playout driver, called once per batch.
The core (src/dimsum_core/**/*.cpp) is compiled once, into libdimsum_core, and linked into
both. Environment: DIMSUM_WERROR=1 turns warnings in the core into errors (CI does);
DIMSUM_BUILD_JOBS=N compiles extensions in parallel; DIMSUM_SANITIZE=1 compiles the core and both
extensions with AddressSanitizer and UBSan (not on MSVC; .ci/sanitize builds such a copy apart);
DIMSUM_DEBUG=1 keeps debug information in a release build (which has none by default).
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
MSVC = sys.platform == "win32"

core_sources = sorted(glob(os.path.join(CORE, "**", "*.cpp"), recursive=True))
batch_sources = sorted(glob(os.path.join(BINDINGS, "batch", "*.cpp")))
# an extension relinks when any core file changes (the static library is not tracked by itself)
core_files = core_sources + sorted(glob(os.path.join(CORE, "**", "*.hpp"), recursive=True))

if MSVC:
    cxx_flags = ["/std:c++20", "/O2", "/W4", "/permissive-", "/EHsc"]
    core_flags = cxx_flags + (["/WX"] if os.environ.get("DIMSUM_WERROR") == "1" else [])
else:
    cxx_flags = ["-std=c++20", "-O3", "-fvisibility=hidden"]
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
        sources=[os.path.join("python", "dimsum", "_core.pyx")],
        include_dirs=["src", numpy.get_include()],
        language="c++",
        extra_compile_args=cxx_flags,
        extra_link_args=link_flags,
        depends=core_files,
        define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
    ),
    Extension(
        "dimsum._batch",
        sources=batch_sources,
        include_dirs=["src", pybind11.get_include()],
        language="c++",
        extra_compile_args=cxx_flags,
        extra_link_args=link_flags,
        depends=core_files + sorted(glob(os.path.join(BINDINGS, "batch", "*.hpp"))),
    ),
]


class BuildExt(build_ext):
    def finalize_options(self):
        super().finalize_options()
        jobs = os.environ.get("DIMSUM_BUILD_JOBS")
        if jobs and not self.parallel:
            self.parallel = int(jobs)


setup(
    ext_modules=cythonize(
        extensions,
        compiler_directives={"language_level": "3", "freethreading_compatible": True},
    ),
    libraries=[core_library],
    cmdclass={"build_ext": BuildExt},
)
