"""argparse helpers shared by the commands: bad values are usage errors, never tracebacks."""

from __future__ import annotations

import argparse
from typing import Callable


def at_least(lowest: int) -> Callable[[str], int]:
    """An argparse type: an int no smaller than ``lowest`` (anything else is a usage error)."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not an int") from None
        if value < lowest:
            raise argparse.ArgumentTypeError(f"{value} is below {lowest}")
        return value

    return parse
