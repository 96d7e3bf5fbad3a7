"""Dim Sum Jam's observe_changes (BatchEnv's rows rewritten where they changed) against observe,
bit for bit, on jumps a BatchEnv never makes: a row of any state and seat taken to any other state
and seat, chance nodes and the set-up shuffle of the explicit mode included. The C++ side is
tests/cpp/observe_changes.cpp, built from the Dim Sum Jam sources alone; the BatchEnv side is
tests/test_batch_env_observation_rows.py."""

import subprocess

import pytest

import dimsum
from dimsum.testing import profile

from cpp.core_hooks import INCLUDE, build_check

SOURCE = INCLUDE.parent / "tests" / "cpp" / "observe_changes.cpp"

# the benchmark's and the small configuration, every conformance variant, and explicit chance
OPTIONS = ([profile("dim_sum_jam").bench, profile("dim_sum_jam").small] + list(profile("dim_sum_jam").conformance)
           + [dict(players=3, chance="explicit", extra_vips=2), dict(players=5, chance="explicit")])


@pytest.fixture(scope="module")
def observe_changes(tmp_path_factory):
    return build_check(tmp_path_factory.mktemp("observe_changes"), SOURCE, ["dim_sum_jam"])


def test_a_row_of_any_state_and_seat_changed_to_any_other_is_observe_bit_for_bit(observe_changes):
    import json

    lines = []
    for k, options in enumerate(OPTIONS):
        values = dimsum.make("dim_sum_jam", **options).config_values
        lines.append(" ".join(str(v) for v in (1000 + k, len(values), *values)))
    done = subprocess.run([str(observe_changes)], input="\n".join(lines) + "\n", capture_output=True, text=True,
                          check=True)
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(answers) == len(OPTIONS), done.stdout + done.stderr
    for options, answer in zip(OPTIONS, answers):
        assert "error" not in answer, (options, answer)
        assert answer["mismatch"] is None, (options, answer["mismatch"])
        assert answer["checks"] >= 3 * (answer["states"] - 1) > 0
