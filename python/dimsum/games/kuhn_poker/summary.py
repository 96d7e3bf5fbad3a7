"""Kuhn poker's rules in brief, for a model or a person about to play (dimsum.llm.rules_summary;
the MCP server's rules tool). Written from docs/rules/kuhn_poker.md, citing its rules by id
(OpenSpiel's kuhn_poker, after Kuhn's 1950 paper, has no rulebook)."""

SUMMARY = """\
Kuhn poker (docs/rules/kuhn_poker.md: OpenSpiel's kuhn_poker).
Every player antes 1 chip (KP-1) and is dealt one card from a deck of players + 1 cards, numbered
0 (lowest) to players (highest); you see only your own card (KP-2).
Seat 0 acts first, then each seat in order: pass or bet 1 chip (KP-3). Once someone has bet, each
other seat acts once more in turn: bet to call, pass to fold (KP-4). If everyone passes, the
highest card wins the antes; otherwise the highest card among those who bet or called wins the
pot; a seat that folds loses its ante (KP-5, KP-6). Your return is the chips you win minus the
chips you put in."""
