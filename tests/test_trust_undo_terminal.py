"""The undo attack through the real ``python -m dimsum play`` in tmux: in two-seat Yum Cha the bot
takes a card from the centre (no draw) and discards another card of its hidden hand; the human
has seen that card, and an undo would let them play the turn again knowing it. Undo must be
refused, saying why. And the screen never shows the deal's seed while the game runs."""

import re
import shutil

import pytest

from needs import need
from test_play_terminal import prompt_of, send_line, terminal  # noqa: F401 (terminal: the fixture)

EVENT = re.compile(r"^  (you \(seat 0\)|seat 1 \(random\)): (.+)$")
SEEDS = range(14)


@pytest.fixture(autouse=True)
def _tmux():
    need(shutil.which("tmux") is not None, "tmux")


def events_since_my_move(screen):
    """The moves listed under "What happened" after my last one, as (who, move)."""
    events = [m.groups() for m in map(EVENT.match, screen.splitlines()) if m]
    mine = max((i for i, (who, _) in enumerate(events) if who == "you (seat 0)"), default=None)
    return None if mine is None else events[mine + 1:]


def shows_a_hidden_card(events):
    """The bot took a card from the centre and then discarded a different one: from its hand."""
    moves = [move for _, move in events]
    if len(moves) != 2 or not moves[0].startswith("take ") or not moves[1].startswith("discard "):
        return False
    return moves[0][len("take "):-len(" from the centre")] != moves[1][len("discard "):]


def test_undo_after_a_bot_discards_from_its_hidden_hand_is_refused_with_the_reason(terminal):  # noqa: F811
    attacks = 0
    for seed in SEEDS:
        tmux = terminal(f"yc{seed}", ["yum_cha", "--players", "2", "--seed", str(seed), "--bots", "random"])
        screen = tmux.wait(prompt_of, "the first prompt")
        for _ in range(12):  # my moves, until the bot answers a discard of mine from its hand
            assert "seed" not in screen.splitlines()[0], screen  # the title names no seed
            events = events_since_my_move(screen)
            if events is not None and shows_a_hidden_card(events):
                answer = send_line(tmux, "undo")
                assert "No undo: since your last move, seat 1 (random) played 'discard" in answer, answer
                assert "a card of a hidden hand" in answer and "you (seat 0): undo" not in answer
                assert prompt_of(answer) == prompt_of(screen)
                attacks += 1
                break
            screen = send_line(tmux, "1")
            if "[exit " in screen:
                break
        tmux.close()
    assert attacks >= 4, f"only {attacks} seeds of {len(SEEDS)} reached the attack"
