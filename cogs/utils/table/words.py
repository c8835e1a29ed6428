"""How the table names its players (escaped for message text) and guides a guided table
(guided play itself lives in `cogs.utils.guide`; its names are re-exported here)."""

from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING

import discord

from cogs.utils.guide import guide_lines, is_guided

if TYPE_CHECKING:
    pass

log = logging.getLogger(__name__)

__all__ = ["AI_NAME", "escape_name", "guide_lines", "is_guided", "told_once"]


AI_NAME = "AI"
"""How an AI seat is named where no seat is meant ("AI players"); each AI seat has its own
name, `bot.tables.ai_seat_name` ("AI Shade (the Medium)")."""


def escape_name(name: str) -> str:
    """A player's display name as message text must carry it to read literally (issue #20):
    Discord renders markdown and mentions in content and embeds, so a player named
    `[x](https://evil)`, `**Ada**`, `||Ada||` or `@everyone` would otherwise become a masked
    link, bold, a spoiler or a ping in every post that names them. Markdown is escaped,
    mention syntax broken (a zero-width space after `@`), and `<` escaped so `<#…>`, `<t:…>`
    and `<:emoji:…>` stay text; a masked link loses both its brackets' and its parenthesis'
    meaning. For text only: pictures (Pillow draws the characters), alt text and button labels
    (plain text on Discord) take the name as it is (`Delivery.plain`)."""
    text = discord.utils.escape_markdown(name)
    text = discord.utils.escape_mentions(text)
    return text.replace("<", "\\<").replace("](", "]\\(")


_END = re.compile(r"^(.*?)([.!?]?)$", re.DOTALL)


def told_once(lines: list[str]) -> list[tuple[str, int]]:
    """A post's event lines with each run of the same line said once, and how many lines it
    stands for: "The Salvager trades a Marble with The Bruiser (5 times)." where five lines
    alike filled the post (a free Trade window, FW-AMB-11; dice moving into one room). A
    single line is as it was. A game's line must read true said N times: one that names a
    change ("a presence die in the Salon goes from 1 to 2"), not an end state an object alike
    to others reaches ("the die in the Salon now shows 2", which two dice cannot both mean)."""
    runs: list[tuple[str, int]] = []
    for line in lines:
        if runs and runs[-1][0] == line:
            runs[-1] = (line, runs[-1][1] + 1)
        else:
            runs.append((line, 1))
    return [(line if n == 1 else _times(line, n), n) for line, n in runs]


def _times(line: str, n: int) -> str:
    m = _END.match(line)
    body, end = (m.group(1), m.group(2)) if m else (line, "")
    if body.endswith(")"):  # "(Drained; 2 times)", not "(Drained) (2 times)" (stop 64)
        return f"{body[:-1]}; {n} times){end}"
    return f"{body} ({n} times){end}"
