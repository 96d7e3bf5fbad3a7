"""The documentation states what the code does: observation layouts and option lists."""

from pathlib import Path

import pytest

import dimsum
from dimsum.games import dim_sum_jam, nice_buns, yum_cha

DOCS = Path(__file__).resolve().parent.parent / "docs"
SPECS = {"yum_cha": yum_cha, "nice_buns": nice_buns, "dim_sum_jam": dim_sum_jam}


@pytest.mark.parametrize("name", sorted(SPECS))
def test_observations_doc_matches_the_default_layout(name):
    text = (DOCS / "OBSERVATIONS.md").read_text()
    game = dimsum.make(name)
    assert f"### {name} (default options: {game.players} players, {game.observation_shape[0]} floats)" in text
    for s in game.observation_layout:
        assert f"| `{s.name}` | {s.start} | {s.stop} |" in text, f"{name}: slice {s.name} is not documented as built"


@pytest.mark.parametrize("name", sorted(SPECS))
def test_every_option_is_documented_in_the_games_rules_page(name):
    text = (DOCS / "rules" / f"{name}.md").read_text()
    missing = [option for option in SPECS[name].OPTIONS if f"`{option}" not in text]
    assert not missing, f"docs/rules/{name}.md does not mention options {missing}"
