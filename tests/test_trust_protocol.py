"""The bot protocol against a hostile bot (docs/PROTOCOL.md, docs/SECURITY.md): what a program can
learn from what it is sent, and what it can do to the engine with what it writes back. Each test
does what such a bot would do; the process side (process groups, workers) is
test_trust_protocol_processes.py.

- Seeds: a bot that keeps every message and inverts the engine's seed derivation (splitmix64, a
  bijection) must not get the deal's seed back, under ``play``'s seeding or the arena's; every
  number it receives fits in 53 bits; what it receives does not depend on the seed the bot object
  was made with; a game's record keeps the secret its seeds came from, so it replays exactly.
- Names: results and records show an external bot without the machine's paths, and never a secret.
- What the bot writes: JSON nested a hundred thousand deep (hello and action), hundreds of MB on
  stderr, terminal escape sequences in its name and stderr.
"""

import json
import os
import resource
import stat
import sys
from pathlib import Path

import psutil
import pytest

import dimsum
import dimsum.arena
import dimsum.bots
import dimsum.protocol
from dimsum._secrets import MAX_PROTOCOL_SEED, new_secret
from dimsum.arena.schedule import BOT_STREAM
from dimsum.bots.external import ExternalBot
from dimsum.protocol import BotProtocolError
from dimsum.protocol.process import running
from dimsum.records import Record
from dimsum.reference.rng import GOLDEN_GAMMA, MASK64, derive_seed
from protocol_bots import build_c_bot, script, spec


@pytest.fixture(autouse=True)
def _close_bots():
    yield
    dimsum.protocol.close_all()


@pytest.fixture
def log(tmp_path, monkeypatch):
    """What the bots were sent, as messages (each test bot appends every line it reads)."""
    path = tmp_path / "sent.jsonl"
    monkeypatch.setenv("PROTOCOL_TEST_LOG", str(path))
    return lambda: [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


# -- the attacker's tools: splitmix64, and the engine's derive_seed, run backwards ----------------

def _unxorshift(y, k):
    x = y
    for _ in range(64 // k + 1):
        x = y ^ (x >> k)
    return x


def unsplitmix64(z):
    z = _unxorshift(z, 31)
    z = (z * pow(0x94D049BB133111EB, -1, 1 << 64)) & MASK64
    z = _unxorshift(z, 27)
    z = (z * pow(0xBF58476D1CE4E5B9, -1, 1 << 64)) & MASK64
    z = _unxorshift(z, 30)
    return (z - GOLDEN_GAMMA) & MASK64


def underive(seed, stream):
    """The ``s`` with ``derive_seed(s, stream) == seed``: one exists for every seed and stream."""
    return unsplitmix64(unsplitmix64(seed) ^ stream)


def test_the_attacker_s_inversion_works_on_the_engine_s_derivation():
    for s, stream in ((0, 0), (12345, 1), (MASK64, 0x424F5453), (2 ** 63 + 7, 99)):
        assert underive(derive_seed(s, stream), stream) == s


def numbers(message):
    """Every number in a message, however deep."""
    if isinstance(message, dict):
        return [n for value in message.values() for n in numbers(value)]
    if isinstance(message, list):
        return [n for value in message for n in numbers(value)]
    return [message] if isinstance(message, (int, float)) and not isinstance(message, bool) else []


# -- seeds ------------------------------------------------------------------------------------------

def test_under_play_s_seeding_the_new_game_seed_gives_no_deal_away(tmp_path, log):
    """``play`` makes the bot of seat s with derive_seed(deal, s): 24 deals, and the attacker, who
    knows its seat, inverts the seed it was sent. Before: 24 of 24 deals recovered."""
    game = dimsum.make("nice_buns", players=2)
    argv = script(tmp_path, "good")
    deals = [derive_seed(7, i) for i in range(24)]
    for deal in deals:
        state = game.new_state(deal)
        seat = state.current_player
        bot = dimsum.bots.make("external", game, seed=derive_seed(deal, seat), command=argv)
        bot.act(state)
        dimsum.protocol.close_all()
    starts = [m for m in log() if m["type"] == "new_game"]
    assert len(starts) == 24
    recovered = [underive(m["seed"], m["seat"]) for m in starts]
    assert not set(recovered) & set(deals)
    assert not {m["seed"] for m in starts} & {derive_seed(d, s) for d in deals for s in range(2)}
    assert all(0 <= m["seed"] <= MAX_PROTOCOL_SEED for m in starts)
    assert running() == 0


def test_in_the_arena_the_new_game_seed_gives_no_deal_away(tmp_path, log):
    """The arena seeds the bot of seat s in game i with derive_seed(derive_seed(seed ^ BOT_STREAM,
    i), s): the attacker tries every game index and seat it could be, inverts twice and looks for
    a deal of the tournament. Before: 6 of 6 recorded games."""
    game = dimsum.make("nice_buns", players=2)
    records = tmp_path / "records"
    results = dimsum.arena.run(game, [spec(script(tmp_path, "good")), "random"], games=6, seed=11, progress=False,
                               record_dir=records)
    deals = {json.loads(path.read_text())["seed"] for path in records.iterdir()}
    assert len(results.games) == 6 and deals
    found = 0
    for message in (m for m in log() if m["type"] == "new_game"):
        for index in range(results.schedule.games):
            tournament_seed = underive(underive(message["seed"], message["seat"]), index) ^ BOT_STREAM
            found += any(derive_seed(tournament_seed, r) in deals for r in range(results.schedule.rounds))
    assert found == 0


def test_every_number_a_bot_is_sent_fits_in_53_bits(tmp_path, log):
    """A whole tournament of every game, the bot asking for every extra: JavaScript's JSON.parse
    reads each number exactly (a 64-bit seed was rounded there, and refused by Java's parseLong)."""
    hello = '{"type": "hello", "protocol": 1, "want": ["tensor", "observed", "determinization"]}'
    for name, options in (("nice_buns", {"players": 2}), ("yum_cha", {"players": 2, "rounds": 1}),
                          ("dim_sum_jam", {"players": 2})):
        bots = [spec(script(tmp_path, "good", hello=hello))]
        if not dimsum.game_info(name).cooperative:
            bots.append("random")
        dimsum.arena.run(dimsum.make(name, **options), bots, games=2, seed=3, progress=False)
    sent = [n for m in log() for n in numbers(m)]
    assert sent and max(abs(n) for n in sent) <= MAX_PROTOCOL_SEED
    seeds = [m["seed"] for m in log() if m["type"] == "new_game"]
    assert len(set(seeds)) == len(seeds) == 2 + 2 + 4  # dim sum jam: a team of the bot, one program a seat


def test_what_a_bot_is_sent_does_not_depend_on_the_seed_it_was_made_with(tmp_path, monkeypatch):
    """The seed the arena or play makes a bot with comes from the deal; only the table secret
    reaches the program. Two bots made with different seeds and the same secret send the same
    messages, determinization bytes included; another secret, other seeds."""
    game = dimsum.make("yum_cha", players=3)
    state = game.new_state(5)
    while state.current_player < 0:
        state.apply(state.legal_actions()[0])
    hello = '{"type": "hello", "protocol": 1, "want": ["determinization"]}'
    argv = script(tmp_path, "good", hello=hello)
    secret = new_secret()
    sent = []
    for n, (seed, table) in enumerate(((1, secret), (MASK64, secret), (1, new_secret()))):
        path = tmp_path / f"log{n}.jsonl"
        monkeypatch.setenv("PROTOCOL_TEST_LOG", str(path))
        bot = ExternalBot(game, seed=seed, command=argv, secret=table)
        bot.act(state)
        bot.close()
        sent.append([json.loads(line) for line in path.read_text().splitlines() if '"hello"' not in line])
    assert sent[0] == sent[1]
    assert sent[0][0]["seed"] != sent[2][0]["seed"]
    assert sent[0][1]["determinization"] != sent[2][1]["determinization"]


def test_a_record_keeps_the_secret_that_replays_an_external_bot_s_game(tmp_path):
    """The C example (examples/protocol_bot.c, random from its new_game seed) in a tournament; each
    game's record keeps its table secret, and the bot made with that secret plays the recorded moves
    again, move for move."""
    c_bot = build_c_bot(tmp_path)
    game = dimsum.make("nice_buns", players=2)
    records = tmp_path / "records"
    dimsum.arena.run(game, [spec([c_bot]), "random"], games=4, seed=2, progress=False, record_dir=records)
    for path in sorted(records.iterdir()):
        record = Record.load(path)
        assert record.secret is not None
        seat = record.players.index(f"external:command={c_bot.name}")
        bot = ExternalBot(game, command=[str(c_bot)], secret=record.secret)
        state = game.new_state(record.seed)
        for action, _ in record.steps:
            if state.current_player == seat:
                assert bot.act(state.clone()) == action
            state.apply(action)
        bot.game_over(state)
    assert not (records / "game-000000.json").read_text().count(str(tmp_path))


def test_the_arena_s_secret_is_checked_and_kept(tmp_path):
    game = dimsum.make("nice_buns", players=2)
    with pytest.raises(ValueError, match="a table secret is 32 hex digits"):
        dimsum.arena.run(game, "random,random", games=2, secret="not a secret", progress=False)
    with pytest.raises(TypeError, match="a table secret is a string"):
        dimsum.arena.run(game, "random,random", games=2, secret=12, progress=False)
    with pytest.raises(ValueError, match="external bot parameter secret"):
        ExternalBot(game, command=script(tmp_path, "good"), secret="xyz")
    internal = dimsum.arena.run(game, "random,random", games=2, progress=False)
    assert internal.secret is None and "secret" not in internal.to_json()  # no bot took one: nothing to keep


class RefusesSecrets:
    def act(self, state):
        return state.legal_actions()[0]

    def use_table_secret(self, secret):
        raise RuntimeError("no secrets here")


def test_a_bot_whose_secret_hook_raises_is_a_failing_bot_named():
    game = dimsum.make("nice_buns", players=2)
    with pytest.raises(dimsum.arena.ArenaError, match=r"'RefusesSecrets' \(seat 1\) failed in game 0 .*"
                                                      r"use_table_secret\(\) raised RuntimeError: no secrets here"):
        dimsum.arena.run(game, ["random", RefusesSecrets()], games=2, progress=False)


# -- names -------------------------------------------------------------------------------------------

def test_results_and_records_name_an_external_bot_without_machine_paths(tmp_path):
    """The command is given with absolute paths (the interpreter's, the script's): the results JSON,
    the table and every record show neither."""
    game = dimsum.make("nice_buns", players=2)
    results = dimsum.arena.run(game, [spec(script(tmp_path, "good")), "random"], games=4, seed=1, progress=False,
                               record_dir=tmp_path / "records", json_path=tmp_path / "results.json")
    assert results.bots[0] == f"external:command={os.path.basename(sys.executable)} good_bot.py"
    texts = [(tmp_path / "results.json").read_text(), results.table()]
    texts += [path.read_text() for path in (tmp_path / "records").iterdir()]
    for text in texts:
        assert str(tmp_path) not in text and os.path.dirname(sys.executable) not in text
    assert all(Record.load(path).players.count(results.bots[0]) == 1 for path in (tmp_path / "records").iterdir())


def test_a_secret_given_in_a_spec_shows_nowhere(tmp_path):
    game = dimsum.make("nice_buns", players=2)
    spec_secret = new_secret()
    results = dimsum.arena.run(game, [spec(script(tmp_path, "good"), secret=spec_secret), "random"], games=2,
                               progress=False, record_dir=tmp_path / "records", json_path=tmp_path / "results.json")
    texts = [(tmp_path / "results.json").read_text(), results.table()]
    texts += [path.read_text() for path in (tmp_path / "records").iterdir()]
    assert all(spec_secret not in text for text in texts)
    assert results.bots[0] == f"external:command={os.path.basename(sys.executable)} good_bot.py"


# -- what a bot writes ---------------------------------------------------------------------------

def test_a_deeply_nested_action_is_the_protocol_s_error_naming_the_bot(tmp_path):
    """Before: RecursionError (in the arena: 'act() raised RecursionError', no protocol error)."""
    game = dimsum.make("nice_buns", players=2)
    bot = ExternalBot(game, command=script(tmp_path, "deep"), move_seconds=10)
    with pytest.raises(BotProtocolError, match=r"external bot 'python\S* deep_bot.py' \(test bot\) \(seat 0\) at its "
                                               r"move 0: it wrote '\{\"type\": \"action\", \"action\": \[\[\[.*, which "
                                               r"nests 100001 levels deep; at most 64 are read; expected"):
        bot.act(game.new_state(4))
    assert running() == 0
    with pytest.raises(dimsum.arena.ArenaError, match=r"bot 'external:command=python\S* deep_bot.py' \(seat 0\) "
                                                      r"failed in game 0 .*act\(\) raised BotProtocolError: .* nests "
                                                      r"100001 levels deep"):
        dimsum.arena.run(game, [spec(script(tmp_path, "deep")), "random"], games=2, progress=False)
    assert running() == 0


def test_a_deeply_nested_hello_is_the_protocol_s_error(tmp_path):
    deep = tmp_path / "deep_hello.py"
    deep.write_text("import sys\nsys.stdin.readline()\n"
                    "sys.stdout.write('[' * 200000 + ']' * 200000 + '\\n'); sys.stdout.flush()\nsys.stdin.read()\n")
    game = dimsum.make("nice_buns", players=2)
    with pytest.raises(BotProtocolError, match=r"deep_hello.py' \(seat 0\) at its move 0: it wrote '\[\[\[.*, which "
                                               r"nests 200000 levels deep; at most 64 are read; expected the bot's hello"):
        ExternalBot(game, command=[sys.executable, str(deep)], move_seconds=10).act(game.new_state(4))
    assert running() == 0


def open_file_bytes():
    """Bytes held in regular files this process has open (an unlinked temporary file included)."""
    total = 0
    for fd in os.listdir("/proc/self/fd"):
        try:
            info = os.stat(f"/proc/self/fd/{fd}")
        except OSError:
            continue
        if stat.S_ISREG(info.st_mode):
            total += info.st_size
    return total


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="counts open files through /proc")
def test_hundreds_of_mb_on_stderr_cost_neither_disk_nor_memory_and_the_end_is_quoted(tmp_path):
    """The bot writes 200 MB on stderr before each move and crashes at its third, with a last word.
    Before: all of it kept in an unlinked temporary file (400 MB after two moves)."""
    game = dimsum.make("nice_buns", players=2)
    bot = ExternalBot(game, command=script(tmp_path, "stderr_flood"), move_seconds=60)
    state = game.new_state(4)
    files, memory = open_file_bytes(), psutil.Process().memory_info().rss
    with pytest.raises(BotProtocolError) as caught:
        for _ in range(3):
            while state.current_player != 0:
                state.apply(state.legal_actions()[0])
            state.apply(bot.act(state))
            assert open_file_bytes() - files < 1 << 20
            assert psutil.Process().memory_info().rss - memory < 32 << 20
    message = str(caught.value)
    assert "at its move 2: it exited with code 5" in message and message.endswith("xxxx\nthe last word")
    assert len(message) < 1000 and running() == 0


def test_a_bot_s_name_and_stderr_cannot_drive_the_operator_s_terminal(tmp_path):
    """Escape sequences (clear the screen, retitle the window) in the hello's name and on stderr are
    shown escaped in the error, which the arena and play print."""
    hello = '{"type": "hello", "protocol": 1, "name": "\\u001b]0;owned\\u0007\\u001b[2Jevil"}'
    argv = script(tmp_path, "crash", hello=hello)
    path = Path(argv[1])
    path.write_text(path.read_text().replace("sys.stderr.write('boom", "sys.stderr.write('\\x1b[31mboom"))
    game = dimsum.make("nice_buns", players=2)
    with pytest.raises(BotProtocolError) as caught:
        ExternalBot(game, command=argv, move_seconds=10).act(game.new_state(4))
    message = str(caught.value)
    assert "\x1b" not in message and "\x07" not in message
    assert "(\\x1b]0;owned\\x07\\x1b[2Jevil)" in message and "\\x1b[31mboom: the bot gave up" in message
