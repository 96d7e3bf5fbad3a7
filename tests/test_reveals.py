"""dimsum.reveals on every game: steps that showed a seat something hidden are found (a draw, a
chance step, a discard from another seat's hidden hand), and steps that showed nothing are not.

The hidden-hand cases are the ones the old rule (watch the state's generator) let through: a Yum
Cha seat takes a card from the centre (no draw) and discards another card of its hidden hand."""

import pytest

import dimsum
import dimsum.bots
from dimsum.reveals import (CHANCE_STEP, ILLEGAL_ELSEWHERE, RANDOM, Reveal, first_reveal,
                            steps_between)

SEEDS = range(64)


def play(state, names):
    """Plays the moves named ``names`` on ``state`` (a copy); returns (copy, steps)."""
    after = state.clone()
    for name in names:
        after.apply(after.parse_action(name))
    return after, steps_between(state, after)


def old_rule_refuses(start, steps):
    """The rule on main before: refused only if a step was chance or moved the generator."""
    state = start.clone()
    for action, _ in steps:
        chance, generator = state.is_chance_node, state.field("rng")
        state.apply(action)
        if chance or state.field("rng") != generator:
            return True
    return False


def yum_cha_after_my_discard(seed):
    """Two-seat Yum Cha at seat 0's discard (seat 1 has moved once): the state and seat 0's hand."""
    state = dimsum.make("yum_cha", players=2).new_state(seed)
    bot = dimsum.bots.make("random", state.game, seed=seed)
    while not (state.current_player == 0 and "discard" in state.action_name(state.legal_actions()[0])):
        state.apply(bot.act(state))
    return state


def hidden_card_of_seat_1(state, taken):
    """A card seat 1 holds that seat 0 cannot know of: not the card it takes, not one it is known
    to hold, none of seat 0's own types (so that no world could reach it through seat 0)."""
    d = state.to_dict()
    known = d["known"][1]
    return next(card for card, n in d["hands"][1].items()
                if card != taken and card not in known and card not in d["hands"][0])


def test_yum_cha_a_discard_from_a_hidden_hand_after_a_take_from_the_centre_is_a_reveal():
    found = 0
    for seed in range(8):
        state = yum_cha_after_my_discard(seed)
        mine = state.action_name(state.legal_actions()[0])  # "discard X"
        taken = mine[len("discard "):]
        after_mine, _ = play(state, [mine])
        card = hidden_card_of_seat_1(after_mine, taken)
        _, steps = play(state, [mine, f"take {taken} from the centre", f"discard {card}"])
        assert not old_rule_refuses(state, steps)  # what main let through
        reveal = first_reveal(state, steps, 0, SEEDS)
        assert reveal == Reveal(2, 1, f"discard {card}", ILLEGAL_ELSEWHERE), (seed, reveal)
        assert "a card of a hidden hand" in reveal.reason(lambda s: f"seat {s}")
        found += 1
    assert found == 8


def test_yum_cha_taking_a_card_and_discarding_it_again_reveals_nothing():
    for seed in range(8):
        state = yum_cha_after_my_discard(seed)
        mine = state.action_name(state.legal_actions()[0])
        taken = mine[len("discard "):]
        _, steps = play(state, [mine, f"take {taken} from the centre", f"discard {taken}"])
        assert first_reveal(state, steps, 0, SEEDS) is None, seed


def test_yum_cha_a_draw_from_the_deck_is_a_reveal_even_unseen():
    state = yum_cha_after_my_discard(3)
    mine = state.action_name(state.legal_actions()[0])
    _, steps = play(state, [mine, "draw from the deck"])
    assert first_reveal(state, steps, 0, SEEDS) == Reveal(1, 1, "draw from the deck", RANDOM)


def test_an_explicit_chance_step_is_a_reveal_and_never_named():
    state = dimsum.make("yum_cha", players=2, chance="explicit").new_state(2)
    while not state.is_chance_node:
        state.apply(state.legal_actions()[0])
    outcome = state.legal_actions()[0]
    after = state.clone()
    after.apply(outcome)
    reveal = first_reveal(state, steps_between(state, after), 0, SEEDS)
    assert reveal.kind == CHANCE_STEP and reveal.name == "chance"
    assert state.game.chance_outcome_name(outcome) not in reveal.reason(str)


def nice_buns_split(seed):
    """Nice Buns (two seats) at seat 0's first choice that draws nothing, and that choice."""
    state = dimsum.make("nice_buns", players=2).new_state(seed)
    bot = dimsum.bots.make("random", state.game, seed=seed)
    for _ in range(400):
        if state.current_player == 0:
            for action in state.legal_actions():
                after = state.clone()
                after.apply(action)
                if after.field("rng") == state.field("rng"):
                    return state, action
        state.apply(bot.act(state))
    pytest.fail("no move without a draw")


def test_nice_buns_a_move_that_draws_nothing_reveals_nothing_and_a_roll_does():
    for seed in range(4):
        state, quiet = nice_buns_split(seed)
        after = state.clone()
        after.apply(quiet)
        assert first_reveal(state, steps_between(state, after), 0, SEEDS) is None
        # then play on to the first step that draws: that one is found, by its index
        steps = steps_between(state, after)
        while after.field("rng") == state.field("rng") and not after.is_terminal:
            rolled = after.clone()
            action = after.legal_actions()[-1]
            rolled.apply(action)
            if rolled.field("rng") != after.field("rng"):
                reveal = first_reveal(state, steps + [(action, 0)], 0, SEEDS)
                assert reveal.kind == RANDOM and reveal.index == len(steps)
                break
            after = rolled
            steps.append((action, 0))


def test_pig_hold_reveals_nothing_and_roll_reveals_the_die():
    state = dimsum.make("pig").new_state(1)
    names = [state.action_name(a) for a in state.legal_actions()]
    roll, hold = names[0], names[-1]
    _, steps = play(state, [hold])
    assert first_reveal(state, steps, 0, SEEDS) is None
    _, steps = play(state, [roll])
    assert first_reveal(state, steps, 0, SEEDS).kind == RANDOM


def test_untimed_dim_sum_jam_a_play_without_a_draw_is_free_and_a_draw_is_not():
    game = dimsum.make("dim_sum_jam", players=3, ticks_per_action=0)
    state = game.new_state(2)
    bot = dimsum.bots.make("random", game, seed=2)
    quiet = drew = 0
    for _ in range(300):
        if state.is_terminal:
            break
        action = bot.act(state)
        after = state.clone()
        after.apply(action)
        reveal = first_reveal(state, steps_between(state, after), state.current_player, range(16))
        if after.field("rng") == state.field("rng"):
            assert reveal is None
            quiet += 1
        else:
            assert reveal.kind == RANDOM
            drew += 1
        state = after
    assert quiet and drew


def test_bad_calls_are_clear_errors_and_change_nothing():
    state = dimsum.make("pig").new_state(1)
    before = state.to_bytes()
    with pytest.raises(ValueError, match="not a seat"):
        first_reveal(state, [], 5, SEEDS)
    with pytest.raises(ValueError, match="step 0"):
        first_reveal(state, [(10**6, 0)], 0, SEEDS)
    assert state.to_bytes() == before
