"""How a finished Yum Cha game ended (``state.outcome``), read off its state fields.

The game always ends after its last round (YC-13). The fields keep each seat's declarations, so
the number of rounds won by declaring Yum Cha, and by whom, is known; every other round was a
washout (the deck ran out, YC-9, or the turn cap was reached, YC-10). Only the last round's end
is still visible in detail: its declarer (``last_declarer``), or an empty deck, or ``turn`` at
the cap.

Reasons: ``"declared"`` (at least one round was won by declaring) and ``"all_washouts"`` (no round
was; uniform random play practically never completes a hand, so this is how such games end).
"""

from __future__ import annotations

from typing import Any, List, Mapping, Sequence, Tuple


def winners(cfg: Any, fields: Mapping[str, Any]) -> Tuple[int, ...]:
    """YC-13: the highest total pays the bill; ties share it, or are broken by declarations and
    then the best round (tie_break option)."""
    def key(p: int) -> Tuple[int, ...]:
        if cfg.options["tie_break"] == "share":
            return (fields["scores"][p],)
        return (fields["scores"][p], fields["declarations"][p], fields["best_round"][p])

    best = max(key(p) for p in range(cfg.players))
    return tuple(p for p in range(cfg.players) if key(p) == best)


def _seats(seats: Sequence[int]) -> str:
    names = [f"seat {p}" for p in seats]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _times(n: int) -> str:
    return {1: "once", 2: "twice"}.get(n, f"{n} times")


def _last_round_end(cfg: Any, fields: Mapping[str, Any]) -> str:
    """Why the last round ended, as far as the fields tell."""
    if fields["last_declarer"] >= 0:
        return f"seat {fields['last_declarer']} declared Yum Cha"
    cap = cfg.options["max_turns_per_round"]
    if cfg.options["deck_out"] == "washout" and sum(fields["deck"]) == 0:
        return "the deck ran out"
    if fields["turn"] == cap:
        return f"it reached the {cap}-turn cap"
    return "it was a washout"


def ending(cfg: Any, fields: Mapping[str, Any]) -> Tuple[str, str, Tuple[int, ...]]:
    rounds = cfg.options["rounds"]
    declarations: List[int] = list(fields["declarations"])
    declared = sum(declarations)
    washouts = rounds - declared
    won = winners(cfg, fields)
    points = fields["scores"][won[0]]
    rounds_text = f"{rounds} round" + ("" if rounds == 1 else "s")
    if declared:
        reason = "declared"
        by = ", ".join(f"seat {p} {_times(n)}" for p, n in enumerate(declarations) if n)
        story = f"Yum Cha was declared in {declared} of {rounds_text} ({by})"
        if washouts:
            story += f" and {washouts} washed out"
    else:
        reason = "all_washouts"
        every = {1: "the round", 2: "both rounds"}.get(rounds, f"all {rounds_text}")
        story = f"nobody declared Yum Cha: {every} washed out"
        story += ", so only takeaway sets scored"
    story += f"; the last round ended because {_last_round_end(cfg, fields)}"
    if len(won) == 1:
        result = f"seat {won[0]} pays the bill (wins) with {points} points"
    else:
        result = f"{_seats(won)} tie on {points} points and share the win"
    return reason, f"After {rounds_text}, {story}. {result[0].upper()}{result[1:]}.", won
