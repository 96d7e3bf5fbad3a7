"""What a picture is drawn from, shared by the games: a player's observation cut into its named
slices (so that a player's picture is made of exactly what that player may see), and the public
facts every picture shows (who acts, how the game ended)."""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence


def observed(state: Any, player: int) -> Dict[str, List[int]]:
    """``state.observation(player)`` by slice name, each value rounded to an int (every slice a
    picture uses holds counts, one-hots or small integers)."""
    obs = state.observation(player)
    return {sl.name: [int(round(float(v))) for v in obs[sl.start:sl.stop]] for sl in state.game.observation_layout}


def one_hot(values: Sequence[int]) -> Optional[int]:
    """The index of the set entry of a one-hot slice, or None when none is set."""
    for i, v in enumerate(values):
        if v:
            return i
    return None


def ending_line(state: Any) -> Optional[str]:
    """Once the game is over: its returns and why it ended (public); None while it runs."""
    outcome = state.outcome
    if outcome is None:
        return None
    returns = ", ".join(f"{r:g}" for r in outcome.returns)
    return f"Game over: {outcome.description} Returns: {returns}."


def view_line(player: Optional[int], hidden_word: str) -> str:
    if player is None:
        return f"The whole table: every {hidden_word} shown"
    return f"Seat {player}'s view: only what seat {player} may see"


def who_acts(state: Any, phase: str, verbs: Dict[str, str], chance: str) -> str:
    """The headline's "who acts": the game over, chance (``chance`` says what it does), or the
    seat to act with its phase's verb from ``verbs`` ("acts" for a phase not listed)."""
    if state.is_terminal:
        return "the game is over"
    if state.is_chance_node:
        return chance
    return f"seat {state.current_player} {verbs.get(phase, 'acts')}"
