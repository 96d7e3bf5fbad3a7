"""What a seat saw happen, in words (dimsum.play.events): moves by name, the seat's own draws, Dim Sum
Jam's complaints and their cause, rounds and scores; the same text for states the seat cannot tell
apart; one way of naming seats."""

import random

import pytest

import dimsum
from dimsum.play.events import (events_between, events_since_last_move, history_text, recent_events,
                                seat_texts, steps_between)


def play(state, steps, rng):
    for _ in range(steps):
        if state.is_terminal:
            break
        state.apply(rng.choice(state.legal_actions()))
    return state


def test_moves_are_named_with_the_seat_that_made_them_and_you_for_the_reader():
    state = dimsum.make("pig").new_state(3)
    before = state.clone()
    state.apply(state.parse_action("roll"))
    events = events_between(before, state, 0)
    assert events[0] == "you (seat 0): roll" and events[1].startswith("the die shows ")
    assert events_between(before, state, 1)[0] == "seat 0: roll"


def test_pig_tells_the_banked_scores():
    state = play(dimsum.make("pig").new_state(5), 200, random.Random(5))
    scores = state.field("scores")
    told = [line for line in events_between(None, state, 1) if line.startswith("scores: ")]
    assert told[-1] == f"scores: seat 0 {scores[0]}, you (seat 1) {scores[1]}"


def test_the_seat_s_own_draws_are_named_and_nobody_else_s():
    game = dimsum.make("yum_cha", players=3)
    state = game.new_state(7)
    rng = random.Random(7)
    before = state.clone()
    play(state, 30, rng)
    mine = events_between(before, state, 0)
    theirs = events_between(before, state, 1)
    assert any(line.startswith("you drew ") for line in mine)
    drawn_by_me = [line[len("you drew "):] for line in mine if line.startswith("you drew ")]
    # seat 1 hears of seat 0's draws only as the move, never the card
    assert "seat 0: draw from the deck" in theirs
    assert not any(line.startswith("you drew ") and line[len("you drew "):] in drawn_by_me and
                   line not in [f"you drew {c}" for c in drawn_by_me] for line in theirs)
    assert all("drew" not in line or line.startswith("you drew ") for line in theirs)


def test_a_round_s_end_and_the_scores_are_told():
    game = dimsum.make("yum_cha", players=3, rounds=2)
    state = game.new_state(2)
    play(state, 100000, random.Random(2))
    events = events_between(None, state, 0)
    assert "round 1 is over" in events and "round 2 begins" in events
    assert any(line.startswith("scores: you (seat 0) ") for line in events)


def test_a_dim_sum_jam_complaint_is_told_with_its_cause_when_the_sand_runs_out_with_no_move():
    state = dimsum.make("dim_sum_jam", players=3).new_state(4)
    before = state.clone()
    state.advance(state.clock.top)  # time passes, nobody moves: the glass empties
    assert state.field("complaints") == 1
    events = events_between(before, state, 1)
    assert events == ["COMPLAINT 1 of 3: the sand ran out. The game pauses: players may discard and "
                      "replenish, then the glass is flipped."]


def test_the_end_of_a_dim_sum_jam_game_is_told():
    state = play(dimsum.make("dim_sum_jam", players=3, ticks_per_action=0).new_state(1), 100000, random.Random(1))
    events = events_between(None, state, 2)
    assert events[-1].startswith("GAME OVER: the team ")


def test_events_since_my_last_move_begin_with_it():
    state = play(dimsum.make("nice_buns", players=3).new_state(3), 40, random.Random(3))
    seat = state.current_player
    since = events_since_last_move(state, seat)
    assert since and since[0].startswith(f"you (seat {seat}): ")
    assert all(not line.startswith(f"you (seat {seat}): ") for line in since[1:])
    fresh = dimsum.make("nice_buns", players=3).new_state(3)
    assert events_since_last_move(fresh, 0) == events_between(None, fresh, 0)


def test_the_history_is_bounded_with_the_count_of_older_events():
    state = play(dimsum.make("pig").new_state(9), 200, random.Random(9))
    everything = events_between(None, state, 0)
    older, last = recent_events(state, 0, 10)
    assert last == everything[-10:] and older == len(everything) - 10
    assert history_text(state, 0, 10)[0] == f"({older} earlier events not shown)"
    assert recent_events(state, 0, 0) == (len(everything), [])
    with pytest.raises(ValueError, match="limit"):
        recent_events(state, 0, -1)


def test_states_of_different_games_or_not_in_order_are_refused_with_the_reason():
    game = dimsum.make("pig")
    a = game.new_state(1)
    b = play(a.clone(), 5, random.Random(1))
    with pytest.raises(ValueError, match="does not follow before"):
        events_between(b, a, 0)
    yum_cha = dimsum.make("yum_cha")  # two deals: the seat's hands differ, so one does not follow the other
    with pytest.raises(ValueError, match="does not follow before"):
        events_between(yum_cha.new_state(2), play(yum_cha.new_state(3), 3, random.Random(0)), 0)
    with pytest.raises(ValueError, match="seat must be"):
        events_between(a, b, 2)
    with pytest.raises(ValueError, match="state"):
        events_between(dimsum.make("kuhn_poker").new_state(1), b, 0)
    assert events_between(b, b, 0) == []


def test_seats_are_named_seat_n_in_move_names_and_the_old_spelling_still_parses():
    game = dimsum.make("nice_buns", players=3)
    names = [game.action_name(a) for a in range(game.num_actions)]
    assert not [n for n in names if "player" in n]
    assert game.action_name(game.parse_action("give red to player 1")) == "give red to seat 1"
    assert game.parse_action("swap my red for Player 2's blue") == game.parse_action("swap my red for seat 2's blue")
    assert seat_texts("me=3, seat+1=2, +2=1", 1, 3) == "you (seat 1)=3, seat 2=2, seat 0=1"


def test_a_nice_buns_split_whose_name_holds_a_bar_is_read_whole():
    state = dimsum.make("nice_buns", players=2, chance="explicit").new_state(4)
    play(state, 60, random.Random(4))
    moves = [step.move for step in steps_between(None, state, 0) if step.kind == "move"]
    assert any(move.startswith("split: ") and " | " in move for move in moves)


# ---- fairness: what a seat cannot tell apart gives the same words -----------------------------

@pytest.mark.parametrize("chance", ["sampled", "explicit"])
@pytest.mark.parametrize("name", dimsum.games())
def test_events_are_the_same_for_states_the_seat_cannot_tell_apart(name, chance):
    """The attack: for a pair (before, after) and their resample(p) counterparts, every text is equal;
    and some resample redrew something (else the attack proves nothing for an imperfect game)."""
    game = dimsum.make(name, chance=chance)
    rng = random.Random(f"{name}{chance}")
    changed = 0
    for trial in range(12):
        before = play(game.new_state(rng.randrange(2**32)), rng.randrange(1, 30), rng)
        after = play(before.clone(), rng.randrange(1, 30), rng)
        for p in range(game.players):
            b2, a2 = before.resample(p, rng.randrange(2**32)), after.resample(p, rng.randrange(2**32))
            changed += a2.to_dict() != after.to_dict()
            assert events_between(b2, a2, p) == events_between(before, after, p)
            assert events_between(None, a2, p) == events_between(None, after, p)
            assert events_since_last_move(a2, p) == events_since_last_move(after, p)
            assert recent_events(a2, p, 7) == recent_events(after, p, 7)
    if dimsum.game_info(name).information == "imperfect":
        assert changed, "no resample redrew anything: the pairs do not test the events"
