"""``python -m dimsum play`` against external bots in a real terminal (tmux): the C example bot to
the end of a game, the Python protocol bot until Ctrl-C; neither leaves a process behind, and a
bot's stderr never reaches the screen."""

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
