"""What a registered game gets, with no edit to any shared file: a game is its own folder, its own
package and one registry line (docs/ADDING_A_GAME.md). Each test below is one item of that list,
checked for every game of ``dimsum.games()``; the deep checks of each item live in its own suite
(named in the docstrings), this file proves each reaches every game.
"""

from __future__ import annotations

import importlib
import random
import re
import sys
from pathlib import Path

import pytest

import dimsum
import dimsum.arena
import dimsum.bots
import dimsum.protocol
import dimsum.reference
from dimsum._common import GameInfo
from dimsum.testing import first_chance_node, profile
from llm_fakes import ScriptedModel
from needs import need_module

ROOT = Path(__file__).resolve().parents[1]
GAMES = dimsum.games()


def short_game(name: str, **options):
    return dimsum.make(name, **{**profile(name).small, **options})


@pytest.mark.parametrize("name", GAMES)
def test_a_declaration_the_shared_code_reads(name):
    """dimsum.game_info: information type, utility, title (OpenSpiel, Gymnasium), demo settings."""
    info = dimsum.game_info(name)
    assert isinstance(info, GameInfo) and info is importlib.import_module(f"dimsum.games.{name}").INFO
    dimsum.make(name, **info.arena_options)
    dimsum.make(name, **info.picture[0])


@pytest.mark.parametrize("name", GAMES)
def test_a_reference_engine_a_profile_a_rules_page_and_a_golden_playthrough(name):
    """tests/test_conformance.py, test_golden_playthroughs.py and test_docs.py go deeper."""
    reference = dimsum.reference.make(name, **profile(name).small)
    assert reference.new_state(1).legal_actions() == short_game(name).new_state(1).legal_actions()
    assert (ROOT / "docs" / "rules" / f"{name}.md").is_file()
    assert f"rules/{name}.md" in (ROOT / "docs" / "RULES.md").read_text(encoding="utf-8")
    assert (ROOT / "tests" / "golden" / f"{name}.txt").is_file()


@pytest.mark.parametrize("name", GAMES)
def test_both_chance_modes_and_the_batch_engines(name):
    """tests/test_chance.py, test_batch_env.py."""
    assert first_chance_node(short_game(name, chance="explicit"), 1).is_chance_node
    returns, lengths = dimsum.random_playouts(short_game(name), 4, seed=1)
    assert returns.shape == (4, short_game(name).players) and (lengths > 0).all()
    env = dimsum.BatchEnv(short_game(name), num_envs=3, seed=1, threads=1)
    env.reset()
    env.step(env.sample_actions(0))


# what a kind needs to be made here: a small budget, (llm) a model, scripted (tests/llm_fakes.py),
# or (external) a program: the example protocol bot, the heuristic through the protocol
BOT_PARAMS = {"ismcts": {"simulations": 10}, "llm": {"model": ScriptedModel()},
              "external": {"command": [sys.executable, str(ROOT / "examples" / "protocol_bot.py"), "--serve"]}}


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("kind", dimsum.bots.kinds())
def test_every_bot_kind(name, kind, tmp_path):
    """tests/test_bots.py, test_policy_bot.py: a legal action from every kind (a game without its
    own heuristic gets the random policy for "heuristic"; one without a trained policy plays an
    untrained one of its own layout), each made with what BOT_PARAMS says it needs."""
    from dimsum.baselines import policy_file

    game = short_game(name)
    state = game.new_state(3)
    params = BOT_PARAMS.get(kind, {})
    if kind == "policy":
        params = {"weights": tmp_path / "untrained.dspolicy"}
        policy_file.write(params["weights"], policy_file.untrained(game))
    try:
        assert state.is_legal(dimsum.bots.make(kind, game, seed=1, **params).act(state))
    finally:
        dimsum.protocol.close_all()


@pytest.mark.parametrize("name", GAMES)
def test_the_arena_and_its_records(name, tmp_path):
    """tests/test_arena.py."""
    game = short_game(name)
    results = dimsum.arena.run(game, "random,random", games=2, seed=1, record_dir=tmp_path, progress=False)
    assert len(results.games) >= 2 and len(list(tmp_path.glob("game-*.json"))) == len(results.games)


@pytest.mark.parametrize("name", GAMES)
def test_a_picture_and_a_terminal_view(name):
    """tests/test_svg.py, test_svg_examples.py, test_play.py: the committed README picture too."""
    from dimsum.play.views import view_text

    state = short_game(name).new_state(2)
    assert state.to_svg().startswith("<svg") and state.to_svg(0).startswith("<svg")
    assert (ROOT / "docs" / "images" / f"{name}.svg").is_file()
    assert view_text(state, 0, [f"p{i}" for i in range(state.game.players)])


@pytest.mark.parametrize("name", GAMES)
def test_an_openspiel_game(name):
    """tests/test_openspiel.py."""
    pyspiel = need_module("pyspiel")
    import dimsum.openspiel as dos

    game = pyspiel.load_game(dos.game_name(name))
    state, rng = game.new_initial_state(), random.Random(0)
    for _ in range(20):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    assert game.get_type().long_name == f"dimsum {dimsum.game_info(name).title}"


@pytest.mark.parametrize("name", GAMES)
def test_a_gymnasium_id(name):
    """tests/test_gymnasium.py, test_gymnasium_vector.py."""
    gymnasium = need_module("gymnasium")
    import dimsum.gymnasium

    env_id = dimsum.game_info(name).gym_id
    assert re.fullmatch(r"dimsum/[A-Za-z0-9]+-v0", env_id) and dimsum.gymnasium.ENV_IDS[name] == env_id
    env = gymnasium.make(env_id, **profile(name).small)
    observation, _ = env.reset(seed=0)
    env.step(int(observation["action_mask"].nonzero()[0][0]))


@pytest.mark.parametrize("name", GAMES)
def test_a_pettingzoo_env(name):
    """tests/test_pettingzoo.py."""
    need_module("pettingzoo")
    from dimsum.pettingzoo import env as make_env

    env = make_env(name, **profile(name).small)
    env.reset(seed=0)
    observation, *_ = env.last()
    env.step(int(observation["action_mask"].nonzero()[0][0]))
