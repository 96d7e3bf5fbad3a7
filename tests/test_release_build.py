"""The compiled modules of a release build carry no debug information (setup.py adds -g0 after
Python's own -g): with it the wheel was 13.5 MB, the largest module 28.6 MB for 1.2 MB of code.
A sanitizer build (.ci/sanitize) and a DIMSUM_DEBUG=1 build keep it on purpose. An installed
build has no symbol table either, while an in-place or editable one keeps it (the callgrind
benchmarks find C++ functions by name); _batch is compiled into _core's shared library, so the core
is linked once (the wheel 3.2 MB -> 2.9 MB)."""

import glob
import os
import struct
import sys
import sysconfig
from pathlib import Path

import pytest

import dimsum._batch
import dimsum._core

MODULES = [dimsum._core, dimsum._batch]


def elf_section_names(path):
    """The names of an ELF file's sections (64- or 32-bit, either byte order), read from its
    section header table; None for a file that is not ELF."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:4] != b"\x7fELF":
        return None
    wide, order = data[4] == 2, "<" if data[5] == 1 else ">"
    if wide:
        shoff, = struct.unpack_from(order + "Q", data, 0x28)
        shentsize, shnum, shstrndx = struct.unpack_from(order + "HHH", data, 0x3A)
        name_at, offset_at, offset_fmt = 0, 0x18, "Q"
    else:
        shoff, = struct.unpack_from(order + "I", data, 0x20)
        shentsize, shnum, shstrndx = struct.unpack_from(order + "HHH", data, 0x2E)
        name_at, offset_at, offset_fmt = 0, 0x10, "I"
    def header(i):
        base = shoff + i * shentsize
        name, = struct.unpack_from(order + "I", data, base + name_at)
        offset, = struct.unpack_from(order + offset_fmt, data, base + offset_at)
        return name, offset
    _, strings = header(shstrndx)
    names = []
    for i in range(shnum):
        name, _ = header(i)
        end = data.index(b"\0", strings + name)
        names.append(data[strings + name:end].decode("ascii", "replace"))
    return names


def sanitized(path):
    with open(path, "rb") as f:
        return b"__asan_init" in f.read()


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.__name__)
def test_a_release_build_has_no_debug_information(module):
    path = module.__file__
    names = elf_section_names(path)
    if names is None:
        pytest.skip(f"{os.path.basename(path)} is not an ELF file ({sys.platform}): its debug information "
                    "lives apart (dSYM, PDB)")
    if os.environ.get("DIMSUM_DEBUG") == "1" or sanitized(path):
        pytest.skip("a debug or sanitizer build keeps its debug information on purpose")
    assert ".text" in names  # the reader works: every module has code
    debug = [n for n in names if n.startswith((".debug_", ".zdebug_"))]
    assert not debug, f"{path} carries debug sections {debug}: built without setup.py's -g0"


def test_batch_is_compiled_into_cores_shared_library():
    assert dimsum._batch.__file__ == dimsum._core.__file__
    assert sys.modules["dimsum._batch"] is dimsum._batch  # the extension module, not its loader stub
    assert hasattr(dimsum._batch, "_BatchEnv") and hasattr(dimsum._core, "Game")
    package = os.path.dirname(dimsum._core.__file__)
    # a _batch library of its own (an older build left in a checkout) would be imported instead
    assert not glob.glob(os.path.join(package, "_batch.*.so")) + glob.glob(os.path.join(package, "_batch.*.pyd"))


def installed(path):
    """True for a module installed into an environment (pip install . / a wheel), False for one
    built in a checkout (setup.py build_ext --inplace, pip install -e)."""
    roots = {sysconfig.get_paths()[key] for key in ("purelib", "platlib")}
    return any(Path(path).resolve().is_relative_to(Path(root).resolve()) for root in roots)


def test_an_installed_build_has_no_symbol_table_and_a_developers_keeps_it():
    path = dimsum._core.__file__
    names = elf_section_names(path)
    if names is None:
        # Mach-O or PE: this reader is ELF's; macOS links with -Wl,-x and MSVC keeps symbols in a .pdb
        pytest.skip(f"{os.path.basename(path)} is not an ELF file ({sys.platform})")
    if sanitized(path) or any(n.startswith((".debug_", ".zdebug_")) for n in names):
        # DIMSUM_SANITIZE=1 or DIMSUM_DEBUG=1 (debug information kept): the table kept, installed or not
        assert ".symtab" in names, f"{path} is a debug or sanitizer build without its symbol table"
    elif installed(path):
        assert ".symtab" not in names, f"{path} is installed with its symbol table: linked without setup.py's strip flags"
    else:
        assert ".symtab" in names, f"{path}, built in a checkout, has lost its symbol table (callgrind needs it)"
