"""The readable dict form of a Kuhn poker state: the core's state fields (declared in
src/dimsum_core/kuhn_poker/schema.cpp), each seat's card (None until dealt) and the betting as
OpenSpiel writes it (``"pb"``: one letter a decision, p pass, b bet), which stands for the two
fields ``decisions`` and ``bets``.

Every value is checked against its field's declared bounds and the position as a whole by the
core (``Engine::validate``), which names the field that is wrong.
"""

from __future__ import annotations

from typing import Any, Dict

from ..._schema import DictCodec, Fail, Key, integer, optional, per_player


def _encode_betting(cfg: Any, fields: Dict[str, int]) -> str:
    return "".join("b" if fields["bets"] >> i & 1 else "p" for i in range(fields["decisions"]))


def _decode_betting(cfg: Any, v: Any, fail: Fail) -> Dict[str, int]:
    if not isinstance(v, str):
        fail.type(f"got {type(v).__name__} {v!r:.40}", "a str of 'p' (pass) and 'b' (bet) is allowed")
    if set(v) - {"p", "b"} or len(v) > cfg.max_decisions:
        fail(f"got {v!r:.40}", f"up to {cfg.max_decisions} letters 'p' (pass) and 'b' (bet) are allowed")
    return {"decisions": len(v), "bets": sum(1 << i for i, ch in enumerate(v) if ch == "b")}


CODEC = DictCodec("kuhn_poker", (
    Key("cards", **per_player(optional(integer()))),
    Key("betting", encode=_encode_betting, decode=_decode_betting, fields=("decisions", "bets")),
    Key("current_player", **integer()),
    Key("rng"),
))
