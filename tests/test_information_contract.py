"""The information contract of dimsum.testing.check_game (dimsum._contract): what a game declares
(``GameInfo.information``) is proven, and a state and its ``resample(p)`` look the same to seat p
through every channel of ``CHANNELS``. A mislabelled game and a leaking channel fail, naming it.
The games are read from their declarations: no game is named here."""

import dataclasses
import importlib

import pytest

import dimsum
from dimsum import _contract
from dimsum.testing import check_game, profile

from needs import need_module

GAMES = dimsum.games()
HIDDEN = [n for n in GAMES if dimsum.game_info(n).information == "imperfect"]
PUBLIC = [n for n in GAMES if dimsum.game_info(n).information == "perfect"]


def _small(name, **extra):
    return dimsum.make(name, **dict(profile(name).small), **extra)


def _relabel(monkeypatch, name, information):
    package = importlib.import_module(f"dimsum.games.{name}")
    monkeypatch.setattr(package, "INFO", dataclasses.replace(package.INFO, information=information))
    assert dimsum.game_info(name).information == information


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("chance", ["sampled", "explicit"])
def test_every_registered_game_keeps_the_contract_through_every_channel(name, chance):
    report = check_game(_small(name, chance=chance), n_games=2)
    assert report.channels["observation tensor"] > 0 and report.channels["SVG picture"] > 0
    # what was not compared is reported with why, never dropped silently
    assert set(report.channels) | set(report.skipped) == {c.name for c in _contract.CHANNELS}
    assert all(why == "no pair it could show" or why.endswith("is not installed") for why in report.skipped.values())


def test_every_channel_is_compared_on_some_game_in_some_chance_mode():
    compared = set()
    for name in GAMES:
        for chance in ("sampled", "explicit"):
            compared |= set(check_game(_small(name, chance=chance), n_games=1).channels)
    missing = [c.name for c in _contract.CHANNELS if c.name not in compared and c.missing() is None]
    assert not missing, f"channels never compared: {missing}"


@pytest.mark.parametrize("name", HIDDEN)
def test_a_hidden_information_game_relabelled_perfect_fails_the_contract(name, monkeypatch):
    _relabel(monkeypatch, name, "perfect")
    with pytest.raises(AssertionError, match=r"information contract: the game declares information='perfect' "
                                             r"but resample\(\d+\) changed the position"):
        check_game(_small(name), n_games=2)


@pytest.mark.parametrize("name", PUBLIC)
def test_a_public_game_relabelled_imperfect_fails_the_contract(name, monkeypatch):
    _relabel(monkeypatch, name, "imperfect")
    with pytest.raises(AssertionError, match=r"declares information='imperfect' but none of \d+ resamples changed"):
        check_game(_small(name), n_games=1)


@pytest.mark.parametrize("name", HIDDEN)
def test_a_seat_picture_that_draws_the_hidden_cards_fails_naming_the_svg_channel(name, monkeypatch):
    picture = importlib.import_module(f"dimsum.games.{name}.picture")
    whole_table = picture.draw
    monkeypatch.setattr(picture, "draw", lambda state, player, names=None: whole_table(state, None, names))
    with pytest.raises(AssertionError, match=r"channel 'SVG picture': seat \d+ sees a difference"):
        check_game(_small(name), n_games=2)


@pytest.mark.parametrize("name", HIDDEN)
def test_an_observation_string_that_tells_the_hidden_cards_fails_naming_its_channel(name, monkeypatch):
    from dimsum import _views

    fair = _views.observation_string
    monkeypatch.setattr(_views, "observation_string", lambda state, player: fair(state, player) + "\n" + str(state))
    with pytest.raises(AssertionError, match=r"channel 'observation string': seat \d+ sees a difference"):
        check_game(_small(name), n_games=2)


@pytest.mark.parametrize("name", HIDDEN)
def test_a_leaking_adapter_fails_naming_its_channel(name, monkeypatch):
    """A channel far from the engine: PettingZoo's observe, made to hand out the whole table."""
    need_module("pettingzoo")
    from dimsum import pettingzoo

    fair = pettingzoo.raw_env.observe

    def observe(self, agent):
        out = fair(self, agent)
        return dict(out, table=str(self.state).encode())

    monkeypatch.setattr(pettingzoo.raw_env, "observe", observe)
    with pytest.raises(AssertionError, match=r"channel 'PettingZoo'"):
        check_game(_small(name), n_games=2)


def test_a_channel_whose_extra_is_missing_is_reported_skipped(monkeypatch):
    absent = _contract.Channel("absent adapter", lambda s, p: 0, needs="dimsum_no_such_module")
    monkeypatch.setattr(_contract, "CHANNELS", _contract.CHANNELS + (absent,))
    report = check_game(_small(GAMES[0]), n_games=1)
    assert report.skipped["absent adapter"] == "dimsum_no_such_module is not installed"
    assert "absent adapter" not in report.channels
