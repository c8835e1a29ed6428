"""Rule texts by id, read from a game's bundled checklist (`rules/<game>/rules.md`).

The checklist is the project's spec: lines like `- **EX-ACT-07** [D] ... text`. `/game rules`
quotes a rule by id, and IllegalAction messages cite the same ids.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

_RULE = re.compile(r"^- \*\*(?P<id>[A-Z]+(?:-[A-Z0-9]+)+)(?P<title>[^*]*)\*\*(?P<body>.*)$")


@cache
def load_rulebook(path: Path) -> dict[str, str]:
    """Map rule id -> its text (the bullet and its indented continuation lines)."""
    rules: dict[str, str] = {}
    if not path.exists():
        return rules
    current: str | None = None
    lines: list[str] = []
    for raw in path.read_text(encoding="utf-8").splitlines():
        m = _RULE.match(raw)
        if m:
            if current:
                rules[current] = _clean(lines)
            current = m["id"]
            title = m["title"].strip().lstrip(":").strip().rstrip(".")
            lines = [f"{title}: {m['body'].strip()}" if title else m["body"].strip()]
        elif current and raw.startswith("  ") and raw.strip():
            lines.append(raw.strip())
        elif current and (not raw.strip() or raw.startswith(("#", "- "))):
            rules[current] = _clean(lines)
            current, lines = None, []
    if current:
        rules[current] = _clean(lines)
    return rules


def _clean(lines: list[str]) -> str:
    text = "\n".join(line for line in lines if line)
    return text.replace("**", "")


# The spec's source markers: [T] rulebook text, [R] our ruling, [D] design, [B] box/variant,
# [D G-04] a design note's id, {A}/{C} FW sources. Players read the rule, not its provenance.
_MARKER = re.compile(r"\s*(?:\[(?:[TRDBC](?:,[^\]]*)?|D [A-Z]+-\d+(?::[^\]]*)?)\]|\{[A-Z]\})")
_RULING = re.compile(r"\[R:\s*([^\]]*)\]")


# The Exorcism's mode tags, as the game's menus name its modes.
_MODE_NAMES = {"core": "Co-op", "OvA": "One vs All", "solo": "Solo"}
_MODE_TAGS = re.compile(r"\{(?:core|OvA|solo)\}(?:\s*(?:and\s*)?\{(?:core|OvA|solo)\})*")
# A design note's id: the Exorcism's and Fourth Wall's gaps and ambiguities ("EX-GAP-14",
# "FW-AMB-38"), The Presence's rulings, content defaults, procedures and hidden-information
# notes ("A-48", "G-10", "PR-01", "H-07", "H-L4").
_NOTE_ID = r"(?:[A-Z]+-(?:GAP|AMB)-\d+|(?:A|G|PR|H)-[A-Z]?\d+)\b"
# A pointer from a rule to the design note behind it, with what joins it to the bracket's
# other words ("(EX-GAP-14)", "(see EX-AMB-54)", "(P-TIME-07, PR-01)", "(… an option, A-12.)",
# "(… a card — G-12)"): the note is the project's reasoning, not the rule.
_NOTE_IN_BRACKET = re.compile(rf"(?:\s*[,;—–]\s*|\s+|^)(?:see\s+)?{_NOTE_ID}\.?")
_BRACKET = re.compile(r"\(([^()]*)\)")


def _drop_notes(match: re.Match[str]) -> str:
    """A bracket without its design-note pointers; gone when nothing else was in it."""
    inner = _NOTE_IN_BRACKET.sub("", match.group(1)).strip(" \n,;:—–")
    return f"({inner})" if inner else ""


def _modes(match: re.Match[str]) -> str:
    names = [_MODE_NAMES[t] for t in re.findall(r"\{(\w+)\}", match.group(0))]
    words = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    before = match.string[:match.start()].rstrip()
    after = match.string[match.end():]
    # A tag opening a sentence says which games the sentence is for: "In Co-op and Solo:".
    if (not before or before[-1] in ".:;!?]") and not after.startswith(":"):
        return f"In {words}:"
    if after.startswith(":") and (not before or before[-1] in "(.;"):
        return f"{'in' if before.endswith('(') else 'In'} {words}"
    return words


def player_text(text: str) -> str:
    """A rule's text as players read it: no source markers, no pointers to design notes,
    mode tags as the modes' names ("In Co-op and Solo: …"), "Default:" as our ruling, wrapped
    lines joined into sentences, list items kept on lines of their own ("• …")."""
    text = _RULING.sub(r"(ruling: \1)", text)
    text = _MARKER.sub("", text)
    text = _BRACKET.sub(_drop_notes, text)
    text = re.sub(r"[ \t]+([.,;:!?])", r"\1", text)  # where a whole bracket went
    text = _MODE_TAGS.sub(_modes, text)
    text = re.sub(r"\bDefault:", "Our ruling:", text)
    out: list[str] = []
    for line in text.split("\n"):
        line = line.strip()
        if not line:
            continue
        if line.startswith(("* ", "- ")):
            out.append("• " + line[2:].strip())
        elif out:
            out[-1] = f"{out[-1]} {line}"
        else:
            out.append(line)
    return "\n".join(out).strip()


def one_line(text: str) -> str:
    """A rule's text on one line (an autocomplete choice's name holds no newline)."""
    text = player_text(text).replace(":\n• ", ": ").replace("\n• ", "; ")
    return " ".join(text.split())
