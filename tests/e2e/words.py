"""Human words only (#14): what players read never shows an internal id or a raw value.

`raw_words(text)` lists the forbidden things in one text: seat ids (`s2`), numbered stand-ins
for people (`Player 3`, `Investigator 1`), action kinds (`manor_done`), option internals
(`pack_path`), Python values (`True`, `None`), the spec's source markers (`[T]`, `[R]`, `[D]`),
the Exorcism's grid cells (`r1c2`) and rule ids in brackets (`(FW-VIS-02: …)`; a refusal's
"(rule FW-GATE-02)" and a `/game rules` answer are where players meet rule ids on purpose).
#22 adds the jargon players still met: a die by its id, "card: action", a name said twice,
a card's field names, a Ghost's move as an arrow, the spec's tags and design notes, words the
buttons do not use, a seat named without its player, an AI seat without its name, an option
value as code; and `cut_labels` finds button labels cut at 80 characters without "…".
`scan_messages` applies it to every bot message of an emulated world — content, embeds,
button and menu labels, placeholders, option descriptions, attachment names and alt texts,
every edited version — and `scan_choices` to autocomplete answers (what a player reads: the
choice's name).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

from emulator import DiscordEmulator
from emulator.records import MessageRecord


def _kinds() -> set[str]:
    """Every action kind of every game that reads as code (snake_case)."""
    from rules.exorcism import actions as ex
    from rules.fourth_wall import actions as fw
    from rules.presence import actions as pr
    out: set[str] = set()
    for module in (ex, fw, pr):
        for name, value in vars(module).items():
            if name.isupper() and isinstance(value, str) and "_" in value:
                out.add(value)
        for kinds in module.PROMPT_ANSWERS.values():
            out.update(k for k in kinds if "_" in k)
        out.update(k for k in module.PROMPT_ANSWERS if "_" in k)
    return out


KINDS = _kinds()

PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    ("a seat id", re.compile(r"(?<![\w#@<:/-])s\d\b(?![\w-])")),
    ("a card or piece id", re.compile(r"\bp\d\.\d")),
    # The Exorcism's Haunt, Darkness, Room and Locked Room card ids ("You draw H19").
    ("an Exorcism card id", re.compile(r"\b[HDRL]\d\d\b")),
    ("a numbered player", re.compile(r"\bPlayer \d\b")),
    ("a numbered investigator", re.compile(r"\bInvestigator \d\b")),
    ("an option's internal name", re.compile(r"\bpack_path\b")),
    ("a Python value", re.compile(r"\b(?:True(?! Horror)|False|None(?! of\b))\b")),
    ("a spec marker", re.compile(r"\[[TRDCB]\]")),
    # The Exorcism's house grid is code: players find a room by its name, a Locked Room by
    # its row and column as the board picture prints them.
    ("a grid cell", re.compile(r"\br\d+c\d+\b")),
    # A rule id in brackets beside a prompt, an event or a label ("(FW-VIS-02: the team sees
    # which)", "reaches 30 (EX-OVA-11)"). Refusals name their rule deliberately as
    # "(rule FW-GATE-02)", and `/game rules` answers start with the id in bold: both pass.
    # A section id counts too ("(P-MYST)", "(P-2P)").
    ("a rule id in brackets",
     re.compile(r"[(\[](?!rule )[^()\[\]\n]*?\b(?:EX|FW|P)-[A-Z0-9]*[A-Z][A-Z0-9]*\b")),
    # The Presence's own ruling ids ("the turn ends (A-65)", "(G-09)", "(PR-03)", "(H-L4)").
    ("a ruling id in brackets",
     re.compile(r"[(\[](?!rule )[^()\[\]\n]*?\b(?:A|G|PR|H)-[A-Z]?\d+\b")),
    # #22: jargon that read as the engine's rather than the game's words.
    # A Presence die by its id and its value in brackets ("die 0 (1) in the Kitchen").
    ("a die by its id", re.compile(r"\bdie \d+ \(\d+\)")),
    # A two-action card and then the action, as "card: action" ("Move 3 / Investigate: Move
    # 3"): the action comes first, the card after it ("Move 3 (play Move 3 / Investigate)").
    ("a two-action card before its action",
     re.compile(r"\b[A-Z][\w ]*\w / [A-Z][\w ]*\w: [A-Z]")),
    # The same word twice in a row of brackets ("Betrayal (Spirit I) (betrayal)").
    ("a name said twice", re.compile(r"\b(\w{3,})\b[^()\n]{0,40}\([^()\n]+\) \(\1\)",
                                     re.IGNORECASE)),
    # A clue card named and then its trauma and room again ("Suffering: Kitchen (suffering,
    # Kitchen)").
    ("a clue card said twice", re.compile(r"\b(\w+): ([\w ]+) \(\1, \2\)", re.IGNORECASE)),
    # A card's field names rather than what they do ("Location 6, Die Value 6").
    ("a card's field name", re.compile(r"\bDie Value\b")),
    # A Ghost's move as an arrow ("Wraith → Attic"): the line says moves to or stays in.
    ("a Ghost's move as an arrow", re.compile(r"\b(?:Wraith|Bull|Devourer) → ")),
    # The spec's mode tags and template slots ("{core} {solo}", "{n}").
    ("a tag or template slot", re.compile(r"\{(?:core|OvA|solo|[a-z_]+|[A-Z])\}")),
    # The spec's design notes: "Default: …" and a pointer to one ("(EX-GAP-14)"), even in a
    # `/game rules` answer, which says the rule and our ruling, not the notes behind them.
    ("a design note", re.compile(r"\bDefault:|\((?:see )?(?:EX|FW|P)-(?:GAP|AMB)-\d+")),
    # The Fourth Wall's turn named with words its buttons do not use ("Intervene, Blitz,
    # Draw"): Blitz is a card's effect, Draw is the Search button.
    ("a turn in words the buttons do not use",
     re.compile(r"\bIntervene, Blitz\b|\bBlitz, Draw\b")),
    # A seat's choices named by the character alone ("These choices are for Psychologist."):
    # players are named as every post names them, "bob (the Psychologist)".
    ("a seat named without its player",
     re.compile(r"\bchoices are for (?!another)[^(\n]*?\.")),
    # Every AI seat has its own name ("AI Wisp (the Medium)"); a bare "AI (…)" cannot tell
    # two AI seats apart.
    ("an AI seat without its name", re.compile(r"(?<![\w-])AI \((?:the|an?)\b")),
    # An option's value as code ("Mode: one_vs_all").
    ("an option value as code",
     re.compile(r"(?<!`)\b(?:one_vs_all|true_horror|two_players|unknown_threat)\b(?!`)")),
    # A count's noun with "(s)" ("2 card(s)"): the words know the number.
    ("a plural in brackets", re.compile(r"[a-z]\(s\)")),
    # One of a thing said as many ("1 spirit cards in hand", "1 presence dice").
    ("a plural after 1", re.compile(
        r"(?<![\d.,/-])\b1 (?:[A-Za-z]+ )?(?:cards|dice|tokens|markers|points|Marbles|"
        r"actions|spaces|rounds|turns|hours|minutes|Tools|Tasks|clues|secrets|visitors|Gates|"
        r"Horrors|Lookouts|players|moves|lines|pings|posts|times|pictures|items|characters|"
        r"Actions|Wounds|Terrors|possessions|Symbols)\b")),
    # One of many with the plural verb ("1 of 5 Gates are Open"): one is.
    ("one of many as many", re.compile(r"(?<![\d.,/-])\b1 of \d+ [A-Za-z]+s are\b")),
    # A count of nothing ("draws 0 spirit cards", "(spends 0)", a recap's "0 Gates closed"):
    # the words say "no" or "nothing". A score, a time or a tally keeps its 0 ("0 of 30",
    # "Doom 0", "0 moves").
    ("a count of nothing", re.compile(
        r"\b(?:draws|spends|gains|takes) 0\b|(?<![\d.,/-])\b0 (?:[A-Za-z]+ )?[A-Za-z]+s "
        r"(?:closed|opened|completed|caused|revealed|played|put)\b|\b0 possessions\b"
        r"|\b0 (?:hope|nerve)\b")),
    # A list nested in a list ("only you and AI Ember, AI Moth and AI Raven see this").
    ("a list inside a list", re.compile(r"\bonly you and [^()\n]*, ")),
    # Many said as one ("2 Holy Relic"): the Exorcism's Tools counted.
    ("one said for many", re.compile(
        r"(?<![\d.,/-])\b(?:[2-9]|\d\d+) (?:Holy Relic|Key|Weapon|Occult Item|Detection Tool|"
        r"Marble|Gate|Horror|Lookout|Wound)\b(?!s| card)")),
    # "a" before a vowel sound ("a Occult Item is taken"): the words say "an". A word that
    # starts with a "you" or "wun" sound ("a Unique Action", "a one-off") keeps "a".
    # A sentence after a question starts with a capital ("New to X? the creator can …").
    ("a lowercase sentence", re.compile(r"\? (?!https?://)[a-z]")),
    # Two places listed without "and" ("in the Salon, the Kitchen: Walk").
    ("a list without and", re.compile(
        r"\bin the [A-Z][a-z]+(?: [A-Z][a-z]+)?, the [A-Z][a-z]+(?: [A-Z][a-z]+)?[:.]")),
    # Two named together take the plural verb ("Psychologist & Detective end the turn").
    ("one verb for two", re.compile(
        r"\b[A-Z][a-z]+ & [A-Z][a-z]+ (?:ends|plays|declines|takes|moves|wins|loses)\b")),
    # A card's kind said twice ("gains the Task Key Task 6").
    ("a Task said twice", re.compile(r"\bthe Task [A-Z][\w ]* Task \d")),
    # A Horror's state after its Symbols reads as one more Symbol ("needs Force Drained").
    ("a tag read as a Symbol", re.compile(r"\bneeds [^.|(;]*\b(?:Drained|Scourge)\b")),
    # A door's change as a setting ("The door Salon–West Bedroom: close.").
    ("a door as a setting", re.compile(r"\bThe door [^:.|]+: (?:open|close|lock|unlock)")),
    # Counted things listed without "and" ("picks up 1 Detection Tool, 1 Key.").
    ("a count list without and", re.compile(
        r"\b\d+ [A-Z][a-z]+(?: [A-Z][a-z]+)?, \d+ [A-Z][a-z]+(?: [A-Z][a-z]+)?[.;]")),
    # Names listed with "The" each time and no "and" ("Targeted: The Orphan, The Detective.").
    ("a list of The names", re.compile(r"\bThe [A-Z][a-z]+, The [A-Z][a-z]+")),
    # A clue's kind said twice ("reveals the small clue Small Clue: Action").
    ("a clue's kind said twice", re.compile(r"\bthe (\w+) clue \1 Clue\b", re.IGNORECASE)),
    # A question after a card's own colon ("the clue card Tragedy: Cellar: beneath which").
    ("two colons in a question", re.compile(r"\bcard [A-Z][\w ]*: [A-Z][\w ]+: [a-z][^.!]*\?")),
    ("a for an", re.compile(r"(?<![\w'’-])a (?!(?i:one|once)\b|[Uu]|[Ee]u)[AEIOaeio]\w")),
    ("an action kind", re.compile(r"\b(?:" + "|".join(sorted(map(re.escape, KINDS),
                                                               key=len, reverse=True))
                                  + r")\b")),
]


RULEBOOK_WORDS = ("a rule id in brackets", "a plural in brackets", "a card's field name",
                  "a count list without and", "a list of The names", "a count of nothing")
"""Checks a quoted rule is spared: these are the rulebook's own words there."""

RULE_QUOTE = re.compile(r"\*\*(?:EX|FW|P)-[A-Z]+-\d+\*\*")
"""A rule quoted by its id in bold: a `/game rules` answer or a `/… flag` notice, where the
player asked for the rule itself (its text may cite other rules in brackets)."""

RULE_COMMANDS = ("rules", "flag")
"""Commands whose autocomplete lists rules by id and text."""


LABEL_LIMIT = 80
"""Discord's limit on a button's label: a label this long was likely cut, and must say so."""


def cut_labels(message: MessageRecord) -> list[str]:
    """Button labels (of every version of `message`) cut at Discord's limit without "…": a
    player reads half a choice and cannot tell."""
    out = []
    versions = [message.components, *(h.components for h in message.history)]
    for components in versions:
        for comp in _walk(components):
            label = comp.get("label")
            # A whole sentence of exactly the limit ends as one ("Play Extra Move: Move your
            # pawn up to 2 spaces, following the normal Move rules.": 80, stop 67); a cut
            # one ends in "…" or mid-sentence.
            if comp.get("type") == 2 and isinstance(label, str) and (
                    len(label) >= LABEL_LIMIT and not label.endswith(("…", ".", "?", "!"))):
                out.append(f"a label cut short: {label!r}")
    return out


def raw_words(text: str, rules: bool = False) -> list[str]:
    """What in `text` a player should never read: `["a seat id: 's2'", ...]`. `rules`: the
    text quotes rules on the player's request, so rule ids in brackets are its content."""
    out = []
    rules = rules or bool(RULE_QUOTE.search(text))
    for what, pattern in PATTERNS:
        # A quoted rule keeps the rulebook's own wording (its "(s)", its card fields, its
        # rule ids); the spec's tags and design notes still fail.
        if rules and what in RULEBOOK_WORDS:
            continue
        for m in pattern.finditer(text):
            out.append(f"{what}: {m.group(0)!r}")
    return out


def _walk(obj: Any) -> Iterator[dict[str, Any]]:
    if isinstance(obj, dict):
        yield obj
        for v in obj.values():
            yield from _walk(v)
    elif isinstance(obj, list | tuple):
        for v in obj:
            yield from _walk(v)


def readable_parts(message: MessageRecord) -> list[str]:
    """Every text of a message (and of its earlier versions) a person reads."""
    versions = [(message.content, message.embeds, message.components, message.attachments)]
    versions += [(h.content, h.embeds, h.components, h.attachments) for h in message.history]
    parts: list[str] = []
    for content, embeds, components, attachments in versions:
        parts.append(content or "")
        for embed in _walk(embeds):
            for key in ("title", "description", "name", "value", "text"):
                if isinstance(embed.get(key), str):
                    parts.append(embed[key])
        for comp in _walk(components):
            # A select option's `value` and a button's custom id are never shown.
            for key in ("label", "placeholder", "description", "content"):
                if isinstance(comp.get(key), str):
                    parts.append(comp[key])
        for a in attachments:
            parts += [a.filename, a.description or ""]
    return parts


def scan_messages(emu: DiscordEmulator) -> list[str]:
    """Every raw word in every message the bot sent (threads, DMs, ephemeral answers)."""
    failures: list[str] = []
    for m in emu.all_messages(include_ephemeral=True, include_deleted=True):
        if m.author_id != emu.bot_user.id and not m.ephemeral:
            continue
        for part in readable_parts(m):
            for hit in raw_words(part):
                failures.append(f"{hit} in {part[:300]!r}")
        failures += cut_labels(m)
    return failures


def scan_choices(command: str, choices: list[dict[str, Any]]) -> list[str]:
    """Raw words in the names of an autocomplete answer (newlines count: a name is one line)."""
    failures = []
    for choice in choices:
        name = str(choice.get("name", ""))
        if "\n" in name:
            failures.append(f"a newline in /{command} choice {name[:100]!r}")
        rules = command.split()[-1] in RULE_COMMANDS
        failures += [f"{hit} in /{command} choice {name[:200]!r}"
                     for hit in raw_words(name, rules)]
    return failures


def dump(failures: list[str], limit: int = 25) -> str:
    """The distinct failures, most frequent first (for an assertion message)."""
    counts: dict[str, int] = {}
    for f in failures:
        counts[f] = counts.get(f, 0) + 1
    top = sorted(counts.items(), key=lambda kv: -kv[1])[:limit]
    return json.dumps([f"{n}× {f}" for f, n in top], indent=1, ensure_ascii=False)
