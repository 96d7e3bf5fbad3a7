"""dimsum.testing.check_game on every registered game and every option set that changes the rules."""

import pytest

import dimsum
from dimsum.testing import check_game, profile

# every game's option sets that change the rules, from its profile (dimsum/games/<name>/profile.py)
CONFIGS = [(name, options) for name in dimsum.games() for options in profile(name).conformance]


@pytest.mark.parametrize("name,options", CONFIGS, ids=lambda x: x if isinstance(x, str) else
                         ",".join(f"{k}={v}" for k, v in x.items()))
def test_check_game(name, options):
    report = check_game(dimsum.make(name, **options), n_games=4)
    assert report.games == 4 and report.steps > 0


def test_check_game_catches_a_broken_promise():
    """The suite is not a check that cannot fail: a game whose masks lie is caught."""

    class LyingState:
        def __init__(self, state):
            self._s = state

        def __getattr__(self, name):
            return getattr(self._s, name)

        def legal_mask(self):
            mask = self._s.legal_mask().copy()
            mask[:] = True
            return mask

    class LyingGame:
        def __init__(self, game):
            self._g = game

        def __getattr__(self, name):
            return getattr(self._g, name)

        def new_state(self, seed):
            return LyingState(self._g.new_state(seed))

    with pytest.raises(AssertionError, match="legal_mask disagrees"):
        check_game(LyingGame(dimsum.make("yum_cha", max_turns_per_round=5)), n_games=1)


def test_check_game_can_fail_on_an_observation_outside_its_declared_bounds():
    """The bounds check is not vacuous: shrink one slice's declared bounds and it fails."""

    class NarrowBounds:
        def __init__(self, game):
            self._g = game

        def __getattr__(self, name):
            return getattr(self._g, name)

        @property
        def observation_bounds(self):
            low, high = (b.copy() for b in self._g.observation_bounds)
            high[:] = low  # every value must be at its lower bound: a hand of cards is not
            return low, high

    with pytest.raises(AssertionError, match="outside its declared bounds"):
        check_game(NarrowBounds(dimsum.make("yum_cha", max_turns_per_round=5)), n_games=1)
