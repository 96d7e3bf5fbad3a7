"""``python -m dimsum play`` against external bots in a real terminal (tmux): the C example bot to
the end of a Nice Buns game and in Dim Sum Jam on the clock, two Python protocol bots in Yum Cha
until Ctrl-C; no bot's process outlives the game."""

import re
import time

import psutil

from protocol_bots import PYTHON_BOT, build_c_bot, spec
from test_play_terminal import _tmux, prompt_of, send_line, terminal  # noqa: F401  (fixtures)


def running_with(argv):
    """Live processes started with ``argv`` (not zombies: those are dead, only not reaped)."""
    argv = [str(word) for word in argv]
    return [p for p in psutil.process_iter(["cmdline", "status"])
            if p.info["status"] != psutil.STATUS_ZOMBIE and (p.info["cmdline"] or [])[:len(argv)] == argv]


def wait_none_with(argv, timeout=10.0):
    deadline = time.monotonic() + timeout
    while running_with(argv) and time.monotonic() < deadline:
        time.sleep(0.05)
    return running_with(argv)


def test_a_person_plays_the_c_bot_to_the_end(terminal, tmp_path):
    binary = build_c_bot(tmp_path)
    tmux = terminal("c-bot", ["nice_buns", "--players", "2", "--seed", "11", "--bots", spec([binary])])
    tmux.wait(prompt_of, "the first prompt")
    answer = send_line(tmux, "1")  # after my move the bot has moved: its program runs while the game does
    assert "seat 1 (external:command=" in answer and running_with([binary])
    for _ in range(200):
        if "GAME OVER" in answer:
            break
        answer = send_line(tmux, "1")
    screen = tmux.wait_for("[exit 0]")
    assert "GAME OVER: " in screen and "seat 1 (external:command=" in screen and "Traceback" not in screen
    assert not wait_none_with([binary])


def test_a_person_leaves_a_game_against_two_python_protocol_bots_with_ctrl_c(terminal, tmp_path):
    tmux = terminal("py-bot", ["yum_cha", "--players", "3", "--seed", "3", "--bots", spec(PYTHON_BOT)])
    screen = tmux.wait(prompt_of, "the first prompt", timeout=30)
    for _ in range(10):  # until both bots have moved through the protocol
        screen = send_line(tmux, "1")
        if "seat 1 (external:command=" in screen and "seat 2 (external:command=" in screen:
            break
    assert "seat 1 (external:command=" in screen and "seat 2 (external:command=" in screen
    assert len(running_with(PYTHON_BOT)) == 2
    tmux.type("C-c")
    left = tmux.wait_for("[exit 130]")
    assert "Interrupted: you left the game." in left and "Traceback" not in left
    assert not wait_none_with(PYTHON_BOT)


def test_a_person_plays_dim_sum_jam_on_the_clock_with_the_c_bot(terminal, tmp_path):
    """The real-time game: the bot's moves come between mine and cost a move's sand, as any bot's."""
    binary, clock = build_c_bot(tmp_path), tmp_path / "clock"
    clock.write_text("0")
    tmux = terminal("c-bot-dsj", ["dim_sum_jam", "--players", "2", "--seed", "4", "--fake-clock", str(clock),
                                  "--bots", spec([binary])])
    screen = tmux.wait(prompt_of, "the first prompt")
    for _ in range(10):  # until the bot has moved through the protocol
        if "seat 1 (external:command=" in screen:
            break
        screen = send_line(tmux, "1")
    assert re.search(r"seat 1 \(external:command=.*\): .+ \(5\.0 s of sand\)", screen)
    assert running_with([binary])
    tmux.type("C-d")  # end of input leaves cleanly
    left = tmux.wait_for("[exit 0]")
    assert "End of input: you left the game." in left and "Traceback" not in left
    assert not wait_none_with([binary])
