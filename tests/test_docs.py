"""The documentation states what the code does: each game's page gives its observation layout and
every option, as built."""

import importlib
from pathlib import Path

import pytest

import dimsum

DOCS = Path(__file__).resolve().parent.parent / "docs"


@pytest.mark.parametrize("name", dimsum.games())
def test_observations_doc_matches_the_default_layout(name):
    text = (DOCS / "rules" / f"{name}.md").read_text()
    game = dimsum.make(name)
    assert f"Observation layout (default options: {game.players} players, {game.observation_shape[0]} floats)" in text
    for s in game.observation_layout:
        assert f"| `{s.name}` | {s.start} | {s.stop} |" in text, f"{name}: slice {s.name} is not documented as built"


@pytest.mark.parametrize("name", dimsum.games())
def test_every_option_is_documented_in_the_games_rules_page(name):
    text = (DOCS / "rules" / f"{name}.md").read_text()
    spec = importlib.import_module(f"dimsum.games.{name}")
    missing = [option for option in spec.OPTIONS if f"`{option}" not in text]
    assert not missing, f"docs/rules/{name}.md does not mention options {missing}"


def test_the_options_every_game_has_are_documented_in_the_api_page():
    from dimsum._common import COMMON_OPTIONS

    text = (DOCS / "API.md").read_text()
    for name, option in COMMON_OPTIONS.items():
        for value in option.choices:
            assert f'{name}="{value}"' in text, f"docs/API.md does not show {name}={value!r}"


@pytest.mark.parametrize("args", [["--games", "0"], ["--games", "-5"], ["--threads", "0"], ["--games", "x"]])
def test_the_command_line_refuses_bad_counts_with_a_usage_error(args, capsys):
    from dimsum.cli import main

    with pytest.raises(SystemExit) as stop:
        main(args)
    assert stop.value.code == 2 and "error: argument" in capsys.readouterr().err


def test_dir_lists_batch_env():
    assert "BatchEnv" in dir(dimsum) and "make" in dir(dimsum)
