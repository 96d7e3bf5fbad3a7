"""Small bots for the arena's tests, importable by the worker processes (module level, no state)."""

from dimsum.bots import register


class FirstLegalBot:
    """Always the lowest legal action: deterministic, and different from the random bot."""

    def __init__(self, game, seed=0):
        self.seed = seed

    def act(self, state):
        return state.legal_actions()[0]


class BrokenBot:
    """Plays the first legal action until the game has ``after`` steps, then does ``fault``: returns an
    illegal action ("illegal"), a non-int ("text") or raises ("raise")."""

    def __init__(self, game, seed=0, after=3, fault="illegal"):
        if fault == "make" and seed != 0:  # fails only in the games, not when the arena checks the spec
            raise RuntimeError("no bot for this seed")
        self.after, self.fault = after, fault

    def act(self, state):
        if len(state.history) < self.after:
            return state.legal_actions()[0]
        if self.fault == "raise":
            raise RuntimeError("the bot broke down")
        if self.fault == "text":
            return "pass"
        return 1_000_000


def meddling_bot(state):
    """Plays the first legal action on the state it was given, then returns that action: harmless only
    when the arena hands bots a copy."""
    action = state.legal_actions()[0]
    state.apply(action)
    return action


def register_test_kinds():
    register("first", FirstLegalBot)
    register("broken", BrokenBot)


register_test_kinds()
