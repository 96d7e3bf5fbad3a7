"""Building Dim Sum Jam positions for rule tests (imported by the test files of this folder).

``position(...)`` returns a valid state dict: tokens not placed explicitly go to the bag (or to
the discard pile with ``leftover="discard"``), tables default to cards 1-7 with empty icons.
"""

from dimsum.games.dim_sum_jam import DEFAULT_CARDS, TOKEN_CODES, TYPE_CODES

ICONS = {c.number: [TYPE_CODES[y] for y in c.icons] for c in DEFAULT_CARDS}


def table(card, slots=None):
    """A table dict for card number ``card``; ``slots`` defaults to all empty."""
    icons = ICONS[card]
    return {"card": card, "icons": list(icons), "slots": list(slots) if slots else [None] * len(icons)}


def position(players=2, hands=None, tables=None, leftover="bag", **fields):
    hands = hands if hands is not None else [[] for _ in range(players)]
    tabs = [table(k + 1) for k in range(7)]
    for number, spec in (tables or {}).items():
        tabs[number - 1] = table(*spec) if isinstance(spec, tuple) else spec
    d = {
        "game": "dim_sum_jam", "players": players, "phase": "play", "active": 0, "direction": 1,
        "discarder": None, "resume": None, "required_table": 0, "opening_free_turns": 0,
        "stuck_complained": False, "free_redraws": 0, "draw_pending": False,
        "hands": [list(h) for h in hands], "bag": [], "discard": [], "tables": tabs,
        "deck": "RRRVRRRRR", "cards_out": [], "tea_supply": 2, "tea_reception": 0, "complaints": 0,
        "reverse_used": False, "clock": {"top": 1200, "capacity": 1200, "lying": False},
        "outcome": None, "rng": [1, 2, 3, 4],
    }
    d.update(fields)
    placed = set(sum(d["hands"], [])) | set(d["discard"]) | set(d["bag"])
    placed |= {s for t in tabs for s in t["slots"] if s not in (None, "tea")}
    rest = [c for c in TOKEN_CODES if c not in placed]
    d[leftover] = sorted(d[leftover] + rest, key=TOKEN_CODES.index)
    return d


def tokens(*codes):
    return list(codes)


# -- acting on positions in tests -----------------------------------------------------------------

def load(engine, d, **options):
    """The game (on the engine under test) and the state of position dict ``d``."""
    game = engine("dim_sum_jam", players=d["players"], **options)
    return game, game.state_from_dict(d)


def act(state, name, **kw):
    """Applies the action named ``name`` (extra keywords such as ticks go to apply)."""
    state.apply(state.parse_action(name), **kw)


def names(state):
    """The names of the legal actions."""
    return [state.action_name(a) for a in state.legal_actions()]
