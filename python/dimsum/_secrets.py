"""Seeds that may cross the trust boundary: drawn from a table's secret, never from the deal.

Every seed the engine derives *internally* comes from the deal's seed through ``derive_seed``
(splitmix64 steps): cheap, reproducible, and a bijection for a known stream. That is right where
nobody outside the operator sees the result, and wrong for anything handed to an outsider (an
external bot's ``new_game`` seed, its determinizations, an MCP session's bots): inverting the
bijection gives the deal's seed, and with it every hidden card and every future draw.

So a seed that leaves the process comes from a *table secret*: 128 bits from ``os.urandom``,
drawn once per table (or handed in by the operator to replay a run exactly), and passed through a
keyed BLAKE2b. Knowing any number of such seeds, and even the deal's seed, tells nothing of the
secret nor of the other seeds. The secret itself stays with the operator: it goes into a game's
record (written at the end) so that a run can be repeated, and into no message or view.

Seeds are cut to 53 bits, so that every JSON reader holds them exactly (a double's mantissa:
JavaScript's ``JSON.parse`` rounds anything larger, Java's ``Long.parseLong`` refuses 2**63 and up).
"""

from __future__ import annotations

import hashlib
import os
import re
import struct
from typing import Optional

SEED_BITS = 53
MAX_PROTOCOL_SEED = (1 << SEED_BITS) - 1  # 9,007,199,254,740,991: Number.MAX_SAFE_INTEGER
SECRET_BYTES = 16
_HEX = re.compile(r"^[0-9a-f]{%d}$" % (2 * SECRET_BYTES))


def new_secret() -> str:
    """A fresh table secret: 128 random bits from the operating system, as 32 lowercase hex digits."""
    return os.urandom(SECRET_BYTES).hex()


def check_secret(secret: Optional[str]) -> str:
    """``secret`` if it is a table secret (32 hex digits), a fresh one for None; ValueError or
    TypeError saying what a secret is otherwise."""
    if secret is None:
        return new_secret()
    if not isinstance(secret, str):
        raise TypeError(f"a table secret is a string of {2 * SECRET_BYTES} hex digits, got {type(secret).__name__}")
    if not _HEX.match(secret.lower()):
        raise ValueError(f"a table secret is {2 * SECRET_BYTES} hex digits (dimsum._secrets.new_secret()), "
                         f"got {secret[:40]!r}{'...' if len(secret) > 40 else ''}")
    return secret.lower()


def secret_seed(secret: str, *path: int) -> int:
    """The seed at ``path`` (non-negative ints: a seat, a game's number, a move) under ``secret``: a
    keyed BLAKE2b of the path, cut to 53 bits. The same secret and path give the same seed on every
    platform; from the seed, nothing of the secret or of another path's seed can be computed."""
    key = bytes.fromhex(check_secret(secret))
    for part in path:
        if isinstance(part, bool) or not isinstance(part, int) or not 0 <= part < 1 << 64:
            raise ValueError(f"a secret seed's path is made of ints from 0 to 2**64 - 1, got {part!r}")
    message = b"dimsum-seed" + struct.pack(f"<{len(path)}Q", *path)
    digest = hashlib.blake2b(message, key=key, digest_size=8).digest()
    return int.from_bytes(digest, "little") & MAX_PROTOCOL_SEED


def derived_secret(secret: str, index: int) -> str:
    """The table secret of table ``index`` under a parent ``secret`` (a tournament's: one table a
    game), by a keyed BLAKE2b: the same wherever the table is played; from one table's secret
    nothing of another's, nor of the parent's, can be computed."""
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < 1 << 64:
        raise ValueError(f"a table's index is an int from 0 to 2**64 - 1, got {index!r}")
    digest = hashlib.blake2b(b"dimsum-table" + struct.pack("<Q", index), key=bytes.fromhex(check_secret(secret)),
                             digest_size=SECRET_BYTES)
    return digest.hexdigest()
