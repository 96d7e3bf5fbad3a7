// The Yum Cha heuristic (docs/BOTS.md, "Yum Cha"): keep the cards that bring a complete hand
// closer ("Making Sets": three sets of three different dim sum of one tier and one pair of
// identical tea), weighting sets by their points ("Scoring"). Draw phase ("How to Yum Cha"):
// take a centre card when it brings the hand clearly closer (a set or the tea pair), else
// draw from the deck. Discard phase: declare when the hand is complete (YC-5), else discard
// the card whose loss hurts least. It reads only the player's own hand and the face-up centre.
#include <algorithm>

#include "../common/action_list.hpp"
#include "engine.hpp"

namespace dimsum::yum_cha {
namespace {

// Complete sets of a tier (three different names each) and the names left over towards the
// next one: g sets fit when sum(min(count, g)) >= 3g.
struct TierProgress {
  int sets = 0, partial = 0;
};

TierProgress tier_progress(const Config& c, const Counts64& hand, int tier) {
  int total = 0;
  for (int t = c.tier_first[tier]; t < c.tier_end[tier]; ++t) total += hand.get(t);
  TierProgress p;
  for (p.sets = total / 3; p.sets > 0; --p.sets) {
    int usable = 0;
    for (int t = c.tier_first[tier]; t < c.tier_end[tier]; ++t) usable += std::min(hand.get(t), p.sets);
    if (usable >= 3 * p.sets) break;
  }
  for (int t = c.tier_first[tier]; t < c.tier_end[tier]; ++t) p.partial += hand.get(t) > p.sets;
  p.partial = std::min(p.partial, 2);
  return p;
}

// How close `hand` is to a complete hand, and how much it would score: the three best sets
// count fully (more for 2-point tiers), a fourth set is a spare, names towards an unfinished
// set count a little while sets are missing; one tea pair counts with its multiplier, a lone
// tea a little, tea beyond a pair and takeaway cards (never in a complete hand, YC-6) count
// against. A few hundred operations: it runs for every card considered, in every rollout step.
double hand_value(const Config& c, const Counts64& hand) {
  int sets_by_points[16] = {};  // tier points are small (1 and 2 in the rulebook)
  int num_sets = 0, partial = 0;
  for (int tier = 0; tier < c.num_tiers; ++tier) {
    const TierProgress p = tier_progress(c, hand, tier);
    sets_by_points[std::min<int>(c.tier_points[tier], 15)] += p.sets;
    num_sets += p.sets;
    partial += p.partial;
  }
  double value = 0;
  int counted = 0;
  for (int points = 15; points >= 0 && counted < num_sets; --points)
    for (int k = 0; k < sets_by_points[points]; ++k, ++counted) value += counted < 3 ? 10.0 + 2.0 * points : 1.0;
  if (num_sets < 3) value += 3.0 * partial;

  int pair_multiplier = 0, singles = 0, tea_cards = 0;
  for (int t = c.tea_first; t < c.tea_first + c.num_teas; ++t) {
    const int n = hand.get(t);
    tea_cards += n;
    if (n >= 2) pair_multiplier = std::max<int>(pair_multiplier, c.value[t]);
    singles += n == 1;
  }
  if (pair_multiplier) {
    value += 12.0 + 2.0 * pair_multiplier - 4.0 * (tea_cards - 2);
  } else {
    value += singles ? 4.0 + 1.0 * (singles - 1) : 0.0;
  }
  if (c.takeaway_type >= 0) value -= 3.0 * hand.get(c.takeaway_type);
  return value;
}

// Gain in hand value a centre card must bring to be taken instead of an unknown card from the
// deck: more than one name towards a set (3), so a completed set or tea pair, or a card that
// saves a hand from a takeaway.
constexpr double kTakeGain = 6.0;

int draw_choice(const Config& c, const State& s, Rng& rng) {
  const Counts64& hand = s.hands[s.current];
  const double keep = hand_value(c, hand);
  double best_gain = 0;
  int best_take = -1, ties = 0;
  s.centre.for_each_present([&](int t) {
    Counts64 with = hand;
    with.add(t);
    const double gain = is_complete_hand(c, with, s.hand_size[s.current] + 1) ? 1e9 : hand_value(c, with) - keep;
    if (best_take < 0 || gain > best_gain) {
      best_gain = gain;
      best_take = t;
      ties = 1;
    } else if (gain == best_gain && rng.bounded(static_cast<uint64_t>(++ties)) == 0) {
      best_take = t;
    }
  });
  if (best_take >= 0 && (best_gain >= kTakeGain || s.deck_size == 0)) return c.take_action(best_take);
  return 0;
}

}  // namespace

int Engine::heuristic_action(const Config& c, const State& s, Rng& rng) {
  if (s.phase == kDraw) return draw_choice(c, s, rng);
  // the discard phase: the legal list already leaves out a forbidden discard (YC-3)
  const LegalActions<Engine> legal(c, s);
  if (legal[legal.size - 1] == c.declare_action()) return c.declare_action();
  const Counts64& hand = s.hands[s.current];
  double best = 0;
  int best_action = legal[0], ties = 0;
  for (int i = 0; i < legal.size; ++i) {
    Counts64 kept = hand;
    kept.sub(legal[i] - c.discard_action(0));
    const double v = hand_value(c, kept);
    if (i == 0 || v > best) {
      best = v;
      best_action = legal[i];
      ties = 1;
    } else if (v == best && rng.bounded(static_cast<uint64_t>(++ties)) == 0) {
      best_action = legal[i];
    }
  }
  return best_action;
}

}  // namespace dimsum::yum_cha
