"""``dimsum.make("nice_buns(players=3)")``: OpenSpiel's form of a game with its options, read with the
options' own types and then validated exactly as keyword options are."""

import pytest

import dimsum


@pytest.mark.parametrize("name", dimsum.games())
def test_the_game_string_makes_the_same_game_as_keywords(name):
    scalar = {o.name: o.default for o in dimsum.options(name)
              if isinstance(o.default, (bool, int, str)) and o.name != "chance"}
    text = name + "(" + ",".join(f"{k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in scalar.items()) + ")"
    assert dimsum.make(text) == dimsum.make(name, **scalar) == dimsum.make(name)
    assert dimsum.make(f"{name}()") == dimsum.make(name)


def test_values_are_typed_by_the_options_default():
    game = dimsum.make("nice_buns(players=3, max_turns=20, mandatory_dice=false)")
    assert game.players == 3 and game.options["max_turns"] == 20 and game.options["mandatory_dice"] is False
    assert dimsum.make("nice_buns(players=3)", max_turns=9).options["max_turns"] == 9


@pytest.mark.parametrize("text, error, says", [
    ("nice_buns(players=x)", ValueError, "'players' is an int"),
    ("nice_buns(mandatory_dice=maybe)", ValueError, "is a bool"),
    ("nice_buns(players=3", ValueError, "not a game string"),
    ("nice_buns(players)", ValueError, "is not option=value"),
    ("nice_buns(players=3,players=4)", ValueError, "given twice"),
    ("nice_bun(players=3)", ValueError, "did you mean 'nice_buns'"),
    ("nice_buns(player=3)", ValueError, "unknown nice_buns option"),
    ("nice_buns(players=99)", ValueError, r"must be in \[2, 6\]"),
])
def test_a_bad_game_string_is_a_clear_error(text, error, says):
    with pytest.raises(error, match=says):
        dimsum.make(text)


def test_an_option_in_the_string_and_as_a_keyword_is_refused():
    with pytest.raises(ValueError, match="both in the game string and as a keyword"):
        dimsum.make("nice_buns(players=3)", players=4)
