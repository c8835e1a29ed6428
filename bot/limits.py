"""Discord's documented length and count limits, and the one helper that fits text to them.

Discord answers 400 / 50035 "Invalid Form Body" to a request with one string over its limit,
and the whole message, menu or autocomplete answer is lost (a player sees "This interaction
failed" or no suggestions at all). So every string the bot sends goes through `clip` with the
limit named here. The numbers are Discord's documentation's; where its OpenAPI description is
looser (message content 4,000, choice values 6,000, 40 top-level components) the documented
limit for bots is the one Discord enforces and the one used here.
"""

from __future__ import annotations

ELLIPSIS = "…"

CONTENT = 2000
"""Message content (bots have no Nitro: 2,000, not the 4,000 the OpenAPI allows)."""
CHOICE_NAME = 100
CHOICE_VALUE = 100
"""String value of an autocomplete or fixed choice (the OpenAPI says 6,000; Discord 100)."""
CHOICES = 25
BUTTON_LABEL = 80
SELECT_LABEL = 100
SELECT_VALUE = 100
SELECT_DESCRIPTION = 100
SELECT_OPTIONS = 25
PLACEHOLDER = 150
CUSTOM_ID = 100
ACTION_ROWS = 5
ROW_COMPONENTS = 5
EMBED_TITLE = 256
EMBED_DESCRIPTION = 4096
EMBED_FIELDS = 25
EMBED_FIELD_NAME = 256
EMBED_FIELD_VALUE = 1024
EMBED_FOOTER = 2048
EMBED_AUTHOR = 256
EMBED_TOTAL = 6000
ATTACHMENT_DESCRIPTION = 1024
THREAD_NAME = 100
CHANNEL_NAME = 100
COMMAND_DESCRIPTION = 100
MODAL_TITLE = 45

EXCERPT = 40
"""How much of a player's own typing an error message quotes back."""


def clip(text: str, limit: int) -> str:
    """`text` cut to at most `limit` characters, ending in "…" when something was cut."""
    if len(text) <= limit:
        return text
    if limit <= len(ELLIPSIS):
        return text[:limit]
    return text[: limit - len(ELLIPSIS)].rstrip() + ELLIPSIS


def excerpt(text: str, limit: int = EXCERPT) -> str:
    """A short quote of what a player typed, for an error message that explains it: one line,
    backticks taken out (it goes between backticks), clipped to `limit`."""
    flat = " ".join(text.replace("`", "'").split())
    return clip(flat, limit)


def split(text: str, limit: int = CONTENT) -> list[str]:
    """`text` in as few pieces of at most `limit` characters as it goes into, nothing lost:
    each cut falls at the last line break that fits, else the last space, else mid-word. For
    an answer that must reach the player whole (a rule's full text, issue #20), one message
    each."""
    pieces: list[str] = []
    rest = text.strip()
    while len(rest) > limit:
        cut = rest.rfind("\n", 0, limit + 1)
        if cut <= 0:
            cut = rest.rfind(" ", 0, limit + 1)
        if cut <= 0:
            cut = limit
        pieces.append(rest[:cut].rstrip())
        rest = rest[cut:].strip()
    if rest or not pieces:
        pieces.append(rest)
    return pieces
