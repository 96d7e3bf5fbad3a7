"""Runs chunks as Ray tasks, on a Ray cluster or on a local Ray instance (``pip install
"dimsum-games[ray]"``; docs/DISTRIBUTED.md). The results are the same as a local run's: each game's
seeds come from the schedule, and results are gathered by game index.

``address``: ``"local"`` (or ``""``) starts a local instance, unless this process is already
connected to one (then that one is used, and left running); ``"auto"`` joins the cluster running
on this machine; ``"host:port"`` joins the cluster whose head is there (it is checked to answer
first, so a wrong address is a quick, clear error rather than Ray's long retries).
"""

from __future__ import annotations

import socket
from typing import Any, List

from .local_backend import Needed, OnDone
from .runner import Chunk, Task, play_chunk


class RayUnavailable(RuntimeError):
    """Ray is not installed, or the cluster cannot be reached."""


def _import_ray() -> Any:
    try:
        import ray
    except ImportError:
        raise RayUnavailable('running on Ray needs Ray: pip install "dimsum-games[ray]"') from None
    return ray


def check_reachable(address: str, timeout: float = 5.0) -> None:
    """A ``host:port`` (or ``ray://host:port``) address must accept a TCP connection."""
    target = address.split("://", 1)[-1]
    host, sep, port = target.rpartition(":")
    if not sep or not port.isdigit() or not host:
        raise RayUnavailable(f"Ray address {address!r} is not host:port, 'auto' or 'local'")
    try:
        socket.create_connection((host, int(port)), timeout=timeout).close()
    except OSError as e:
        raise RayUnavailable(f"cannot reach a Ray cluster at {address!r}: {e}; start one with "
                             f"'ray start --head' (docs/DISTRIBUTED.md)") from None


def connect(address: str) -> bool:
    """Connects this process to Ray; True when this call started the connection (so should end it)."""
    ray = _import_ray()
    if ray.is_initialized():
        return False
    local = address in ("", "local")
    if not local and address != "auto":
        check_reachable(address)
    try:
        # address "local" always starts a new instance (None would join a cluster running here)
        ray.init(address="local" if local else address, include_dashboard=False, log_to_driver=False,
                 configure_logging=False)
    except Exception as e:  # Ray raises ConnectionError, RuntimeError, ValueError... for a bad cluster
        raise RayUnavailable(f"cannot connect to Ray at {address or 'a new local instance'!r}: {e}") from None
    return True


def chunk_count(games: int) -> int:
    """Four chunks for each CPU of the cluster: enough to balance the load, few enough that a task's
    overhead (milliseconds) is small next to its games."""
    ray = _import_ray()
    cpus = int(ray.cluster_resources().get("CPU", 1))
    return max(1, min(games, 4 * cpus))


def run_ray(tasks: List[Task], on_done: OnDone, needed: Needed) -> None:
    """Submits every chunk and gathers them as they finish; chunks no longer needed are cancelled."""
    ray = _import_ray()
    remote = ray.remote(play_chunk)
    pending = {remote.remote(task): task for task in tasks}
    while pending:
        finished, _ = ray.wait(list(pending), num_returns=1)
        del pending[finished[0]]
        try:
            chunk = ray.get(finished[0])
        except ray.exceptions.RayError as e:
            cause = getattr(e, "cause", None) or e
            hint = (" (every node of the cluster needs dimsum-games installed: docs/DISTRIBUTED.md)"
                    if isinstance(cause, ImportError) else "")
            raise RayUnavailable(f"a Ray task failed: {type(cause).__name__}: {str(cause).splitlines()[0]}{hint}") from None
        chunk = Chunk(*chunk)
        on_done(chunk)
        if chunk.interrupted:  # a task that was stopped (SIGINT in its worker): its games are kept
            raise KeyboardInterrupt("a Ray task was interrupted")
        for ref, task in list(pending.items()):
            if not needed(task):
                ray.cancel(ref)
                del pending[ref]
