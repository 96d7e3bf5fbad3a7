"""The ``dimsum`` command line: ``python -m dimsum [COMMAND] [ARGS]``.

With no command (or options only) it runs the main job, :mod:`dimsum.cli.run`: seeded random
games, their results and the engine's speed. Every other command is one module of this package
with a ``main(argv) -> int`` and a one-line docstring; ``python -m dimsum help`` lists them.
A module is found by its file name, so adding a command touches no other file.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
from typing import Dict, List, Optional

_NOT_COMMANDS = {"run", "args"}  # run: the main job; args: helpers shared by the commands


def commands() -> Dict[str, str]:
    """Each command's name and the first line of its docstring, sorted by name."""
    found = {}
    for info in pkgutil.iter_modules(__path__):
        if info.name.startswith("_") or info.name in _NOT_COMMANDS:
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        found[info.name] = (module.__doc__ or "").strip().splitlines()[0] if module.__doc__ else ""
    return dict(sorted(found.items()))


def _usage() -> str:
    lines = ["usage: python -m dimsum [COMMAND] [ARGS]", "",
             "  (no command)   the main job: seeded random games, results and speed (--help for its options)"]
    lines += [f"  {name:<14} {summary}" for name, summary in commands().items()]
    lines += ["", "python -m dimsum COMMAND --help gives a command's options."]
    return "\n".join(lines)


def main(argv: Optional[List[str]] = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] in ("help", "commands"):
        print(_usage())
        return 0
    if args and not args[0].startswith("-"):
        name = args[0].replace("-", "_")
        if name not in commands():
            print(_usage(), file=sys.stderr)
            print(f"\npython -m dimsum: error: unknown command {args[0]!r}", file=sys.stderr)
            return 2
        return importlib.import_module(f"{__name__}.{name}").main(args[1:])
    from .run import main as run_main

    return run_main(args)
