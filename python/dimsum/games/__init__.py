"""One Python package per game, ``dimsum.games.<name>``, for each game the C++ registry lists.

A game's package holds what is not rules logic, all derived from one validated ``Config``:

- ``__init__.py``: the named rule options with their defaults, the component data, the action
  space (names), the observation layout and the glue ``dimsum._core`` calls; the module
  protocol is ``dimsum._common.GameSpec``;
- ``state_dict.py``: the canonical dict form of a state (``to_dict``/``state_from_dict``);
- ``profile.py``: ``PROFILE``, what the shared tests and benchmarks need to know about the game
  (``dimsum.testing.profile(name)``).

The list of games is the compiled registry's: ``dimsum.games()``.
"""
