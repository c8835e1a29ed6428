"""A bot token's shape, checked before anything heavy is imported or anything goes on the
network: `python -m bot run` refuses a malformed token in a blink (importing the client takes
about 2 s)."""

from __future__ import annotations

import re

_TOKEN_SHAPE = re.compile(r"[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+")
PORTAL = "the Bot page of your application at https://discord.com/developers/applications"


def token_problem(token: str) -> str | None:
    """Why `token` cannot be a bot token, checked before anything goes on the network (never
    quoting the token itself); None if it has a bot token's shape (three dot-joined parts)."""
    if token.lower().startswith("bot "):
        return "DISCORD_TOKEN starts with \"Bot \": give the token alone, without that word."
    if any(c.isspace() for c in token):
        return ("DISCORD_TOKEN holds spaces or line breaks, so it is not a bot token: copy it "
                f"again, alone on its line, from {PORTAL}.")
    if len(token) > 1 and token[0] in "\"'" and token[-1] == token[0]:
        return ("DISCORD_TOKEN is wrapped in quotes that became part of it: remove them "
                "(write DISCORD_TOKEN=abc.def.ghi in .env).")
    if not _TOKEN_SHAPE.fullmatch(token):
        return ("DISCORD_TOKEN is not a bot token (a bot token is three parts joined by dots): "
                f"check that you copied the token itself, not the client secret or the "
                f"application id, from {PORTAL}.")
    return None
