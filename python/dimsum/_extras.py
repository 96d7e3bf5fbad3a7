"""The one place that turns a missing optional dependency into an error naming the extra to install.

Every module of dimsum that needs an optional package imports it inside ``needs_extra``:

    with needs_extra("gymnasium", "dimsum.gymnasium"):
        import gymnasium

so that a missing package is ``MissingExtraError: dimsum.gymnasium needs the gymnasium extra: pip
install "dimsum-games[gymnasium]" ...`` instead of a bare ``No module named 'gymnasium'``. The extras
are pyproject.toml's ``[project.optional-dependencies]``.
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Iterator

PACKAGE = "dimsum-games"
"""The distribution's name on PyPI (the import name is ``dimsum``; ``dimsum`` on PyPI is another project)."""


class MissingExtraError(ImportError):
    """An optional dependency is missing: the message names the extra that brings it."""


def install_hint(extra: str) -> str:
    """How to install ``extra``, from PyPI and from a checkout of the source."""
    return f'pip install "{PACKAGE}[{extra}]" (from a checkout: pip install ".[{extra}]")'


@contextmanager
def needs_extra(extra: str, user: str) -> Iterator[None]:
    """Imports inside the block that fail for want of a package outside dimsum raise a
    MissingExtraError saying that ``user`` (what the caller was importing or running) needs
    ``extra``, and which module was missing. A failure inside dimsum itself (a bug, or a
    MissingExtraError already raised by a module imported here) passes through unchanged."""
    try:
        yield
    except MissingExtraError:
        raise
    except ImportError as e:
        missing = e.name or ""
        if missing == "dimsum" or missing.startswith("dimsum."):
            raise
        # ModuleNotFoundError: the package is absent; another ImportError: present but too old (a
        # name it lacks), which the same extra's version bound fixes
        what = f"missing module: {missing}" if isinstance(e, ModuleNotFoundError) else f"{e}; an older version?"
        raise MissingExtraError(f"{user} needs the {extra} extra: {install_hint(extra)} ({what})",
                                name=e.name, path=e.path) from e
