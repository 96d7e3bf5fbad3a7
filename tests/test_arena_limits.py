"""dimsum.arena hardened (issue 21): every finished game is kept on any interruption (Y10), and a
per-move time limit turns a bot that hangs into a named stop, here, in worker processes and on Ray
(Y13). Records and the results JSON are never written through a planted symbolic link (Y11)."""

import json
import os
import signal
import subprocess
import sys
import threading
import time

import pytest

import dimsum
import dimsum.arena
from arena_bots import registered_kinds
from dimsum.arena.tournament import MOVE_SECONDS

FIRST_FAILURE = 3  # of "random,broken:after=52" at nice_buns, 2 players, seed 1 (tests/test_arena.py)


@pytest.fixture(autouse=True)
def registered_test_kinds():
    with registered_kinds():
        yield


def _nice_buns():
    return dimsum.make("nice_buns", players=2)


# ---- Y13: the move time limit ----------------------------------------------------------------------

@pytest.mark.parametrize("fault", ["hang", "spin"])
@pytest.mark.parametrize("workers", [1, 2])
def test_y13_a_bot_that_hangs_is_stopped_in_its_move_and_named_keeping_the_finished_games(tmp_path, fault, workers):
    path = tmp_path / "results.json"
    started = time.monotonic()
    with pytest.raises(dimsum.arena.ArenaError) as stop:
        dimsum.arena.run(_nice_buns(), f"random,broken:after=52,fault={fault}", games=8, seed=1, workers=workers,
                         json_path=path, progress=False, chunk_size=1 if workers > 1 else None, move_seconds=0.5)
    assert time.monotonic() - started < 60, "the tournament did not wait for the bot"
    failure = stop.value.results.failure
    assert failure.index == FIRST_FAILURE and failure.bot == f"broken:after=52,fault={fault}"
    assert "took more than the move time limit of 0.5 s" in str(stop.value)
    data = json.loads(path.read_text())
    assert data["failure"]["index"] == FIRST_FAILURE and "move time limit" in data["failure"]["message"]
    assert set(range(FIRST_FAILURE)) <= {g["index"] for g in data["games"]}


@pytest.mark.skipif(not hasattr(signal, "pthread_sigmask"), reason="needs signal.pthread_sigmask")
def test_y13_a_worker_stuck_where_no_signal_reaches_is_noticed_by_the_parent(tmp_path):
    """The bot blocks SIGALRM and sleeps: its worker's own alarm cannot act, so the parent, which
    sees the worker's move grow old, names the bot and stops the workers."""
    from dimsum.arena.watchdog import backstop_seconds

    path = tmp_path / "results.json"
    started = time.monotonic()
    with pytest.raises(dimsum.arena.ArenaError) as stop:
        dimsum.arena.run(_nice_buns(), "random,broken:after=52,fault=deaf", games=8, seed=1, workers=2,
                         json_path=path, progress=False, chunk_size=1, move_seconds=0.5)
    assert time.monotonic() - started < backstop_seconds(0.5) + 30
    failure = stop.value.results.failure
    assert failure.index == FIRST_FAILURE and failure.bot == "broken:after=52,fault=deaf" and failure.step == 53
    assert "its worker process could not stop it" in str(stop.value)
    assert json.loads(path.read_text())["failure"]["index"] == FIRST_FAILURE


def test_y13_a_stuck_move_is_named_only_once_no_earlier_game_can_fail_first():
    """Two workers, both in a move: the later game's is old, the earlier game's is not. The parent
    waits (the earlier game may fail too, and the failure named is the first by game index); once
    the earlier move is old as well it is the one named, and a worker between chunks does not hold
    the parent back."""
    import multiprocessing

    from dimsum.arena.watchdog import MoveBeacons

    beacons = MoveBeacons(multiprocessing.get_context("spawn"), 2)
    beacons.attach()  # slot 0: game 5, stuck at its step 53
    beacons.playing(5)
    beacons.moving(5, 0, 53)
    beacons.started[0] = time.monotonic() - 100
    beacons.attach()  # slot 1: game 3, in a move that has just begun
    beacons.playing(3)
    beacons.moving(3, 1, 10)
    assert beacons.overdue(10) is None
    beacons.idle()  # between two moves of game 3: still a game that can fail first
    assert beacons.overdue(10) is None
    beacons.moving(3, 1, 11)
    beacons.started[1] = time.monotonic() - 50  # now game 3 is stuck too: it is the one named
    assert beacons.overdue(10)[:3] == (3, 1, 11)
    beacons.idle()
    beacons.playing(-1)  # game 3's worker is between chunks: game 5 is named
    assert beacons.overdue(10)[:3] == (5, 0, 53)
    beacons.playing(7)  # a later game does not hold it back either
    assert beacons.overdue(10)[:3] == (5, 0, 53)


def test_y13_the_alarm_handler_and_timer_are_put_back_after_a_run():
    before = signal.getsignal(signal.SIGALRM)
    dimsum.arena.run(_nice_buns(), "random,first", games=2, seed=1, progress=False, move_seconds=5)
    with pytest.raises(dimsum.arena.ArenaError):
        dimsum.arena.run(_nice_buns(), "random,broken:after=2,fault=hang", games=2, seed=1, progress=False,
                         move_seconds=0.2)
    assert signal.getsignal(signal.SIGALRM) is before and signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


def test_y13_a_late_move_fails_where_no_alarm_can_be_set():
    """Off the main thread no alarm can stop a move: one that returns after the limit fails all the same."""

    def slow(state):
        time.sleep(0.3)
        return state.legal_actions()[0]

    caught = []

    def run():
        try:
            dimsum.arena.run(_nice_buns(), ["random", slow], games=2, seed=1, progress=False, move_seconds=0.1)
        except dimsum.arena.ArenaError as e:
            caught.append(e)

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(30)
    assert caught and "took more than the move time limit of 0.1 s" in str(caught[0])


def test_y13_no_limit_and_the_default():
    assert MOVE_SECONDS == 60.0
    results = dimsum.arena.run(_nice_buns(), "random,first", games=2, seed=1, progress=False, move_seconds=None)
    assert results.complete


@pytest.mark.parametrize("value, error, says", [(0, ValueError, "move_seconds must be in"),
                                                (-1.0, ValueError, "move_seconds must be in"),
                                                (float("nan"), ValueError, "move_seconds must be in"),
                                                (1e300, ValueError, "move_seconds must be in"),
                                                ("5", TypeError, "move_seconds is a number"),
                                                (True, TypeError, "move_seconds is a number")])
def test_y13_a_bad_move_time_limit_is_refused_before_any_game(value, error, says):
    with pytest.raises(error, match=says):
        dimsum.arena.run(_nice_buns(), "random", games=2, progress=False, move_seconds=value)


def test_y13_the_command_takes_move_seconds(capsys):
    from dimsum.cli import arena

    with pytest.raises(SystemExit):
        arena.main(["--game", "nice_buns", "--bots", "random", "--move-seconds", "soon"])
    assert "not a number of seconds" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        arena.main(["--game", "nice_buns", "--bots", "random", "--move-seconds", "0"])
    assert "move_seconds must be in" in capsys.readouterr().err
    assert arena.main(["--game", "nice_buns", "--players", "2", "--bots", "random", "--games", "2",
                       "--move-seconds", "none", "--no-progress"]) == 0


# ---- Y10: nothing finished is lost ------------------------------------------------------------------

class InterruptingBot:
    """Plays the first legal action; raises ``what`` at its first move of its ``nth`` game."""

    def __init__(self, what, nth):
        self.what, self.nth, self.games, self.last = what, nth, 0, None

    def act(self, state):
        length = len(state.history)
        if self.last is None or length < self.last:
            self.games += 1
        self.last = length
        if self.games == self.nth:
            raise self.what
        return state.legal_actions()[0]


def test_y10_ctrl_c_in_one_worker_keeps_every_finished_game(tmp_path):
    path = tmp_path / "results.json"
    full = dimsum.arena.run(_nice_buns(), ["random", InterruptingBot(None, 0)], games=8, seed=2, progress=False)
    with pytest.raises(KeyboardInterrupt):
        dimsum.arena.run(_nice_buns(), ["random", InterruptingBot(KeyboardInterrupt(), 4)], games=8, seed=2,
                         json_path=path, progress=False, chunk_size=8)  # one chunk: all its games at stake
    data = json.loads(path.read_text())
    assert [g["index"] for g in data["games"]] == [0, 1, 2] and data["complete"] is False
    assert data["games"] == full.to_json()["games"][:3]


def test_y10_a_bots_system_exit_is_its_failure_keeping_the_finished_games(tmp_path):
    path = tmp_path / "results.json"
    with pytest.raises(dimsum.arena.ArenaError, match="act\\(\\) raised SystemExit: 3"):
        dimsum.arena.run(_nice_buns(), "random,broken:after=52,fault=exit", games=8, seed=1, json_path=path,
                         progress=False, chunk_size=8)
    data = json.loads(path.read_text())
    assert [g["index"] for g in data["games"]] == list(range(FIRST_FAILURE))


def _wait_until_the_workers_play(pid, cpu_seconds, timeout=180):
    """Until two child processes of ``pid`` have each used ``cpu_seconds`` of CPU (from /proc:
    on a loaded machine the wall clock says nothing about how far they are)."""
    tick = os.sysconf("SC_CLK_TCK")
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        children = open(f"/proc/{pid}/task/{pid}/children").read().split()
        used = []
        for child in children:
            try:
                fields = open(f"/proc/{child}/stat").read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            used.append((int(fields[11]) + int(fields[12])) / tick)  # utime + stime
        if sum(u >= cpu_seconds for u in used) >= 2:
            return
        time.sleep(0.2)
    raise AssertionError(f"the workers did not get {cpu_seconds} s of CPU in {timeout} s")


@pytest.mark.skipif(not os.path.exists(f"/proc/{os.getpid()}/task/{os.getpid()}/children"),
                    reason="reads the workers' CPU time from /proc")
def test_y10_ctrl_c_with_worker_processes_keeps_the_games_they_finished(tmp_path):
    """The command in a terminal's process group, with two workers: SIGINT to the whole group."""
    path = tmp_path / "results.json"
    command = [sys.executable, "-m", "dimsum", "arena", "--game", "nice_buns", "--players", "2",
               "--bots", "ismcts:simulations=300,random", "--games", "400", "--workers", "2",
               "--chunk-size", "200", "--json", str(path), "--no-progress"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               start_new_session=True, env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    _wait_until_the_workers_play(process.pid, cpu_seconds=3.0)  # spawned, imported, some games played
    os.killpg(process.pid, signal.SIGINT)
    try:
        _, err = process.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        raise
    assert process.returncode == 130, err
    data = json.loads(path.read_text())
    assert data["complete"] is False and len(data["games"]) > 0, "the workers' finished games are kept"
    assert "interrupted" in err and "Traceback" not in err


# ---- Y11: no write through a planted symbolic link ----------------------------------------------

def test_y11_record_dir_and_json_refuse_a_planted_symlink(tmp_path):
    target = tmp_path / "precious.txt"
    target.write_text("keep me")
    records = tmp_path / "records"
    records.mkdir()
    os.symlink(target, records / "game-000001.json")
    with pytest.raises(OSError, match="symbolic link"):
        dimsum.arena.run(_nice_buns(), "random,first", games=4, seed=1, record_dir=records, progress=False)
    assert target.read_text() == "keep me"
    os.symlink(target, tmp_path / "results.json")
    with pytest.raises(OSError, match="symbolic link"):
        dimsum.arena.run(_nice_buns(), "random,first", games=2, seed=1, json_path=tmp_path / "results.json",
                         progress=False)
    assert target.read_text() == "keep me"
    assert sorted(p.name for p in records.iterdir()) == ["game-000000.json", "game-000001.json"]
