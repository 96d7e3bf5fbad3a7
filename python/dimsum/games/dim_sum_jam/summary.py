"""Dim Sum Jam's rules in brief, for a model or a person about to play (dimsum.llm.rules_summary;
the MCP server's rules tool). Written from docs/rules/dim_sum_jam.md, citing its rulings and the rulebook's sections."""

SUMMARY = """\
Dim Sum Jam (docs/rules/dim_sum_jam.md; the Dim Sum Jam rulebook, Standard Game Set-up and Game Play).
Cooperative and real time: every seat wins or loses together. Goal: fulfil the VIP order cards
(the last VIP fulfilled wins) before the deck runs out or the third complaint.
A turn: play one token from your hand onto an empty icon of the same type on the required
table, then draw (Game Play, step 2). The next player must play on the table numbered like the
token just played (DSJ-16); the first play of the game is free (DSJ-10).
A fulfilled card (every icon covered) is replaced from the deck and the team chooses: flip the
hourglass or take an exotic tea, a wild token playable on any empty icon (DSJ-11, DSJ-12, DSJ-15).
Time: the hourglass runs while players act (section 4, the tick clock); when it runs out the
team gets a complaint and players may discard and refill (Game Play, case II; DSJ-5, DSJ-6).
A player who cannot play takes a complaint, lays the glass down, may discard, then stands it and
plays anywhere (case III; DSJ-7 to DSJ-9).
Hidden: nothing but the faces of the deck's cards and the bag's order (DSJ-18)."""
