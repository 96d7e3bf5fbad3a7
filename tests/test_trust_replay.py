"""The replay page's seat view against a seat that reads it (python/dimsum/cli/replay.py): what
the page shows seat p, in text as in pictures, is the same for two games p cannot tell apart, so
it tells p nothing p did not see. The pairs are a game and ``state.resample(p, seed)`` of it (the
outcomes p did not see redrawn, the history rewritten to match) in explicit-chance records of
every game, where each hidden draw is a step of its own; and the replay command reads only
regular files and never writes through a link."""

from __future__ import annotations

import json
import os
import random
import re

import pytest

import dimsum
from dimsum.cli import replay
from dimsum.records import Record
from dimsum.testing import random_position

NAMES = ["ann", "bo", "cy", "di"]


def _data(html: str) -> dict:
    blob = re.search(r'<script type="application/json" id="replay-data">(.*?)</script>', html, re.S).group(1)
    return json.loads(blob)


def _told(step: dict, view: int) -> str:
    """The text a view shows for a step (the page once kept one text for every view)."""
    action = step["action"]
    return action if isinstance(action, str) else action[view]


def _seat_view(data: dict, seat: int):
    """Seat ``seat``'s view of the whole page: each step's text and picture."""
    view = data["views"].index(next(v for v in data["views"] if v.startswith(f"seat {seat} ")))
    return [(_told(step, view), "".join(data["pieces"][i] for i in step["views"][view])) for step in data["steps"]]


def _pairs(name: str, players: int, count: int, seed: int):
    """(record, seat, record of a game the seat cannot tell from it) for random prefixes."""
    rng = random.Random(seed)
    game = dimsum.make(name, players=players, chance="explicit")
    for _ in range(count):
        deal = rng.randrange(2**32)
        state = random_position(game, deal, rng.randrange(20, 70))
        seat = rng.randrange(players)
        twin = state.resample(seat, rng.randrange(2**32))
        assert twin.information_state_string(seat) == state.information_state_string(seat)
        yield (Record.of(state, deal, NAMES[:players]), seat, Record.of(twin, deal, NAMES[:players]))


CASES = [("yum_cha", 2, 6), ("yum_cha", 3, 5), ("yum_cha", 4, 5), ("nice_buns", 3, 2), ("dim_sum_jam", 3, 2), ("pig", 2, 2)]


@pytest.mark.parametrize("name,players,count", CASES)
def test_a_seats_view_is_the_same_for_games_the_seat_cannot_tell_apart(name, players, count):
    differ = 0
    for record, seat, twin in _pairs(name, players, count, seed=38 + players):
        if record.steps == twin.steps:
            continue  # nothing hidden from the seat was redrawn (always so in a game of perfect information)
        differ += 1
        first, second = replay.page_data(record), replay.page_data(twin)
        assert _seat_view(first, seat) == _seat_view(second, seat), f"{name} {players}p seat {seat}"
        # the whole table's view does show the difference: the pair is a real test
        assert [_told(s, 0) for s in first["steps"]] != [_told(s, 0) for s in second["steps"]]
        # the page of the seat's view alone: every byte, pictures included
        assert replay.page(record, seat) == replay.page(twin, seat)
    assert differ or dimsum.game_info(name).information == "perfect"


def test_a_seat_sees_its_own_draws_but_not_the_others_and_the_table_sees_them_all():
    state = random_position(dimsum.make("yum_cha", players=3, chance="explicit"), 5, 45)
    data = replay.page_data(Record.of(state, 5, NAMES[:3]))
    draws = [s["action"] for s in data["steps"] if s["action"][0].startswith("chance: draw ")]
    assert draws, "the deal is drawn step by step in explicit mode"
    for texts in draws:
        card = texts[0].removeprefix("chance: draw ")
        assert all(not text.startswith("chance: draw") for text in texts[1:])
        seen = [p for p in range(3) if card in texts[1 + p] and "hand: " in texts[1 + p]]
        assert len(seen) <= 1  # at most the seat it was dealt to sees which card it was
    # a seat's move is announced at the table: every view names it
    moves = [s["action"] for s in data["steps"][1:] if not s["action"][0].startswith("chance")]
    assert moves and all(len(set(texts)) == 1 for texts in moves)


def test_a_seat_page_holds_that_seats_view_alone_and_no_seed(tmp_path):
    state = random_position(dimsum.make("yum_cha", players=3, chance="explicit"), 7, 40)
    record = Record.of(state, 123456789, NAMES[:3])
    (tmp_path / "r.json").write_text(record.dumps())
    assert replay.main([str(tmp_path / "r.json"), "-o", str(tmp_path / "seat1.html"), "--seat", "1"]) == 0
    html = (tmp_path / "seat1.html").read_text(encoding="utf-8")
    data = _data(html)
    assert data["views"] == ["seat 1 (bo) sees"] and "123456789" not in html and "seed" not in data["title"]
    assert all(len(step["views"]) == 1 and len(step["action"]) == 1 for step in data["steps"])
    assert _seat_view(data, 1) == _seat_view(replay.page_data(record), 1)


@pytest.mark.parametrize("seat", ["3", "-1"])
def test_a_seat_outside_the_game_is_an_error_and_no_page(tmp_path, capsys, seat):
    record = Record.of(random_position(dimsum.make("pig", players=3), 1, 5), 1)
    (tmp_path / "r.json").write_text(record.dumps())
    assert replay.main([str(tmp_path / "r.json"), "-o", str(tmp_path / "p.html"), "--seat", seat]) == 1
    assert "--seat must be a seat of the record's game, 0..2" in capsys.readouterr().err
    assert not (tmp_path / "p.html").exists()


def test_the_page_is_never_written_through_a_link_at_the_output(tmp_path, capsys):
    record = Record.of(random_position(dimsum.make("pig", players=2), 1, 5), 1)
    (tmp_path / "r.json").write_text(record.dumps())
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me\n")
    (tmp_path / "page.html").symlink_to(victim)
    assert replay.main([str(tmp_path / "r.json"), "-o", str(tmp_path / "page.html")]) == 1
    assert "symbolic link" in capsys.readouterr().err
    assert victim.read_text() == "keep me\n" and (tmp_path / "page.html").is_symlink()


def test_a_fifo_as_the_record_is_refused_at_once(tmp_path, capsys):
    fifo = tmp_path / "record.json"
    os.mkfifo(fifo)  # opened the plain way, it would wait for a writer forever
    assert replay.main([str(fifo), "-o", str(tmp_path / "p.html")]) == 1
    assert "not a regular file" in capsys.readouterr().err and not (tmp_path / "p.html").exists()
