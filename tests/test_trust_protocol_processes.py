"""Nothing an external bot starts outlives its use (docs/PROTOCOL.md, "Processes"): bots that leave
processes behind unless their whole process group is ended, counted with psutil after each run.

The bots: a shell script that runs the bot without ``exec`` (the shell leads, the bot is its
child), and bots that fork a helper which ignores SIGTERM, SIGINT and SIGHUP and never exits. The
runs: a normal arena, a protocol error, a move past its time, ``ExternalBot.close()``, and the
arena command with two worker processes stopped by Ctrl-C (mid-game: the workers are stopped
after their grace), by Ctrl-C between moves, and by SIGTERM. Each ends with zero of them running.

How they are counted: every process a test starts inherits an environment variable with a value
of the test's own; afterwards every live process (zombies excluded: dead, only not reaped) that
carries it is counted, and ended by the fixture whatever the outcome, so a failing test leaves
nothing either.
"""

import os
import secrets
import signal
import subprocess
import sys
import time

import psutil
import pytest

import dimsum
import dimsum.arena
import dimsum.protocol
from dimsum.bots.external import ExternalBot
from dimsum.protocol import BotProtocolError
from protocol_bots import script, spec
import processes

pytestmark = pytest.mark.skipif(not hasattr(os, "killpg"), reason="process groups are POSIX")

MARK = "TRUST_PROTOCOL_TEST"


def marked(value):
    """The live processes, other than this one, that carry ``MARK=value``."""
    found = []
    for p in psutil.process_iter():
        try:
            if p.pid != os.getpid() and p.status() != psutil.STATUS_ZOMBIE and p.environ().get(MARK) == value:
                found.append(p)
        except (psutil.Error, OSError):
            continue
    return found


@pytest.fixture
def left(monkeypatch):
    """``left(settle)``: how many processes this test started are still running, after up to
    ``settle`` seconds for those already on their way out. Whatever is left is ended at teardown."""
    value = secrets.token_hex(8)
    monkeypatch.setenv(MARK, value)

    def count(settle=3.0):
        deadline = time.monotonic() + settle
        while marked(value) and time.monotonic() < deadline:
            time.sleep(0.1)
        return len(marked(value))

    yield count
    dimsum.protocol.close_all()
    for p in marked(value):
        try:
            p.kill()
        except psutil.Error:
            pass


def started(value_count, at_least, timeout=30.0):
    """Waits until at least ``at_least`` marked processes run (the bots and their helpers)."""
    deadline = time.monotonic() + timeout
    while value_count(0) < at_least and time.monotonic() < deadline:
        time.sleep(0.1)
    return value_count(0)


def shell_wrapper(tmp_path, argv):
    """A bot that is a shell script running the real bot without ``exec``."""
    wrapper = tmp_path / "bot.sh"
    wrapper.write_text("#!/bin/sh\n" + " ".join(f"'{word}'" for word in argv) + "\n")
    wrapper.chmod(0o755)
    return [str(wrapper)]


GAME = dict(players=2)


def test_after_a_normal_arena_no_helper_is_left(tmp_path, left):
    """Every bot forks a helper that outlives it; the arena ends them with their bots. Before:
    one helper per bot process left (32 after a long arena)."""
    game = dimsum.make("nice_buns", **GAME)
    results = dimsum.arena.run(game, [spec(script(tmp_path, "helper_good")), spec(shell_wrapper(tmp_path, script(tmp_path, "good")))],
                               games=4, seed=1, progress=False, chunk_size=2)
    assert results.complete
    assert left() == 0


def test_after_a_protocol_error_nothing_is_left(tmp_path, left):
    game = dimsum.make("nice_buns", **GAME)
    with pytest.raises(dimsum.arena.ArenaError, match="chose action id 1000000"):
        dimsum.arena.run(game, [spec(script(tmp_path, "helper_illegal")), "random"], games=2, progress=False)
    assert left() == 0


@pytest.mark.parametrize("how", ["shell script", "helper"])
def test_after_a_move_past_its_time_nothing_is_left(tmp_path, left, how):
    """The bot hangs in its move: behind a shell script (the engine's kill reached only the shell,
    leaving the bot itself hanging), or having forked a helper. Before: one process left."""
    game = dimsum.make("nice_buns", **GAME)
    argv = shell_wrapper(tmp_path, script(tmp_path, "hang")) if how == "shell script" else script(tmp_path, "helper_hang")
    bot = ExternalBot(game, command=argv, move_seconds=1.0)
    with pytest.raises(BotProtocolError, match="took longer than its time limit"):
        bot.act(game.new_state(4))
    assert left() == 0


def test_the_arena_s_move_limit_leaves_nothing_behind_a_shell_script(tmp_path, left):
    game = dimsum.make("nice_buns", **GAME)
    with pytest.raises(dimsum.arena.ArenaError, match="more than the move time limit of 1 s"):
        dimsum.arena.run(game, [spec(shell_wrapper(tmp_path, script(tmp_path, "hang"))), "random"], games=2,
                         progress=False, move_seconds=1.0)
    assert left() == 0


def test_close_ends_every_program_a_bot_holds_and_no_other(tmp_path, left):
    """``ExternalBot.close()`` (what play and the MCP server call): the bot's programs in a game and
    those it handed back to the pool end, with their helpers and even when they ignore quit;
    another bot's program runs on."""
    game = dimsum.make("nice_buns", players=3)
    stubborn = script(tmp_path, "helper_good", on_quit="time.sleep(1000)")
    mine = ExternalBot(game, command=stubborn, move_seconds=10)
    other = ExternalBot(game, command=script(tmp_path, "good"), move_seconds=10)
    finished = game.new_state(5)
    while not finished.is_terminal:  # a game to the end in two seats: two programs, back to the pool
        finished.apply(mine.act(finished) if finished.current_player < 2 else finished.legal_actions()[0])
    mine.game_over(finished)
    state = game.new_state(4)
    while state.current_player != 0:
        state.apply(state.legal_actions()[0])
    mine.act(state)  # a game in progress: one program from the pool, the other idle there
    while state.current_player != 2:
        state.apply(state.legal_actions()[0])
    other.act(state)
    assert started(left, 5) == 5  # two programs and two helpers of mine, one program of the other
    begun = time.monotonic()
    mine.close()
    assert time.monotonic() - begun < 5.0
    assert left(0.5) == 1 and dimsum.protocol.process.running() == 1
    other.close()
    assert left() == 0


def arena_command(tmp_path, bot, *extra):
    return processes.start([sys.executable, "-m", "dimsum", "arena", "--game", "nice_buns", "--players", "2",
                            "--bots", f"{bot},random", "--games", "200", "--workers", "2", "--no-progress",
                            "--json", str(tmp_path / "results.json"), *extra],
                           stdout=subprocess.DEVNULL, stderr=open(tmp_path / "err.txt", "w"),
                           env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})


@pytest.mark.parametrize("signum,whom", [(signal.SIGINT, "group"), (signal.SIGTERM, "command")],
                         ids=["ctrl-c", "sigterm"])
def test_stopping_the_arena_command_with_two_workers_leaves_nothing(tmp_path, left, signum, whom):
    """Ctrl-C (SIGINT to the terminal's process group: the command and its workers) or SIGTERM to the
    command alone, while two workers play bots that fork helpers and ignore quit. Before, SIGTERM
    ended the command at once, its workers and every bot left running."""
    bot = spec(script(tmp_path, "helper_slow", on_quit="time.sleep(1000)"))
    arena = arena_command(tmp_path, bot)
    try:
        assert started(left, 2 + 2 * 2) >= 6, (tmp_path / "err.txt").read_text()  # the command, 2 workers, 2 bots + helpers
        time.sleep(0.5)
        if whom == "group":
            os.killpg(arena.pid, signum)
        else:
            arena.send_signal(signum)
        assert arena.wait(timeout=240) == 130, (tmp_path / "err.txt").read_text()
    finally:
        processes.stop(arena)
    assert "Traceback" not in (tmp_path / "err.txt").read_text()
    assert left() == 0


def test_ctrl_c_while_the_workers_are_mid_move_stops_them_and_leaves_nothing(tmp_path, left):
    """Bots that hang in their move (behind a shell script, with a helper): the workers cannot end
    their games, so after the interruption's grace the command stops them, and each closes its
    bots first. Before: the workers were terminated with their bots left running."""
    bot = spec(shell_wrapper(tmp_path, script(tmp_path, "helper_hang")))
    arena = arena_command(tmp_path, bot, "--move-seconds", "none")
    try:
        assert started(left, 3 + 3 * 2) >= 9, (tmp_path / "err.txt").read_text()  # command, workers, sh + bot + helper each
        begun = time.monotonic()
        os.killpg(arena.pid, signal.SIGINT)
        assert arena.wait(timeout=240) == 130, (tmp_path / "err.txt").read_text()
        assert time.monotonic() - begun < 20
    finally:
        processes.stop(arena)
    assert left() == 0
