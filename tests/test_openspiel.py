"""The OpenSpiel adapter (dimsum.openspiel): registration, parameters, OpenSpiel's own random
simulation test, the serialization round trip, and OpenSpiel's Python MCTS and IS-MCTS."""

import numpy as np
import pytest

from needs import need_module

pyspiel = need_module("pyspiel")

import dimsum  # noqa: E402
import dimsum.openspiel as dos  # noqa: E402
from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

from dimsum.testing import profile  # noqa: E402

# Small configurations, so that a random game is short: OpenSpiel's checks and dimsum's
# information state replay the game from the start at each step (a default Yum Cha game is
# about 2,600 steps, chance nodes included, under random play). Each game's profile gives its
# short games; here at two table sizes.


def _config(name, options):
    return dos.game_name(name) + "(" + ",".join(f"{k}={v}" for k, v in sorted(options.items())) + ")"


CONFIGS = {name: [_config(name, {**profile(name).small, "players": 2}),
                  _config(name, {**profile(name).small, "players": 3})] for name in dimsum.games()}
IMPERFECT = [c for name, configs in CONFIGS.items() if dimsum.game_info(name).information == "imperfect"
             for c in configs]
PERFECT = [c for name, configs in CONFIGS.items() if dimsum.game_info(name).information == "perfect"
           for c in configs]
ALL_CONFIGS = [c for configs in CONFIGS.values() for c in configs]


def play_randomly(state, rng, steps, live=False):
    """Plays up to ``steps`` actions (chance by its probabilities, players uniformly); ``live``:
    stops before an action that would end the game (a short game ends within the steps)."""
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            action = int(rng.choice(outcomes, p=probs))
        else:
            action = int(rng.choice(state.legal_actions()))
        if live and state.child(action).is_terminal():
            break
        state.apply_action(action)
    return state


def test_every_game_is_registered():
    registered = set(pyspiel.registered_names())
    assert {dos.game_name(n) for n in dimsum.games()} <= registered


@pytest.mark.parametrize("name", dimsum.games())
def test_the_game_type_is_what_the_game_declares(name):
    info = dimsum.game_info(name)
    game_type = pyspiel.load_game(dos.game_name(name)).get_type()
    assert game_type.long_name == f"dimsum {info.title}"
    imperfect = game_type.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert imperfect == (info.information == "imperfect")
    utility = {"zero_sum": pyspiel.GameType.Utility.ZERO_SUM, "general_sum": pyspiel.GameType.Utility.GENERAL_SUM,
               "cooperative": pyspiel.GameType.Utility.IDENTICAL}[info.utility]
    assert game_type.utility == utility
    if info.utility == "zero_sum":  # OpenSpiel's checks want the constant sum declared
        assert pyspiel.load_game(dos.game_name(name)).utility_sum() == 0.0


@pytest.mark.parametrize("name", dimsum.games())
def test_parameters_are_the_scalar_options(name):
    game = pyspiel.load_game(dos.game_name(name))
    params = game.get_parameters()
    assert "chance" not in params
    assert params == dos.parameter_defaults(name)
    assert params["information_state"] == "digest"  # the adapter's own parameter, not the game's
    assert all(isinstance(v, (bool, int, str)) for v in params.values())


def test_load_game_with_parameters():
    game = pyspiel.load_game("dimsum_nice_buns(players=3)")
    inner = dimsum.make("nice_buns", players=3, chance="explicit")
    assert game.num_players() == 3
    assert game.num_distinct_actions() == inner.num_actions
    assert game.max_chance_outcomes() == inner.num_chance_outcomes
    assert game.max_game_length() == inner.max_game_length
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert game.observation_tensor_shape() == list(inner.observation_shape)


def test_a_bad_parameter_is_refused():
    with pytest.raises(Exception, match="players"):
        pyspiel.load_game("dimsum_nice_buns(players=9)")


@pytest.mark.parametrize("config", ALL_CONFIGS)
def test_random_sim_test(config):
    pyspiel.random_sim_test(pyspiel.load_game(config), num_sims=2, serialize=True, verbose=False)


@pytest.mark.parametrize("config", ALL_CONFIGS)
def test_chance_nodes_give_dimsums_probabilities(config):
    state, rng = pyspiel.load_game(config).new_initial_state(), np.random.RandomState(0)
    while not state.is_chance_node():  # where chance first acts is the game's business
        assert not state.is_terminal()
        play_randomly(state, rng, 1)
    outcomes = state.chance_outcomes()
    assert outcomes == state.dimsum_state.chance_outcomes()
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)


@pytest.mark.parametrize("config", ALL_CONFIGS)
def test_serialization_round_trip(config):
    game = pyspiel.load_game(config)
    state = play_randomly(game.new_initial_state(), np.random.RandomState(3), 60)
    text = pyspiel.serialize_game_and_state(game, state)
    game2, state2 = pyspiel.deserialize_game_and_state(text)
    assert str(game2) == str(game)
    assert state2.history() == state.history()
    assert state2.dimsum_state == state.dimsum_state
    assert state2.current_player() == state.current_player()


@pytest.mark.parametrize("config", ALL_CONFIGS)
def test_views_are_dimsums(config):
    game = pyspiel.load_game(config)
    state = play_randomly(game.new_initial_state(), np.random.RandomState(5), 40)
    inner = state.dimsum_state
    for p in range(game.num_players()):
        np.testing.assert_array_equal(state.observation_tensor(p), inner.observation(p))
        assert state.observation_string(p) == inner.observation_string(p)
        # the default form: the key's 32 hex digits; "text": dimsum's readable string
        assert state.information_state_string(p) == f"{inner.information_state_key(p):032x}"
    text_game = pyspiel.load_game(config.replace("(", "(information_state=text,"))
    text_state = text_game.new_initial_state()
    for action in state.history():
        text_state.apply_action(action)
    for p in range(game.num_players()):
        assert text_state.information_state_string(p) == inner.information_state_string(p)


@pytest.mark.parametrize("config", ALL_CONFIGS)
def test_clone_is_independent(config):
    state = play_randomly(pyspiel.load_game(config).new_initial_state(), np.random.RandomState(1), 30)
    copy = state.clone()
    before = state.history()
    play_randomly(copy, np.random.RandomState(2), 5)
    assert state.history() == before
    assert copy.dimsum_state.history == copy.history()


@pytest.mark.parametrize("config", ALL_CONFIGS)
def test_mcts_plays(config):
    game = pyspiel.load_game(config)
    rng = np.random.RandomState(0)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=8, evaluator=evaluator, random_state=rng)
    play_with_bot(game, bot, rng, moves=3)


@pytest.mark.parametrize("config", IMPERFECT)
def test_ismcts_plays_with_dimsums_resample(config):
    game = pyspiel.load_game(config)
    rng = np.random.RandomState(0)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=8, random_state=rng)
    seeds = iter(range(10**6))
    bot.set_resampler(lambda state, player: dos.resample(state, player, next(seeds)))
    play_with_bot(game, bot, rng, moves=3)


@pytest.mark.parametrize("config", PERFECT)
def test_ismcts_refuses_the_perfect_information_games(config):
    # These games hide nothing but the future draws (chance nodes here), so they are declared
    # perfect information, and OpenSpiel's IS-MCTS asserts imperfect information:
    # plain MCTS is their search (test_mcts_plays).
    game = pyspiel.load_game(config)
    assert game.get_type().information == pyspiel.GameType.Information.PERFECT_INFORMATION
    state, rng = game.new_initial_state(), np.random.RandomState(0)
    while state.is_chance_node() or len(state.legal_actions()) < 2:  # IS-MCTS searches a real choice
        play_randomly(state, rng, 1)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(), uct_c=2.0, max_simulations=2)
    with pytest.raises(AssertionError):
        bot.step(state)


def play_with_bot(game, bot, rng, moves):
    """Plays the game until the bot has chosen ``moves`` legal actions (chance drawn by ``rng``)."""
    state = game.new_initial_state()
    chosen = 0
    while not state.is_terminal() and chosen < moves:
        if state.is_chance_node():
            play_randomly(state, rng, 1)
            continue
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        chosen += 1
    assert chosen == moves or state.is_terminal()


def test_resample_keeps_the_players_view():
    game = pyspiel.load_game(_config("yum_cha", {"players": 3, "rounds": 2, "max_turns_per_round": 10}))
    state = play_randomly(game.new_initial_state(), np.random.RandomState(7), 80)
    while state.is_chance_node():
        play_randomly(state, np.random.RandomState(8), 1)
    player = state.current_player()
    copy = dos.resample(state, player, seed=11)
    assert copy.information_state_string(player) == state.information_state_string(player)
    assert copy.history() == copy.dimsum_state.history
    assert copy.legal_actions() == state.legal_actions()


# -- pickling, copying, other processes -------------------------------------------------------------

@pytest.mark.parametrize("config", ALL_CONFIGS)
def test_games_and_states_pickle_and_deepcopy(config):
    import copy
    import pickle

    game = pyspiel.load_game(config)
    state = play_randomly(game.new_initial_state(), np.random.RandomState(4), 25)
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        loaded_game = pickle.loads(pickle.dumps(game, protocol))
        assert str(loaded_game) == str(game) and type(loaded_game) is type(game)
        loaded = pickle.loads(pickle.dumps(state, protocol))
        assert loaded.history() == state.history() and loaded.dimsum_state == state.dimsum_state
    copied = copy.deepcopy(state)
    assert copied.history() == state.history() and copied.dimsum_state == state.dimsum_state
    if not copied.is_terminal():
        copied.apply_action(copied.legal_actions()[0] if not copied.is_chance_node()
                            else copied.chance_outcomes()[0][0])
        assert len(state.history()) + 1 == len(copied.history())  # independent of the original
    assert str(copy.deepcopy(game)) == str(game)


def test_a_state_crosses_to_a_spawned_process():
    """multiprocessing with spawn: the child imports nothing of ours by itself; the pickled state
    brings its loader (dimsum.openspiel.load_game registers the games)."""
    import multiprocessing

    game = pyspiel.load_game(CONFIGS["nice_buns"][0])
    state = play_randomly(game.new_initial_state(), np.random.RandomState(2), 15)
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        assert pool.apply(str, (state,)) == str(state)
        assert pool.apply(str, (game,)) == str(game)


@pytest.mark.parametrize("name", dimsum.games())
def test_parameter_defaults_take_either_name(name):
    assert dos.parameter_defaults(dos.game_name(name)) == dos.parameter_defaults(name)
    with pytest.raises(ValueError, match="unknown game"):
        dos.parameter_defaults("dimsum_no_such_game")


# -- the information state: its form, its size, no tensor -------------------------------------------

def _text_and_digest(config, history):
    """The same history in the default game (digest) and in its information_state=text twin."""
    states = []
    for form in ("digest", "text"):
        state = pyspiel.load_game(config.replace("(", f"(information_state={form},")).new_initial_state()
        for action in history:
            state.apply_action(action)
        states.append(state)
    return states


def test_the_digest_stays_small_late_in_a_default_game():
    # a default 3-player Yum Cha game to step 2,000 (of about 2,600): the text form is about 1 MB
    # there; OpenSpiel's tables key on the string, so the default must not grow with the history
    game = pyspiel.load_game("dimsum_yum_cha(players=3)")
    state, rng = game.new_initial_state(), np.random.RandomState(1)
    sizes = []
    while len(state.history()) < 2000:
        assert not state.is_terminal()
        play_randomly(state, rng, 1)
        if len(state.history()) % 250 == 0:
            sizes.append(len(state.information_state_string(len(sizes) % 3).encode()))
    assert sizes and all(size == 32 for size in sizes)
    assert len(state.information_state_string(0).encode()) <= 64 * 1024


@pytest.mark.parametrize("config", IMPERFECT)
def test_the_digest_is_equal_exactly_when_the_text_is(config):
    """Equality is all OpenSpiel's tables use: states a seat cannot tell apart (resampled for it)
    share its digest, and states whose texts differ (another seat, another history) do not."""
    game = pyspiel.load_game(config)
    state = play_randomly(game.new_initial_state(), np.random.RandomState(7), 40, live=True)
    while state.is_chance_node():
        play_randomly(state, np.random.RandomState(8), 1)
    player = state.current_player()
    states = [state] + [dos.resample(state, player, seed=s) for s in range(3)]
    other = play_randomly(game.new_initial_state(), np.random.RandomState(9), 40)
    states.append(other)
    pairs = []
    for s in states:
        digest, text = _text_and_digest(config, s.history())
        pairs += [(digest.information_state_string(p), text.information_state_string(p))
                  for p in range(game.num_players())]
    for digest_a, text_a in pairs:
        for digest_b, text_b in pairs:
            assert (digest_a == digest_b) == (text_a == text_b)
    assert len({d for d, _ in pairs}) > game.num_players()  # not all equal: the check can fail


def test_an_unknown_information_state_form_is_refused():
    with pytest.raises(Exception, match="information_state='full'.*digest, text"):
        pyspiel.load_game("dimsum_nice_buns(information_state=full)")


@pytest.mark.parametrize("name", dimsum.games())
def test_the_game_type_says_what_is_provided(name):
    """Each provides_* flag is True exactly when the call gives a view: the information-state
    tensor, which dimsum does not provide, is refused with an error saying what to use (it used to
    be an empty list, which an algorithm would take for a tensor)."""
    game = pyspiel.load_game(CONFIGS[name][0])
    game_type = game.get_type()
    state = play_randomly(game.new_initial_state(), np.random.RandomState(2), 10)
    while state.is_chance_node():
        play_randomly(state, np.random.RandomState(3), 1)
    assert game_type.provides_information_state_string and state.information_state_string(0)
    assert game_type.provides_observation_string and state.observation_string(0)
    assert game_type.provides_observation_tensor and len(state.observation_tensor(0)) == game.observation_tensor_size() > 0
    assert not game_type.provides_information_state_tensor
    for ask in (lambda: state.information_state_tensor(0), game.information_state_tensor_shape,
                game.information_state_tensor_size):
        with pytest.raises(NotImplementedError, match="no information-state tensor.*information_state_string"):
            ask()


def test_outcome_sampling_cfr_learns_the_same_with_either_form():
    """OpenSpiel's outcome-sampling MCCFR (its CFR for games too large to enumerate, as these are)
    keys its regret tables on the information-state string: with the digest it visits the same
    information states, in the same order, and learns the same regrets and average policies as
    with the text, seeded alike."""
    from open_spiel.python.algorithms import outcome_sampling_mccfr

    config = CONFIGS["yum_cha"][0]
    tables = []
    for form in ("digest", "text"):
        solver = outcome_sampling_mccfr.OutcomeSamplingSolver(
            pyspiel.load_game(config.replace("(", f"(information_state={form},")))
        np.random.seed(5)
        for _ in range(30):
            solver.iteration()
        tables.append(solver._infostates)  # noqa: SLF001 (the table the strings key)
    digest_table, text_table = tables
    assert len(digest_table) == len(text_table) > 10
    assert all(len(key) == 32 for key in digest_table)
    for digest_values, text_values in zip(digest_table.values(), text_table.values()):
        for a, b in zip(digest_values, text_values):
            np.testing.assert_array_equal(a, b)
