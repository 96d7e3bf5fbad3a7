"""``python -m dimsum play`` in a real terminal: tmux runs the program, types and reads the screen.

Each test starts its own tmux server (a private socket) and kills only that one. The program runs
under ``sh -c '...; echo "[exit $?]"; cat'`` so that its exit code stays on the screen."""

import os
import re
import secrets
import shlex
import shutil
import sys
import time
from pathlib import Path

import pytest

import dimsum
from dimsum.play.views import view_text
from dimsum.records import Record
from needs import need
import processes

PROMPT = re.compile(r"^\[step (\d+)\] your move \(1-(\d+) .*\):$")
PACKAGE_ROOT = str(Path(dimsum.__file__).resolve().parent.parent)  # the dimsum being tested


@pytest.fixture(autouse=True)
def _tmux():
    need(shutil.which("tmux") is not None, "tmux")


class Tmux:
    """One program in a 200x50 tmux window, on a tmux server of its own."""

    def __init__(self, name, args):
        # a socket no other run or test shares: kill-server ends this server and no other
        self.socket = f"dimsum-play-test-{os.getpid()}-{secrets.token_hex(4)}-{name}"
        self.sessions = []  # the server's and the pane's sessions (tmux starts both with setsid)
        command = " ".join(shlex.quote(a) for a in [sys.executable, "-m", "dimsum", "play", *args])
        env = f"PYTHONPATH={shlex.quote(PACKAGE_ROOT)}"
        try:
            self._tmux("new-session", "-d", "-x", "200", "-y", "50", "-s", "play",
                       f"env {env} {command}; echo \"[exit $?]\"; cat")
            self.sessions = [int(pid) for pid in self._tmux("display-message", "-p", "-t", "play",
                                                             "#{pid} #{pane_pid}").split()]
        except BaseException:  # a start failing half-way leaves no server behind
            self.close()
            raise

    def _tmux(self, *args):
        # -f /dev/null: no user configuration (a status bar or other keys would change the screen)
        return processes.run(["tmux", "-f", "/dev/null", "-L", self.socket, *args], check=True,
                             capture_output=True, text=True, timeout=10).stdout

    def screen(self):
        return self._tmux("capture-pane", "-p", "-t", "play")

    def type(self, *keys):
        self._tmux("send-keys", "-t", "play", *keys)

    def wait(self, condition, what, timeout=20.0):
        """The screen, once ``condition(screen)`` holds; a failure showing the screen otherwise."""
        deadline = time.monotonic() + timeout
        while True:
            screen = self.screen()
            if condition(screen):
                return screen
            if time.monotonic() > deadline:
                pytest.fail(f"timed out waiting for {what}; the screen:\n{screen}")
            time.sleep(0.03)

    def wait_for(self, text, timeout=20.0):
        return self.wait(lambda s: text in s, repr(text), timeout)

    def close(self):
        """Ends the server and the program: kill-server, then whatever of theirs did not end with it."""
        try:
            processes.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True, timeout=10)
        finally:
            for session in self.sessions:
                processes.stop_session(session)


def prompt_of(screen):
    """(step, number of moves) of the prompt waiting for input at the bottom of the screen, or None."""
    lines = [line for line in screen.splitlines() if line.strip()]
    match = PROMPT.match(lines[-1]) if lines else None
    return (int(match.group(1)), int(match.group(2))) if match else None


def send_line(tmux, line):
    """Types ``line`` and Enter; returns the next screen waiting for input (or the game's end)."""
    before = tmux.screen()
    tmux.type(line, "Enter")
    return tmux.wait(lambda s: s != before and (prompt_of(s) or "[exit " in s), f"the answer to {line!r}")


@pytest.fixture
def terminal():
    opened = []

    def start(name, args):
        opened.append(Tmux(name, args))
        return opened[-1]

    try:
        yield start
    finally:
        errors = []
        for tmux in opened:  # each one, even when closing another fails
            try:
                tmux.close()
            except Exception as e:
                errors.append(e)
        if errors:
            raise errors[0]


def test_a_nice_buns_game_to_the_end_with_names_numbers_nonsense_help_and_undo(terminal, tmp_path):
    record = tmp_path / "game.json"
    tmux = terminal("nice_buns", ["nice_buns", "--players", "2", "--seed", "11", "--bots", "random",
                                  "--record", str(record)])
    screen = tmux.wait(prompt_of, "the first prompt")
    prompt = [line for line in screen.splitlines() if line.strip()][-1]

    answer = send_line(tmux, "blorp")  # nonsense: a helpful message and the same prompt
    assert "'blorp' is not a move here" in answer and "Traceback" not in answer
    assert [line for line in answer.splitlines() if line.strip()][-1] == prompt
    answer = send_line(tmux, "help")
    assert "take back your last move" in answer and prompt_of(answer) == prompt_of(screen)

    name = re.search(r"^\s+2\. (.+?)(\s{3,}|$)", answer, re.M).group(1)  # a move typed by its name
    answer = send_line(tmux, name)
    assert f"you (seat 0): {name}" in answer
    step = prompt_of(answer)[0]
    answer = send_line(tmux, "undo")  # the bot's turn drew from the bag: no undo past it
    assert "No undo: since your last move" in answer and "drew at random" in answer and prompt_of(answer)[0] == step

    for _ in range(200):  # then by numbers, to the end
        if "GAME OVER" in answer:
            break
        answer = send_line(tmux, "1")
    screen = tmux.wait_for("[exit 0]")
    assert "GAME OVER: " in screen and "Returns: you (seat 0): " in screen and "Traceback" not in screen
    final = Record.load(record).final_state()
    assert final.is_terminal and final.outcome.description[:40] in screen.replace("\n", "")


def test_a_yum_cha_turn_shows_my_hand_and_not_the_others_hidden_cards(terminal, tmp_path):
    record = tmp_path / "game.json"
    tmux = terminal("yum_cha", ["yum_cha", "--players", "3", "--seed", "3", "--seat", "0",
                                "--bots", "random", "--record", str(record)])
    screen = tmux.wait(prompt_of, "the first prompt")
    tmux.type("C-c")  # Ctrl-C leaves cleanly, and the record holds the position on screen
    left = tmux.wait_for("[exit 130]")
    assert "Interrupted: you left the game." in left and "Traceback" not in left

    state = Record.load(record).final_state()
    hands = state.to_dict()["hands"]
    seen_by_me = state.observation_string(0)
    assert all(card in screen for card in hands[0])
    hidden = {card for hand in hands[1:] for card in hand if card not in seen_by_me}
    assert hidden, "the position should have cards only another seat knows"
    assert not [card for card in hidden if card in screen]
    my_hand_line = view_text(state, 0, ["human", "random", "random"]).splitlines()[0]
    assert my_hand_line.startswith("Your hand: ") and my_hand_line in screen.splitlines()


def test_a_real_time_dim_sum_jam_turn_charges_my_thinking_time(terminal, tmp_path):
    record, clock = tmp_path / "game.json", tmp_path / "clock"
    clock.write_text("0")
    tmux = terminal("dsj", ["dim_sum_jam", "--players", "3", "--seed", "4", "--fake-clock", str(clock),
                            "--record", str(record)])
    screen = tmux.wait(prompt_of, "the first prompt")
    sand = float(re.search(r"^Sand: ([\d.]+) s of 120.0 s", screen, re.M).group(1))
    clock.write_text("8")  # 8 seconds pass on the glass while I think ...
    waiting = tmux.wait_for("your thinking time: 8.0 s")
    assert f"Sand: {sand - 8:.1f} s of 120.0 s" in waiting.splitlines()[0]
    answer = send_line(tmux, "1")  # ... then I type 1
    assert re.search(r"you \(seat 0\): play .+ \(8\.0 s of sand\)", answer)
    tmux.type("C-d")  # end of input leaves cleanly
    left = tmux.wait_for("[exit 0]")
    assert "End of input: you left the game." in left and "Traceback" not in left

    loaded = Record.load(record)
    states = list(loaded.states())
    mine = next(i for i, state in enumerate(states) if state.current_player == 0)
    assert loaded.steps[mine][1] == 80  # 8 s at 10 ticks a second, more than a play's 50
    assert states[mine].clock.top == round(sand * 10)  # the glass on screen was the state's
    assert states[mine + 1].clock.top == round(sand * 10) - 80  # and my 8 s came out of it


def _table(screen):
    """The screen without its message and event lines: the title, the view and the prompt."""
    return [line for line in screen.splitlines() if line.strip() and "undo" not in line.lower()
            and not line.startswith(("  you (seat 0): ", "  seat", "you (seat 0): ", "seat "))]


def test_undo_in_the_terminal_never_shows_a_draw_again(terminal):
    """20 seeds, a move then undo: either the move is taken back (nothing random happened after it,
    tests/test_play.py checks that property in-process) or it is refused with the reason and the
    table unchanged, so no draw the player has seen comes round again."""
    refused = 0
    for seed in range(20):
        tmux = terminal(f"undo{seed}", ["nice_buns", "--players", "2", "--seed", str(seed), "--bots", "random"])
        tmux.wait(prompt_of, "the first prompt")
        moved = send_line(tmux, "1")
        if "[exit " in moved or "GAME OVER" in moved:
            continue
        answer = send_line(tmux, "undo")
        if "No undo: since your last move" in answer:
            refused += 1
            assert prompt_of(answer) == prompt_of(moved) and _table(answer) == _table(moved), answer
        else:
            assert "you (seat 0): undo" in answer and prompt_of(answer)[0] < prompt_of(moved)[0], answer
        tmux.close()
    assert refused > 0


def test_dim_sum_jam_shows_its_legend_and_a_complaint_with_its_cause(terminal, tmp_path):
    """The legend command explains the screen's codes and marks; when the sand runs out while I think,
    the screen says so: the complaint and its cause, with no input."""
    clock = tmp_path / "clock"
    clock.write_text("0")
    tmux = terminal("dsj-legend", ["dim_sum_jam", "--players", "3", "--seed", "4", "--fake-clock", str(clock)])
    tmux.wait(prompt_of, "the first prompt")
    answer = send_line(tmux, "legend")
    assert "What the words and marks mean:" in answer
    for term in ("XLB:", "PCH:", "(XLB):", "R / V (deck):", "COMPLAINT:"):
        assert term in answer, term
    clock.write_text("500")  # the glass empties while I think: no key pressed
    screen = tmux.wait_for("COMPLAINT 1 of 3: the sand ran out.")
    assert "The sand ran out while you were thinking" in screen and "Traceback" not in screen
    tmux.type("C-d")
    assert "Traceback" not in tmux.wait_for("[exit 0]")
