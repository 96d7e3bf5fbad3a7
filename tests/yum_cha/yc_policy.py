"""A cheap collecting policy for Yum Cha tests: random play almost never completes a hand,
so the differential tests would never reach declaring and scoring without it."""

from dimsum.games import yum_cha as spec
from dimsum.reference.yum_cha import max_distinct_triples


def hand_value(cfg, counts):
    per_tier = [[] for _ in cfg.tier_names]
    tea_pair = 0
    for t in cfg.types:
        if t.kind == spec.KIND_DIM_SUM:
            per_tier[t.tier].append(counts[t.index])
        elif t.kind == spec.KIND_TEA and counts[t.index] >= 2:
            tea_pair = 2
    return 3 * sum(max_distinct_triples(c) for c in per_tier) + tea_pair


def chance_weights(cfg, state_dict, outcomes):
    """The weights of the outcomes of a chance node, read off the dict: a seat for the starter
    (1 each), a card type for a dealt or drawn card (its copies left in the deck)."""
    if state_dict["phase"] == "starter_draw":
        return [1] * len(outcomes)
    return [state_dict["deck"][cfg.type_names[t]] for t in outcomes]


def choose(cfg, state_dict, legal, rng, randomness=0.25):
    """An action for the player to act: declare if possible, else improve the hand, else random.
    At a chance node (explicit chance), an outcome drawn by its weight, as sampled play would."""
    if state_dict["current_player"] == -2:
        return legal[rng.draw_index(chance_weights(cfg, state_dict, legal))]
    if rng.bounded(1000) < randomness * 1000:
        return legal[rng.bounded(len(legal))]
    if cfg.declare_action in legal:
        return cfg.declare_action
    me = state_dict["current_player"]
    counts = [state_dict["hands"][me].get(t.name, 0) for t in cfg.types]
    base = hand_value(cfg, counts)
    scored = []
    for a in legal:
        if a == cfg.draw_action:
            scored.append((base + 0.5, a))
        elif a <= cfg.num_types:  # take t from the centre
            t = a - 1
            counts[t] += 1
            scored.append((hand_value(cfg, counts), a))
            counts[t] -= 1
        else:  # discard t
            t = a - cfg.discard_action(0)
            counts[t] -= 1
            scored.append((hand_value(cfg, counts), a))
            counts[t] += 1
    best = max(v for v, _ in scored)
    options = [a for v, a in scored if v == best]
    return options[rng.bounded(len(options))]
