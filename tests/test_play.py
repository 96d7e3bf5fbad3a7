"""dimsum.play in-process: what typed lines mean, the views' fairness, undo, the record, and Dim Sum
Jam's glass charged with the human's thinking time (a scripted terminal and a manual clock stand in
for the person; tests/test_play_terminal.py drives the real program in a real terminal)."""

import os
import sys
from pathlib import Path

import pytest

import processes

import dimsum
import dimsum.bots
from dimsum.cli import play as play_cli
from dimsum.play import FileClock, ManualClock, Session
from dimsum.play.commands import interpret, moves_text
from dimsum.play.views import public_dict, view_text
from dimsum.records import Record


class ScriptedTerminal:
    """Plays the human: each script item is a typed line (str), seconds passing on ``clock`` (a
    number: the read then times out), or an exception to raise (KeyboardInterrupt). The end of the
    script is the end of input."""

    width = 160

    def __init__(self, script, clock=None):
        self.script, self.clock = list(script), clock
        self.screens, self.statuses, self.written = [], [], []

    def screen(self, text):
        self.screens.append(text)

    def status(self, text):
        self.statuses.append(text)

    def write(self, text):
        self.written.append(text)

    def read_line(self, timeout=None):
        if not self.script:
            raise EOFError
        item = self.script.pop(0)
        if isinstance(item, BaseException):
            raise item
        if isinstance(item, (int, float)):
            self.clock.advance(item)
            return None
        return item


def session(game_name, script, seed=5, human=0, clock=None, record=None, **options):
    game = dimsum.make(game_name, **options)
    bots = {s: dimsum.bots.make("random", game, seed=s) for s in range(game.players) if s != human}
    names = ["human" if s == human else "random" for s in range(game.players)]
    terminal = ScriptedTerminal(script, clock)
    return Session(game, seed, human, bots, names, terminal, clock, record), terminal


def reach(state, predicate, seed=0):
    """Plays random moves on ``state`` until ``predicate(state)``."""
    bot = dimsum.bots.make("random", state.game, seed=seed)
    while not predicate(state):
        assert not state.is_terminal, "the game ended before the position was reached"
        state.apply(bot.act(state))
    return state


# ---- what a typed line means ---------------------------------------------------------------------
def test_a_move_is_typed_by_its_number_from_one_or_by_its_name_in_any_case():
    state = dimsum.make("nice_buns", players=2).new_state(5)
    legal = state.legal_actions()
    assert interpret("2", state, legal).action == legal[1]
    name = state.action_name(legal[2])
    assert interpret("  " + name.upper() + " ", state, legal).action == legal[2]


def test_nonsense_a_bad_number_and_an_illegal_name_get_messages_not_moves():
    state = dimsum.make("nice_buns", players=2).new_state(5)
    legal = state.legal_actions()
    nonsense = interpret("blorp", state, legal)
    assert nonsense.kind == "error" and "'blorp' is not a move here" in nonsense.message
    assert "1 to 4" in interpret("9", state, legal).message
    illegal = next(a for a in range(state.game.num_actions) if a not in legal)
    assert "is not legal now" in interpret(state.action_name(illegal), state, legal).message
    assert interpret("", state, legal).kind == "again"
    assert [interpret(w, state, legal).kind for w in ("help", "?", "undo", "u", "quit", "Q")] == \
        ["help", "help", "undo", "undo", "quit", "quit"]


def test_f_flips_the_glass_when_the_team_may_and_explains_when_it_may_not():
    state = dimsum.make("dim_sum_jam", players=3).new_state(2)
    from dimsum.games.dim_sum_jam.view import SHORTCUTS

    refused = interpret("f", state, state.legal_actions(), realtime=True, shortcuts=SHORTCUTS)
    assert refused.kind == "error" and "reward for a fulfilled order" in refused.message
    reach(state, lambda s: s.to_dict()["phase"] == "reward")
    flip = interpret("f", state, state.legal_actions(), realtime=True, shortcuts=SHORTCUTS)
    assert state.action_name(flip.action) == "flip the glass"


def test_the_moves_are_listed_numbered_and_named_in_columns():
    state = dimsum.make("dim_sum_jam", players=3).new_state(4)
    legal = state.legal_actions()
    text = moves_text(state, legal, 120)
    assert len(text.splitlines()) < len(legal)  # columns
    for i, action in enumerate(legal, start=1):
        assert f"{i:>3}. {state.action_name(action)}" in text


# ---- fairness of the views -----------------------------------------------------------------------
@pytest.mark.parametrize("name", dimsum.games())
def test_the_view_is_the_same_for_every_state_the_seat_cannot_tell_apart(name):
    """resample(p, seed) redraws all that p cannot see (the other Yum Cha hands, the future draws):
    a view that changed with it would be showing hidden information."""
    game = dimsum.make(name, players=3)
    names = ["human", "random", "random"]
    for seed in range(3):
        state = reach(game.new_state(seed), lambda s: len(s.history) >= 7 * seed or s.is_terminal, seed)
        for p in range(3):
            shown = view_text(state, p, names)
            for other in range(2):
                assert view_text(state.resample(p, 100 + other), p, names) == shown


@pytest.mark.parametrize("name", dimsum.games())
def test_the_view_draws_every_position_of_an_explicit_chance_game_chance_nodes_included(name):
    """In explicit mode the game opens at a chance node (no die rolled, no card dealt yet): the
    view draws it like any other position (Nice Buns once raised TypeError on its roller None)."""
    game = dimsum.make(name, chance="explicit")
    names = ["human"] + ["random"] * (game.players - 1)
    state, chance_nodes = game.new_state(3), 0
    for step in range(400):
        for p in range(game.players):
            assert view_text(state, p, names)
        if state.is_terminal:
            break
        if state.is_chance_node:
            chance_nodes += 1
            outcomes = [o for o, _ in state.chance_outcomes()]
            state.apply(outcomes[step % len(outcomes)])
        else:
            legal = state.legal_actions()
            state.apply(legal[step % len(legal)])
    assert chance_nodes > 0


def test_the_yum_cha_view_shows_my_hand_and_no_card_only_another_seat_holds():
    state = dimsum.make("yum_cha", players=3).new_state(3)
    hands = state.to_dict()["hands"]
    shown = view_text(state, 0, ["human", "random", "random"])
    assert all(card in shown for card in hands[0])
    hidden = [card for hand in hands[1:] for card in hand if card not in hands[0]]
    assert hidden and not any(card in shown for card in hidden)


def test_the_public_dict_drops_only_the_generator():
    state = dimsum.make("dim_sum_jam").new_state(1)
    assert set(state.to_dict()) - set(public_dict(state)) == {"rng"}


# ---- the session ---------------------------------------------------------------------------------
def test_a_nice_buns_game_plays_to_the_end_and_shows_the_result(tmp_path):
    path = tmp_path / "game.json"
    s, terminal = session("nice_buns", ["1"] * 200, record=path, players=2)
    assert s.run() == 0
    assert s.state.is_terminal and terminal.screens[-1].startswith("GAME OVER: ")
    assert "Returns: you (seat 0): " in terminal.screens[-1]
    record = Record.load(path)
    assert record.players == ["human", "random"] and record.returns == list(s.state.returns())
    assert record.final_state().to_bytes() == s.state.to_bytes()


def test_nonsense_then_help_redraw_the_same_prompt_with_a_message():
    s, terminal = session("nice_buns", ["blorp", "help"], players=2)
    assert s.run() == 0
    first, nonsense, helped = terminal.screens[:3]
    prompt = first.splitlines()[-1]
    assert nonsense.splitlines()[-1] == prompt and helped.splitlines()[-1] == prompt
    assert "'blorp' is not a move here" in nonsense and "take back your last move" in helped
    assert "End of input" in "".join(terminal.written)


def _draws_randomness(state, action) -> bool:
    """Whether playing ``action`` in ``state`` draws from the state's generator (or is chance)."""
    after = state.clone()
    after.apply(action)
    return state.is_chance_node or after.field("rng") != state.field("rng")


def _undo_outcomes(game_name, seeds, moves, **options):
    """For each seed: ``moves`` first-listed moves by the human, then undo. Yields (accepted, the
    session before the undo, the session after it)."""
    for seed in seeds:
        before, _ = session(game_name, ["1"] * moves, seed=seed, **options)
        before.run()
        after, terminal = session(game_name, ["1"] * moves + ["undo"], seed=seed, **options)
        after.run()
        screen = terminal.screens[-1]
        assert ("you (seat 0): undo" in screen) != ("No undo: since your last move" in screen), screen
        yield "you (seat 0): undo" in screen, before, after


@pytest.mark.parametrize("name, options", [("nice_buns", {"players": 2}), ("yum_cha", {"players": 3}),
                                           ("dim_sum_jam", {"players": 3, "ticks_per_action": 0})])
def test_undo_never_rewinds_past_a_random_event(name, options):
    """Undo replays from the seed, so a draw it rewound would come out the same and the human would
    choose again knowing it: it takes back only moves after which nothing random happened, and
    otherwise says why and changes nothing (ruling of docs/PLAY.md, "Undo")."""
    seen = {True: 0, False: 0}
    for moves in (1, 2, 3):
        for accepted, before, after in _undo_outcomes(name, range(8), moves, **options):
            seen[accepted] += 1
            played, actors = list(before.state.history), before.actors
            last = max(i for i, actor in enumerate(actors) if actor == 0)
            replay = dimsum.make(name, **options).new_state(before.seed)
            drew = []
            for action in played:
                drew.append(_draws_randomness(replay, action))
                replay.apply(action)
            if accepted:  # everything taken back was free of chance
                assert list(after.state.history) == played[:last] and not any(drew[last:])
            else:  # something was shown after the human's last move, and nothing was taken back
                assert list(after.state.history) == played
    assert seen[False] > 0
    if name != "yum_cha":  # a Yum Cha turn draws at once: the next seat's draw follows every move
        assert seen[True] > 0


def test_nothing_to_undo_before_my_first_move():
    s, terminal = session("nice_buns", ["undo"], players=2, seed=6)  # at my first prompt
    s.run()
    assert 0 not in s.actors and "Nothing to undo: you have not moved yet." in terminal.screens[-1]


def test_quit_and_ctrl_c_leave_cleanly_with_the_record_written(tmp_path):
    path = tmp_path / "game.json"
    s, terminal = session("yum_cha", ["quit"], record=path, players=3)
    assert s.run() == 0 and "You left the game." in "".join(terminal.written)
    assert Record.load(path).final_state().to_bytes() == s.state.to_bytes()
    s, terminal = session("yum_cha", [KeyboardInterrupt()], players=3)
    assert s.run() == 130 and "Interrupted" in "".join(terminal.written)


@pytest.mark.parametrize("bot, says", [(lambda state: 10**6, "is not a legal move"),
                                       (lambda state: 1 / 0, "failed: ZeroDivisionError")])
def test_a_broken_bot_stops_the_game_with_a_message_not_a_traceback(bot, says):
    s, terminal = session("nice_buns", ["1"] * 50, players=2)
    s.bots[1] = dimsum.bots.as_bot(bot)
    assert s.run() == 1 and says in "".join(terminal.written)


def test_chance_nodes_are_drawn_by_the_session_in_explicit_mode():
    s, terminal = session("nice_buns", ["1"] * 300, players=2, chance="explicit")
    assert s.run() == 0 and s.state.is_terminal
    s2, _ = session("nice_buns", ["1"] * 300, players=2, chance="explicit")
    s2.run()
    assert s2.state.history == s.state.history  # the same seed, the same game


# ---- Dim Sum Jam on the clock --------------------------------------------------------------------
def _human_steps(record):
    """(action, ticks) of each step seat 0 made, found by replaying the record."""
    states = list(record.states())
    return [step for state, step in zip(states, record.steps) if state.current_player == 0]


def test_thinking_time_is_charged_to_the_glass_and_at_least_the_moves_cost(tmp_path):
    path = tmp_path / "game.json"
    clock = ManualClock()
    s, terminal = session("dim_sum_jam", [3.0, 5.0, "1", 2.0, "1", "quit"], seed=4, clock=clock,
                          record=path, players=3)
    assert s.run() == 0
    first, second = _human_steps(Record.load(path))[:2]
    assert first[1] == 80 and second[1] == 50  # 8 s thought; 2 s is less than a play's 5 s
    assert any("your thinking time: 3.0 s" in line for line in terminal.statuses)
    assert any("(8.0 s of sand)" in screen for screen in terminal.screens)


def test_the_sand_running_out_while_i_think_is_a_complaint_on_screen():
    clock = ManualClock()
    s, terminal = session("dim_sum_jam", [60.0, 60.0, "quit"], seed=4, clock=clock, players=3)
    s.run()
    assert s.state.field("complaints") == 1
    assert s.state.timeline[-1][0] == -1  # time passed with no move: state.advance
    assert "COMPLAINT 1 of 3: the sand ran out." in terminal.screens[-1]
    assert "the game is paused" in terminal.screens[-1].splitlines()[0]


def test_a_complaint_says_whether_the_sand_ran_out_or_a_player_could_not_serve():
    from dimsum.play.events import events_between

    state = dimsum.make("dim_sum_jam", players=3).new_state(4)
    before = state.clone()
    state.apply(state.legal_actions()[0], 1200)  # the play empties the glass
    assert any(e.startswith("COMPLAINT 1 of 3: the sand ran out.") for e in events_between(before, state, 0))
    state = dimsum.make("dim_sum_jam", players=3, ticks_per_action=0).new_state(4)  # time off: only case III
    bot = dimsum.bots.make("random", state.game, seed=1)
    while state.field("complaints") == 0:
        before = state.clone()
        state.apply(bot.act(state))
    active = state.to_dict()["active"]
    for seat in range(3):  # each seat is told, naming the stuck seat its own way
        who, they = ("you (seat %d)" % seat, "You") if seat == active else ("seat %d" % active, "They")
        assert events_between(before, state, seat)[-1] == (
            f"COMPLAINT 1 of 3: {who} could not serve (the glass is laid down). "
            f"{they} may discard and replenish, then stand the glass and play on any table.")


def test_the_legend_command_shows_what_the_screen_s_words_mean():
    s, terminal = session("dim_sum_jam", ["legend", "quit"], seed=4, players=3, ticks_per_action=0)
    s.run()
    screen = terminal.screens[-1]
    assert "What the words and marks mean:" in screen
    for term in ("XLB:", "PCH:", "(XLB):", "R / V (deck):", "you (seat N):"):
        assert term in screen, term
    s, terminal = session("yum_cha", ["l", "quit"], players=3)
    s.run()
    assert "Dragon Well:" in terminal.screens[-1] and "multiplies the declarer's set points by 3" in terminal.screens[-1]


def test_the_screen_tells_what_happened_since_my_last_move_from_my_seat_s_view():
    s, terminal = session("yum_cha", ["1", "1", "quit"], players=3)  # draw from the deck, discard
    s.run()
    screen = terminal.screens[-1]
    assert "you (seat 0): draw from the deck" in screen and "you drew " in screen
    assert "seat 1 (random): " in screen  # the bots' moves by name, their draws without the card
    assert not [line for line in screen.splitlines() if line.startswith("  seat") and " drew " in line]


def test_undo_is_refused_in_real_time_with_the_reason():
    s, terminal = session("dim_sum_jam", ["1", "undo"], seed=4, clock=ManualClock(), players=3)
    s.run()
    assert "No undo here" in terminal.screens[-1] and "cannot be put back" in terminal.screens[-1]


def test_time_off_dim_sum_jam_is_played_without_a_clock_and_may_undo():
    s, terminal = session("dim_sum_jam", ["1", "1", "undo"], seed=2, players=3, ticks_per_action=0)
    s.run()
    assert "you (seat 0): undo" in terminal.screens[-1]


def test_the_file_clock_reads_seconds_and_never_goes_back(tmp_path):
    path = tmp_path / "clock"
    clock = FileClock(path)
    assert clock.now() == 0.0
    path.write_text("3.5\n")
    assert clock.now() == 3.5
    for bad in ("soon", "1", "nan"):
        path.write_text(bad)
        assert clock.now() == 3.5
    path.write_text("10")
    assert clock.now() == 10.0


# ---- the command line ----------------------------------------------------------------------------
@pytest.mark.parametrize("argv, says", [
    (["chess"], "invalid choice"),
    (["nice_buns", "--players", "2", "--seat", "2"], "the seats are 0 to 1"),
    (["nice_buns", "--bots", "nobody"], "unknown bot kind 'nobody'"),
    (["nice_buns", "--bots", "random:depth=3"], "has no parameter 'depth'"),
    (["nice_buns", "--players", "2", "--bots", "random,random"], "only 1 seats"),
    (["nice_buns", "--option", "colour=blue"], "colour"),
    (["nice_buns", "--option", "oops"], "is not name=value"),
    (["yum_cha", "--seed", "-1"], "below 0"),
])
def test_bad_arguments_are_usage_errors(argv, says, capsys):
    with pytest.raises(SystemExit) as exit_:
        play_cli.main(argv)
    assert exit_.value.code == 2 and says in capsys.readouterr().err


def test_bad_arguments_exit_with_a_usage_error():
    env = dict(os.environ, PYTHONPATH=str(Path(dimsum.__file__).resolve().parent.parent))
    done = processes.run([sys.executable, "-m", "dimsum", "play", "nice_buns", "--seat", "9"],
                         capture_output=True, text=True, env=env, timeout=60)
    assert done.returncode == 2 and "usage: python -m dimsum play" in done.stderr
    assert "the seats are 0 to 3" in done.stderr


def test_the_terminal_reads_lines_with_a_timeout_keeps_lines_that_arrive_together_and_ends_at_eof():
    import io

    from dimsum.play import Terminal

    read_fd, write_fd = os.pipe()
    with os.fdopen(read_fd, "rb", buffering=0) as reader:
        terminal = Terminal(reader, io.StringIO())
        assert not terminal.is_tty
        assert terminal.read_line(timeout=0.01) is None  # nothing typed yet
        os.write(write_fd, "1\nhelp\r\nqu".encode())
        assert terminal.read_line(timeout=1) == "1"
        assert terminal.read_line(timeout=0) == "help"
        assert terminal.read_line(timeout=0.01) is None  # half a line waits for its end
        os.close(write_fd)
        assert terminal.read_line() == "qu"
        with pytest.raises(EOFError):
            terminal.read_line()
