"""dimsum.llm (the rules summaries, the seat's view and prompt, the strict reply parser) and the llm
bot kind, driven by a scripted fake model (tests/llm_fakes.py): valid, garbage and illegal replies."""

from __future__ import annotations

import random
import re

import pytest

import dimsum
import dimsum.play.events
import dimsum.arena
from dimsum import bots, llm
from dimsum.bots.llm import LlmReplyError
from dimsum.testing import profile
from llm_fakes import ScriptedModel, listed_moves


def pig_state(seed: int = 3):
    """A Pig state at seat 0's second decision: roll and hold are legal, 2..5 are unused ids."""
    state = dimsum.make("pig").new_state(seed)
    state.apply(0)
    while state.current_player != 0:  # a 1 passed the turn: roll on until seat 0 decides again
        state.apply(0)
    return state


# ---- the parser ---------------------------------------------------------------------------------
@pytest.mark.parametrize("reply", ["hold", "HOLD", "  Hold \n", '"hold"', "`hold`", "'hold'", "1"])
def test_parse_takes_the_exact_name_case_and_spaces_aside_quotes_around_or_the_id(reply):
    assert llm.parse_move(pig_state(), reply) == 1


def test_parse_folds_runs_of_spaces_inside_a_name():
    state = dimsum.make("yum_cha", players=2).new_state(1)
    assert llm.parse_move(state, "DRAW   from the\tdeck") == 0


@pytest.mark.parametrize("reply", ["hold.", "I hold", "hold please", "hol", "h", "roll hold", "1 hold",
                                   "-1", "+1", "01", "1.0", "one", "", "   ", '"hold', "１"])
def test_parse_refuses_what_is_not_exactly_one_move(reply):
    state = pig_state()
    with pytest.raises(llm.ReplyError) as info:
        llm.parse_move(state, reply)
    assert info.value.kind == "unparsed" and "exact name or the id" in str(info.value)
    assert not isinstance(info.value, dimsum.IllegalActionError)


@pytest.mark.parametrize("reply", ["unused 3", "3"])
def test_parse_a_move_of_the_game_not_legal_now_is_an_illegal_action_error(reply):
    with pytest.raises(dimsum.IllegalActionError, match=r"'unused 3' \(id 3\) is not legal now.*0: roll, 1: hold") as info:
        llm.parse_move(pig_state(), reply)
    assert info.value.kind == "illegal"


class FakeState:
    """Legal moves named so that a reply could mean two of them (no real game names a move so)."""

    is_terminal = is_chance_node = False

    def __init__(self, names):
        self.names = names

    def legal_actions(self):
        return list(range(len(self.names)))

    def action_name(self, action):
        return self.names[action]


def test_parse_refuses_a_reply_that_could_mean_two_legal_moves():
    with pytest.raises(llm.ReplyError, match="could be any of the legal moves 0 .'1'., 1") as info:
        llm.parse_move(FakeState(["1", "b"]), "1")  # move 0 is named "1", move 1's id is 1
    assert info.value.kind == "ambiguous"
    with pytest.raises(llm.ReplyError, match="could be any"):
        llm.parse_move(FakeState(["Take tea", "take TEA"]), "take tea")
    assert llm.parse_move(FakeState(["1", "b"]), "b") == 1


def test_parse_refuses_a_reply_that_is_not_a_str_a_long_one_and_a_finished_game():
    with pytest.raises(TypeError, match="a reply is a str"):
        llm.parse_move(pig_state(), 1)
    with pytest.raises(llm.ReplyError, match="at most 2000 characters"):
        llm.parse_move(pig_state(), "hold" + " " * 3000)
    state = dimsum.make("pig", winscore=1).new_state(1)
    while not state.is_terminal:
        state.apply(state.legal_actions()[-1])
    with pytest.raises(llm.ReplyError, match="the game is over"):
        llm.parse_move(state, "hold")
    chance = dimsum.make("pig", chance="explicit").new_state(1)
    chance.apply(0)
    with pytest.raises(llm.ReplyError, match="chance is to move here"):
        llm.parse_move(chance, "roll 3")


# ---- rules summaries, the view and the prompt ---------------------------------------------------
@pytest.mark.parametrize("name", dimsum.games())
def test_every_game_declares_a_rules_summary_citing_its_rules_page(name):
    summary = llm.rules_summary(name)
    assert f"docs/rules/{name}.md" in summary and "no summary is declared" not in summary
    assert 200 < len(summary) < 2500  # a summary, not the rules page


def test_rules_summary_of_an_unknown_game_is_a_clear_error():
    with pytest.raises(ValueError, match=re.escape("unknown game 'chess'; the games are " + ", ".join(dimsum.games()))):
        llm.rules_summary("chess")
    with pytest.raises(TypeError, match="named by a str"):
        llm.rules_summary(3)


@pytest.mark.parametrize("name", dimsum.games())
def test_the_view_shows_only_what_the_seat_may_see(name):
    """Two states the seat cannot tell apart (the hidden part redrawn) give the same view; the
    whole table (another seat's view) does differ."""
    game = dimsum.make(name, **profile(name).small)
    state = game.new_state(5)
    seat = state.current_player
    other = state.resample(seat, 99)
    assert llm.view(state, seat) == llm.view(other, seat)
    assert llm.build_prompt(state, seat) == llm.build_prompt(other, seat)
    if dimsum.game_info(name).information == "imperfect":  # hidden hands: another seat's view differs
        neighbour = (seat + 1) % game.players
        assert any(llm.view(state.resample(seat, s), neighbour) != llm.view(state, neighbour) for s in range(99, 115))


def test_the_prompt_holds_the_rules_the_view_the_legal_moves_and_the_reply_rule():
    state = pig_state()
    prompt = llm.build_prompt(state, 0, error="'hol' is not a move")
    assert llm.rules_summary("pig") in prompt and llm.REPLY_RULE in prompt
    assert listed_moves(prompt) == [(0, "roll"), (1, "hold")]
    assert "Your previous reply was refused: 'hol' is not a move" in prompt
    without = llm.build_prompt(state, 0, legal=False)
    assert listed_moves(without) == [] and "It is your turn." in without


# ---- the llm bot --------------------------------------------------------------------------------
def test_the_prompt_holds_the_history_the_seat_saw_bounded_for_a_long_game():
    state = dimsum.make("pig").new_state(9)
    rng = random.Random(9)
    for _ in range(300):
        if state.is_terminal:
            break
        state.apply(rng.choice(state.legal_actions()))
    seat = 0
    prompt = llm.build_prompt(state, seat, history_limit=12)
    block = prompt.split("What you have seen happen so far (oldest first):\n", 1)[1].split("\n\n", 1)[0]
    lines = block.splitlines()
    older, last = dimsum.play.events.recent_events(state, seat, 12)
    assert older > 0 and lines[0] == f"  ({older} earlier events not shown)"
    assert [line.strip() for line in lines[1:]] == last and len(last) == 12
    assert "What you have seen happen" not in llm.build_prompt(state, seat, history=[])
    assert "  seat 1: said" in llm.build_prompt(state, seat, history=["seat 1: said"])
    fresh = dimsum.make("pig").new_state(9)
    assert "What you have seen happen" not in llm.build_prompt(fresh, 0)  # nothing happened yet


def test_llm_bot_plays_the_move_a_valid_reply_names():
    model = ScriptedModel(["hold"])
    bot = bots.make("llm", dimsum.make("pig"), model=model)
    assert bot.act(pig_state()) == 1
    assert (bot.replies, bot.invalid_replies, bot.fallbacks) == (1, 0, 0)
    assert model.prompts[0] == llm.build_prompt(pig_state(), 0)


def test_llm_bot_asks_again_after_garbage_or_an_illegal_move_with_the_reason():
    model = ScriptedModel(["I think I'll roll", "unused 4", "roll"])
    bot = bots.make("llm", dimsum.make("pig"), model=model, retries=2)
    assert bot.act(pig_state()) == 0
    assert (bot.replies, bot.invalid_replies, bot.fallbacks) == (3, 2, 0)
    assert "Your previous reply was refused: \"I think I'll roll\" is not a move" in model.prompts[1]
    assert "Your previous reply was refused: 'unused 4' (id 4) is not legal now" in model.prompts[2]


def test_llm_bot_falls_back_to_a_seeded_random_legal_move_after_its_retries():
    game = dimsum.make("pig")
    chosen = []
    for _ in range(2):
        bot = bots.make("llm", game, seed=7, model=ScriptedModel(["???"]), retries=1)
        chosen.append([bot.act(pig_state(s)) for s in range(20)])
        assert (bot.replies, bot.invalid_replies, bot.fallbacks) == (40, 40, 20)
    assert chosen[0] == chosen[1] and set(chosen[0]) == {0, 1}  # the same seed, the same fallbacks


def test_llm_bot_with_fallback_error_fails_after_its_retries():
    bot = bots.make("llm", dimsum.make("pig"), model=ScriptedModel(["7"]), retries=0, fallback="error")
    with pytest.raises(LlmReplyError, match="no valid move in 1 replies.*'7' is not a move of pig"):
        bot.act(pig_state())
    assert (bot.replies, bot.invalid_replies) == (1, 1)


def test_llm_bot_counts_a_reply_that_is_not_a_str_as_invalid_and_lets_a_model_error_through():
    bot = bots.make("llm", dimsum.make("pig"), model=lambda prompt: None, retries=0)
    assert bot.act(pig_state()) in (0, 1) and bot.invalid_replies == 1

    def broken(prompt):
        raise ConnectionError("the model's server is down")

    with pytest.raises(ConnectionError, match="server is down"):
        bots.make("llm", dimsum.make("pig"), model=broken).act(pig_state())


def test_llm_bot_without_legal_moves_in_its_prompt():
    model = ScriptedModel(["hold"])
    bots.make("llm", dimsum.make("pig"), model=model, legal_moves=False).act(pig_state())
    assert listed_moves(model.prompts[0]) == []


def test_llm_bot_bad_parameters_are_clear_errors():
    game = dimsum.make("pig")
    with pytest.raises(TypeError, match="needs model=, a callable prompt"):
        bots.make("llm", game)
    with pytest.raises(TypeError, match="needs model="):
        bots.make("llm", game, model="gpt")
    with pytest.raises(ValueError, match="retries is an int from 0 to 10"):
        bots.make("llm", game, model=str, retries=11)
    with pytest.raises(ValueError, match="fallback is one of 'random', 'error'"):
        bots.make("llm", game, model=str, fallback="pass")
    with pytest.raises(ValueError, match="no parameter 'temperature'"):
        bots.make("llm", game, model=str, temperature=0.2)


def test_llm_bot_acts_only_where_a_player_may():
    game = dimsum.make("pig", winscore=1)
    state = game.new_state(1)
    while not state.is_terminal:
        state.apply(1)
    with pytest.raises(ValueError, match="terminal state"):
        bots.make("llm", game, model=ScriptedModel()).act(state)


@pytest.mark.parametrize("name", dimsum.games())
def test_llm_bot_plays_a_whole_game_of_each_game(name):
    game = dimsum.make(name, **profile(name).small)
    model = ScriptedModel(seed=1)
    bot = bots.make("llm", game, seed=2, model=model)
    state = game.new_state(4)
    while not state.is_terminal:
        state.apply(bot.act(state))
    assert bot.replies == len(model.prompts) > 0 and bot.invalid_replies == bot.fallbacks == 0


# ---- the arena's invalid-reply rates ------------------------------------------------------------
def test_arena_table_and_json_give_each_llm_bots_invalid_reply_rate():
    """One reply in four is garbage (the bot asks again): its rate is the invalid share of its replies."""
    game = dimsum.make("pig", winscore=20)
    sloppy = ("llm", {"model": ScriptedModel(["nonsense", "<pick>", "<pick>", "<pick>"] * 500)})
    careful = ("llm", {"model": ScriptedModel(seed=3), "retries": 0})
    results = dimsum.arena.run(game, [sloppy, careful, "heuristic"], games=6, seed=2, progress=False)
    by_bot = {s.bot: s for s in results.standings()}
    assert by_bot["heuristic"].invalid_rate is None and by_bot["llm:model=ScriptedModel,retries=0"].invalid_rate == 0.0
    replies = [sum(r[0] for g in results.games for s, r in enumerate(g.replies) if g.lineup[s] == 0),
               sum(r[1] for g in results.games for s, r in enumerate(g.replies) if g.lineup[s] == 0)]
    assert replies[0] > 0 and by_bot[results.bots[0]].invalid_rate == pytest.approx(replies[1] / replies[0])
    assert 0.0 < by_bot[results.bots[0]].invalid_rate <= 0.5
    header, _, *rows = results.table().splitlines()
    assert header.split()[-1] == "invalid"
    assert next(r for r in rows if r.startswith("heuristic")).split()[-1] == "-"
    assert all("replies" in g for g in results.to_json()["games"])


def test_arena_table_has_no_invalid_column_without_an_llm_bot():
    results = dimsum.arena.run(dimsum.make("pig", winscore=20), "heuristic,random", games=2, seed=1, progress=False)
    assert "invalid" not in results.table() and all(g.replies is None for g in results.games)
