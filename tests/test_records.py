"""dimsum.records: a played game as JSON that replays exactly, and bad records named by step."""

import json

import pytest

import dimsum
from dimsum import bots
from dimsum.records import ADVANCE, Record, RecordError


def _played(name, seed, **options):
    game = dimsum.make(name, **options)
    state, bot = game.new_state(seed), bots.make("random", game, seed=seed)
    while not state.is_terminal:
        state.apply(bot.act(state))
    return game, state


@pytest.mark.parametrize("name", dimsum.games())
def test_a_record_round_trips_through_json_and_replays_to_the_same_state(name, tmp_path):
    game, state = _played(name, 21, players=2)
    record = Record.of(state, 21, ["random", "random"])
    record.save(tmp_path / "game.json")
    loaded = Record.load(tmp_path / "game.json")
    assert loaded == record
    states = list(loaded.states())
    assert len(states) == len(record.steps) + 1
    assert states[-1] == state and states[0] == game.new_state(21)


def test_dim_sum_jam_records_keep_ticks_and_advances():
    game = dimsum.make("dim_sum_jam", players=2)
    state = game.new_state(3)
    state.advance(7)
    state.apply(state.legal_actions()[0], 40)
    record = Record.of(state, 3)
    assert record.steps[0] == (ADVANCE, 7) and record.steps[1][1] == 40
    assert record.final_state() == state


def test_bad_records_are_named():
    with pytest.raises(RecordError, match="not a dimsum record"):
        Record.loads("[1, 2]")
    with pytest.raises(RecordError, match="not JSON"):
        Record.loads("{")
    _, state = _played("nice_buns", 5, players=2)
    data = Record.of(state, 5).to_json()
    data["steps"][3] = [10_000, 0]
    with pytest.raises(RecordError, match="step 3 "):
        list(Record.from_json(data).states())
    data = Record.of(state, 5).to_json()
    data["steps"][2] = ["x", 0]
    with pytest.raises(RecordError, match="step 2 must be"):
        Record.loads(json.dumps(data))
    with pytest.raises(RecordError, match="not of"):
        list(Record.of(state, 5).states(dimsum.make("yum_cha")))
    with pytest.raises(RecordError, match="cannot be made"):
        Record("nice_buns", {"players": 99}, 1).make_game()
