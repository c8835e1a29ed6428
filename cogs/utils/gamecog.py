"""Slash commands for a game, built from its families of actions.

A game cog declares its subcommands as families of action kinds (`move` → {"move"}); each
subcommand takes one optional `choice` whose autocomplete lists the caller's legal actions of
that family, labelled with `Game.describe`. Without a choice, a single legal action is played
at once and several are offered as buttons. No rule logic here: legality is the engine's.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot import limits
from bot.limits import clip, excerpt
from bot.tables import TableError
from cogs.utils.answers import HeldAnswer, in_time
from cogs.utils.errors import reply
from cogs.utils.pending import command_label, hold_move, pending_for, tell_played
from cogs.utils.table import action_hash, action_view, delivery_for, game_of, play
from cogs.utils.talk import group_of, table_commands
from rules.core import Action
from rules.core.game import Game, join_words

if TYPE_CHECKING:
    from bot.client import GameBot
    from bot.storage import GameRecord


@dataclass(frozen=True)
class Family:
    """One subcommand: its name, help text, and the action kinds it plays."""

    name: str
    description: str
    kinds: frozenset[str]


async def _context(interaction: discord.Interaction[Any],
                   game_name: str) -> tuple[GameRecord, str, Any]:
    bot: GameBot = interaction.client  # type: ignore[assignment]
    channel = interaction.channel
    record = await bot.storage.find_game_by_thread(channel.id) if channel else None
    if record is None:
        raise TableError("There's no game in this channel. Run this inside the thread of a "
                         "game you're playing (`/game list` shows them).")
    if record.game != game_name:
        raise TableError(f"This thread's game is {game_of(record).title}: its commands are "
                         f"`/{group_of(record.game)} …`.")
    if record.status != "active":
        raise TableError("This game isn't being played right now "
                         f"({record.status}).")
    seat = await bot.tables.seat_of(record.id, interaction.user.id)
    if seat is None:
        raise TableError("You're not playing in this game. You can follow it in the thread.")
    state = await bot.tables.state(record.id)
    return record, seat, state


async def _suggestions_context(interaction: discord.Interaction[Any],
                               game_name: str) -> tuple[GameRecord, str, Any] | None:
    """What an autocomplete may show from: the thread's game, the caller's seat and the
    state as last stored, read without the game's lock (a move, an AI turn or a board may
    hold it for seconds; the command checks its choice again). None: nothing to suggest
    (no game here, or the caller is not seated in it)."""
    bot: GameBot = interaction.client  # type: ignore[assignment]
    channel = interaction.channel
    record = await bot.storage.find_game_by_thread(channel.id) if channel else None
    if record is None or record.game != game_name or record.status != "active":
        return None
    seat = await bot.tables.seat_of(record.id, interaction.user.id)
    if seat is None:
        return None
    return record, seat, await bot.tables.peek_state(record.id)


def _family_actions(record: GameRecord, seat: str, state: Any,
                    family: Family) -> list[Action]:
    game = game_of(record)
    return [a for a in game.legal_actions(state, seat) if a.kind in family.kinds]


def make_command(game_name: str, family: Family, group: str,
                 families: list[Family] | None = None) -> app_commands.Command[Any, Any, Any]:
    """`/<group> <family>`; `families` its group's, named when this one does nothing now."""
    siblings = families or [family]

    async def callback(interaction: discord.Interaction[Any], choice: str | None = None) -> None:
        # Only the move's own record comes before the answer, so a crash never leaves the
        # player unanswered. The answer is the move's result ("Done: …", one request) when
        # the move is played and shown within the grace; else its words ("Playing: …", one
        # request) once it is chosen, or "thinking…" when even that is late (storage reads
        # may queue behind other games' writes under load, and Discord's 3-second clock is
        # running) and the result follows it. A busy bot does not wait (`HeldAnswer`).
        held = await hold_move(interaction, game_id=None,
                               what=command_label(interaction, choice), thinking=True)
        pending = pending_for(interaction.client)  # type: ignore[arg-type]
        try:
            played = await _choose_and_play(interaction, game_name, family, choice, held)
        except Exception:
            await held.take()  # the error answer goes first, or follows the deferral
            await pending.not_played(interaction.token)
            raise
        if played:
            pending.played(interaction.token)
        else:
            await pending.not_played(interaction.token)

    async def _choose_and_play(interaction: discord.Interaction[Any], game_name: str,
                               family: Family, choice: str | None, held: HeldAnswer) -> bool:
        """Play the chosen action (True), or offer the family's actions as buttons."""
        record, seat, state = await _context(interaction, game_name)
        game = game_of(record)
        actions = _family_actions(record, seat, state, family)
        if not actions:
            if not game.may_act(state, seat):
                raise TableError(f"It's not your move: {game.waiting_text(state)}")
            raise TableError(_cannot(game, state, seat, family, siblings, group))
        chosen: Action | None = None
        if choice:
            wanted = choice.strip().lower()
            for action in actions:
                if action_hash(action) == choice or game.describe(
                        state, seat, action).lower() == wanted:
                    chosen = action
                    break
            if chosen is None:
                raise TableError(f"That isn't something you can {family.name} now. Pick one "
                                 "from the list that appears as you type. (You wrote "
                                 f"`{excerpt(choice)}`.)")
        elif len(actions) == 1:
            chosen = actions[0]
        if chosen is None:
            await held.take()
            await reply(interaction, game.prompt_text(state, seat) or "Choose one:",
                        view=action_view(record.id, game, state, seat, actions, extras=False,
                                         epoch=record.epoch))
            return False
        described = game.describe(state, seat, chosen)
        # Legal, and about to be stored: a busy bot answers with these words now (one request,
        # final) instead of keeping the player's 3 seconds waiting on the result.
        await held.words(f"Playing: {described}. The board in the thread shows it in a "
                         "moment.")
        delivery = delivery_for(interaction.client)  # type: ignore[arg-type]
        told = False
        try:
            await play(interaction, record, chosen, expected_version=state.step, held=held)
            await held.take()
            told = held.news_sent
            if not held.in_words:
                # The mover's private news (the card they drew, what they hold now) rides on
                # this answer, theirs alone: their summary DM need not be written for it now.
                told = await reply(interaction, f"Done: {described}."
                                   + (f"\n{held.news}" if held.news else ""))
        finally:
            if held.news_lines:
                # Not carried (Discord refused the answer, or it went in words before the
                # move was stored): the summary DM is written at once instead.
                await delivery.answer_sent(record.id, seat, held.news_lines, told)
        if not interaction.response.is_done():  # Discord refused every answer: say so
            await tell_played(interaction, game_id=record.id,
                              what=game.describe(state, seat, chosen))
        elif not told and not held.in_words:
            # "thinking…" and nothing after it: Discord refused the "Done: …" (the token
            # expired, a 5xx run), and ends the wait with "The application did not respond"
            # (stop 69).
            await tell_played(interaction, game_id=record.id,
                              what=game.describe(state, seat, chosen),
                              shown="The application did not respond")
        return True

    async def autocomplete(interaction: discord.Interaction[Any],
                           current: str) -> list[app_commands.Choice[str]]:
        return await in_time(interaction, suggest(interaction, current))

    async def suggest(interaction: discord.Interaction[Any],
                      current: str) -> list[app_commands.Choice[str]]:
        try:
            context = await _suggestions_context(interaction, game_name)
        except TableError:
            return []
        if context is None:
            return []
        record, seat, state = context
        game = game_of(record)
        wanted = current.lower()
        out = []
        for action in _family_actions(record, seat, state, family):
            label = game.describe(state, seat, action)
            if wanted in label.lower():
                out.append(app_commands.Choice(name=clip(label, limits.CHOICE_NAME),
                                               value=action_hash(action)))
                if len(out) == limits.CHOICES:
                    break
        return out

    command: app_commands.Command[Any, Any, Any] = app_commands.Command(
        name=family.name, description=clip(family.description, limits.COMMAND_DESCRIPTION),
        # The action kinds it plays: two commands playing the same kinds are one intent
        # under two names, which the command-tree test refuses.
        callback=callback, extras={"kinds": family.kinds})
    command._params["choice"].description = "What exactly (start typing for your options)"
    command.autocomplete("choice")(autocomplete)
    return command


def families_from(command_of_kind: dict[str, str], prompt_answers: dict[str, tuple[str, ...]],
                  help_text: dict[str, str],
                  extra: tuple[Family, ...] = ()) -> list[Family]:
    """Subcommands from a game's `COMMAND_OF_KIND` (one per command name), the `extra`
    families, and `answer` for every prompt-answer kind no command covers."""
    out: list[Family] = []
    for command in dict.fromkeys(command_of_kind.values()):
        kinds = frozenset(k for k, c in command_of_kind.items() if c == command)
        out.append(Family(command, help_text.get(command, command.replace("_", " ")), kinds))
    out.extend(extra)
    covered = set(command_of_kind).union(*(f.kinds for f in extra)) if extra else set(
        command_of_kind)
    answers = {k for kinds in prompt_answers.values() for k in kinds} - covered
    if answers:
        out.append(Family("answer", "Answer what the game is asking you right now",
                          frozenset(answers)))
    return out


def make_group(game_name: str, description: str,
               families: list[Family]) -> app_commands.Group:
    """The `/<group> …` group, named as players say the game: a subcommand per family, then
    `nudge` and `flag`. `game_name` is the registry name the commands check the thread's
    game against."""
    group_name = group_of(game_name)
    group = app_commands.Group(name=group_name, description=clip(
        description, limits.COMMAND_DESCRIPTION), guild_only=True)
    for family in families:
        group.add_command(make_command(game_name, family, group_name, families))
    for command in table_commands(game_name):
        group.add_command(command)
    return group


def _cannot(game: Game[Any, Any], state: Any, seat: str, family: Family,
            families: list[Family], group: str) -> str:
    """Why `/group family` does nothing now, and what the player can do instead, in words."""
    legal = game.legal_actions(state, seat)
    commands = [f"`/{group} {f.name}`" for f in families
                if f.name != family.name and any(a.kind in f.kinds for a in legal)]
    asked = game.prompt_text(state, seat)
    head = f"You can't {family.name} right now."
    if asked:
        head += f" {asked}"
    examples = [game.describe(state, seat, a) for a in legal[:3]]
    more = f" (e.g. {'; '.join(examples)}{'…' if len(legal) > 3 else ''})" if examples else ""
    if commands:
        return (f"{head} What you can do: {join_words(commands, 'or')}{more} — or press "
                "**My choices**.")
    return f"{head} Press **My choices** for what you can do{more}."


AutocompleteFn = Callable[[discord.Interaction[Any], str],
                          Awaitable[list[app_commands.Choice[str]]]]
