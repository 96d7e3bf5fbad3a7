"""The engine contract's random_action (common/engine.hpp): IS-MCTS's random rollouts draw each
action with it instead of listing the legal actions and picking one, and it must be the same draw,
so that every search and trajectory stays bit for bit what it was. For every game (Nice Buns
declares its own; the others take the default) and many configurations, at every decision of
random games: the action equals LegalActions::pick's from a copy of the same generator, and both
generators end in the same state. And the rollout's loop, random_decisions (Nice Buns and Pig
compile it in their own translation units), plays what the generic loop plays. The C++ side is
tests/cpp/random_action.cpp, built from the games' sources."""

import json
import subprocess

import pytest

import dimsum
from dimsum.testing import profile

from cpp.core_hooks import INCLUDE, build_check

SOURCE = INCLUDE.parent / "tests" / "cpp" / "random_action.cpp"
GAMES = tuple(dimsum.games())

# every conformance variant of every game, in both chance modes, and for Nice Buns every player
# count with the options that reach its rarer lists (the plating choices, 'pass', fish heads
# that stay)
OPTIONS = [(name, dict(options, chance=chance)) for name in GAMES for options in profile(name).conformance
           for chance in ("sampled", "explicit")]
OPTIONS += [("nice_buns", dict(players=p, manual_plating=True, mandatory_dice=p % 2 == 0, fish_movable=p != 4))
            for p in range(2, 7)]


@pytest.fixture(scope="module")
def random_action(tmp_path_factory):
    return build_check(tmp_path_factory.mktemp("random_action"), SOURCE, GAMES)


def test_random_action_is_the_lists_pick_and_random_decisions_the_loop(random_action):
    lines = []
    for k, (name, options) in enumerate(OPTIONS):
        values = dimsum.make(name, **options).config_values
        lines.append(" ".join(str(v) for v in (name, 2000 + k, len(values), *values)))
    done = subprocess.run([str(random_action)], input="\n".join(lines) + "\n", capture_output=True, text=True,
                          check=True)
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(answers) == len(OPTIONS), done.stdout + done.stderr
    lengths = {name: set() for name in GAMES}
    decisions = {name: 0 for name in GAMES}
    playouts = {name: 0 for name in GAMES}
    for (name, options), answer in zip(OPTIONS, answers):
        assert "error" not in answer, (name, options, answer)
        assert answer["mismatch"] is None, (name, options, answer["mismatch"])
        assert answer["decisions"] > 0, (name, options)
        lengths[name].update(answer["lengths"])
        decisions[name] += answer["decisions"]
        playouts[name] += answer["playouts"]
    # counted per game, over its option sets: a short game (a few moves) checks few per set, and
    # in explicit mode perhaps no playout (they start every 7th step, which its deal may fill)
    assert all(decisions[name] > 100 and playouts[name] > 10 for name in GAMES), (decisions, playouts)
    # the lists were varied: Nice Buns' (splits of 4, choices of 2, the dice's options up to the
    # swaps' dozens) most of all
    assert len(lengths["nice_buns"]) >= 12, sorted(lengths["nice_buns"])
