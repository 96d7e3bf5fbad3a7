"""Small bots for the arena's tests, importable by the worker processes (module level, no state).

The kinds "first" and "broken" are registered only while a test runs (the ``registered_test_kinds`` fixture of
the arena's test modules), so that no other test sees them in ``dimsum.bots.kinds()``."""

import contextlib
import signal
import sys
import time

from dimsum import bots


class FirstLegalBot:
    """Always the lowest legal action: deterministic, and different from the random bot."""

    def __init__(self, game, seed=0):
        self.seed = seed

    def act(self, state):
        return state.legal_actions()[0]


class BrokenBot:
    """Plays the first legal action until the game has ``after`` steps, then does ``fault``: returns an
    illegal action ("illegal"), a non-int ("text"), raises ("raise"), calls sys.exit ("exit"),
    sleeps for an hour ("hang"), loops for ever in Python ("spin") or sleeps for an hour with
    SIGALRM blocked ("deaf": stuck where no signal reaches, as native code that never checks)."""

    def __init__(self, game, seed=0, after=3, fault="illegal"):
        if fault == "make" and seed != 0:  # fails only in the games, not when the arena checks the spec
            raise RuntimeError("no bot for this seed")
        self.after, self.fault = after, fault

    def act(self, state):
        if len(state.history) < self.after:
            return state.legal_actions()[0]
        if self.fault == "raise":
            raise RuntimeError("the bot broke down")
        if self.fault == "exit":
            sys.exit(3)
        if self.fault == "hang":
            time.sleep(3600)
        if self.fault == "deaf":
            signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM})
            time.sleep(3600)
        if self.fault == "spin":
            while True:
                pass
        if self.fault == "text":
            return "pass"
        return 1_000_000


def meddling_bot(state):
    """Plays the first legal action on the state it was given, then returns that action: harmless only
    when the arena hands bots a copy."""
    action = state.legal_actions()[0]
    state.apply(action)
    return action


TEST_KINDS = {"first": FirstLegalBot, "broken": BrokenBot}


@contextlib.contextmanager
def registered_kinds():
    """Registers the test kinds for the duration of the block, then removes them."""
    for kind, factory in TEST_KINDS.items():
        bots.register(kind, factory)
    try:
        yield
    finally:
        for kind in TEST_KINDS:
            bots._KINDS.pop(kind, None)  # the registry has no unregister: tests only
