"""benchmarks/mcts_per_action.py's instruction count: the --toggle-collect pattern counts dimsum's
search once for every game, and a count that missed the search is an error, not a figure. No
valgrind here: the names are those callgrind reported for the built module."""

import fnmatch

import pytest

from benchmarks.mcts_per_action import SEARCH_FUNCTIONS, collected_instructions

ARGS = ("std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> > const&, pybind11::bytes "
        "const&, long, long, pybind11::bytes const&, long, double, double, double, std::__cxx11::basic_string<char, "
        "std::char_traits<char>, std::allocator<char> > const&, int, unsigned long, unsigned long, double, double, "
        "std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> > const&, "
        "dimsum::bots::PolicyNet const*)")
BINDING = f"dimsum::bindings::(anonymous namespace)::ismcts_search({ARGS}"
# the per-game lambda of on_game inside it: a function of its own for Nice Buns
LAMBDA = f"auto {BINDING}::{{lambda()#1}}::operator()<dimsum::nice_buns::Engine>() const"
TREE = "void dimsum::bots::detail::search_one_tree<dimsum::nice_buns::Engine, ...>(...) [clone .isra.0]"


def matches(pattern: str, name: str) -> bool:
    # valgrind's wildcards are '*' and '?', as fnmatch's (the patterns hold no '[')
    assert "[" not in pattern
    return fnmatch.fnmatchcase(name, pattern)


@pytest.mark.parametrize("side", ["nice_buns", "pig"])
def test_the_pattern_matches_the_binding_and_nothing_nested_in_it(side):
    # callgrind toggles collection on every matching function: a nested match would switch it off
    pattern = SEARCH_FUNCTIONS[side]
    assert matches(pattern, BINDING)
    assert not matches(pattern, LAMBDA)
    assert not matches(pattern, TREE)


def test_openspiel_pattern_matches_its_search():
    pattern = SEARCH_FUNCTIONS["openspiel_pig"]
    assert matches(pattern, "open_spiel::algorithms::MCTSBot::MCTSearch(open_spiel::State const&)")


def test_a_count_that_missed_the_search_is_an_error():
    assert collected_instructions("==1== Collected : 86123456\n==1==\n", 5000) == 86123456
    with pytest.raises(ValueError, match="missed the search"):
        collected_instructions("==1== Collected : 0\n", 5000)
    with pytest.raises(ValueError, match="missed the search"):
        collected_instructions("==1== Collected : 2237\n", 500)  # what Nice Buns counted before the fix
    with pytest.raises(ValueError, match="no 'Collected'"):
        collected_instructions("valgrind: no such tool\n", 5000)
