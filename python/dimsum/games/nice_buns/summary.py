"""Nice Buns' rules in brief, for a model or a person about to play (dimsum.llm.rules_summary;
the MCP server's rules tool). Written from docs/rules/nice_buns.md, citing its rulings and the rulebook's sections."""

SUMMARY = """\
Nice Buns (docs/rules/nice_buns.md; the Nice Buns rulebook, "Setting Up", "Step One: Rolling the Dice").
Goal: be the first with three plated sets of three buns of three different colours (NB-9 win).
A turn: the roller rolls three dice (small: draw buns from the bag; medium: take a bun from the
tray or put one back; large: give, steal or swap a bun) and splits them into two groups (NB-2);
the next player chooses one group, the roller keeps the other; the dice resolve small, medium,
large, each acted by whoever holds it (NB-3 to NB-6). The chooser rolls next (NB-13).
After every change to a player's buns (NB-9): fish heads sit on the largest set (NB-7); a set of
4 or more goes back to the bag ("don't be greedy", NB-8); three buns of a colour already plated
go back; with no fish head held, every set of three of one colour is plated and is safe.
Everything is public except the order of the bag (NB-12). A decision with one legal move is
taken for you. The turn cap (max_turns) ends the game as a draw."""
