"""Dim Sum Jam's validate checks every icon space of every table in one pass when all is well,
and walks them one by one for the message when not (state_io.cpp, spaces_look_right): each kind
of bad space is refused with the message that names it, and good positions are accepted."""

import copy
import random

import pytest

import dimsum

TOKENS = 49
TEA = 49


def position_with_tokens_on_cards():
    """A running game's fields with at least one token on a card (random play from seed 1)."""
    game = dimsum.make("dim_sum_jam")
    state = game.new_state(1)
    rng = random.Random(2)
    for _ in range(30):
        state.apply(rng.choice(state.legal_actions()))
    fields = copy.deepcopy(state.fields())
    assert any(0 <= v < TOKENS for row in fields["slots"] for v in row), "no token on a card: pick another seed"
    return game, state, fields


def refusal(game, fields):
    with pytest.raises(ValueError) as e:
        game.state_from_fields(fields)
    return str(e.value)


def bag_tokens(fields):
    return [t for t in range(TOKENS) if fields["bag"] >> t & 1]


def empty_icon_space(fields):
    """(table, space) of an empty space on a card's icons: a -1 with a token further right or
    below the number of icons; found as the first -1 for which a token is refused as misplaced
    on an icon (not as past the icons)."""
    game = dimsum.make("dim_sum_jam")
    for k, row in enumerate(fields["slots"]):
        for i, v in enumerate(row):
            if v != -1:
                continue
            trial = copy.deepcopy(fields)
            trial["slots"][k][i] = bag_tokens(fields)[0]
            if "past the card's icons" not in refusal(game, trial):
                return k, i
    raise AssertionError("no empty icon space")


def test_good_positions_are_accepted_with_their_bytes():
    game, state, fields = position_with_tokens_on_cards()
    assert game.state_from_fields(fields) == state
    assert game.state_from_bytes(state.to_bytes()) == state


def test_a_token_past_the_cards_icons_is_refused():
    game, _, fields = position_with_tokens_on_cards()
    k = next(k for k, row in enumerate(fields["slots"]) if fields["table_cards"][k] >= 0)
    fields["slots"][k][6] = bag_tokens(fields)[0]  # no card has 7 icons in the default game
    assert "past the card's icons" in refusal(game, fields)


def test_a_token_on_an_icon_of_another_type_or_in_two_places_is_refused():
    game, _, fields = position_with_tokens_on_cards()
    k, i = empty_icon_space(fields)
    by_type = {}
    for t in bag_tokens(fields):
        by_type.setdefault(t // 7, t)
    messages = {}
    for kind, t in by_type.items():
        trial = copy.deepcopy(fields)
        trial["slots"][k][i] = t  # still in the bag too
        messages[kind] = refusal(game, trial)
    fits = [kind for kind, m in messages.items() if "also in another place" in m]
    wrong = [kind for kind, m in messages.items() if "a token of its icon's type" in m]
    # one type is the icon's (that token is refused for being in the bag as well), every other
    # type is refused for not being the icon's
    assert len(fits) <= 1 and len(fits) + len(wrong) == len(messages) and wrong, messages


def test_a_token_on_a_card_copied_to_any_empty_space_is_refused():
    game, _, fields = position_with_tokens_on_cards()
    k, i = next((k, i) for k, row in enumerate(fields["slots"]) for i, v in enumerate(row) if 0 <= v < TOKENS)
    token = fields["slots"][k][i]
    other = [(k2, i2) for k2, row in enumerate(fields["slots"]) for i2, v in enumerate(row)
             if v == -1 and (k2, i2) != (k, i)]
    assert other
    for k2, i2 in other:  # every empty space: past the icons, an icon of another type, or twice
        trial = copy.deepcopy(fields)
        trial["slots"][k2][i2] = token
        m = refusal(game, trial)
        assert ("past the card's icons" in m or "a token of its icon's type" in m or
                "also in another place" in m), m


def test_a_value_out_of_range_and_a_tea_not_counted_are_refused():
    game, state, fields = position_with_tokens_on_cards()
    k, i = empty_icon_space(fields)
    trial = copy.deepcopy(fields)
    trial["slots"][k][i] = TEA  # a tea on the card, not taken from the supply
    assert "tea_supply" in refusal(game, trial)
    raw = bytearray(state.to_bytes())
    slots_at = raw.index(bytes([b & 0xFF for b in fields["slots"][0]] + [b & 0xFF for b in fields["slots"][1]]))
    raw[slots_at] = 60  # table 1, space 0: neither empty, a token nor a tea (bytes skip the field bounds)
    with pytest.raises(ValueError, match="-1 empty, a token 0-48 or 49 tea"):
        game.state_from_bytes(bytes(raw))


def test_stale_empty_spaces_are_refused():
    game, state, fields = position_with_tokens_on_cards()
    raw = bytearray(state.to_bytes())
    flat = bytes(b & 0xFF for row in fields["slots"] for b in row)
    empty_at = raw.index(flat) + len(flat)  # empty_slots follow the slots in the State
    raw[empty_at] ^= 0x40  # table 1's space 6: a card has fewer icons, so this bit is wrong
    with pytest.raises(ValueError, match="empty spaces are stale"):
        game.state_from_bytes(bytes(raw))
