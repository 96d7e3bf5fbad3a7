"""Scripted stand-ins for a language model, shared by tests/test_llm.py and tests/test_mcp.py: they
read a prompt or a view as a model would (the legal moves as listed, ``id: name`` a line) and
reply from a script, so each test says exactly which replies are valid, garbage or illegal."""

from __future__ import annotations

import random
import re
from typing import Iterable, List, Tuple

LISTED = "Your legal moves (id: name):"


def listed_moves(text: str) -> List[Tuple[int, str]]:
    """The legal moves a prompt or a view lists (empty when it lists none)."""
    if LISTED not in text:
        return []
    moves = []
    for line in text.split(LISTED, 1)[1].strip().splitlines():
        match = re.fullmatch(r"(\d+): (.+)", line.strip())
        if match is None:
            break
        moves.append((int(match.group(1)), match.group(2)))
    return moves


class ScriptedModel:
    """``model(prompt) -> reply``: the next reply of ``script`` (then repeats its last), where the
    entry ``"<pick>"`` is replaced by a listed legal move's name, chosen by a seeded generator.
    Keeps every prompt it was shown in ``prompts``."""

    PICK = "<pick>"

    def __init__(self, script: Iterable[str] = (PICK,), seed: int = 0) -> None:
        self.script = list(script)
        self.prompts: List[str] = []
        self.rng = random.Random(seed)

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        reply = self.script.pop(0) if len(self.script) > 1 else self.script[0]
        if reply == self.PICK:
            moves = listed_moves(prompt)
            assert moves, "the prompt lists no legal moves"
            reply = self.rng.choice(moves)[1]
        return reply
