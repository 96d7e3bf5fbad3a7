"""Every optional import names the extra that brings it: each case hides one optional package
(``sys.modules[name] = None``, as if it were not installed) in a fresh interpreter, does what a user
does first, and checks the error says ``pip install "dimsum-games[<extra>]"``."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

import dimsum

# the child imports this dimsum (a checkout's python/ or the installed one), wherever it runs
PYTHON_PATH = os.pathsep.join([str(Path(dimsum.__file__).resolve().parent.parent)]
                              + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p])

# (what the user runs, the package hidden, the extra the message must name)
CASES = [
    ("import dimsum.gymnasium", "gymnasium", "gymnasium"),
    ("import dimsum.pettingzoo", "pettingzoo", "pettingzoo"),
    ("import dimsum.pettingzoo", "gymnasium", "pettingzoo"),
    ("import dimsum.openspiel", "pyspiel", "openspiel"),
    ("import dimsum.sb3", "stable_baselines3", "sb3"),
    ("import dimsum.sb3", "gymnasium", "sb3"),
    ("import dimsum; from dimsum.render.raster import state_to_rgb\n"
     "state_to_rgb(dimsum.make('nice_buns').new_state(1), 0)", "resvg_py", "render"),
    ("import dimsum; from dimsum.render.raster import state_to_rgb\n"
     "state_to_rgb(dimsum.make('nice_buns').new_state(1), 0)", "PIL", "render"),
    ("from dimsum.baselines.train import main\nmain(['nice_buns', '--steps', '1', '--out', 'run'])", "torch", "train"),
    ("from dimsum.baselines.train import main\nmain(['nice_buns', '--steps', '1', '--out', 'run'])", "sb3_contrib",
     "train"),
    ("from dimsum.arena.ray_backend import _import_ray\n_import_ray()", "ray", "ray"),
    ("from dimsum.cli.mcp import main\nraise SystemExit(main([]))", "mcp", "mcp"),
]


@pytest.mark.parametrize("code, hidden, extra", CASES, ids=[f"{c[1]}-{c[2]}" for c in CASES])
def test_a_missing_package_names_its_extra(code, hidden, extra, tmp_path):
    script = f"import sys\nsys.modules[{hidden!r}] = None\n{code}\n"
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120,
                         cwd=tmp_path, env={**os.environ, "PYTHONPATH": PYTHON_PATH})
    assert run.returncode != 0, run.stdout
    assert f'pip install "dimsum-games[{extra}]"' in run.stderr, run.stderr[-2000:]
    assert "None in sys.modules" not in run.stderr.splitlines()[-1]  # not the bare ModuleNotFoundError


def test_a_missing_package_is_an_import_error_naming_it():
    from dimsum._extras import MissingExtraError, needs_extra

    with pytest.raises(MissingExtraError, match=r'dimsum\.x needs the gymnasium extra: pip install "dimsum-games'
                                                r'\[gymnasium\]".*missing module: no_such_package_dimsum') as caught:
        with needs_extra("gymnasium", "dimsum.x"):
            import no_such_package_dimsum  # noqa: F401
    assert isinstance(caught.value, ImportError) and caught.value.name == "no_such_package_dimsum"


def test_a_failure_inside_dimsum_is_not_blamed_on_an_extra():
    from dimsum._extras import needs_extra

    with pytest.raises(ModuleNotFoundError, match="dimsum.no_such_module"):
        with needs_extra("gymnasium", "dimsum.x"):
            import dimsum.no_such_module  # noqa: F401
