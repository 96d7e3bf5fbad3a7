"""``resample(p, seed)`` in every game, chance mode and conformance option set (every Yum Cha
deck-out option among them): a state ``p`` cannot tell from the real one. For random (state, seat)
pairs, every resample has ``p``'s information-state string and key, passes ``check()``, keeps
``p``'s view as play goes on, is reachable (explicit mode: its history replays from the root to
it), and after a Yum Cha reshuffle deals a deck ``p`` knows to be possible (tests/resample_checks.py).

The count of pairs is ``DIMSUM_RESAMPLE_PAIRS`` per game (a test run: a few hundred in all;
``python -m benchmarks.resample_property`` checks 10,000 a game and deck-out option)."""

from __future__ import annotations

import os
import random
import zlib
from collections import Counter

import pytest

import dimsum
from dimsum.testing import profile
from resample_checks import DeckWitness, check_pair, random_state

PAIRS = int(os.environ.get("DIMSUM_RESAMPLE_PAIRS", "120"))
# decks that run out: Yum Cha's deck is drawn from 85% of the time, so that reshuffles happen
RESHUFFLING = {"players": 3, "deck_out": "reshuffle_centre", "max_turns_per_round": 300, "rounds": 2}
CASES = [(name, mode, i) for name in dimsum.games() for mode in ("sampled", "explicit")
         for i in range(len(profile(name).conformance))]


def _options(name, case):
    return dict(profile(name).conformance[case])


@pytest.mark.parametrize("name, mode, case", CASES, ids=[f"{n}-{m}-{i}" for n, m, i in CASES])
def test_every_resample_is_indistinguishable_valid_and_reachable(name, mode, case):
    options = _options(name, case)
    game = dimsum.make(name, chance=mode, **options)
    rng = random.Random(zlib.crc32(f"{name}{mode}{case}".encode()))
    per_option_set = max(8, PAIRS // len(profile(name).conformance))
    prefer_deck = 0.85 if options.get("deck_out") == "reshuffle_centre" else 0.0  # decks run out and reshuffle
    for _ in range(per_option_set):
        state, witness = random_state(game, rng, 400 if not prefer_deck else 900, prefer_deck)
        check_pair(game, state, rng.randrange(game.players), rng.randrange(2**63), witness, rng)


@pytest.mark.parametrize("mode", ["sampled", "explicit"])
def test_yum_cha_resample_after_a_reshuffle_deals_only_the_reshuffled_decks_cards(mode):
    """Issue 20: after deck_out="reshuffle_centre" every seat knows the new deck card by card, and
    what it drew itself; the deck of a resample is drawn from that, and every resample passes the
    whole property (before the fix, 90 of 90 resamples dealt a deck the seat knew to be different)."""
    game = dimsum.make("yum_cha", chance=mode, **RESHUFFLING)
    rng = random.Random(20)
    witnessed = 0
    while witnessed < 6:
        state, witness = random_state(game, rng, 1200, prefer_deck=0.85)
        if witness.deck is None or state.is_terminal:
            continue
        for p in range(game.players):
            _, witnessed_here = check_pair(game, state, p, rng.randrange(2**63), witness, rng)
            assert witnessed_here
        witnessed += 1


def test_yum_cha_deck_witness_fails_a_deck_the_seat_knows_to_be_impossible():
    """The witness is not vacuous: a deck holding a card that was not in the reshuffled deck, or
    one the seat itself drew from it, is refused."""
    game = dimsum.make("yum_cha", **RESHUFFLING)
    witness = DeckWitness(game)
    witness.deck = Counter({3: 2, 5: 1})
    witness.drawn = {0: Counter({3: 1})}
    deck = [0] * game.spec.num_types
    deck[3] = 1
    assert witness.allows(deck, 0)
    deck[3] = 2
    assert not witness.allows(deck, 0) and witness.allows(deck, 1)
    deck[3], deck[4] = 0, 1
    assert not witness.allows(deck, 1)
