"""Learned baselines (docs/BASELINES.md): small MLP policies in a versioned file format, played in
C++ by the ``policy`` bot (``dimsum.bots.make("policy", game, weights="shipped")``), exported
from Stable-Baselines3 (:func:`export_sb3`) and trained reproducibly (``python -m
dimsum.baselines.train``).

Modules, one job each: ``policy_file`` (the format: read, write, check against a game),
``shipped`` (the weights that come with the package), ``export`` (from an SB3 policy; needs
torch), ``train`` (the training command; needs the train extra).
"""

from __future__ import annotations

from typing import Any, Union
from pathlib import Path

from .policy_file import Policy, PolicyFileError, read
from .shipped import shipped_path

__all__ = ["Policy", "PolicyFileError", "export_sb3", "load", "read", "shipped_path"]


def load(weights: Union[str, Path], game: Any) -> Policy:
    """The policy in ``weights`` (a path, or ``"shipped"``: the one that comes with dimsum for
    ``game``'s name and player count), checked against ``game``: PolicyFileError if it is corrupt
    or made for another game, configuration or observation layout."""
    if isinstance(weights, str) and weights == "shipped":
        weights = shipped_path(game)
    elif not isinstance(weights, (str, Path)):
        raise TypeError(f"weights is a path to a policy file or 'shipped', got {type(weights).__name__}")
    policy = read(weights)
    policy.check_game(game)
    return policy


def export_sb3(model: Any, path: Union[str, Path], game: Any, vec_normalize: Any = None, source: str = "") -> Policy:
    """Writes a Stable-Baselines3 MaskablePPO ``MultiInputPolicy`` as a policy file (see export.py)."""
    from .export import export_sb3 as export

    return export(model, path, game, vec_normalize, source)
