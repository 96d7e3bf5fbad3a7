"""Helpers for Nice Buns rule tests: build exact positions as dicts (the bag is what is left)."""

from dimsum.games import nice_buns as spec

COLOURS = spec.COLOURS
KINDS = spec.KINDS

# Dice with a single face each make a position's dice fully known without rolling.
def one_face_dice(small, medium, large):
    return {"small": {"provenance": "default", "faces": [small]},
            "medium": {"provenance": "default", "faces": [medium]},
            "large": {"provenance": "default", "faces": [large]}}


def face(action, **kw):
    return dict(action=action, provenance="default", **kw)


def face_index(options, die, shows):
    """The index of the face named ``shows`` on ``die`` for a game built with ``options``."""
    cfg = spec.make_config(**options)
    d = spec.DICE.index(die)
    for i, f in enumerate(cfg.dice[d]):
        if f.name == shows:
            return i
    raise AssertionError(f"no face {shows!r} on the {die} die")


def seat(front=None, plate=(), fish_on=None):
    return {"front": dict(front or {}), "fish_on": fish_on, "plate": list(plate)}


def position(options, *, seats, tray=None, phase="split", roller=0, dice=None, split=None,
             chooser_takes=None, die="small", draws_left=0, cascade=(), turn=1, winner=None, rng=(1, 2, 3, 4),
             bag_fish=None):
    """A full state dict. ``dice`` maps die name -> face name (default: the first face of each die).

    The bag gets every bun not placed elsewhere; ``bag_fish`` may move fish heads out of the count
    check (it is only a check: the fish heads not in fronts must be in the bag).
    """
    cfg = spec.make_config(**options)
    tray = dict(tray if tray is not None else {"blue": 2, "green": 2, "red": 1, "yellow": 1})
    bag = {}
    for k, kind in enumerate(KINDS):
        total = cfg.colour_counts[k] if k < 4 else cfg.fish_heads
        used = tray.get(kind, 0) + sum(s["front"].get(kind, 0) for s in seats)
        used += 3 * sum(kind in s["plate"] for s in seats)
        bag[kind] = total - used
        assert bag[kind] >= 0, f"too many {kind} buns placed"
    dice = dice or {}
    return {
        "players": cfg.players,
        "phase": phase,
        "turn": turn,
        "roller": roller,
        "dice": {d: {"face": face_index(options, d, dice[d]) if d in dice else 0} for d in spec.DICE},
        "split": split,
        "chooser_takes": chooser_takes,
        "die": die,
        "draws_left": draws_left,
        "cascade": list(cascade),
        "bag": bag,
        "tray": tray,
        "seats": seats,
        "winner": winner,
        "rng": list(rng),
    }


def act(state, name):
    state.apply(state.parse_action(name))


def legal_names(state):
    return sorted(state.action_name(a) for a in state.legal_actions())


def front(state, p):
    return {k: c for k, c in state.to_dict()["seats"][p]["front"].items() if c}
