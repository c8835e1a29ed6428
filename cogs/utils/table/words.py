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
_ARTICLE = re.compile(r"(?<![\w'’-])(?:a|an) ")
_WORD = re.compile(r"[A-Za-z-]+")
_AFTER_PHRASE = frozenset({
    "to", "from", "into", "in", "on", "onto", "with", "for", "at", "of", "by", "as",
    "showing"})
"""Words that may follow the counted phrase ("gives a Marble | to The Bruiser"); any other
word is part of it, and a phrase whose last word is no thing's name is not counted ("a Ghoul
arrives": two Ghouls "arrive")."""
_THINGS = frozenset({"card", "die", "token", "clue"})
"""The lower-case names a counted phrase may end in; other things are named in capitals
(a Marble, a Horror, a Haunt card)."""


def told_once(lines: list[str]) -> list[tuple[str, int]]:
    """A post's event lines with each run of the same line said once, and how many lines it
    stands for. A line whose one thing is "a …" counts it ("The Redirector discards 2 Clue
    Marbles (Hand Limit)." for two lines "… discards a Clue Marble (Hand Limit)."; stop 69's
    demo read "(Hand Limit; 2 times)"); any other says its count ("The Salvager is Drained
    (2 times).", "The Trade is called off 2 times (1 AP refunded)."), where lines alike
    filled the post (a free Trade window, FW-AMB-11; dice moving into one room). A single
    line is as it was. A game's line must read true said N times: one that names a change
    ("a presence die in the Salon goes from 1 to 2"), not an end state an object alike to
    others reaches ("the die in the Salon now shows 2", which two dice cannot both mean)."""
    runs: list[tuple[str, int]] = []
    for line in lines:
        if runs and runs[-1][0] == line:
            runs[-1] = (line, runs[-1][1] + 1)
        else:
            runs.append((line, 1))
    return [(line if n == 1 else _times(line, n), n) for line, n in runs]


_IT_TAKES_A = re.compile(r"(?:it|they|he|she) [a-z]+ (?:a|an) ")
"""A line's part after its colon that says what its head's subject did to one thing ("The
Wall Delves: it draws a Horror"): said N times, the head repeats and the thing counts."""


_THE_THING_IS = re.compile(r"The ((?:[A-Z][\w'’-]*)(?: (?:and|[A-Z][\w'’-]*))*) is (.+)")
"""A line's head whose subject is one card named by its kind: a Marble Attached or Anchored
("The Holy Symbol is Attached to Cultist"; "The Salvager is Drained" is one Investigator),
counted where nothing follows or the part after its colon says "it …" of that card."""
_PLACED = ("Attached to ", "Anchored to ")


def _times(line: str, n: int) -> str:
    m = _END.match(line)
    body, end = (m.group(1), m.group(2)) if m else (line, "")
    head, colon, tail = body.partition(": ")
    thing = _THE_THING_IS.fullmatch(head)
    if thing is not None and thing.group(2).startswith(_PLACED) and (
            not colon or tail.startswith("it ")):
        # "2 Holy Symbols are Attached to Cultist: each negates nothing (…)." (stop 70's
        # demo: a Blitz's two Holy Symbols read "The Holy Symbol is Attached to Cultist: it
        # negates nothing 2 times (…)", one card doing nothing twice).
        name = thing.group(1)
        last = name.rsplit(" ", 1)[-1]
        things = f"{n} {name[:len(name) - len(last)]}{_plural(last)} are {thing.group(2)}"
        return f"{things}: each {tail[len('it '):]}{end}" if colon else f"{things}{end}"
    if colon and _IT_TAKES_A.match(tail) and not _ARTICLE.search(head) and "(" not in head:
        # "The Wall Delves 2 times: it draws 2 Horrors." (stop 69's demo read "The Wall
        # Delves: it draws a Horror (2 times).")
        told = _counted(tail, n)
        if told is not None:
            return f"{head} {n} times: {told}{end}"
    counted = _counted(body, n)
    if counted is not None:
        return f"{counted}{end}"
    if body.endswith(")") and " (" in body:
        # "The Trade is called off 2 times (1 AP refunded).": the count belongs to the
        # sentence, the bracket stays what it was (stop 64's "(Drained) (2 times)", then
        # stop 69's "(Hand Limit; 2 times)", read as a second remark or a count of the bracket).
        head, bracket = body.split(" (", 1)
        return f"{head} {n} times ({bracket}{end}"
    return f"{body} ({n} times){end}"


def _counted(body: str, n: int) -> str | None:
    """`body` with its one "a …" counted: "discards a Clue Marble (Hand Limit)" said 2 times
    is "discards 2 Clue Marbles (Hand Limit)". None where the line has no such thing, or more
    than one "a" (which of them repeats?), or its "a" follows a colon (the line's head
    repeats: "The Wall Delves: it draws a Horror" is two Delves, not one of 2 Horrors; `_times`
    counts both where the part after the colon is the head's doing, `_IT_TAKES_A`), or
    the phrase is not a thing's name (a verb follows: "a Ghoul is placed")."""
    found = list(_ARTICLE.finditer(body))
    if len(found) != 1 or ":" in body[:found[0].start()]:
        return None
    start = found[0].end()
    words: list[re.Match[str]] = []
    at = start
    while (w := _WORD.match(body, at)) is not None and w.group() not in _AFTER_PHRASE:
        words.append(w)
        if body[w.end():w.end() + 1] != " ":
            break
        at = w.end() + 1
    if not words or len(words) > 4:
        return None
    last = words[-1]
    head = last.group()
    if body[last.end():last.end() + 1] not in ("", " ", ",", ";", ")") or not (
            head[0].isupper() or head in _THINGS) or any(
            w.group() in ("and", "or") for w in words):
        return None  # "a Ghoul's Trigger", "a Ghoul arrives", "a Clue and Force Marble"
    return (f"{body[:found[0].start()]}{n} {body[start:last.start()]}{_plural(head)}"
            f"{body[last.end():]}")


def _plural(word: str) -> str:
    if word.lower() == "die":
        return word[:-1] + "ce"
    if word.lower().endswith(("s", "x", "z", "ch", "sh")):
        return word + "es"
    if len(word) > 1 and word[-1] == "y" and word[-2].lower() not in "aeiou":
        return word[:-1] + "ies"
    return word + "s"
