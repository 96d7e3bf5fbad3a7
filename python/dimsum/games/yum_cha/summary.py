"""Yum Cha's rules in brief, for a model or a person about to play (dimsum.llm.rules_summary;
the MCP server's rules tool). Written from docs/rules/yum_cha.md, citing its rulings and the rulebook's sections."""

SUMMARY = """\
Yum Cha (docs/rules/yum_cha.md; the Yum Cha rulebook, its Setup and How to Yum Cha).
Goal: after all rounds (4 by default) have the highest point total ("pay the bill", YC-13).
Setup: ten cards are dealt to each player; the rest is the deck; the centre is a face-up pool (YC-1).
A turn is two moves: first draw from the deck or take any card of the centre (YC-1, YC-2), then
discard one card to the centre or, holding a complete hand, declare Yum Cha (YC-4, YC-5).
A complete hand is exactly 11 cards: three sets (three different dim sum of one tier) and one
pair of identical tea; a takeaway card is never part of it (YC-6). The declarer scores the sum
of its sets' tier points (Small, Mid, Big, Dessert 1; Special, Super, Top 2) times the tea
pair's multiplier (YC-7); the others score only their takeaway sets (YC-8).
Hidden: the other hands and the deck. Public: the centre, hand sizes, the deck size, and the
cards a player took from the centre until a copy of it is discarded (YC-14).
A round also ends when the deck runs out (a washout by default, YC-9) or at the turn cap (YC-10)."""
