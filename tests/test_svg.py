"""state.to_svg(player) and _repr_svg_ (dimsum.render): valid, deterministic, self-contained SVG
for every game at every kind of position, whole-table and per-seat views, and a seat's picture
made only of what that seat may see."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

import dimsum
from dimsum.reference.rng import Rng
from dimsum.render import svg_pieces
from dimsum.render.svg import esc, num
from dimsum.testing import profile

GAMES = dimsum.games()
SVG = "{http://www.w3.org/2000/svg}"
GENERIC_FONTS = {"sans-serif", "serif", "monospace"}


def _play(state, steps: int, seed: int):
    rng = Rng(seed)
    for _ in range(steps):
        if state.is_terminal:
            break
        if state.is_chance_node:
            outcomes = state.chance_outcomes()
            state.apply(outcomes[rng.bounded(len(outcomes))][0])
        else:
            legal = state.legal_actions()
            state.apply(legal[rng.bounded(len(legal))])
    return state


def _positions(name: str):
    """The start, a middle, the end of a game, and a chance node of an explicit-chance game."""
    game = dimsum.make(name, players=3)
    yield game.new_state(1)
    yield _play(game.new_state(2), 30, 2)
    yield _play(game.new_state(3), 100_000, 3)
    yield _play(dimsum.make(name, players=3, chance="explicit").new_state(4), 5, 4)


def _check_document(text: str) -> ET.Element:
    root = ET.fromstring(text)
    assert root.tag == f"{SVG}svg"
    width, height = float(root.get("width")), float(root.get("height"))
    assert width > 0 and height > 0
    assert root.get("viewBox") == f"0 0 {root.get('width')} {root.get('height')}"
    for element in root.iter():
        tag = element.tag.replace(SVG, "")
        assert tag not in ("image", "foreignObject", "script", "style", "use"), f"<{tag}> is not self-contained"
        for attr, value in element.attrib.items():
            assert "url(" not in value and not attr.endswith("href"), f"{tag} {attr}={value!r} refers outside"
        family = element.get("font-family")
        assert family is None or family in GENERIC_FONTS, f"font-family {family!r} is not a generic family"
    assert "http" not in text.replace('xmlns="http://www.w3.org/2000/svg"', "")
    return root


@pytest.mark.parametrize("name", GAMES)
def test_every_view_of_every_kind_of_position_is_valid_self_contained_svg(name):
    for state in _positions(name):
        texts = [state.to_svg()] + [state.to_svg(p) for p in range(state.game.players)]
        for text in texts:
            _check_document(text)
        assert texts[0] == state._repr_svg_(), "Jupyter's _repr_svg_ is the whole table"
        assert all("(you)" in t for t in texts[1:]) and "(you)" not in texts[0]


@pytest.mark.parametrize("name", GAMES)
def test_the_same_state_gives_the_same_bytes_and_pieces_join_to_the_picture(name):
    state = _play(dimsum.make(name, players=4).new_state(9), 25, 9)
    copy = state.game.state_from_bytes(state.to_bytes())
    for view in (None, 0, 3):
        assert state.to_svg(view) == state.to_svg(view) == copy.to_svg(view)
        assert "".join(svg_pieces(state, view)) == state.to_svg(view)


@pytest.mark.parametrize("name", GAMES)
def test_the_picture_changes_when_the_position_does(name):
    game = dimsum.make(name, players=3)
    state = game.new_state(5)
    before = state.to_svg()
    state.apply(state.legal_actions()[0])
    assert state.to_svg() != before


@pytest.mark.parametrize("name", [n for n in GAMES if dimsum.game_info(n).information == "imperfect"])
def test_a_seat_of_a_hidden_information_game_gets_the_same_picture_of_states_it_cannot_tell_apart(name):
    """The seat's picture is the same for two resamples whose hidden part differs, the whole table's
    is not (it shows the hidden part). Every game and every channel: tests/test_information_contract.py."""
    state = dimsum.make(name, **profile(name).small).new_state(21)
    for _ in range(40):  # the first seeded position where two resamples for the seat to act differ
        assert not state.is_terminal, "no position with something hidden to redraw"
        p = state.current_player
        if not state.is_chance_node:
            a, *others = [state.resample(p, s) for s in range(1, 9)]
            b = next((o for o in others if o.to_dict() != a.to_dict()), None)
            if b is not None:
                break
        state = _play(state, 1, 21)
    assert a.information_state_string(p) == b.information_state_string(p)
    assert a.to_svg(p) == b.to_svg(p) == state.to_svg(p)
    assert a.to_svg() != b.to_svg(), "the whole table shows the hidden cards"


def test_a_yum_cha_seat_sees_its_own_hand_face_up_and_the_others_face_down():
    from dimsum.games.yum_cha.picture import BACK_COLOUR

    state = dimsum.make("yum_cha", players=4).new_state(3)
    centre_kinds = len(state.to_dict()["centre"])
    face_up, face_down = 'fill="#fffdf8"', f'fill="{BACK_COLOUR}"'
    mine, whole = state.to_svg(0), state.to_svg()
    # seat 0: its ten cards face up, the others' 3 x 10 face down, plus the deck's back
    assert (mine.count(face_up), mine.count(face_down)) == (10 + centre_kinds, 1 + 30)
    assert (whole.count(face_up), whole.count(face_down)) == (40 + centre_kinds, 1)


@pytest.mark.parametrize("name", [n for n in GAMES if dimsum.game_info(n).information == "perfect"])
def test_a_seat_of_a_public_game_gets_the_same_picture_whatever_the_future_randomness(name):
    state = _play(dimsum.make(name, players=3).new_state(8), 12, 8)
    for p in range(3):
        assert state.clone(seed=99).to_svg(p) == state.to_svg(p) == state.resample(p, 5).to_svg(p)


def test_bad_views_are_refused_with_what_is_allowed_and_the_state_unchanged():
    state = dimsum.make("nice_buns", players=3).new_state(1)
    before = state.to_bytes()
    for bad, error in ((3, ValueError), (-1, ValueError), (True, TypeError), ("0", TypeError), (1.0, TypeError)):
        with pytest.raises(error, match=r"None \(the whole table\) or a seat 0\.\.2"):
            state.to_svg(bad)
    assert state.to_bytes() == before


def test_text_is_escaped_and_numbers_are_short_and_deterministic():
    assert esc("<a & \"b\" 'c'>") == "&lt;a &amp; &quot;b&quot; &#39;c&#39;&gt;"
    assert esc("x\x00\x07y") == "xy"
    assert [num(3), num(2.0), num(2.25), num(-0.04), num(1 / 3)] == ["3", "2", "2.2", "0", "0.3"]
    ET.fromstring(f"<svg><text>{esc('<&>' + chr(1))}</text></svg>")


def test_record_names_are_drawn_escaped():
    from dimsum.render import to_svg

    state = dimsum.make("dim_sum_jam", players=2).new_state(1)
    text = to_svg(state, 1, names=["<script>", "b & c"])
    _check_document(text)
    assert "&lt;script&gt;" in text and "b &amp; c (you)" in text


def test_dim_sum_jam_draws_the_hourglass_lying_down_and_each_table():
    game = dimsum.make("dim_sum_jam", players=2)
    state = game.new_state(1)
    text = state.to_svg()
    assert all(f">Table {k}<" in text for k in range(1, 8))
    assert "120.0 s of 120 s left" in text and "standing: time runs" in text
    d = state.to_dict()
    d["clock"]["top"] = 400
    assert "40.0 s of 120 s left" in game.state_from_dict(d).to_svg()
    assert "time off: the glass never runs" in dimsum.make("dim_sum_jam", ticks_per_action=0).new_state(1).to_svg()
    # a stuck player lays the glass down (case III): random play until it happens
    for seed in range(40):
        s, rng = game.new_state(seed), Rng(seed)
        while not s.is_terminal and not s.clock.lying_down:
            legal = s.legal_actions()
            s.apply(legal[rng.bounded(len(legal))])
        if s.clock.lying_down:
            assert "rotate(90" in s.to_svg() and "lying down: time stopped" in s.to_svg()
            return
    pytest.fail("no seeded game laid the glass down")
