"""Every string the bot sends is fitted to Discord's limits in one place (`bot.limits.clip`),
with the limit named there: no bare `[:2000]`-style cut hides in the Discord layer, where a
wrong number means a 400 from Discord and a lost answer (issue #12, item 10)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# A slice by one of Discord's limits (or the old near-misses of them), written as a number.
BARE_CUT = re.compile(r"\[:\s*(25|45|80|90|100|150|256|1000|1024|1990|2000|4000|4096|6000)\s*\]")


def test_no_bare_length_cuts_in_the_discord_layer() -> None:
    files = [*ROOT.glob("cogs/**/*.py"),
             *(p for p in ROOT.glob("bot/*.py") if p.name != "limits.py")]
    assert files
    found = [f"{p.relative_to(ROOT)}:{n}: {line.strip()}"
             for p in files for n, line in enumerate(p.read_text().splitlines(), 1)
             if BARE_CUT.search(line)]
    assert not found, "use bot.limits.clip with a named limit:\n" + "\n".join(found)
