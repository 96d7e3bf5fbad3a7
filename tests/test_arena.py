"""dimsum.arena: seat-balanced schedules, seeds from (seed, game index) only, the same results for any
number of workers, bots that fail named and stopping the tournament, records that replay."""

import json
from collections import Counter

import pytest

import dimsum
import dimsum.arena
from arena_bots import FirstLegalBot, meddling_bot, registered_kinds
from dimsum.arena.ratings import bradley_terry, wilson
from dimsum.arena.schedule import Schedule, lineups
from dimsum.records import Record
from dimsum.testing import profile


@pytest.fixture(autouse=True)
def registered_test_kinds():
    """The test kinds "first" and "broken" exist during each test of this module, and only then."""
    with registered_kinds():
        yield


@pytest.mark.parametrize("bots", [1, 2, 3, 4])
@pytest.mark.parametrize("seats", [1, 2, 3, 4])
def test_every_bot_sits_in_every_seat_equally_often(bots, seats):
    found = lineups(bots, seats)
    assert len(set(found)) == len(found), "a line-up is listed twice"
    counts = Counter((bot, seat) for lineup in found for seat, bot in enumerate(lineup))
    assert len(set(counts.values())) == 1 and len(counts) == bots * seats, counts
    for lineup in found:
        if bots >= seats:
            assert len(set(lineup)) == seats, f"{lineup}: with enough bots no bot plays two seats"
        else:
            assert set(lineup) == set(range(bots)), f"{lineup}: every bot plays every game when seats outnumber bots"


def test_the_line_up_counts_are_the_documented_ones():
    assert len(lineups(3, 2)) == 6 and len(lineups(4, 4)) == 24 and len(lineups(2, 3)) == 6
    assert lineups(3, 4, cooperative=True) == [(0,) * 4, (1,) * 4, (2,) * 4]


def test_games_are_rounded_up_to_whole_rounds_and_rounds_share_a_deal():
    schedule = Schedule.at_least(7, lineups(3, 2), 10)
    assert (schedule.rounds, schedule.games) == (2, 12)
    deals = [schedule.deal_seed(i) for i in range(12)]
    assert len(set(deals[:6])) == 1 and len(set(deals[6:])) == 1 and deals[0] != deals[6]
    seeds = {schedule.bot_seed(i, s) for i in range(12) for s in range(2)}
    assert len(seeds) == 24, "every bot of every game has its own seed"
    assert Schedule.at_least(7, lineups(3, 2), 10).bot_seed(5, 1) == schedule.bot_seed(5, 1)
    assert Schedule.at_least(8, lineups(3, 2), 10).deal_seed(0) != schedule.deal_seed(0)


def test_wilson_interval_known_values():
    low, high = wilson(5, 10)
    assert low == pytest.approx(0.2366, abs=1e-4) and high == pytest.approx(0.7634, abs=1e-4)
    assert wilson(0, 10) == (0.0, pytest.approx(0.2775, abs=1e-4))
    assert wilson(10, 10) == (pytest.approx(0.7225, abs=1e-4), pytest.approx(1.0))


def test_bradley_terry_two_bots_is_the_ratio_of_wins_with_one_virtual_tie():
    low, high = bradley_terry([[0, 1], [3, 0]])
    import math

    assert high - low == pytest.approx(400 * math.log10(3.5 / 1.5), abs=1e-6)
    assert (low + high) / 2 == pytest.approx(1500)


def test_bradley_terry_orders_a_transitive_tournament_and_stays_finite():
    ratings = bradley_terry([[0, 10, 10], [0, 0, 10], [0, 0, 0]])  # 0 beats 1 beats 2, always
    assert ratings[0] > ratings[1] > ratings[2] and all(abs(r) < 1e4 for r in ratings)


def test_same_seed_same_results_for_any_workers_and_chunk_size():
    game = dimsum.make("nice_buns", players=2)
    runs = [dimsum.arena.run(game, "random,first,random", games=12, seed=5, progress=False, **how)
            for how in ({}, {"chunk_size": 5}, {"workers": 2, "chunk_size": 1})]
    assert runs[0].complete and len(runs[0].games) == 12
    assert runs[0].to_json() == runs[1].to_json() == runs[2].to_json()
    assert runs[0].table() == runs[2].table()
    assert dimsum.arena.run(game, "random,first,random", games=12, seed=6, progress=False).to_json() != runs[0].to_json()


def test_the_table_has_wilson_intervals_and_ratings_when_more_than_two_bots_meet():
    game = dimsum.make("nice_buns", players=2)
    three = dimsum.arena.run(game, "random,first,random", games=6, seed=1, progress=False)
    assert all(s.rating is not None for s in three.standings()) and "rating" in three.table()
    two = dimsum.arena.run(game, "random,first", games=6, seed=1, progress=False)
    assert all(s.rating is None for s in two.standings()) and "rating" not in two.table()
    for s in two.standings():
        assert s.interval[0] <= s.win_rate <= s.interval[1] and s.games == 6
    names = [s.bot for s in three.standings()]
    assert names == ["random", "first", "random#2"], "equal specs get distinct names"


def test_wins_are_shared_and_each_bots_win_rate_adds_up_to_one_in_two_seat_games():
    game = dimsum.make("yum_cha", players=2, rounds=1)
    results = dimsum.arena.run(game, "random,first", games=4, seed=2, progress=False)
    rates = [s.win_rate for s in results.standings()]
    assert sum(rates) == pytest.approx(1.0), "every game gives one win, split between tied seats"


def test_cooperative_games_are_played_by_teams_of_one_bot():
    game = dimsum.make("dim_sum_jam", players=2)
    results = dimsum.arena.run(game, "random,first", games=4, seed=3, progress=False)
    assert {g.lineup for g in results.games} == {(0, 0), (1, 1)}
    assert results.table().startswith("team (one bot in every seat)")
    for s in results.standings():
        team_games = [g for g in results.games if g.lineup[0] == results.bots.index(s.bot)]
        assert s.win_rate == sum(1.0 for g in team_games if g.winners) / len(team_games)


def test_bots_given_as_objects_and_callables_play_like_their_spec():
    game = dimsum.make("nice_buns", players=2)
    by_spec = dimsum.arena.run(game, "random,first", games=4, seed=4, progress=False)
    by_object = dimsum.arena.run(game, ["random", FirstLegalBot(game)], games=4, seed=4, progress=False)
    by_callable = dimsum.arena.run(game, ["random", lambda s: s.legal_actions()[0]], games=4, seed=4, progress=False)
    strip = lambda r: [(g.returns, g.length) for g in r.games]  # noqa: E731
    assert strip(by_spec) == strip(by_object) == strip(by_callable)
    assert by_object.bots == ["random", "FirstLegalBot"] and by_callable.bots == ["random", "<lambda>"]


def test_a_bot_acts_on_a_copy_so_it_cannot_change_the_game():
    game = dimsum.make("nice_buns", players=2)
    honest = dimsum.arena.run(game, "random,first", games=4, seed=4, progress=False)
    meddling = dimsum.arena.run(game, ["random", meddling_bot], games=4, seed=4, progress=False)
    assert [g.returns for g in honest.games] == [g.returns for g in meddling.games]


@pytest.mark.parametrize("fault, says", [("illegal", "which the rules refuse"), ("text", "which the rules refuse"),
                                         ("raise", "act() raised RuntimeError: the bot broke down")])
@pytest.mark.parametrize("workers", [1, 2])
def test_a_failing_bot_stops_the_tournament_at_the_first_failing_game_named_keeping_the_finished_games(tmp_path, fault, says, workers):
    game = dimsum.make("nice_buns", players=2)
    path = tmp_path / "results.json"
    # "broken" misbehaves once a game has 52 steps: the shorter games before it finish
    with pytest.raises(dimsum.arena.ArenaError) as stop:
        dimsum.arena.run(game, f"random,broken:after=52,fault={fault}", games=20, seed=1, workers=workers,
                         json_path=path, progress=False, chunk_size=1 if workers > 1 else None)
    failure = stop.value.results.failure
    message = str(stop.value)
    assert failure.index > 0, "some games finish before the failure"
    assert failure.bot == "broken:after=52,fault=" + fault and says in message
    assert f"game {failure.index} (deal seed {failure.seed}, bot seed {failure.bot_seed})" in message
    data = json.loads(path.read_text())
    assert data["complete"] is False and data["failure"]["index"] == failure.index
    assert [g["index"] for g in data["games"]] == sorted(g.index for g in stop.value.results.games)
    indices = [g["index"] for g in data["games"]]
    assert set(range(failure.index)) <= set(indices), "every game before the failing one finished"
    assert failure.index == FIRST_FAILURE, "the failure named is the first by game index, for any workers"


FIRST_FAILURE = 3  # of "random,broken:after=52" at nice_buns, 2 players, seed 1 (game 3 has 55 steps)


def test_a_bot_that_cannot_be_made_for_a_game_is_a_failure_named_at_the_first_game():
    with pytest.raises(dimsum.arena.ArenaError, match=r"bot 'broken:fault=make' \(seat 1\) failed in game 0 .*"
                                                      r"the bot could not be made: RuntimeError: no bot for this seed"):
        dimsum.arena.run(dimsum.make("nice_buns", players=2), "random,broken:fault=make", games=2, progress=False)


@pytest.mark.parametrize("name", dimsum.games())
def test_records_replay_to_the_same_returns(tmp_path, name):
    game = dimsum.make(name, **profile(name).small)
    results = dimsum.arena.run(game, "random,first", games=2, seed=9, record_dir=tmp_path, progress=False)
    files = sorted(tmp_path.glob("game-*.json"))
    assert len(files) == len(results.games) >= 2
    for path, g in zip(files, results.games):
        record = Record.load(path)
        final = record.final_state()
        assert record.players == [results.bots[b] for b in g.lineup] and record.seed == g.seed
        assert tuple(final.returns()) == g.returns and len(record.steps) == g.length


@pytest.mark.parametrize("call, error, says", [
    (lambda g: dimsum.arena.run(g, "nope,random"), ValueError, "unknown bot kind 'nope'"),
    (lambda g: dimsum.arena.run(g, "random:depth=3"), ValueError, "has no parameter 'depth'"),
    (lambda g: dimsum.arena.run(g, "random", games=0), ValueError, "games must be an int >= 1"),
    (lambda g: dimsum.arena.run(g, "random", workers=0), ValueError, "workers must be an int >= 1"),
    (lambda g: dimsum.arena.run(g, "random", seed="x"), TypeError, "seed"),
    (lambda g: dimsum.arena.run(g, []), ValueError, "at least one bot"),
    (lambda g: dimsum.arena.run(42, "random"), TypeError, "game is a Game from dimsum.make"),
    (lambda g: dimsum.arena.run(g, [42]), TypeError, "a bot has act(state)"),
    (lambda g: dimsum.arena.run(g, ["random", lambda s: 0], workers=2), TypeError, "use workers=1"),
    (lambda g: dimsum.arena.run(g, "random", ray=1), TypeError, "ray is None"),
    (lambda g: dimsum.arena.run(g, "random", ray="auto", workers=2), ValueError, "exclude each other"),
    (lambda g: dimsum.arena.run(dimsum.make("nice_buns", chance="explicit"), "random"), ValueError, "sampled"),
])
def test_bad_arguments_are_refused_before_any_game(call, error, says, tmp_path):
    with pytest.raises(error, match=None) as refused:
        call(dimsum.make("nice_buns", players=2))
    assert says in str(refused.value)


def test_the_json_is_written_while_games_arrive(tmp_path, monkeypatch):
    from dimsum.arena import tournament

    monkeypatch.setattr(tournament, "SAVE_EVERY", -1.0)  # after every arrival
    seen = []
    save = tournament.Results.save
    monkeypatch.setattr(tournament.Results, "save", lambda self, path: (seen.append(len(self.games)), save(self, path)))
    dimsum.arena.run(dimsum.make("nice_buns", players=2), "random,first", games=6, seed=1, chunk_size=2,
                     json_path=tmp_path / "r.json", progress=False)
    assert seen == [1, 2, 3, 4, 5, 6, 6], "in this process every game arrives as it ends; and the final write"
    assert json.loads((tmp_path / "r.json").read_text())["complete"] is True


def test_progress_off_a_terminal_is_a_few_plain_lines(capsys):
    dimsum.arena.run(dimsum.make("nice_buns", players=2), "random,first", games=8, seed=1, progress=True)
    lines = capsys.readouterr().err.splitlines()
    assert lines[-1] == "nice_buns: random, first: 8/8 games" and 1 <= len(lines) <= 5
