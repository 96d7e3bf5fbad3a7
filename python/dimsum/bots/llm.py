"""The LLM bot: any ``prompt -> reply`` callable (a language model's client) as a player.

At each decision it builds a prompt from the game's rules summary and its seat's view
(:func:`dimsum.llm.build_prompt`: only what the seat may see), calls ``model(prompt)`` and reads
the reply strictly (:func:`dimsum.llm.parse_move`: a legal move's exact name, case and spaces
aside, or its id). A reply that names no legal move is an invalid reply: the bot asks again, with
the reason in the prompt, up to ``retries`` more times; then it falls back (``fallback="random"``:
a uniformly random legal move from its own seeded generator) or fails (``fallback="error"``: an
:class:`LlmReplyError`, which stops an arena tournament as any failing bot does). The bot counts
the replies it read, the invalid ones and its fallbacks; the arena reads the first two for its
invalid-reply rates (docs/ARENA.md). An exception raised by ``model`` itself is not a reply: it
goes through to the caller.
"""

from __future__ import annotations

from typing import Any, Callable, Optional

from ..reference.rng import Rng
from ._checks import check_can_act

FALLBACKS = ("random", "error")
MAX_RETRIES = 10


class LlmReplyError(RuntimeError):
    """The model gave no valid reply in ``1 + retries`` tries (with ``fallback="error"``)."""


class LlmBot:
    """A player that asks ``model`` (``prompt: str -> reply: str``) for each move.

    ``retries``: asks again after an invalid reply at most this many times (0 to 10, default 2);
    ``fallback``: ``"random"`` (default) or ``"error"``, what happens after the last invalid
    reply; ``legal_moves``: whether the prompt lists the legal moves (default True).
    ``replies``, ``invalid_replies`` and ``fallbacks`` count what happened over the bot's life."""

    kind = "llm"

    def __init__(self, game: Any, seed: int = 0, model: Optional[Callable[[str], str]] = None,
                 retries: int = 2, fallback: str = "random", legal_moves: bool = True) -> None:
        if model is None or not callable(model):
            raise TypeError("the llm bot needs model=, a callable prompt (str) -> reply (str); "
                            f"got {type(model).__name__}")
        if isinstance(retries, bool) or not isinstance(retries, int) or not 0 <= retries <= MAX_RETRIES:
            raise ValueError(f"retries is an int from 0 to {MAX_RETRIES}, got {retries!r}")
        if fallback not in FALLBACKS:
            raise ValueError(f"fallback is one of {', '.join(map(repr, FALLBACKS))}, got {fallback!r}")
        if not isinstance(legal_moves, bool):
            raise TypeError(f"legal_moves is a bool, got {type(legal_moves).__name__}")
        self.game, self.seed, self.model = game, seed, model
        self.retries, self.fallback, self.legal_moves = retries, fallback, legal_moves
        self.replies = self.invalid_replies = self.fallbacks = 0
        self._rng = Rng(seed)

    def act(self, state: Any) -> int:
        from ..llm import ReplyError, build_prompt, parse_move

        check_can_act(self.kind, self.game, state)
        seat = state.current_player
        error = None
        for _ in range(1 + self.retries):
            reply = self.model(build_prompt(state, seat, legal=self.legal_moves, error=error))
            self.replies += 1
            try:
                return parse_move(state, reply)
            except (ReplyError, TypeError) as e:  # TypeError: the reply was not a str
                self.invalid_replies += 1
                error = str(e)
        if self.fallback == "error":
            raise LlmReplyError(f"the model gave no valid move in {1 + self.retries} replies; the last was "
                                f"refused: {error}")
        self.fallbacks += 1
        legal = state.legal_actions()
        action: int = legal[self._rng.bounded(len(legal))]
        return action

    def __repr__(self) -> str:
        name = getattr(self.model, "__name__", type(self.model).__name__)
        return f"LlmBot({self.game.name}, model={name}, retries={self.retries}, fallback={self.fallback!r})"
