"""The arena on Ray: a local Ray instance (ray.init(num_cpus=2)) gives the same results and records as
the local run for the same seed. Skipped without Ray; a failure under DIMSUM_REQUIRE_ALL=1."""

import pytest

from needs import need_module

ray = need_module("ray")

import dimsum  # noqa: E402
import dimsum.arena  # noqa: E402
from dimsum.records import Record  # noqa: E402


@pytest.fixture(scope="module")
def local_ray():
    try:  # shut down also when the start fails half-way, or a test is interrupted
        ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False)
        yield
    finally:
        ray.shutdown()


def test_ray_tasks_give_the_local_results_and_records(local_ray, tmp_path):
    game = dimsum.make("nice_buns", players=2)
    local = dimsum.arena.run(game, "random,random", games=10, seed=11, record_dir=tmp_path / "local", progress=False)
    on_ray = dimsum.arena.run(game, "random,random", games=10, seed=11, ray="local", chunk_size=3,
                              record_dir=tmp_path / "ray", progress=False)
    assert on_ray.complete and on_ray.to_json() == local.to_json() and on_ray.table() == local.table()
    for path in sorted((tmp_path / "local").glob("*.json")):
        assert Record.load(tmp_path / "ray" / path.name) == Record.load(path)
    assert ray.is_initialized(), "a Ray connection the caller made is left open"


def test_a_failing_bot_on_ray_stops_the_tournament_naming_it(local_ray):
    game = dimsum.make("nice_buns", players=2)
    never = lambda state: -7  # noqa: E731  (an illegal action every time; Ray pickles lambdas)
    with pytest.raises(dimsum.arena.ArenaError, match=r"bot '<lambda>' \(seat \d\) failed in game 0"):
        dimsum.arena.run(game, ["random", never], games=4, seed=1, ray="local", progress=False)


def test_y13_a_bot_that_hangs_on_ray_is_stopped_by_the_move_time_limit(local_ray):
    import time

    game = dimsum.make("nice_buns", players=2)
    hang = lambda state: time.sleep(3600) or 0  # noqa: E731  (Ray pickles lambdas)
    started = time.monotonic()
    with pytest.raises(dimsum.arena.ArenaError, match=r"bot '<lambda>' \(seat \d\) failed in game 0 .*"
                                                      r"took more than the move time limit of 1 s"):
        dimsum.arena.run(game, ["random", hang], games=2, seed=1, ray="local", progress=False, move_seconds=1)
    assert time.monotonic() - started < 60


def test_an_external_bot_on_ray_plays_the_local_games(local_ray, tmp_path):
    """The C protocol bot (docs/PROTOCOL.md) in Ray tasks: each Ray worker starts its own program
    and closes it when its chunk ends; the results are the local run's for the same seed and table
    secret (from which the program's seeds are drawn)."""
    from protocol_bots import build_c_bot

    game = dimsum.make("nice_buns", players=2)
    spec = f"external:command={build_c_bot(tmp_path)}"
    secret = "0123456789abcdef" * 2
    local = dimsum.arena.run(game, [spec, "random"], games=10, seed=11, progress=False, secret=secret)
    on_ray = dimsum.arena.run(game, [spec, "random"], games=10, seed=11, ray="local", chunk_size=3, progress=False,
                              secret=secret)
    assert on_ray.complete and on_ray.to_json() == local.to_json()
