"""An interaction's token, used after the Interaction object is gone (a restart, a menu that
follows the game): its webhook, and an edit of its original response. And what a press may
carry back from the client, read without trusting it: the numbers its custom id holds (`ID`,
`SMALL`) and the values picked in a menu (`picked`, `readable`; issue #21).

Discord lets a token edit its messages for 15 minutes; discord.py offers that only on a live
`Interaction`, so this builds the same request from the token alone.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord.http import handle_message_parameters
from discord.webhook.async_ import async_context

if TYPE_CHECKING:
    from bot.client import GameBot

ID = "[0-9]{1,18}"
"""A game id in a custom id, as components' templates match it. Custom ids come back from the
client, which a bot must not trust: ASCII digits only (`\\d` also matches other scripts'
digits, which `int` reads), and at most 18 of them, so the number always fits the database's
signed 64-bit ids (2^63 is 19 digits). An id that does not fit matches no template and is
answered as a button the bot does not know."""
SMALL = "[0-9]{1,3}"
"""A menu's or page's number in a custom id (a game's choices fill a few pages at most)."""


def _values_ok(values: Any) -> bool:
    return isinstance(values, list) and all(
        isinstance(v, str | int) and not isinstance(v, bool) for v in values)


def readable(data: dict[str, Any]) -> dict[str, Any]:
    """A select's interaction data as discord.py may read it (`_refresh_state`, before any
    callback of ours runs, iterates `values` and fails on anything else): malformed values
    read as none there; the callback then refuses them through `picked`."""
    if "values" in data and not _values_ok(data["values"]):
        return {**data, "values": []}
    return data


def picked(interaction: discord.Interaction[Any]) -> list[str] | None:
    """The values chosen in a select menu, as text; None when the payload holds something
    else. They come from the client: Discord's own sends a list of the options' values, but
    anything else must not read as a choice (a menu where nothing picked means "all off" would
    read junk as that), so each menu answers None with what to pick."""
    data: dict[str, Any] = dict(interaction.data or {})  # type: ignore[arg-type]
    values = data.get("values", [])
    if not _values_ok(values):
        return None
    return [str(v) for v in values]


def token_webhook(bot: GameBot, token: str) -> discord.Webhook:
    """The interaction webhook of `token` (send follow-ups, edit or delete its messages)."""
    app_id = bot.application_id
    assert app_id is not None  # set at login, before any interaction
    return discord.Webhook.from_state(data={"id": app_id, "type": 3, "token": token},
                                      state=bot._connection)


async def edit_original(bot: GameBot, token: str, text: str,
                        view: discord.ui.View | None = None) -> None:
    """Edit `token`'s original response (the deferred reply or the pressed ephemeral menu), as
    `Interaction.edit_original_response` would; no mentions; `view=None` takes buttons away."""
    webhook = token_webhook(bot, token)
    app_id = bot.application_id
    assert app_id is not None
    with handle_message_parameters(content=text, view=view,
                                   allowed_mentions=discord.AllowedMentions.none()) as params:
        await async_context.get().edit_original_interaction_response(
            app_id, token, session=webhook.session, proxy=webhook.proxy,
            proxy_auth=webhook.proxy_auth, payload=params.payload)


async def original_response(bot: GameBot, token: str) -> dict[str, object] | None:
    """`token`'s original response message as Discord holds it (raw JSON), or None when the
    interaction was never acknowledged (Discord has no message for it: 10015, 10008)."""
    webhook = token_webhook(bot, token)
    app_id = bot.application_id
    assert app_id is not None
    try:
        data = await async_context.get().get_original_interaction_response(
            app_id, token, session=webhook.session, proxy=webhook.proxy,
            proxy_auth=webhook.proxy_auth)
    except discord.NotFound:
        return None
    return dict(data)
