// What a hand is worth: the complete-hand test (YC-6), the declarer's score (YC-7) and the
// best takeaway assignment (YC-8). Count arithmetic per tier, no search over permutations.
#include <algorithm>

#include "engine.hpp"

namespace dimsum::yum_cha {
namespace {

struct TierCounts {
  int sum = 0, max = 0;
};

TierCounts tier_counts(const Config& c, const Counts64& hand, int tier) {
  TierCounts tc;
  for (int t = c.tier_first[tier]; t < c.tier_end[tier]; ++t) {
    const int n = hand.get(t);
    tc.sum += n;
    tc.max = std::max(tc.max, n);
  }
  return tc;
}

// Disjoint sets of three *different* dim sum from one tier: g sets fit exactly when each
// name gives at most one card a set and there are enough cards, sum(min(count, g)) >= 3g.
int max_distinct_triples(const Config& c, const Counts64& hand, int tier) {
  int g = tier_counts(c, hand, tier).sum / 3;
  for (; g > 0; --g) {
    int usable = 0;
    for (int t = c.tier_first[tier]; t < c.tier_end[tier]; ++t) usable += std::min(hand.get(t), g);
    if (usable >= 3 * g) break;
  }
  return g;
}

}  // namespace

bool is_complete_hand(const Config& c, const Counts64& hand, int hand_size) {
  if (hand_size != kHandSize + 1) return false;
  if (c.takeaway_type >= 0 && hand.get(c.takeaway_type)) return false;
  int pairs = 0, tea_cards = 0;
  for (int t = c.tea_first; t < c.tea_first + c.num_teas; ++t) {
    const int n = hand.get(t);
    tea_cards += n;
    pairs += (n == 2);
  }
  if (tea_cards != 2 || pairs != 1) return false;
  for (int tier = 0; tier < c.num_tiers; ++tier) {
    // all of a tier's cards split into sets of three different names
    const TierCounts tc = tier_counts(c, hand, tier);
    if (tc.sum % 3 != 0 || tc.max > tc.sum / 3) return false;
  }
  return true;
}

int declarer_score(const Config& c, const Counts64& hand) {
  int points = 0;
  for (int tier = 0; tier < c.num_tiers; ++tier)
    points += c.tier_points[tier] * (tier_counts(c, hand, tier).sum / 3);
  for (int t = c.tea_first; t < c.tea_first + c.num_teas; ++t)
    if (hand.get(t) == 2) return points * c.value[t];
  return 0;
}

int takeaway_score(const Config& c, const Counts64& hand) {
  int takeaways = c.takeaway_type >= 0 ? hand.get(c.takeaway_type) : 0;
  int score = 0;
  // each takeaway card claims one set; the best tiers first (tiers are independent)
  for (int k = 0; k < c.num_tiers && takeaways > 0; ++k) {
    const int tier = c.tiers_by_points[k];
    const int used = std::min(takeaways, max_distinct_triples(c, hand, tier));
    score += used * c.tier_points[tier];
    takeaways -= used;
  }
  return score;
}

}  // namespace dimsum::yum_cha
