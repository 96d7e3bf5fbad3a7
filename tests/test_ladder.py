"""The rating ladder (docs/LADDER.md): shipped data consistent with their definitions and this
version, reproducible ratings, a copy of a rung rated as that rung, and ladder files and results
from elsewhere refused cleanly."""

from __future__ import annotations

import itertools
import json
import os

import pytest

import dimsum
import dimsum.arena
import dimsum.ladder
from dimsum.arena.schedule import Schedule, lineups
from dimsum.ladder import build, definitions, ladders
from dimsum.ladder.scores import pair_score, team_score
from dimsum.reference.rng import derive_seed


@pytest.mark.parametrize("name", sorted(definitions.DEFINITIONS))
def test_shipped_ladder_matches_its_definition_and_this_version(name):
    definition = definitions.DEFINITIONS[name]
    ladder = ladders.load_file(ladders.shipped_path(name))
    assert ladder.version == definitions.VERSION and ladder.name == name
    assert ladder.options == dict(dimsum.make(definition.game, players=definition.players).options)
    assert ladder.command == build.command(definition) and ladder.seed == definition.seed
    cooperative = dimsum.game_info(definition.game).cooperative
    groups = [(r,) for r in definition.rungs] if cooperative else list(itertools.combinations(definition.rungs, 2))
    size = len(lineups(len(groups[0]), definition.players, cooperative))
    assert [m.bots for m in ladder.matches] == [tuple(r.spec for r in g) for g in groups]
    for index, (match, group) in enumerate(zip(ladder.matches, groups)):
        assert match.seed == derive_seed(definition.seed, index)
        assert match.games == Schedule.at_least(0, [()] * size, min(r.games for r in group)).games
    # the ratings are the fit of the stored tournament
    refit = build.fit(definition, ladder.matches)
    for stored, fitted in zip(ladder.rungs, refit):
        assert stored.name == fitted.name and stored.rating == pytest.approx(fitted.rating, abs=1e-6)
        assert stored.interval == pytest.approx(fitted.interval, abs=1e-6)


@pytest.mark.parametrize("name", sorted(definitions.DEFINITIONS))
def test_shipped_ladder_replays_with_this_version(name):
    """The first round of the cheapest match, played again, scores what the data say: a change to
    the games or the bots that moves results fails here until the ladders are rebuilt."""
    ladder = ladders.load_file(ladders.shipped_path(name))
    match = ladder.matches[0]  # random against the next rung, or the random team
    game = ladder.make_game()
    size = len(lineups(len(match.bots), ladder.players, ladder.cooperative))
    results = dimsum.arena.run(game, list(match.bots), games=size, seed=match.seed, progress=False)
    score = sum(team_score(g.winners) if ladder.cooperative else pair_score(g.lineup, g.returns)
                for g in results.games)
    assert score == pytest.approx(match.round_scores[0])


def test_the_same_seed_gives_the_same_rating_and_another_seed_other_matches():
    ladder = dimsum.ladder.load("pig", 2)
    first = dimsum.ladder.rate(ladder, "heuristic", seed=5, width=200, progress=False)
    again = dimsum.ladder.rate(ladder, "heuristic", seed=5, width=200, progress=False)
    other = dimsum.ladder.rate(ladder, "heuristic", seed=6, width=200, progress=False)
    assert first.to_json()["rating"] == again.to_json()["rating"] and first.matches == again.matches
    assert [m["seed"] for m in other.matches] != [m["seed"] for m in first.matches]


def test_a_copy_of_a_rung_gets_its_rating_within_the_interval_in_19_of_20_seeds():
    ladder = dimsum.ladder.load("pig", 2)
    target = ladder.rung("random").rating
    covered = 0
    for seed in range(20):
        report = dimsum.ladder.rate(ladder, "random", seed=seed, width=200, progress=False, name="copy")
        assert report.rating.width < 200 or report.games + 8 > report.settings["max_games"]
        covered += report.rating.low <= target <= report.rating.high
    assert covered >= 19


def test_a_cooperative_rating_is_a_win_rate_with_its_wilson_interval(tmp_path):
    ladder = dimsum.ladder.load("dim_sum_jam", 4)
    report = dimsum.ladder.rate(ladder, "random", seed=1, max_games=16, progress=False,
                                json_path=tmp_path / "r.json", record_dir=tmp_path / "games")
    assert report.games == 16 and 0 <= report.rating.low <= report.rating.value <= report.rating.high <= 1
    data = json.loads((tmp_path / "r.json").read_text())
    assert data["complete"] and data["ladder"]["scale"] == "win_rate" and "win rate" in data["citation"]
    assert len(list((tmp_path / "games").rglob("game-*.json"))) == 16


def test_a_caller_that_is_not_a_bot_plays_the_proposed_games():
    """The Rater plays nothing: a caller (an MCP server seating an agent) plays each proposed game
    and hands back returns; the rating is the same as the arena's for the same play."""
    ladder = dimsum.ladder.load("pig", 2)
    game = ladder.make_game()
    rater = dimsum.ladder.Rater(ladder, seed=3, max_games=32)
    while (plan := rater.next_match()) is not None:
        played = []
        for planned in plan.games():
            state = game.new_state(planned.deal_seed)
            kind, params = dimsum.bots.parse_spec(plan.rung.spec)
            rung = {s: dimsum.bots.make(kind, game, seed=planned.rung_seeds[s], **params) for s in planned.rung_seeds}
            step = 0
            while not state.is_terminal:
                seat = state.current_player
                view = state.clone((plan.schedule.bot_seed(planned.index, seat) + step) & (2**64 - 1))
                bot = rung.get(seat) or dimsum.bots.make("heuristic", game,
                                                         seed=plan.schedule.bot_seed(planned.index, seat))
                state.apply(bot.act(view))
                step += 1
            played.append({"index": planned.index, "returns": state.returns(), "winners": state.outcome.winners})
        rater.record(plan, played)
    arena = dimsum.ladder.rate(ladder, "heuristic", seed=3, max_games=32, progress=False)
    assert rater.games_played == arena.games == 32
    assert rater.estimate() == arena.rating


@pytest.mark.parametrize("results", [
    [], [{"index": 0, "returns": [1, 0], "winners": [0]}],                          # not the whole match
    [{"index": i, "returns": [1, 0, 0], "winners": [0]} for i in range(8)],          # a seat too many
    [{"index": i, "returns": [1, float("nan")], "winners": [0]} for i in range(8)],  # not a number
    [{"index": i, "returns": [1, 0], "winners": [7]} for i in range(8)],             # not a seat
    [{"index": 0, "returns": [1, 0], "winners": [0]}] * 8,                           # one game eight times
    [{"index": str(i), "returns": [1, 0], "winners": [0]} for i in range(8)],        # not an index
])
def test_results_that_are_not_the_match_are_refused_and_change_nothing(results):
    rater = dimsum.ladder.Rater(dimsum.ladder.load("pig", 2), seed=1)
    plan = rater.next_match()
    with pytest.raises(ValueError):
        rater.record(plan, results)
    assert rater.games_played == 0 and rater.next_match() is plan


@pytest.mark.parametrize("text", [
    "[]", '{"format": "dimsum-ladder/1"}', "[" * 5000 + "]" * 5000, "not json",
    json.dumps({**json.loads(ladders.shipped_path("pig-2p").read_text()), "options": {"players": "x"}}),
    json.dumps({**json.loads(ladders.shipped_path("pig-2p").read_text()), "rungs": []}),
    json.dumps({**json.loads(ladders.shipped_path("pig-2p").read_text()), "scale": "vibes"}),
    json.dumps({**json.loads(ladders.shipped_path("pig-2p").read_text()), "anchor": {"rung": "nobody", "rating": 1}}),
])
def test_a_bad_ladder_file_is_refused_cleanly(tmp_path, text):
    path = tmp_path / "ladder.json"
    path.write_text(text)
    with pytest.raises(ValueError):
        dimsum.ladder.load_file(path)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_given_as_a_ladder_file_is_refused_without_blocking(tmp_path):
    os.mkfifo(tmp_path / "fifo")
    with pytest.raises(ValueError):
        dimsum.ladder.load_file(tmp_path / "fifo")


def test_no_ladder_names_the_shipped_ones_and_how_to_build_one():
    with pytest.raises(dimsum.ladder.LadderError, match="dimsum.ladder.build --game yum_cha --players 2"):
        dimsum.ladder.load("yum_cha", 2)


def test_the_command_line_rates_and_refuses_bad_usage(capsys):
    from dimsum.cli import main

    assert main(["ladder", "--game", "pig", "--bot", "random", "--seed", "1", "--width", "300", "--no-progress"]) == 0
    assert "dimsum ladder pig-2p v1" in capsys.readouterr().out
    for bad in (["--bot", "nosuchbot"], ["--bot", "random", "--width", "0"], ["--players", "3", "--bot", "random"]):
        with pytest.raises(SystemExit) as stop:
            main(["ladder", "--game", "pig", *bad])
        assert stop.value.code == 2


def test_one_seat_seats_the_candidate_once_a_game_each_seat_in_turn_and_refuses_a_team():
    """An agent is one mind: Rater(one_seat=True) gives it one seat a game, the rung every other
    (at two seats, the arena's own rounds)."""
    four = dimsum.ladder.Rater(dimsum.ladder.load("nice_buns", 4), seed=2, one_seat=True).next_match()
    assert [g.lineup for g in four.games()] == [(0, 1, 1, 1), (1, 0, 1, 1), (1, 1, 0, 1), (1, 1, 1, 0)] * 2
    assert all(len(g.candidate_seats) == 1 and len(g.rung_seeds) == 3 for g in four.games())
    pig = dimsum.ladder.load("pig", 2)
    one, both = (dimsum.ladder.Rater(pig, seed=2, one_seat=flag).next_match() for flag in (True, False))
    assert one.schedule == both.schedule
    with pytest.raises(ValueError, match="rates a team"):
        dimsum.ladder.Rater(dimsum.ladder.load("dim_sum_jam", 4), seed=2, one_seat=True)


def test_the_coverage_script_rates_a_rung_under_seeds_as_the_command_and_as_the_server_would(capsys):
    from dimsum.ladder import coverage

    for mode in ([], ["--one-seat"]):
        assert coverage.main(["--ladder", "pig-2p", "--rung", "random", "--seeds", "2", "--width", "300", *mode]) == 0
        out = capsys.readouterr().out
        assert out.count("seed ") == 2 and "random on pig-2p" in out and " of 2 seeds" in out
    rater = coverage.rate_one_seat(dimsum.ladder.load("pig", 2), "random", seed=4, max_games=16)
    again = coverage.rate_one_seat(dimsum.ladder.load("pig", 2), "random", seed=4, max_games=16)
    assert rater.games_played == 16 and rater.estimate() == again.estimate() and rater.scores == again.scores
