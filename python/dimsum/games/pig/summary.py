"""Pig's rules in brief, for a model or a person about to play (dimsum.llm.rules_summary;
the MCP server's rules tool). Written from docs/rules/pig.md, citing its rules by id (OpenSpiel's pig has no rulebook)."""

SUMMARY = """\
Pig (docs/rules/pig.md: OpenSpiel's pig, the folk dice game).
Goal: be the first whose banked score reaches the target (winscore, 100 by default; PIG-5).
On your turn: roll or hold. A roll of 1 loses this turn's total and passes the turn; any other
face is added to the turn total and you decide again (PIG-3). Hold banks the turn total and
passes the turn (PIG-4). Rolling is not allowed once holding would reach the target.
Everything is public but the future rolls. The horizon (1000 decisions) ends the game with no
winner (PIG-6)."""
