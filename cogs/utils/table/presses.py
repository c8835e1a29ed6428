"""The play path: a press of a button or menu becomes the seat's move (`play`), answered in place;
**My hand**, **My choices** and **Full board** answered privately."""

from __future__ import annotations

import io
import logging
from typing import TYPE_CHECKING, Any

import discord

from bot import limits
from bot.limits import clip
from bot.storage import GameRecord
from bot.tables import TableError
from cogs.utils.answers import HeldAnswer
from cogs.utils.errors import answer_error, reply
from cogs.utils.pending import (
    hold_move,
    pending_for,
    pressed_label,
    refuse_if_late,
    tell_played,
)
from cogs.utils.table.components import (
    PlayPath,
    _decision_token,
    action_hash,
    action_view,
    game_of,
    panel_actions,
    serve_play_path,
)
from cogs.utils.table.delivery import delivery_for
from cogs.utils.table.menus import menu_content, menu_key
from cogs.utils.table.posts import BoardDelayed
from cogs.utils.table.summaries import answer_news
from cogs.utils.table.words import is_guided
from rules.core import Action
from rules.core.game import ALT_TEXT_LIMIT, Game, fit_words

if TYPE_CHECKING:
    from bot.client import GameBot

log = logging.getLogger(__name__)


# ---- the play path ---------------------------------------------------------------------


async def current_choice(interaction: discord.Interaction[Any], gid: int, seat: str,
                         decision: str) -> tuple[GameRecord, Game[Any, Any], Any]:
    """The game, for a press on `seat`'s components at `decision`: refused (TableError) unless
    the presser plays that seat and the decision is still the game's."""
    bot: GameBot = interaction.client  # type: ignore[assignment]
    record = await bot.storage.get_game(gid)
    if record is None:
        raise TableError("That game no longer exists.")
    game = game_of(record)
    my_seat = await bot.tables.seat_of(gid, interaction.user.id)
    if my_seat is None:
        await refuse_spectator(bot, gid, interaction.user.id)
        raise TableError("You're not playing in this game — these buttons are for its "
                         "players. You can follow along in the thread.")
    await bot.tables.came_back(gid, interaction.user.id)
    state = await bot.tables.state(gid)
    if my_seat != seat:
        # Named as every post names a seat, player and character together ("bob (the
        # Psychologist)"), never the character alone. A crafted id may name a seat the game
        # does not have: no name to look up.
        names = await delivery_for(bot).names(await bot.tables.users_of(gid))
        whose = (game.player_name(state, seat, names) if seat in state.seats
                 else "another player")
        raise TableError(f"These choices are for {whose}. "
                         "Press **My choices** to see yours.")
    if record.status != "active":
        raise TableError("This game is over; nothing more can be played in it.")
    if _decision_token(game.decision_id(state, seat), record.epoch) != decision:
        message = interaction.message
        if in_dm(interaction):
            # Its DM may be settling (held back while the game did not wait for the seat):
            # written now, so it does show the choices now, as the answer says.
            await delivery_for(bot).flush_summaries(gid, seat)
            raise TableError("That has moved on: the game changed since these buttons were "
                             "shown, so nothing was played. This message shows your choices "
                             "now (it follows every move), or press **My choices** on the "
                             "newest board post.")
        if message is not None and not message.components:
            # The press raced the board losing its buttons (another move came first).
            raise TableError("That board has moved on — use the latest board post in the "
                             "thread, or press **My choices**.")
        raise TableError("That button is from an earlier moment of the game and no longer "
                         "applies. Use the newest board post, or press **My choices**.")
    return record, game, state


def in_dm(interaction: discord.Interaction[Any]) -> bool:
    """Whether the press came from a seat's summary DM (its private control panel): a normal
    message in a DM, not an ephemeral menu."""
    message = interaction.message
    return (interaction.guild_id is None and message is not None
            and not message.flags.ephemeral)


DM_ANSWER_WITHIN = 2.0
"""Seconds a DM press waits for its move before acknowledging plainly (Discord allows 3)."""


async def press_in_dm(interaction: discord.Interaction[Any], gid: int, seat: str,
                      decision: str, h: str) -> None:
    """A press on a seat's summary DM: play it, and answer by updating that DM to the seat's
    summary and choices after the move, in the same request (`Delivery.answer_in_dm`).

    The answer is held for the move (`HeldAnswer`, 2 s at most), so a crash in those
    milliseconds leaves the press unacknowledged ("This interaction failed") and its pending
    row unanswerable; the restarted bot's catch-up then rewrites the DM to the game as stored,
    which is the player's answer."""
    bot: GameBot = interaction.client  # type: ignore[assignment]
    pending = pending_for(bot)
    try:
        # A press Discord gave up on is refused before anything is held for its answer: its
        # token takes none (stop 69).
        await refuse_if_late(interaction, game_id=gid, what=pressed_label(interaction))
        answer = HeldAnswer(interaction, DM_ANSWER_WITHIN, thinking=False)
        # Recorded before the answer, like every move (cogs/utils/pending.py); a restart's
        # news comes as a follow-up, never over the summary.
        await pending.record(interaction, game_id=gid, what=pressed_label(interaction),
                             answer="followup")
        record, game, state = await current_choice(interaction, gid, seat, decision)
        matches = [a for a in game.legal_actions(state, seat) if action_hash(a) == h]
        if not matches:
            raise TableError("That choice is no longer available; this message shows your "
                             "choices now.")
        await play(interaction, record, matches[0], expected_version=state.step,
                   dm_answer=answer)
        await answer.settle()  # nothing to update: the move still landed
        if not interaction.response.is_done():  # Discord refused every answer: say so
            await tell_played(interaction, game_id=gid, what=pressed_label(interaction))
        pending.played(interaction.token)
    except Exception as exc:
        await pending.not_played(interaction.token)
        await answer_error(interaction, exc)


async def press(interaction: discord.Interaction[Any], gid: int, seat: str, decision: str,
                h: str) -> None:
    """A button or menu press: check it is the presser's and still current, then play it."""
    bot: GameBot = interaction.client  # type: ignore[assignment]
    if in_dm(interaction):
        await press_in_dm(interaction, gid, seat, decision, h)
        return
    held: HeldAnswer | None = None
    menus = delivery_for(bot).menus
    try:
        # Recorded before the answer: a crash from here on still gets the player an answer
        # after the restart (cogs/utils/pending.py). The answer itself is held for the move's
        # result: the pressed board post or menu, edited (one request, `HeldAnswer`).
        held = await hold_move(interaction, game_id=gid, what=pressed_label(interaction))
        record, game, state = await current_choice(interaction, gid, seat, decision)
        matches = [a for a in game.legal_actions(state, seat) if action_hash(a) == h]
        if not matches:
            raise TableError("That choice is no longer available. Press **My choices** "
                             "for what you can do now.")
        message = interaction.message
        on_menu = message is not None and message.flags.ephemeral
        if on_menu and message is not None:
            # The used menu is not left behind as litter: it follows the game (this press's
            # token can edit it for 15 minutes), showing the seat's next choices, or a line
            # saying there are none, once the move is delivered (`PrivateMenus.refresh`) —
            # in this press's answer when that comes within its grace.
            await menus.keep(gid, seat, interaction.user.id, interaction.token, message.id,
                             original=True, label=game.describe(state, seat, matches[0]))
            menus.held[interaction.token] = held
        try:
            await play(interaction, record, matches[0], expected_version=state.step,
                       held=None if on_menu else held, menu=on_menu)
        finally:
            if on_menu:
                # The mover's private news rode on their menu's edit (theirs alone), or
                # could not: then their summary DM is written at once (`answer_sent`).
                lines, told = menus.carried(gid, seat)
                if lines:
                    await delivery_for(bot).answer_sent(gid, seat, lines, told)
        # Nothing took the answer (the move changed nothing this press shows): defer it.
        await held.settle()
        if not interaction.response.is_done():  # Discord refused every answer: say so
            await tell_played(interaction, game_id=gid, what=pressed_label(interaction))
        if not on_menu:
            await menus.offer(interaction, gid, seat)
        pending_for(bot).played(interaction.token)
    except Exception as exc:
        # A refused move is not "done": the menu's next refresh must not say it was.
        menus.unlabel(gid, seat)
        if held is not None:
            await held.take()
        await pending_for(bot).not_played(interaction.token)
        await answer_error(interaction, exc)
    finally:
        menus.held.pop(interaction.token, None)


async def turn_page(interaction: discord.Interaction[Any], gid: int, seat: str, decision: str,
                    page: int) -> None:
    """More…/Back: another page of `seat`'s choices. An ephemeral menu turns in place; a page
    of the public board comes to the presser alone (the board stays as everyone sees it)."""
    message = interaction.message
    dm = in_dm(interaction)
    in_place = dm or (message is not None and message.flags.ephemeral)
    try:
        if in_place:
            await interaction.response.defer()
        else:
            await interaction.response.defer(ephemeral=True, thinking=True)
        record, game, state = await current_choice(interaction, gid, seat, decision)
        # A menu pages through all the seat's choices, a DM through its private ones, the
        # board's More… through the board's.
        actions = (panel_actions(game, state, seat) if dm
                   else game.legal_actions(state, seat) if in_place
                   else game.public_actions(state, seat))
        view = action_view(gid, game, state, seat, actions, extras=False, epoch=record.epoch,
                           page=page)
        if in_place:
            await interaction.edit_original_response(view=view)
        else:
            text = game.prompt_text(state, seat) or f"Your choices, {game.seat_label(state, seat)}:"
            await reply(interaction, text, view=view)
    except Exception as exc:
        await answer_error(interaction, exc)


async def play(interaction: discord.Interaction[Any], record: GameRecord, action: Action,
               expected_version: int | None = None, held: HeldAnswer | None = None,
               dm_answer: HeldAnswer | None = None, menu: bool = False) -> None:
    """Apply the interaction user's action and deliver what happened. `held`: the press's
    answer, still open, which the board post it pressed is edited through if it can be.
    `dm_answer`: pressed on the seat's summary DM, which the press's answer updates as soon
    as the move is stored. `menu`: pressed on the seat's own private menu (**My choices**),
    whose edit after the move carries the mover's private news (`PrivateMenus.news`)."""
    bot: GameBot = interaction.client  # type: ignore[assignment]
    delivery = delivery_for(bot)
    delivery.saw(interaction.id)  # Discord's time now: which messages are old
    delivery.moved(record.id, interaction.user.id, interaction.id)
    try:
        async with delivery.move_turn(record.id):
            # The token marks the move's pending interaction as stored, in the move's
            # transaction.
            result = await bot.tables.act(record.id, interaction.user.id, action,
                                          expected_version=expected_version,
                                          interaction_token=interaction.token)
            # The move's private news first: the DM press's answer carries the presser's, and
            # so does a typed move's own answer (ephemeral: the mover's alone) unless it went
            # already in words, before the move was stored.
            typed = held is not None and held.thinking
            carry = (typed and held is not None and not held.in_words) or menu
            lines = await delivery.note_private(result.record, result.state, result.events,
                                                answered=result.seat if carry else None)
            if menu and lines:
                # The menu's edit after this move (`PrivateMenus.refresh`, an after-hook run
                # before the summary DMs are refreshed) carries them; the press reports
                # whether it did (`PrivateMenus.carried`).
                delivery.menus.news[(result.record.id, result.seat)] = (
                    len(lines), answer_news(game_of(result.record), result.state, result.seat,
                                            lines))
            if typed and held is not None:
                await held.stored(answer_news(game_of(result.record), result.state,
                                              result.seat, lines), len(lines))
            if dm_answer is not None:
                await delivery.answer_in_dm(dm_answer, result.record, result.state,
                                            result.seat)
            shown = [await delivery.after_action(result.record, result.state, result.events,
                                                 result.result, actor=result.seat,
                                                 wait_board=False, held=held, noted=True)]
            await delivery.tell_near(result)
            shown += await delivery.run_ai(record.id, wait_boards=False)
        # The boards are awaited outside the game's lock: the game's next move may be
        # applied while this board is drawn, and then one board shows both (`Delivery.show`).
        for board in shown:
            await board
    except BoardDelayed as delayed:
        # The move is stored and its board is kept: it is tried again until Discord takes it.
        if held is not None:
            await held.take()
        await reply(interaction, f"✅ Your move is recorded, but {delayed.reason}. I'll keep "
                    "trying: the board will show this move's lines as soon as Discord takes "
                    "it. `/game status` shows the board meanwhile.")
    except discord.HTTPException:
        # The move is stored: an error answer saying "nothing changed" would be a lie.
        log.warning("game %s: the move is stored but showing it failed", record.id,
                    exc_info=True)
        if held is not None:
            await held.take()
        await reply(interaction, "✅ Your move is recorded, but Discord refused part of what "
                    "I sent just now. `/game status` shows the board.")


async def refuse_spectator(bot: GameBot, gid: int, user_id: int) -> None:
    """A spectator asking for hands or choices gets told why not (TableError)."""
    if await bot.tables.is_spectator(gid, user_id):
        raise TableError("You're spectating this game: you see the public board in the thread. "
                         "Hands and choices are only for its players.")


async def show_hand(interaction: discord.Interaction[Any], gid: int) -> None:
    bot: GameBot = interaction.client  # type: ignore[assignment]
    await interaction.response.defer(ephemeral=True, thinking=True)
    record = await bot.storage.get_game(gid)
    if record is None or record.status == "lobby":
        raise TableError("This game hasn't started yet — nothing has been dealt.")
    seat = await bot.tables.seat_of(gid, interaction.user.id)
    if seat is None:
        await refuse_spectator(bot, gid, interaction.user.id)
        raise TableError("You're not playing in this game, so you hold nothing in it. "
                         "The thread shows the public board.")
    await bot.tables.came_back(gid, interaction.user.id)
    game = game_of(record)
    state = await bot.tables.state(gid)
    delivery = delivery_for(bot)
    names = await delivery.names(await bot.tables.users_of(gid))
    # What only this seat may see, in words: its status lines that the public ones lack.
    public = set(game.status_lines(state, None, names))
    mine = game.status_lines(state, seat, names)
    secret = [line for line in mine if line not in public]
    text = f"**You are {game.role_words(state, seat)}.**\n" + ("\n".join(secret) or (
        "Nothing in this game is hidden from the others right now — it's all on the board."))
    view = game.view(state, seat)
    plain = delivery.plain(names)
    view["names"] = plain
    file = await delivery.picture(record.game, view, "hand.png",
                                  fit_words(game.status_lines(state, seat, plain),
                                            ALT_TEXT_LIMIT))
    if file is not None:
        await interaction.followup.send(clip(text, limits.CONTENT), ephemeral=True, file=file)
    else:
        await interaction.followup.send(clip(text, limits.CONTENT), ephemeral=True)


async def show_full_board(interaction: discord.Interaction[Any], gid: int) -> None:
    """The whole public board, rendered once per game version however many press."""
    bot: GameBot = interaction.client  # type: ignore[assignment]
    await interaction.response.defer(ephemeral=True, thinking=True)
    record = await bot.storage.get_game(gid)
    if record is None or record.status == "lobby":
        raise TableError("This game hasn't started yet — there is no board to show.")
    game = game_of(record)
    state = await bot.tables.state(gid)
    delivery = delivery_for(bot)
    names = await delivery.names(await bot.tables.users_of(gid))
    data = await delivery.full_board(record, game, state, delivery.plain(names))
    text = f"**{game.title}** — game #{gid}: the full board now."
    if data is None:
        await interaction.followup.send(
            text + "\n" + "\n".join(game.status_lines(state, None, names)), ephemeral=True)
        return
    file = discord.File(io.BytesIO(data), filename="full-board.png",
                        description=game.alt_text(state, delivery.plain(names)))
    await interaction.followup.send(text, ephemeral=True, file=file)


async def show_choices(interaction: discord.Interaction[Any], gid: int) -> None:
    bot: GameBot = interaction.client  # type: ignore[assignment]
    # Acknowledged first: storage reads may queue behind other games' writes.
    await interaction.response.defer(ephemeral=True, thinking=True)
    record = await bot.storage.get_game(gid)
    if record is None or record.status != "active":
        raise TableError("This game isn't being played right now.")
    seat = await bot.tables.seat_of(gid, interaction.user.id)
    if seat is None:
        await refuse_spectator(bot, gid, interaction.user.id)
        raise TableError("You're not playing in this game. You can follow it in the thread.")
    await bot.tables.came_back(gid, interaction.user.id)
    game = game_of(record)
    state = await bot.tables.state(gid)
    actions = game.legal_actions(state, seat)
    if not actions:
        await reply(interaction, f"Nothing for you to do right now; {game.waiting_text(state)}")
        return
    text, view = menu_content(game, state, seat, gid, record.epoch, actions,
                              guided=is_guided(record, game))
    try:
        menu = await interaction.followup.send(text, view=view, ephemeral=True, wait=True)
    except discord.HTTPException:
        log.warning("could not answer interaction %s", interaction.id, exc_info=True)
        return
    # The deferred "thinking…" reply became the menu: it is this interaction's @original.
    await delivery_for(bot).menus.keep(gid, seat, interaction.user.id, interaction.token,
                                       menu.id, original=True,
                                       shown=menu_key(game, state, seat, record.epoch, actions))


serve_play_path(PlayPath(press=press, turn_page=turn_page, show_hand=show_hand,
                         show_choices=show_choices, show_full_board=show_full_board))
