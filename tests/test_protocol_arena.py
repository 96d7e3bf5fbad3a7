"""Protocol bots in arena tournaments (docs/PROTOCOL.md): the heuristic played through the protocol
gives the in-process heuristic's games move for move for the same seeds, in every game, on one
process and on two worker processes; the C example bot plays whole tournaments of every game, the
same again for the same tournament secret."""

import json
import shlex

import pytest

import dimsum
import dimsum.arena
from dimsum.protocol.process import running
from protocol_bots import PYTHON_BOT, HeuristicOnProtocolSeeds, build_c_bot, spec

SECRET = "5ec2e7" * 5 + "00"  # the tournaments' table secret: external bots' seeds are drawn from it
GAMES = [("yum_cha", {"players": 2, "rounds": 1}, 2), ("nice_buns", {"players": 3}, 6), ("dim_sum_jam", {"players": 2}, 4)]


@pytest.fixture(scope="module")
def c_bot(tmp_path_factory):
    return build_c_bot(tmp_path_factory.mktemp("c_bot"))


def played(results, directory):
    """Every game's seeds, line-up, outcome and moves (from its record), by index: what must agree."""
    games = []
    for g in results.games:
        record = json.loads((directory / f"game-{g.index:06d}.json").read_text())
        games.append((g.index, g.seed, g.lineup, g.returns, g.winners, g.reason, g.length, record["steps"]))
    return games


def tournament(game, first, games, directory, **kwargs):
    """``first`` against random (a team of ``first`` in the cooperative Dim Sum Jam)."""
    bots = [first] if dimsum.game_info(game.name).cooperative else [first, "random"]
    kwargs.setdefault("secret", SECRET)
    return dimsum.arena.run(game, bots, games=games, seed=3, progress=False, record_dir=directory, **kwargs)


@pytest.mark.parametrize("name,options,games", GAMES, ids=[g[0] for g in GAMES])
def test_the_heuristic_through_the_protocol_plays_the_in_process_heuristic_s_games(name, options, games, tmp_path):
    """The protocol bot sees only its seat's view and a determinization drawn from it; the heuristic
    reads only the seat's view, so every move is the same as in process, game for game, given the
    seed the program gets (from the table secret, never the arena's bot seed: HeuristicOnProtocolSeeds)."""
    game = dimsum.make(name, **options)
    inside = tournament(game, HeuristicOnProtocolSeeds(game), games, tmp_path / "inside")
    through = tournament(game, spec(PYTHON_BOT, move_seconds=30), games, tmp_path / "through")
    assert len(inside.games) == games
    assert played(through, tmp_path / "through") == played(inside, tmp_path / "inside")
    assert running() == 0


def test_the_same_through_the_protocol_on_two_worker_processes(tmp_path):
    game = dimsum.make("nice_buns", players=2)
    inside = tournament(game, HeuristicOnProtocolSeeds(game), 8, tmp_path / "inside")
    through = tournament(game, spec(PYTHON_BOT), 8, tmp_path / "through", workers=2, chunk_size=4)
    assert played(through, tmp_path / "through") == played(inside, tmp_path / "inside")


@pytest.mark.parametrize("name,options,games", GAMES, ids=[g[0] for g in GAMES])
def test_the_c_bot_plays_whole_tournaments_and_replays_them_exactly(name, options, games, tmp_path, c_bot):
    """Whole tournaments of every game; the same seed and secret give the same games (the C bot draws
    from the seed of each new_game, which comes from the game's table secret). Worker processes: the
    test above, and tests/test_arena_ray.py for Ray."""
    game = dimsum.make(name, **options)
    bot = spec([c_bot], move_seconds=10)
    one = tournament(game, bot, games, tmp_path / "one")
    again = tournament(game, bot, games, tmp_path / "again", chunk_size=1)
    assert len(one.games) == games and one.complete and not one.failure
    assert played(one, tmp_path / "one") == played(again, tmp_path / "again")
    assert one.secret == SECRET and one.to_json()["secret"] == SECRET
    # each game's record keeps the secret its bots' seeds came from
    secrets = {json.loads((tmp_path / "one" / f"game-{g.index:06d}.json").read_text())["secret"] for g in one.games}
    assert len(secrets) == games
    assert running() == 0


def test_one_process_serves_every_game_of_a_chunk_each_with_its_own_seed(tmp_path, c_bot):
    """Processes are reused: in one chunk of 6 games the C bot starts at most once per seat it holds
    at a time (counted by its hello), and its moves depend on the seed of each game."""
    game = dimsum.make("nice_buns", players=2)
    binary = c_bot
    log = tmp_path / "messages.txt"
    wrapper = tmp_path / "logging_bot.sh"  # a wrapper that keeps what the engine said, for this test only
    wrapper.write_text(f"#!/bin/sh\ntee -a {shlex.quote(str(log))} | {shlex.quote(str(binary))}\n")
    wrapper.chmod(0o755)
    results = dimsum.arena.run(game, [spec([str(wrapper)]), "random"], games=6, seed=5, progress=False,
                               chunk_size=6)
    messages = [json.loads(line) for line in log.read_text().splitlines()]
    kinds = [m["type"] for m in messages]
    assert kinds.count("hello") == 1 and kinds.count("new_game") == 6 and kinds.count("game_over") == 6
    assert kinds.count("quit") == 1 and kinds[-1] == "quit"
    assert len({m["seed"] for m in messages if m["type"] == "new_game"}) == 6
    assert len(results.games) == 6


class Counting:
    """A bot object that counts the game_over calls it gets (and can fail in one)."""

    def __init__(self, fail=False):
        self.ends, self.fail = [], fail

    def act(self, state):
        return state.legal_actions()[0]

    def game_over(self, state):
        self.ends.append(state.is_terminal)
        if self.fail:
            raise RuntimeError("cannot count")


def test_the_arena_tells_each_bot_once_per_game_that_it_ended():
    """The hook the external bot uses: game_over(final state), once per bot object even when it
    holds two seats; a bot whose game_over raises is a failing bot, named."""
    game = dimsum.make("nice_buns", players=3)
    bot = Counting()
    results = dimsum.arena.run(game, [bot, "random"], games=6, seed=2, progress=False)
    assert bot.ends == [True] * len(results.games) == [True] * 6
    with pytest.raises(dimsum.arena.ArenaError, match=r"failed in game 0 .*game_over\(\) raised RuntimeError: cannot count"):
        dimsum.arena.run(game, [Counting(fail=True), "random"], games=6, seed=2, progress=False)
