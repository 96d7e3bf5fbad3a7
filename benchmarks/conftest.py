import pytest

import dimsum
import dimsum.reference

from .workloads import CONFIGS


@pytest.fixture(params=list(CONFIGS))
def name(request):
    return request.param


@pytest.fixture
def game(name):
    return dimsum.make(name, **CONFIGS[name])


@pytest.fixture
def reference_game(name):
    return dimsum.reference.make(name, **CONFIGS[name])
