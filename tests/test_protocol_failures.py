"""External bots that break (docs/PROTOCOL.md, "When a bot breaks"): a crash, a hang, garbage, an
illegal move, a wrong hello, a line that never ends, a bot that ignores quit, and Ctrl-C. Each is a
BotProtocolError naming the bot, the move and what was expected (in the arena: the tournament
stops, as for any failing bot), within its time limit, and the process is ended and reaped."""

import os
import signal
import sys
import time

import psutil
import pytest

import dimsum
import dimsum.arena
from dimsum.bots.external import ExternalBot
from dimsum.protocol import BotProtocolError, close_all
from dimsum.protocol.process import running
from protocol_bots import script, spec
import processes


@pytest.fixture
def pids(tmp_path, monkeypatch):
    """The pids of the bots a test starts (each bot appends its own to a file)."""
    path = tmp_path / "pids.txt"
    monkeypatch.setenv("PROTOCOL_TEST_PIDS", str(path))
    yield lambda: [int(line) for line in path.read_text().split()] if path.exists() else []
    close_all()


def gone(pid):
    """The process has ended and been reaped (a zombie's pid still exists)."""
    return not psutil.pid_exists(pid)


CASES = [
    ("crash", "exited with code 3 instead of sending", "boom: the bot gave up"),
    ("hang", "took longer than its time limit to answer", "move_seconds"),
    ("garbage", "wrote 'thinking... e2e4', which is not JSON", '"action": ID or NAME'),
    ("illegal", "chose action id 1000000, which is not legal here", "the legal ones are"),
    ("bad_name", "chose 'no such move', which is not the exact name of a legal action", "the legal ones are"),
    ("long_line", "a line longer than 1048576 bytes", "expected"),
]


@pytest.mark.parametrize("behaviour,problem,expected", CASES, ids=[c[0] for c in CASES])
def test_a_bot_that_breaks_is_a_clear_error_and_its_process_is_ended(behaviour, problem, expected, tmp_path, pids):
    game = dimsum.make("nice_buns", players=2)
    bot = ExternalBot(game, seed=1, command=script(tmp_path, behaviour), move_seconds=1.0)
    state = game.new_state(4)
    before = state.to_bytes()
    started = time.monotonic()
    with pytest.raises(BotProtocolError) as caught:
        bot.act(state)
    assert time.monotonic() - started < 5.0
    message = str(caught.value)
    # named without machine paths: the program's and the script's last parts
    assert f"external bot '{os.path.basename(sys.executable)} {behaviour}_bot.py' (test bot) (seat 0) at its move 0" in message
    assert problem in message and expected in message
    assert state.to_bytes() == before  # the game is untouched
    assert running() == 0 and [gone(pid) for pid in pids()] == [True]


def test_a_bot_that_answers_twice_is_caught_at_its_next_move(tmp_path, pids):
    game = dimsum.make("nice_buns", players=2)
    bot = ExternalBot(game, command=script(tmp_path, "chatty"), move_seconds=2.0)
    state = game.new_state(2)
    state.apply(bot.act(state))  # the first reply is an answer; the second was not asked for
    while state.current_player != 0:
        state.apply(state.legal_actions()[0])
    time.sleep(0.2)  # the second line has surely arrived
    with pytest.raises(BotProtocolError) as caught:
        bot.act(state)
    assert "at its move 1: it wrote '{\"type\": \"action\", \"action\": 0}\\n' without being asked" in str(caught.value)
    assert running() == 0 and all(gone(pid) for pid in pids())


def test_a_bot_that_speaks_another_protocol_or_never_says_hello(tmp_path, pids):
    game = dimsum.make("nice_buns", players=2)
    wrong = script(tmp_path, "good", hello='{"type": "hello", "protocol": 2}')
    with pytest.raises(BotProtocolError, match="speaks protocol 2; this engine speaks protocol 1"):
        ExternalBot(game, command=wrong, move_seconds=2.0).act(game.new_state(1))
    silent = [sys.executable, "-c", "import time; time.sleep(1000)"]
    with pytest.raises(BotProtocolError, match="took longer than its time limit to answer"):
        ExternalBot(game, command=silent, move_seconds=0.5).act(game.new_state(1))
    assert running() == 0 and all(gone(pid) for pid in pids())


def test_a_bot_that_ignores_quit_is_killed_after_the_grace_period(tmp_path, pids):
    game = dimsum.make("nice_buns", players=2)
    bot = ExternalBot(game, command=script(tmp_path, "good", on_quit="time.sleep(1000)"), move_seconds=5.0)
    bot.act(game.new_state(1))
    started = time.monotonic()
    close_all(grace=0.5)
    assert time.monotonic() - started < 3.0
    assert running() == 0 and [gone(pid) for pid in pids()] == [True]


def test_in_the_arena_a_breaking_bot_stops_the_tournament_named(tmp_path, pids):
    game = dimsum.make("nice_buns", players=2)
    with pytest.raises(dimsum.arena.ArenaError) as caught:
        dimsum.arena.run(game, [spec(script(tmp_path, "illegal"), move_seconds=5), "random"], games=4, seed=1, progress=False)
    message = str(caught.value)
    assert "bot 'external:command=" in message and "failed in game 0" in message
    assert "act() raised BotProtocolError" in message and "chose action id 1000000" in message
    assert running() == 0 and pids() and all(gone(pid) for pid in pids())


def test_the_arena_move_limit_stops_an_external_bot_mid_move(tmp_path, pids):
    """The arena's own alarm (shorter than the bot's limit) ends the move; the program is killed."""
    game = dimsum.make("nice_buns", players=2)
    started = time.monotonic()
    with pytest.raises(dimsum.arena.ArenaError, match="more than the move time limit of 0.5 s"):
        dimsum.arena.run(game, [spec(script(tmp_path, "hang"), move_seconds=60), "random"], games=2, seed=1, progress=False, move_seconds=0.5)
    assert time.monotonic() - started < 10.0
    assert running() == 0 and pids() and all(gone(pid) for pid in pids())


@pytest.mark.parametrize("workers", [1, 2])
def test_ctrl_c_in_the_arena_ends_every_bot_process(tmp_path, pids, workers):
    """Ctrl-C (SIGINT to the arena's process group: the terminal's foreground, its workers included;
    the bots run in sessions of their own) ends the tournament with 130 and leaves no bot running,
    even bots that ignore quit and the end of their input (killed after the grace period)."""
    bot = spec(script(tmp_path, "slow", on_quit="time.sleep(1000)"))
    arena = processes.start([sys.executable, "-m", "dimsum", "arena", "--game", "nice_buns", "--players", "2",
                             "--bots", f"{bot},random", "--games", "200", "--workers", str(workers), "--no-progress"],
                            stdout=open(os.devnull, "w"), stderr=open(tmp_path / "err.txt", "w"))
    try:
        deadline = time.monotonic() + 30
        while len(pids()) < workers and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(pids()) >= workers, (tmp_path / "err.txt").read_text()
        time.sleep(0.5)
        os.killpg(arena.pid, signal.SIGINT)
        assert arena.wait(timeout=30) == 130, (tmp_path / "err.txt").read_text()
    finally:
        processes.stop(arena)
    deadline = time.monotonic() + 5
    while not all(gone(pid) for pid in pids()) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert all(gone(pid) for pid in pids())


def test_at_the_table_a_breaking_bot_stops_the_game_with_a_message(tmp_path, pids):
    """Seed 1 of Nice Buns for two: seat 1, the bot, moves first."""
    record = tmp_path / "game.json"
    run = processes.run([sys.executable, "-m", "dimsum", "play", "nice_buns", "--players", "2", "--seat", "0",
                         "--seed", "1", "--bots", spec(script(tmp_path, "crash")), "--record", str(record)],
                        input="", capture_output=True, text=True, timeout=60)
    assert run.returncode == 1, run.stderr
    assert "The bot of seat 1 (external:command=" in run.stdout and "exited with code 3" in run.stdout
    assert "boom: the bot gave up" in run.stdout and "Traceback" not in run.stdout + run.stderr
    assert record.exists() and pids() and all(gone(pid) for pid in pids())


def test_a_file_that_is_not_a_program_is_a_clear_error(tmp_path):
    fake = tmp_path / "not_a_program"
    fake.write_text("this is text, not a program\n")
    fake.chmod(0o755)
    game = dimsum.make("nice_buns", players=2)
    with pytest.raises(BotProtocolError, match=r"\(seat 0\) at its move 0: cannot start 'not_a_program': "
                                               r"Exec format error"):
        ExternalBot(game, command=[str(fake)]).act(game.new_state(2))
    assert running() == 0
