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
