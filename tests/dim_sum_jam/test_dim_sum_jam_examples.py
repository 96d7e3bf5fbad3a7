"""Dim Sum Jam: the rulebook's own examples as tests."""

from dsj_positions import position

GAME = "dim_sum_jam"


def test_rulebook_example_token_2_sends_player_b_to_table_2(engine):
    # "Player A plays a shrimp dumpling token with #2 in his/her turn, so Player B must play a
    # Dim Sum token on Table #2." Shrimp dumpling is not one of the seven types (DSJ-19): the
    # example is played here with Xiaolongbao 2, a listed type.
    game = engine(GAME, players=2)
    s = game.state_from_dict(position(hands=[["XLB2", "SHM5"], ["EGG3", "PCH1", "SPR6"]]))
    s.apply(s.parse_action("play Xiaolongbao 2 on table 5"))
    assert s.current_player == 1
    assert [s.action_name(a) for a in s.legal_actions()] == [
        "play Egg Tarts 3 on table 2", "play Longevity Peach Bun 1 on table 2"]


def test_rulebook_start_player_may_play_on_any_table(engine):
    # "Exception: Start player can play a Dim Sum token on ANY Table in his first round."
    game = engine(GAME, players=4)
    s = game.state_from_dict(position(players=4, hands=[["XLB2"], [], [], []]))
    assert [s.action_name(a) for a in s.legal_actions()] == [
        f"play Xiaolongbao 2 on table {k}" for k in range(1, 8)]


def test_rulebook_four_player_setup_sample(engine):
    # "4 players Setup Sample": seven order cards on the tables, five face-up tokens each,
    # the rest in the bag, 9 cards left in the deck with the VIP fourth from the top
    game = engine(GAME, players=4)
    d = game.new_state(2019).to_dict()
    assert [len(h) for h in d["hands"]] == [5, 5, 5, 5] and len(d["bag"]) == 29
    assert all(t["card"] is not None for t in d["tables"]) and d["deck"] == "RRRVRRRRR"


def test_rulebook_exotic_tea_next_player_must_play_on_table_1(engine):
    # "players may use it as a wild Dim Sum token ... The next active player MUST play a Dim Sum
    # token on table #1."
    game = engine(GAME, players=2)
    s = game.state_from_dict(position(hands=[["SPR7"], ["XLB6", "SHM6"]], required_table=7,
                                      tea_supply=1, tea_reception=1))
    s.apply(s.parse_action("tea on table 7 Rice Dumpling"))
    assert [s.action_name(a) for a in s.legal_actions()] == ["play Xiaolongbao 6 on table 1"]
