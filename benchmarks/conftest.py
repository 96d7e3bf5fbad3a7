import pytest

import dimsum
import dimsum.reference

from .workloads import CONFIGS, available_games


@pytest.fixture(params=available_games())
def name(request):
    return request.param


@pytest.fixture
def game(name):
    return dimsum.make(name, **CONFIGS[name])


@pytest.fixture
def reference_game(name):
    return dimsum.reference.make(name, **CONFIGS[name])
