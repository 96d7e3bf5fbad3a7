"""What a table page is sent (dimsum.web.messages) and what the lobby accepts (dimsum.web.lobby),
without a server: a seat's message is the same for a state and its resample for that seat, the
spectator's for a state and its resample for every seat; the lobby refuses a bot that is not on
the operator's allow-list, unknown games and bad options; the table's undo follows play's rule."""

from __future__ import annotations

import asyncio
import json

import pytest

import dimsum
from dimsum.testing import random_position
from dimsum.web import seat_message, spectator_message
from dimsum.web.lobby import LobbyError, allow_list, check_request


def _positions(name):
    for players in ((2, 3) if name == "kuhn_poker" else (2, 3, 4)):
        game = dimsum.make(name, players=players)
        for seed in range(8):
            state = random_position(game, seed, seed * 11)
            if not state.is_chance_node:
                yield state


@pytest.mark.parametrize("name", dimsum.games())
def test_a_seat_message_is_the_same_for_a_state_and_its_resample_for_that_seat(name):
    seed = 1000
    for state in _positions(name):
        for p in range(state.game.players):
            mine = seat_message(state, p)
            for _ in range(2):
                seed += 1
                assert seat_message(state.resample(p, seed), p) == mine
            assert json.loads(mine)["seat"] == p


@pytest.mark.parametrize("name", dimsum.games())
def test_the_spectator_message_is_the_same_for_a_state_and_its_resample_for_every_seat(name):
    seed = 5000
    for state in _positions(name):
        spectator = spectator_message(state)
        assert json.loads(spectator)["moves"] == []
        for p in range(state.game.players):
            seed += 1
            assert spectator_message(state.resample(p, seed)) == spectator, f"seat {p}"


def test_the_spectator_sees_no_hand_in_a_game_with_hidden_hands_and_the_whole_table_otherwise():
    kuhn = random_position(dimsum.make("kuhn_poker"), 1, 2)
    seat = json.loads(seat_message(kuhn, 0))["svg"]
    spectator = json.loads(spectator_message(kuhn))["svg"]
    assert "Seat 0 (you)" in seat and "(you)" not in spectator and len(spectator) < len(seat)
    jam = random_position(dimsum.make("dim_sum_jam", players=3), 2, 10)
    spectator = json.loads(spectator_message(jam))["svg"]
    seat = json.loads(seat_message(jam, 1))["svg"]  # nothing hidden but the future: the whole table
    assert spectator == seat.replace(" (you)", "").replace("Seat 1&#39;s view: only what seat 1 may see",
                                                           "A spectator&#39;s view: only what every seat sees")


def test_the_lobby_seats_only_allowed_bots_and_checks_games_and_options():
    bots = allow_list({"strong": ("ismcts", {"simulations": 2000})})
    game, seats = check_request({"game": "pig", "options": {"winscore": 30}, "seats": ["human", "strong"]}, bots)
    assert game.options["winscore"] == 30 and seats == ["human", "strong"]
    for body, words in [
        ({"game": "pig", "seats": ["human", "external:command=/bin/sh"]}, "a seat is one of"),
        ({"game": "pig", "seats": ["human", "external"]}, "a seat is one of"),
        ({"game": "chess", "seats": ["human"]}, "game must be one of"),
        ({"game": "pig", "options": {"winscore": [1]}, "seats": ["human", "random"]}, "each option"),
        ({"game": "pig", "options": {"bogus": 1}, "seats": ["human", "random"]}, "options:"),
        ({"game": "pig", "seats": ["random", "random"]}, "at least one seat is a human"),
        ({"game": "pig", "seats": "human"}, "seats is a list"),
        ({"game": "pig", "seats": ["human"], "command": "ls"}, "a table request is"),
        ([1, 2], "a table request is"),
    ]:
        with pytest.raises(LobbyError, match=words):
            check_request(body, bots)


def _table(game, seats):
    from dimsum.web.table import Seat, Table

    bots = {i: dimsum.bots.make("random", game, seed=i) for i, s in enumerate(seats) if s != "human"}
    return Table("t", game, 17, [Seat(i, s, bots.get(i)) for i, s in enumerate(seats)])


def test_undo_follows_plays_rule_and_bad_moves_change_nothing():
    async def scenario():
        table = _table(dimsum.make("pig", winscore=30), ["human", "random"])
        table.start()
        await asyncio.sleep(0.05)
        assert table.state.current_player == 0
        assert table.undo(0) == "Nothing to undo: you have not moved yet."
        assert "not a legal move" in table.move(0, 10**6)
        assert "not your turn" in table.move(1, table.state.legal_actions()[0]).lower()
        before = table.state.to_dict()
        roll = table.state.parse_action("roll")
        assert table.move(0, roll) is None  # a roll draws a die: no undo after it
        await asyncio.sleep(0.05)
        if table.state.current_player == 0 and not table.state.is_terminal:
            assert table.undo(0).startswith("No undo: since your last move")
        assert before != table.state.to_dict()
        await table.close()

    asyncio.run(scenario())


def test_undo_is_refused_on_the_clock():
    async def scenario():
        table = _table(dimsum.make("dim_sum_jam", players=3), ["human", "random", "random"])
        assert table.undo(0).startswith("No undo on the clock")

    asyncio.run(scenario())


def test_serve_refuses_a_bad_bot_spec():
    from dimsum.cli import serve

    with pytest.raises(SystemExit) as e:
        serve.main(["--bot", "nonsense"])
    assert e.value.code == 2
