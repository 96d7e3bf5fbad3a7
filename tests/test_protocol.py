"""The bot protocol's messages, the external bot's parameters and spec strings, and the Python
client (docs/PROTOCOL.md). Failures of bots: test_protocol_failures.py; tournaments:
test_protocol_arena.py; a person against an external bot: test_protocol_play.py."""

import base64
import io
import json
import sys
import time

import pytest

import dimsum
import dimsum.bots
import dimsum.protocol
from dimsum.bots.external import ExternalBot, command_argv
from dimsum.protocol import BotProtocolError, run_bot
from dimsum.protocol import messages
from dimsum.protocol.process import running
from protocol_bots import PYTHON_BOT, script

@pytest.fixture(autouse=True)
def _close_bots():
    """Every bot process a test started is closed after it, passed or failed."""
    yield
    dimsum.protocol.close_all()


GAMES = [("yum_cha", {"players": 4}), ("nice_buns", {"players": 3}), ("dim_sum_jam", {"players": 2})]


def states_along(game, seed, steps):
    """The states of one random game, every few steps (players to act only)."""
    import random

    rng, state, found = random.Random(seed), game.new_state(seed), []
    for _ in range(steps):
        if state.is_terminal:
            break
        found.append(state.clone())
        state.apply(rng.choice(state.legal_actions()))
    return found[::7]


@pytest.mark.parametrize("name,options", GAMES)
def test_a_view_holds_only_what_the_seat_may_see(name, options):
    """The act message, every extra included, is the same for the real state and for any state drawn
    from the seat's information (resample): so it holds nothing beyond what the seat knows (the
    determinization too is a function of the seat's information and its seed alone)."""
    game = dimsum.make(name, **options)
    wants = ["tensor", "determinization", "observed"]
    for state in states_along(game, 5, 200):
        seat = state.current_player
        real = messages.view(state, seat, 0, wants, 1)
        for seed in (11, 12):
            assert messages.view(state.resample(seat, seed), seat, 0, wants, 1) == real
        assert real["observation"] == state.observation_string(seat)
        assert [item["id"] for item in real["legal"]] == state.legal_actions()
        assert ("clock" in real) == isinstance(game, dimsum.TimedGame)


def acts_logged(log, seat: int, count: int, timeout: float = 10.0):
    """The act messages to ``seat`` in ``log``, once ``count`` of them are there: GNU tee passes a
    line on to the bot before it appends it to the file, so the bot may have answered (and act()
    returned) a moment before its message is in the log."""
    deadline = time.monotonic() + timeout
    while True:
        text = log.read_text() if log.exists() else ""
        whole = text[: text.rfind("\n") + 1]  # a line tee is still writing is left for the next look
        acts = [m for m in map(json.loads, whole.splitlines()) if m["type"] == "act" and m["seat"] == seat]
        if len(acts) >= count or time.monotonic() > deadline:
            return acts
        time.sleep(0.01)


@pytest.mark.parametrize("name,options", GAMES)
def test_observed_steps_reach_the_bot_once_each_in_order_and_without_the_deal_seed(name, options, tmp_path):
    game = dimsum.make(name, **options)
    log = tmp_path / "messages.txt"
    wrapper = tmp_path / "logging_bot.sh"  # keeps what the engine said to the bot
    bot_argv = script(tmp_path, "good", hello='{"type": "hello", "protocol": 1, "want": ["observed"]}')
    wrapper.write_text(f"#!/bin/sh\ntee -a {log} | {' '.join(bot_argv)}\n")
    wrapper.chmod(0o755)
    bot = ExternalBot(game, command=[str(wrapper)], move_seconds=10)
    state, moves = game.new_state(8), {}
    while not state.is_terminal and not (len(moves) == game.players and min(moves.values()) >= 3):
        seat = state.current_player
        moves[seat] = moves.get(seat, 0) + 1
        expected = messages.observed(state, seat)
        state.apply(bot.act(state))
        acts = acts_logged(log, seat, moves[seat])
        assert [line for m in acts for line in m["observed"]] == expected  # each step once, in order
    assert len(moves) == game.players and min(moves.values()) >= 3
    sent = log.read_text()
    assert "seed" not in sent.replace('"seed":', "")  # the title naming the deal's seed is never sent
    assert '"observed":["1. ' in sent


@pytest.mark.parametrize("name,options", GAMES)
def test_the_determinization_is_a_state_of_the_seat_s_information(name, options):
    game = dimsum.make(name, **options)
    for state in states_along(game, 6, 120):
        seat = state.current_player
        message = messages.view(state, seat, 3, ["determinization"], 99)
        drawn = game.state_from_bytes(base64.b64decode(message["determinization"]))
        assert drawn.observation_string(seat) == state.observation_string(seat)
        assert drawn.legal_actions() == state.legal_actions()
        assert "tensor" not in message


def test_every_message_is_one_line_of_json():
    game = dimsum.make("yum_cha", players=4)
    state = game.new_state(2)
    line = messages.encode(messages.view(state, state.current_player, 0, [], 0))
    assert line.endswith(b"\n") and line.count(b"\n") == 1
    assert json.loads(line)["observation"].count("\n") >= 5  # the newlines are inside the JSON string


def test_a_reply_names_an_action_by_id_or_by_exact_name_and_nothing_else():
    legal = {4: "take 1", 9: "take 2"}
    assert messages.action_of({"type": "action", "action": 9}, legal) == 9
    assert messages.action_of({"type": "action", "action": "take 1"}, legal) == 4
    for bad, says in [({"type": "action", "action": 5}, "not legal"), ({"type": "action", "action": "Take 1"}, "exact"),
                      ({"type": "action", "action": True}, "neither"), ({"type": "move", "action": 4}, "'move'"),
                      ({"type": "action"}, "neither")]:
        with pytest.raises(ValueError, match=says):
            messages.action_of(bad, legal)


def test_the_hello_must_speak_protocol_1_and_want_only_known_extras():
    assert messages.check_hello({"type": "hello", "protocol": 1, "want": ["tensor"]}) == ["tensor"]
    for bad, says in [({"type": "hello", "protocol": 2}, "protocol 2"), ({"type": "ready", "protocol": 1}, "'ready'"),
                      ({"type": "hello", "protocol": 1, "want": ["cards"]}, "want")]:
        with pytest.raises(ValueError, match=says):
            messages.check_hello(bad)


def test_spec_strings_split_the_command_into_words_without_a_shell(tmp_path):
    kind, params = dimsum.bots.parse_spec(f"external:command={sys.executable} -u 'my bot.py',move_seconds=5")
    assert kind == "external" and params["move_seconds"] == 5
    assert command_argv(params["command"]) == [sys.executable, "-u", "my bot.py"]
    [(kind, params), (other, _)] = dimsum.bots.parse_list(f"external:command={sys.executable} bot.py,random")
    assert (kind, other) == ("external", "random") and command_argv(params["command"])[1] == "bot.py"
    # a shell's operators are only words: nothing runs them
    assert command_argv(f"{sys.executable} x; touch {tmp_path}/ran")[1:] == ["x;", "touch", f"{tmp_path}/ran"]


def test_bad_parameters_are_clear_errors_before_any_process_starts(tmp_path):
    game = dimsum.make("nice_buns")
    for params, error, says in [({}, ValueError, "empty"), ({"command": 7}, TypeError, "list of strings"),
                                ({"command": str(tmp_path / "nothing")}, ValueError, "not an executable"),
                                ({"command": "bot 'open"}, ValueError, "cannot be split"),
                                ({"command": PYTHON_BOT, "move_seconds": 0}, ValueError, "move_seconds"),
                                ({"command": PYTHON_BOT, "move_seconds": "1"}, TypeError, "move_seconds"),
                                ({"command": PYTHON_BOT, "shell": True}, ValueError, "no parameter 'shell'")]:
        with pytest.raises(error, match=says):
            dimsum.bots.make("external", game, **params)
    assert running() == 0


def test_a_bot_plays_whole_games_by_hand_and_its_processes_are_kept_for_the_next(tmp_path):
    """The same object in both seats: a program per seat, each kept from one game to the next."""
    game = dimsum.make("nice_buns", players=2)
    bot = ExternalBot(game, seed=1, command=script(tmp_path, "good"), move_seconds=10)
    pids = []
    for seed in (1, 2):
        state = game.new_state(seed)
        while not state.is_terminal:
            action = bot.act(state)
            assert action == state.legal_actions()[0]
            state.apply(action)
        pids.append(sorted(current.process.popen.pid for current in bot.seats.values()))
        bot.game_over(state)
        assert not bot.seats and running() == 2
    assert pids[0] == pids[1]  # the second game reused the first game's processes
    dimsum.protocol.close_all()
    assert running() == 0


def test_one_bot_object_in_two_seats_runs_a_program_for_each(tmp_path):
    """A bot object given once and seated twice (the arena seats an object in every seat of a
    cooperative game): each seat has its own program, told its own seat."""
    game = dimsum.make("dim_sum_jam", players=2)
    bot = ExternalBot(game, seed=1, command=script(tmp_path, "good"), move_seconds=10)
    state = game.new_state(3)
    while not state.is_terminal:
        state.apply(bot.act(state))
    assert sorted(bot.seats) == [0, 1] and bot.seats[0].process is not bot.seats[1].process
    assert all(current.moves > 0 for current in bot.seats.values())
    bot.game_over(state)
    assert running() == 2  # both kept for the next game
    dimsum.protocol.close_all()
    assert running() == 0


def test_a_new_game_without_game_over_starts_again_on_the_same_process(tmp_path):
    game = dimsum.make("nice_buns", players=2)
    bot = ExternalBot(game, command=script(tmp_path, "good"), move_seconds=10)
    state = game.new_state(2)  # seat 0 moves first
    assert state.current_player == 0
    bot.act(state)
    first = bot.seats[0].process
    bot.act(game.new_state(4))  # a shorter history for the same seat: a new game
    assert bot.seats[0].moves == 1 and bot.seats[0].process is first and running() == 1
    dimsum.protocol.close_all()


def client(lines, choose, **kwargs):
    """What run_bot writes for ``lines`` of engine messages."""
    out = io.BytesIO()
    source = io.BytesIO(b"".join(messages.encode(m) for m in lines))
    assert run_bot(choose, input=source, output=out, **kwargs) == 0
    return [json.loads(line) for line in out.getvalue().splitlines()]


def test_the_python_client_answers_the_hello_each_view_and_stops_at_quit(capsys):
    game = dimsum.make("nice_buns", players=2)
    state = game.new_state(3)
    seen, starts = [], []

    def choose(view):
        seen.append(view)
        print("a bot's own print goes to stderr")
        return view.legal[-1].name

    replies = client([messages.hello(), messages.new_game(game, 0, 5, 1.0),
                      messages.view(state, state.current_player, 0, ["tensor"], 1), messages.QUIT,
                      messages.view(state, state.current_player, 1, [], 1)],
                     choose, want=["tensor"], name="mine", new_game=starts.append)
    assert replies == [{"type": "hello", "protocol": 1, "name": "mine", "want": ["tensor"]},
                       {"type": "action", "action": state.action_name(state.legal_actions()[-1])}]
    assert len(seen) == 1 and seen[0].tensor == [float(x) for x in state.observation(state.current_player)]
    assert starts[0].seed == 5 and starts[0].make_game() == game
    assert "goes to stderr" in capsys.readouterr().err


def test_the_python_client_refuses_unknown_wants_and_messages():
    with pytest.raises(ValueError, match="want"):
        run_bot(lambda v: 0, want=["cards"], input=io.BytesIO(), output=io.BytesIO())
    with pytest.raises(ValueError, match="unknown engine message"):
        client([{"type": "chat"}], lambda v: 0)
    with pytest.raises(ValueError, match="protocol 2"):
        client([{"type": "hello", "protocol": 2}], lambda v: 0)

