"""Every registered game has the same Python shape: a package that meets the GameSpec protocol,
a profile for the shared tests and benchmarks, and a Config whose options are read-only."""

import copy
import importlib
import inspect
import pickle
import sys

import pytest

import processes

import dimsum
import dimsum.reference
from dimsum._common import FrozenDict, GameConfig, GameInfo, GameSpec, Option
from dimsum.testing import Profile, profile


@pytest.mark.parametrize("engine", ["core", "reference"])
@pytest.mark.parametrize("name", dimsum.games())
def test_config_options_are_read_only_and_game_options_a_plain_copy(name, engine):
    make = dimsum.make if engine == "core" else dimsum.reference.make
    game = make(name, players=3)
    options = game.spec.options
    assert isinstance(options, FrozenDict)
    for change in (lambda o: o.__setitem__("players", 4), lambda o: o.update(players=4), lambda o: o.pop("players"),
                   lambda o: o.__delitem__("players"), lambda o: o.clear(), lambda o: o.setdefault("x", 1),
                   lambda o: o.popitem()):
        with pytest.raises(TypeError, match="read-only"):
            change(options)
    with pytest.raises(TypeError, match="read-only"):
        options |= {"players": 4}
    assert game.spec.options["players"] == 3
    plain = game.options
    assert type(plain) is dict and plain == options
    plain["players"] = 4  # a copy: the game is unchanged
    assert game.options["players"] == 3
    assert make(name, **game.options).options == game.options


@pytest.mark.parametrize("name", dimsum.games())
def test_configs_pickle_and_deep_copy_with_their_options_still_frozen(name):
    config = dimsum.make(name, players=3).spec
    for again in (pickle.loads(pickle.dumps(config)), copy.deepcopy(config), copy.copy(config)):
        assert type(again.options) is FrozenDict and again.options == config.options
        assert again.players == config.players and again.action_space.names == config.action_space.names
    game = dimsum.make(name, players=3)
    assert pickle.loads(pickle.dumps(game)).options == game.options


def test_games_are_the_compiled_registry():
    from dimsum import _core

    assert dimsum.games() == tuple(sorted(_core.registered_games()))
    assert len(dimsum.games()) == len(set(dimsum.games())) > 0


def test_import_dimsum_stays_cheap():
    """`import dimsum` loads neither the compiled core nor numpy; games() loads only the core."""
    code = ("import sys, dimsum; assert 'dimsum._core' not in sys.modules and 'numpy' not in sys.modules; "
            "names = dimsum.games(); assert 'numpy' not in sys.modules, 'numpy'; "
            "assert not [m for m in sys.modules if m.startswith('dimsum.games.')]; print(names)")
    out = processes.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == repr(dimsum.games())


DATA_MEMBERS = tuple(GameSpec.__annotations__)
FUNCTIONS = tuple(n for n, v in vars(GameSpec).items() if inspect.isfunction(v) and not n.startswith("_"))


def test_the_protocol_lists_what_core_calls():
    assert DATA_MEMBERS == ("NAME", "INFO", "OPTIONS")
    assert set(FUNCTIONS) == {"make_config", "config_values", "dict_from_fields", "fields_from_dict", "render", "ending"}


@pytest.mark.parametrize("name", dimsum.games())
def test_every_game_package_meets_the_game_spec_protocol(name):
    spec = importlib.import_module(f"dimsum.games.{name}")
    missing = [m for m in DATA_MEMBERS + FUNCTIONS if not hasattr(spec, m)]
    assert not missing, f"dimsum.games.{name} lacks {missing} (dimsum._common.GameSpec)"
    assert spec.NAME == name
    assert isinstance(spec.INFO, GameInfo) and spec.INFO is dimsum.game_info(name)
    assert spec.OPTIONS and all(isinstance(o, Option) and o.name == key for key, o in spec.OPTIONS.items())
    not_callable = [f for f in FUNCTIONS if not callable(getattr(spec, f))]
    assert not not_callable, f"dimsum.games.{name}: {not_callable} are not callable"
    assert isinstance(spec.make_config(), GameConfig)
    if hasattr(spec, "STATE_CLASS"):  # optional: the core's State class for this game
        from dimsum import _core

        assert issubclass(spec.STATE_CLASS, _core.State)
        assert type(dimsum.make(name).new_state(0)) is spec.STATE_CLASS


@pytest.mark.parametrize("name", dimsum.games())
def test_every_game_declares_a_profile(name):
    case = profile(name)
    assert isinstance(case, Profile) and case.conformance
    for options in (case.golden, case.bad_input, case.same_size, case.threads, case.bench, *case.conformance):
        dimsum.make(name, **options)  # every profile option set is a valid configuration
    with pytest.raises(TypeError, match="read-only"):
        case.bench["players"] = 2
