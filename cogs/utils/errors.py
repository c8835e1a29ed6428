"""One place that turns every failure into exactly one answer a player can act on.

Order of precedence (python-discord's error handler is the model):
1. `IllegalAction` (the rules said no) and `TableError` (a lobby or seat mistake): the message
   itself, ephemerally, with the rule id where there is one. Nothing changed.
2. `OptionsError`: what the options accept.
3. Discord permission errors: what permission the bot lacks, and where.
4. Anything else: logged with a short id the player can quote; the player is told the game
   is unchanged (the table service persists nothing on error).
"""

from __future__ import annotations

import logging
import secrets
from typing import Any

import discord
from discord import app_commands

from bot import limits
from bot.options import OptionsError
from bot.tables import TableError
from cogs.utils.answers import HeldAnswer
from cogs.utils.pending import LateInteraction
from rules.core import IllegalAction

log = logging.getLogger(__name__)


THREAD_CLOSED = (50083, 160005)
"""Discord's refusals of a message in a locked thread ("Thread is archived", as it answers
for a locked one; "Thread is locked")."""

LOCKED_NOTE = ("(Only you see this: the thread is locked, so I can't say it there. A moderator "
               "can unlock it, or give me the **Manage Threads** permission.)")


async def reply(interaction: discord.Interaction[Any], text: str, **kwargs: Any) -> bool:
    """An ephemeral answer, whether or not the interaction was already acknowledged. Text
    longer than one message goes whole, in several (`limits.split`), never cut: the first
    answers the interaction, the rest follow it; buttons, files and embeds ride on the last.
    False if Discord refused it (logged: the caller may have another way to tell the player)."""
    kwargs.setdefault("ephemeral", True)
    pieces = limits.split(text)
    extras = {k: kwargs.pop(k) for k in ("view", "file", "files", "embed", "embeds")
              if k in kwargs}
    try:
        for i, piece in enumerate(pieces):
            more = extras if i == len(pieces) - 1 else {}
            if interaction.response.is_done():
                await interaction.followup.send(piece, **kwargs, **more)
            else:
                await interaction.response.send_message(piece, **kwargs, **more)
    except discord.Forbidden as exc:
        if kwargs.get("ephemeral") or exc.code not in THREAD_CLOSED:
            log.warning("could not answer interaction %s", interaction.id, exc_info=True)
            return False
        # A public answer in a locked thread: Discord refuses it (403 / 50083, stop 70) but
        # takes an ephemeral one, which is never in the thread. The presser is told.
        log.info("interaction %s: its thread is locked; answered privately", interaction.id)
        kwargs["ephemeral"] = True
        return await reply(interaction, f"{text}\n{LOCKED_NOTE}", **kwargs, **extras)
    except discord.HTTPException:
        log.warning("could not answer interaction %s", interaction.id, exc_info=True)
        return False
    return True


def explain(error: BaseException) -> tuple[str, bool]:
    """The player-facing text for `error`, and whether it was an expected (player) error."""
    if isinstance(error, app_commands.TransformerError) and error.__cause__ is None:
        # discord.py could not turn an option's value into what the command takes (a member
        # the payload does not describe, say): the client's fault, nothing ran.
        return ("I couldn't read one of the values you gave. Run the command again and pick "
                "each value from Discord's list."), True
    if isinstance(error, app_commands.CommandInvokeError | discord.app_commands.TransformerError):
        error = error.__cause__ or error
    if isinstance(error, IllegalAction):
        rule = f" (rule {error.rule})" if error.rule and not error.rule.startswith("CORE") else ""
        return f"{error.message}{rule}", True
    if isinstance(error, TableError | OptionsError):
        return str(error), True
    if isinstance(error, app_commands.CommandNotFound | app_commands.CommandSignatureMismatch):
        # A command name or subcommand the bot does not have (an old client, a crafted
        # payload): nothing ran.
        return ("I don't know that command. Type `/` and pick one from Discord's list "
                "(`/help` says what each does)."), True
    if isinstance(error, app_commands.CheckFailure):
        return str(error) or "You can't use that command here.", True
    if isinstance(error, discord.Forbidden):
        return ("I'm missing a permission to do that here (Discord said: "
                f"{error.text or 'Forbidden'}). Ask a server admin to check my role."), True
    code = secrets.token_hex(3)
    log.error("unexpected error %s", code, exc_info=error)
    return (f"Something went wrong on my side (error id `{code}`). Nothing in the game changed; "
            "try again, and quote the id if it keeps happening."), False


async def answer_error(interaction: discord.Interaction[Any], error: BaseException) -> None:
    held = interaction.extras.get("held")
    cause = (error.__cause__ if isinstance(error, app_commands.CommandInvokeError)
             else error)  # a typed move's, raised through its command
    if isinstance(cause, LateInteraction):
        # Discord gave up on this interaction (its player saw it fail): its token takes no
        # answer, not even a deferral, and the player was told by DM (stop 69).
        if isinstance(held, HeldAnswer):
            await held.take()
        return
    text, _ = explain(error)
    if isinstance(held, HeldAnswer):
        # An answer held open for a result (`HeldAnswer`): the error takes it (it goes first,
        # or follows the deferral already sent), so it is never answered twice.
        await held.take()
        if held.in_words:
            # The move was answered "Playing: …" before it failed: that answer says why now,
            # rather than standing beside the reason.
            try:
                await interaction.edit_original_response(content=limits.clip(
                    text, limits.CONTENT))
                return
            except discord.HTTPException:
                log.info("could not correct the answer of interaction %s", interaction.id)
    await reply(interaction, text)


async def on_app_command_error(
    interaction: discord.Interaction[Any], error: app_commands.AppCommandError
) -> None:
    await answer_error(interaction, error)
