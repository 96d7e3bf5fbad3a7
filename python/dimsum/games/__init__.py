"""Per-game specs shared by the core glue and the reference engines.

Each module here (``dimsum.games.yum_cha`` ...) holds what is not rules logic: the named
rule options with their defaults, the component data, the action space (names) and the
observation layout, all derived from one validated ``Config``.
"""

GAMES = ("dim_sum_jam", "nice_buns", "yum_cha")
