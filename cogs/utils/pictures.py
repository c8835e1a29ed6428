"""Why a post goes without its picture: the note said beside its words, and which of Discord's
refusals the words alone may still get past (a board post's and the game-over post's alike)."""

from __future__ import annotations

import discord

NO_PICTURE = "(No picture: the bot lacks the **Attach Files** permission here.)"
NO_VIEW = "(No picture: the bot lacks the **View Channel** permission here.)"
TOO_LARGE = "(No picture: Discord refused it as too large for this server.)"
NOTES = (NO_PICTURE, NO_VIEW, TOO_LARGE)
TOO_LARGE_CODE = 40005
"""Request entity too large: an upload over the server's limit (413)."""


def picture_refused(exc: discord.HTTPException) -> str | None:
    """The note a post goes without its picture with, when Discord refused the picture alone:
    Attach Files taken away (403 / 50013), or an upload over the server's limit (413 / 40005,
    a server's limit below the bot's `max_image_bytes`). None: the words would be refused
    too (stop 69: a 413 dropped the board, never tried again)."""
    if isinstance(exc, discord.Forbidden) and exc.code == 50013:
        return NO_PICTURE
    if exc.status == 413 or exc.code == TOO_LARGE_CODE:
        return TOO_LARGE
    return None
