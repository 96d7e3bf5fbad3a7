"""``python -m dimsum bench``: the engine's speed, measured the same way in a user's CI as in this
project's (docs/BENCH.md).

- :mod:`.timing`: a workload timed over rounds, CPU time beside the wall clock, fresh seeds;
- :mod:`.workloads`: what is timed (per-move API, BatchEnv, bots, the policy's network);
- :mod:`.instructions`: instruction counts under callgrind (the perf guard's measure);
- :mod:`.suite`: every workload of every game, at a mode's sizes;
- :mod:`.formats`: text, github-action-benchmark's and pytest-benchmark's JSON.
"""

from .suite import run
from .timing import Count, Timing

__all__ = ["run", "Count", "Timing"]
