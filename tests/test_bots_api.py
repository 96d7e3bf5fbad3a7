"""dimsum.bots: the registry, spec strings and the random bot (the other kinds have their own tests)."""

import pytest

import dimsum
from dimsum import bots


@pytest.mark.parametrize("name", dimsum.games())
def test_random_bot_plays_legal_actions_and_never_changes_the_state(name):
    game = dimsum.make(name, players=3)
    bot = bots.make("random", game, seed=3)
    state = game.new_state(11)
    while not state.is_terminal:
        before = state.to_bytes()
        action = bot.act(state)
        assert state.to_bytes() == before
        assert state.is_legal(action)
        state.apply(action)


def test_random_bot_same_seed_same_choices():
    game = dimsum.make("nice_buns", players=2)
    plays = []
    for _ in range(2):
        bot, state, actions = bots.make("random", game, seed=9), game.new_state(4), []
        while not state.is_terminal:
            actions.append(bot.act(state))
            state.apply(actions[-1])
        plays.append(actions)
    assert plays[0] == plays[1]


def test_bad_kinds_and_parameters_are_clear_errors():
    game = dimsum.make("yum_cha")
    with pytest.raises(ValueError, match="unknown bot kind 'nope'.*random"):
        bots.make("nope", game)
    with pytest.raises(ValueError, match="no parameter 'depth'"):
        bots.make("random", game, depth=3)
    with pytest.raises(TypeError, match="bot kind is a str"):
        bots.make(3, game)


def test_spec_strings():
    assert bots.parse_spec("random") == ("random", {})
    assert bots.parse_spec("ismcts:simulations=1000:c=0.5") == ("ismcts", {"simulations": 1000, "c": 0.5})
    assert bots.parse_list("ismcts:simulations=1000,c=0.7,heuristic,random") == [
        ("ismcts", {"simulations": 1000, "c": 0.7}), ("heuristic", {}), ("random", {})]
    for bad in ("", "c=1,random", "ismcts:simulations"):
        with pytest.raises(ValueError):
            bots.parse_list(bad)


def test_a_callable_is_a_bot():
    game = dimsum.make("nice_buns")
    bot = bots.as_bot(lambda state: state.legal_actions()[0])
    state = game.new_state(1)
    assert bot.act(state) == state.legal_actions()[0]
    assert bots.as_bot(bot) is bot
    with pytest.raises(TypeError):
        bots.as_bot(42)
