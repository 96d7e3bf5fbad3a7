"""dimsum._secrets: the seeds handed to outsiders come from a table secret, not from the deal."""

import pytest

from dimsum._secrets import MAX_PROTOCOL_SEED, check_secret, new_secret, secret_seed


def test_secret_seeds_are_53_bit_and_reproducible():
    secret = new_secret()
    seeds = [secret_seed(secret, seat, game) for seat in range(4) for game in range(50)]
    assert all(0 <= s <= MAX_PROTOCOL_SEED for s in seeds)
    assert max(seeds) > MAX_PROTOCOL_SEED // 4  # the 53 bits are used, not a narrow range
    assert len(set(seeds)) == len(seeds)
    assert seeds == [secret_seed(secret, seat, game) for seat in range(4) for game in range(50)]


def test_the_same_path_under_two_secrets_gives_unrelated_seeds():
    a, b = new_secret(), new_secret()
    assert a != b
    assert all(secret_seed(a, i) != secret_seed(b, i) for i in range(100))


def test_a_known_value_pins_the_derivation_on_every_platform():
    assert secret_seed("00" * 16, 1, 2) == 1888274934998248  # BLAKE2b is the same everywhere
    assert secret_seed("00" * 16, 1, 2) != secret_seed("00" * 16, 2, 1)


@pytest.mark.parametrize("bad, error", [(12, TypeError), ("xyz", ValueError), ("0" * 31, ValueError),
                                        ("0" * 33, ValueError)])
def test_a_malformed_secret_is_refused(bad, error):
    with pytest.raises(error, match="secret"):
        check_secret(bad)


@pytest.mark.parametrize("part", [-1, 1 << 64, True, 1.5, "1"])
def test_a_path_is_made_of_64_bit_non_negative_ints(part):
    with pytest.raises(ValueError, match="path"):
        secret_seed(new_secret(), part)
