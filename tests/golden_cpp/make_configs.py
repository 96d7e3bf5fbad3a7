"""Writes configs.txt, the golden program's configurations, from the Python game packages.

Each line: label, game, seed, the options (JSON, for the Python twin tests/test_golden_bytes.py)
and the config as the core reads it (Game.config_values: its count, then the values), so that the
C++ program (golden.cpp) builds exactly the game ``dimsum.make(game, **options)`` builds, without
Python. Run it when a game's options or config packing change (then `.ci/golden --update`):

    PYTHONPATH=python python tests/golden_cpp/make_configs.py
"""

from __future__ import annotations

import json
from pathlib import Path

import dimsum

HERE = Path(__file__).resolve().parent

# Every game in both chance modes, and a few rule variants; seeds fixed once.
CONFIGS = [
    ("pig_sampled", "pig", 11, {}),
    ("pig_explicit", "pig", 12, {"players": 3, "winscore": 30, "chance": "explicit"}),
    ("yum_cha_sampled", "yum_cha", 21, {}),
    ("yum_cha_explicit", "yum_cha", 22, {"players": 3, "chance": "explicit"}),
    ("yum_cha_variant", "yum_cha", 23, {"players": 2, "auto_declare": True, "forbid_immediate_return": True}),
    ("nice_buns_sampled", "nice_buns", 31, {}),
    ("nice_buns_explicit", "nice_buns", 32, {"players": 3, "chance": "explicit"}),
    ("nice_buns_variant", "nice_buns", 33, {"players": 5, "manual_plating": True, "fish_tiebreak": "colour_order"}),
    ("dim_sum_jam_sampled", "dim_sum_jam", 41, {}),
    ("dim_sum_jam_explicit", "dim_sum_jam", 42, {"players": 3, "extra_vips": 2, "chance": "explicit"}),
    ("dim_sum_jam_variant", "dim_sum_jam", 43, {"players": 2, "reverse_variant": True, "single_hand": True}),
]


def line(label: str, game: str, seed: int, options: dict) -> str:
    values = dimsum.make(game, **options).config_values
    text = json.dumps(options, separators=(",", ":"), sort_keys=True)
    assert " " not in text, "options are one word of the line"
    return " ".join([label, game, str(seed), text, str(len(values))] + [str(v) for v in values])


def main() -> None:
    lines = ["# label game seed options n values... (written by make_configs.py)"]
    lines += [line(*config) for config in CONFIGS]
    (HERE / "configs.txt").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
