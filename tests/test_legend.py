"""What the views' words and marks mean (dimsum.play.legend): declared once by each game, read from
its component data, shown by the terminal player, the MCP tools and the llm prompt."""

import json
import random

import pytest

import dimsum
from dimsum._common import load_data
from dimsum.play.legend import SEAT_TERMS, legend, legend_text


def meanings(game):
    return dict(legend(game))


def test_yum_cha_says_which_dim_sum_is_in_which_tier_and_what_each_tea_multiplies_from_its_data():
    data = load_data("yum_cha")
    got = meanings(dimsum.make("yum_cha"))
    for tier in data["tiers"]:
        members = [card["name"] for card in data["dim_sum"] if card["tier"] == tier["name"]]
        entry = got[f"{tier['name']} tier"]
        assert entry.startswith(", ".join(members) + ";")
        assert f"scores {tier['points']} point" in entry
    for tea in data["teas"]:
        assert got[tea["name"]].endswith(f"by {tea['multiplier']}")
    assert "Takeaway" in got


def test_a_yum_cha_game_with_its_own_deck_gets_its_own_legend():
    deck = json.loads(json.dumps(load_data("yum_cha")))
    deck["teas"][0]["multiplier"] = 5
    deck["dim_sum"][0]["name"] = "Lo Mai Gai"
    got = meanings(dimsum.make("yum_cha", deck=deck))
    assert got[deck["teas"][0]["name"]].endswith("by 5")
    assert got["Small tier"].startswith("Lo Mai Gai, ")


def test_dim_sum_jam_explains_its_token_codes_and_the_marks_on_its_screen():
    data = load_data("dim_sum_jam")
    got = meanings(dimsum.make("dim_sum_jam"))
    for kind in data["token_types"]:
        assert got[kind["code"]].startswith(kind["name"])
    assert "empty slot" in got["(XLB)"] and "Xiaolongbao" in got["(XLB)"]
    assert "R a regular order, V a VIP order" in got["R / V (deck)"]
    assert "3 lose the game" in got["COMPLAINT"]
    assert "2 lose" in meanings(dimsum.make("dim_sum_jam", complaint_limit=2))["COMPLAINT"]


def test_every_game_ends_with_the_shared_seat_names_and_a_game_without_a_legend_gets_them_alone(monkeypatch):
    for name in dimsum.games():
        assert legend(dimsum.make(name))[-len(SEAT_TERMS):] == list(SEAT_TERMS)
    text = legend_text(dimsum.make("pig"))
    assert "  hold:" in text and "you (seat N):" in text
    assert "give / steal / swap" in dict(legend(dimsum.make("nice_buns")))
    monkeypatch.setattr("dimsum.play.legend.legend_module", lambda name: None)  # a game that declares none
    assert legend(dimsum.make("nice_buns")) == list(SEAT_TERMS)


@pytest.mark.parametrize("name", dimsum.games())
def test_the_legend_is_the_same_for_every_seat_and_position(name):
    """The legend reads the game's configuration only: a state, and so a resample, cannot change it."""
    game = dimsum.make(name)
    state = game.new_state(1)
    rng = random.Random(1)
    for _ in range(20):
        if state.is_terminal:
            break
        state.apply(rng.choice(state.legal_actions()))
    assert legend(state.game) == legend(state.resample(0, 3).game) == legend(game)


def test_the_llm_prompt_and_the_mcp_rules_carry_the_legend():
    from dimsum.llm import build_prompt

    state = dimsum.make("yum_cha").new_state(1)
    prompt = build_prompt(state, state.current_player)
    assert "What the words in the view mean:" in prompt and "Dragon Well:" in prompt
