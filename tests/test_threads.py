"""States used from several Python threads at once never crash the interpreter or tear the
history (on free-threaded Python each state's mutating calls hold its critical section)."""

import random
import threading

import pytest

import dimsum
from dimsum.testing import profile


@pytest.mark.parametrize("name", dimsum.games())
def test_one_state_shared_by_threads_stays_consistent(name):
    game = dimsum.make(name, **profile(name).threads)
    shared = game.new_state(5)
    errors = []
    lock = threading.Lock()  # only to pick a legal action and apply it as one step

    def writer():
        rng = random.Random(1)
        for _ in range(300):
            with lock:
                if shared.is_terminal:
                    return
                shared.apply(rng.choice(shared.legal_actions()))

    def reader(seed):
        rng = random.Random(seed)
        try:
            for _ in range(300):
                copy = shared.clone()
                history = copy.history
                copy.check()
                replay = game.new_state(5)
                for a in history:
                    replay.apply(a)
                assert replay == copy  # the history is exactly the actions that made the copy
                if not copy.is_terminal:
                    copy.apply(rng.choice(copy.legal_actions()))
        except Exception as e:  # noqa: BLE001 - reported below with its thread
            errors.append(e)

    threads = [threading.Thread(target=writer)] + [threading.Thread(target=reader, args=(s,)) for s in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
