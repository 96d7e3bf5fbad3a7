from typing import Any, Dict, List, Sequence, Tuple

import numpy as np

def random_playouts(game: str, config_ints: Sequence[int], n_games: int, seed: int,
                    threads: int = 1) -> Tuple[np.ndarray, np.ndarray]: ...
def rng_vectors(seed: int, n: int, bounds: Sequence[int], counts: Sequence[int]) -> Dict[str, Any]: ...
