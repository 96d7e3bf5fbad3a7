"""The C++ bots behind dimsum.bots: "heuristic" and "ismcts" in every game (docs/BOTS.md).

Legal and side-effect free, deterministic for a seed (and simulations and threads), fair (a
player's two indistinguishable positions get the same choice), clear errors for bad
parameters and states, and a strength smoke whose margins are many standard deviations wide."""

import pytest

import dimsum
from dimsum import bots
from dimsum.testing import first_chance_node, profile, random_position

GAMES = dimsum.games()
# the games in which only future chance is hidden: there the real future is all a bot must not read
PERFECT_INFORMATION = [name for name in GAMES if dimsum.game_info(name).information == "perfect"]
# small searches: these tests check behaviour, not strength
KINDS = [("heuristic", {}), ("ismcts", {"simulations": 30, "rollout": "random", "bias": 0}),
         ("ismcts", {"simulations": 20, "rollout": "heuristic"})]


def positions(game, n, steps=(0, 7, 25, 60)):
    """Decision nodes reached by random play, some from the deal and some deep in the game."""
    found = []
    for i in range(n):
        state = random_position(game, seed=100 + i, steps=steps[i % len(steps)])
        if not state.is_terminal:
            found.append(state)
    return found


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("kind,params", KINDS, ids=["heuristic", "ismcts-random", "ismcts-heuristic"])
def test_every_kind_plays_a_legal_action_and_never_changes_the_state(name, kind, params):
    game = dimsum.make(name, **profile(name).threads)
    bot = bots.make(kind, game, seed=5, **params)
    for state in positions(game, 8):
        before, history = state.to_bytes(), state.history
        action = bot.act(state)
        assert isinstance(action, int) and state.is_legal(action), (state, action)
        assert state.to_bytes() == before and state.history == history


@pytest.mark.parametrize("name", GAMES)
def test_a_whole_game_of_heuristic_bots_ends_legally(name):
    game = dimsum.make(name)
    players = [bots.make("heuristic", game, seed=p) for p in range(game.players)]
    state = game.new_state(seed=8)
    while not state.is_terminal:
        state.apply(players[state.current_player].act(state))  # apply raises on an illegal action
    assert state.is_terminal


@pytest.mark.parametrize("name", GAMES)
def test_ismcts_is_deterministic_for_a_seed_simulations_and_threads(name):
    game = dimsum.make(name)
    for state in positions(game, 3):
        searches = []
        for _ in range(2):
            bot = bots.make("ismcts", game, seed=11, simulations=60, threads=2, rollout="random")
            searches.append((bot.act(state), bot.last_search))
        assert searches[0] == searches[1]
        simulations, _, root = searches[0][1]
        assert simulations == 60 and sum(visits for _, visits, _ in root) == 60
        assert sorted(a for a, _, _ in root) == state.legal_actions()


def test_heuristic_is_deterministic_for_a_seed():
    game = dimsum.make("nice_buns")
    states = positions(game, 6)
    choices = [[bots.make("heuristic", game, seed=4).act(s) for s in states] for _ in range(2)]
    assert choices[0] == choices[1]


def test_ismcts_threads_split_the_simulations_and_sum_the_root_visits():
    game = dimsum.make("nice_buns")
    state = game.new_state(seed=2)
    for threads in (1, 3):
        bot = bots.make("ismcts", game, seed=1, simulations=61, threads=threads, rollout="random")
        bot.act(state)
        simulations, steps, root = bot.last_search
        assert simulations == 61 and sum(v for _, v, _ in root) == 61 and steps > 0
        assert all(0.0 <= mean <= 1.0 for _, _, mean in root)


def test_ismcts_with_a_time_budget_runs_until_the_budget_is_spent():
    game = dimsum.make("dim_sum_jam")
    bot = bots.make("ismcts", game, seconds=0.05, rollout="random")
    state = game.new_state(seed=3)
    assert state.is_legal(bot.act(state))
    assert bot.last_search[0] > 0  # simulations run, however many the machine managed


@pytest.mark.parametrize("kind,params", KINDS, ids=["heuristic", "ismcts-random", "ismcts-heuristic"])
def test_yum_cha_bots_cannot_tell_two_resamples_of_a_position_apart(kind, params):
    # Two states that differ in the others' hidden cards and in the future draws, with the same
    # information state for the player to act: a bot with the same seed must choose the same.
    game = dimsum.make("yum_cha")
    for state in positions(game, 6, steps=(3, 20, 41)):
        p = state.current_player
        a, b = state.resample(p, seed=1), state.resample(p, seed=2)
        assert a.information_state_string(p) == b.information_state_string(p)
        others = [q for q in range(game.players) if q != p]
        assert any(a.field("hands")[q] != b.field("hands")[q] for q in others)  # the hidden part differs
        bot_a, bot_b = bots.make(kind, game, seed=9, **params), bots.make(kind, game, seed=9, **params)
        assert bot_a.act(a) == bot_b.act(b)
        if kind == "ismcts":
            assert bot_a.last_search == bot_b.last_search  # the whole search, not only its result


@pytest.mark.parametrize("name", PERFECT_INFORMATION)
@pytest.mark.parametrize("kind,params", KINDS, ids=["heuristic", "ismcts-random", "ismcts-heuristic"])
def test_bots_never_read_the_real_future_draws(name, kind, params):
    # A perfect-information game hides only what chance does next (the state's generator):
    # two copies with different generators must get the same choice.
    game = dimsum.make(name)
    for state in positions(game, 4):
        a, b = state.clone(seed=1), state.clone(seed=2)
        assert a.to_bytes() != b.to_bytes()
        choices = [bots.make(kind, game, seed=3, **params).act(s) for s in (a, b)]
        assert choices[0] == choices[1]


@pytest.mark.parametrize("name", GAMES)
def test_bots_play_explicit_chance_games_and_refuse_chance_nodes(name):
    game = dimsum.make(name, chance="explicit")
    state = first_chance_node(game, seed=1)
    for kind, params in KINDS:
        with pytest.raises(ValueError, match="chance node"):
            bots.make(kind, game, **params).act(state)
    while state.is_chance_node:
        state.apply(state.chance_outcomes()[0][0])
    for kind, params in KINDS:
        assert state.is_legal(bots.make(kind, game, **params).act(state))


def test_bad_parameters_are_clear_errors():
    game = dimsum.make("yum_cha")
    cases = [
        (dict(simulations=0), ValueError, r"'simulations' must be in \[1, 1000000000\]"),
        (dict(simulations=1.5), TypeError, "'simulations' must be an int"),
        (dict(c=-1), ValueError, r"'c' must be in \[0, 1000\]"),
        (dict(c="x"), TypeError, "'c' must be a number"),
        (dict(seconds=0), ValueError, r"'seconds' must be in \[0.0001, 3600\]"),
        (dict(rollout="greedy"), ValueError, r"'rollout' takes one of \['random', 'heuristic', 'policy'\]"),
        (dict(threads=0), ValueError, r"'threads' must be in \[1, 256\]"),
        (dict(threads=True), TypeError, "'threads' must be an int"),
        (dict(depth=3), ValueError, "no parameter 'depth'; it takes simulations, seconds, c, bias, rollout, threads"),
        (dict(bias=-0.1), ValueError, r"'bias' must be in \[0, 1000\]"),
    ]
    for params, error, message in cases:
        with pytest.raises(error, match=message):
            bots.make("ismcts", game, **params)
    with pytest.raises(ValueError, match="no parameter 'simulations'; it takes no parameters"):
        bots.make("heuristic", game, simulations=3)
    with pytest.raises(TypeError, match="plays a Game from dimsum.make"):
        bots.make("heuristic", "yum_cha")


def test_bad_states_are_clear_errors_and_nothing_crashes():
    game, other = dimsum.make("yum_cha"), dimsum.make("yum_cha", players=3)
    for kind, params in KINDS:
        bot = bots.make(kind, game, **params)
        with pytest.raises(ValueError, match="the state is of"):
            bot.act(other.new_state(1))
        with pytest.raises(ValueError, match="not a dimsum state"):
            bot.act("a state")
        state = game.new_state(1)
        while not state.is_terminal:
            state.apply(state.legal_actions()[0])
        with pytest.raises(ValueError, match="terminal state"):
            bot.act(state)
    # the binding itself checks what crosses: wrong lengths, other games and invalid positions
    from dimsum import _batch

    args = (game.name, game.config_bytes(), game.state_size, game.version[0])
    good = game.new_state(2).to_bytes()
    corrupt = good[:24] + b"\xff" * (len(good) - 24)
    for data, message in [(good[:-1], "State.to_bytes"), (b"x" * len(good), "State.to_bytes"),
                          (dimsum.make("nice_buns").new_state(1).to_bytes(), "State.to_bytes"),
                          (corrupt, "yum_cha state field")]:
        with pytest.raises(ValueError, match=message):
            _batch.heuristic_action(*args, data, 0, 0)
        with pytest.raises(ValueError, match=message):
            _batch.ismcts_search(*args, data, 10, 0.0, 0.7, 0.5, "random", 1, 0, 0, 0.0, 1.0)


def _mean_return_of_seat(game, hero, rest, games):
    """hero in one seat (rotated), rest elsewhere: hero's mean return over `games` seeded games."""
    total = 0.0
    for g in range(games):
        seat = g % game.players
        specs = [hero if p == seat else rest for p in range(game.players)]
        players = [bots.make(kind, game, seed=1000 * g + p, **params) for p, (kind, params) in enumerate(specs)]
        state = game.new_state(seed=7000 + g)
        while not state.is_terminal:
            state.apply(players[state.current_player].act(state))
        total += state.returns()[seat]
    return total / games


def test_heuristic_beats_random_by_a_margin_no_seed_could_flake():
    # Nice Buns, 4 players: a player no better than the others wins 1/4 of the games (draws by the
    # turn cap aside). Over 200 games that mean has a standard deviation under 0.035, so 0.45 is
    # more than 5 deviations above it; measured: about 0.69.
    nice_buns = dimsum.make("nice_buns")
    assert _mean_return_of_seat(nice_buns, ("heuristic", {}), ("random", {}), 200) > 0.45
    # Yum Cha: random players practically never complete a hand (every round a washout, the win
    # shared four ways: 0.25); the heuristic declares and wins outright. Measured: 1.0.
    yum_cha = dimsum.make("yum_cha")
    assert _mean_return_of_seat(yum_cha, ("heuristic", {}), ("random", {}), 12) > 0.75


def test_a_team_of_heuristic_bots_wins_dim_sum_jam_far_more_often_than_random_ones():
    # Cooperative: the whole team wins or loses. Measured over 300 games: random 0.3%, heuristic
    # about 21%. With 200 games, 10 wins for the heuristic is 4 deviations below its rate, and
    # random teams would need 5 deviations of luck to reach it.
    game = dimsum.make("dim_sum_jam")
    wins = {}
    for kind in ("random", "heuristic"):
        wins[kind] = 0
        for g in range(200):
            team = [bots.make(kind, game, seed=g * 10 + p) for p in range(game.players)]
            state = game.new_state(seed=3000 + g)
            while not state.is_terminal:
                state.apply(team[state.current_player].act(state))
            wins[kind] += state.returns()[0] == 1.0
    assert wins["random"] < 10 <= wins["heuristic"]


def test_ismcts_alone_beats_random_by_a_margin_no_seed_could_flake():
    # The search by itself (random rollouts, no heuristic bias) in Nice Buns, 4 players: 1/4 is
    # what a player no better than the others wins; over 60 games its standard deviation is
    # under 0.06, so 0.5 is more than 4 deviations above it. Measured: about 0.72.
    game = dimsum.make("nice_buns")
    search = ("ismcts", {"simulations": 100, "rollout": "random", "bias": 0})
    assert _mean_return_of_seat(game, search, ("random", {}), 60) > 0.5


@pytest.mark.parametrize("kind", ["heuristic", "ismcts"])
def test_a_pickled_native_bot_chooses_as_the_original(kind):
    # what the arena's worker processes and Ray nodes receive: the config bytes are made again there
    import pickle

    game = dimsum.make("nice_buns", players=3)
    params = {"simulations": 40} if kind == "ismcts" else {}
    original = bots.make(kind, game, seed=5, **params)
    copy = pickle.loads(pickle.dumps(original))
    state = game.new_state(8)
    for _ in range(5):
        assert copy.act(state) == original.act(state)
