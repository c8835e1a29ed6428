"""What every table may always do besides moving, with the same words in every game: look a
rule up (by id or by words, only to you: `/game rules`, which in a game's thread searches that
game), `nudge` (ping whoever the table waits for) and `flag` (point the table to a rule: a
question, or a possible violation).

All fixed texts: nobody types free text at the table through these (P-DISCORD-06 — a silent
Presence player may still use them), and each answer names players by their display name and
characters by their name. The rules lookup is `/game rules` alone, for every game (one name
for one intent: a game's group has no `rules` of its own).
"""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot import limits
from bot.limits import clip, excerpt
from bot.storage import GameRecord
from bot.tables import TableError
from cogs.utils.errors import reply
from cogs.utils.table import delivery_for, game_of
from cogs.utils.when import stamp
from rules.core.game import Game
from rules.core.rulebook import one_line, player_text
from rules.registry import GAMES

if TYPE_CHECKING:
    from bot.client import GameBot

GROUP_OF_GAME: dict[str, str] = {"exorcism": "exorcism", "fourth_wall": "fourthwall",
                                 "presence": "presence"}
"""Each game's slash command group, named as players say the game."""

NUDGE_EVERY = 600.0  # seconds between two nudges of one game's table

# bot -> game id -> when its table was last nudged (bot clock). In memory: a restart at worst
# allows one early nudge.
_NUDGED: weakref.WeakKeyDictionary[Any, dict[int, float]] = weakref.WeakKeyDictionary()


def group_of(game: str) -> str:
    return GROUP_OF_GAME.get(game, game.replace("_", ""))


# ---- finding rules ------------------------------------------------------------------------


def find_rules(engine: Game[Any, Any], query: str) -> list[tuple[str, str]]:
    """The rule with this id; or the thing with this name ("Weapon Room": what the room
    does, not every rule that mentions it); or everything whose name, id or text holds each
    word of `query` (named things first, then rules whose id holds it)."""
    book = engine.rulebook()
    rid = query.strip().upper()
    if rid in book:
        return [(rid, book[rid])]
    glossary = engine.glossary()
    named = {name.lower(): (name, text) for name, text in glossary.items()}
    if query.strip().lower() in named:
        return [named[query.strip().lower()]]
    words = query.lower().split()
    if not words:
        return []
    by_name = [(n, t) for n, t in glossary.items() if all(w in n.lower() for w in words)]
    by_id = by_name + [(r, t) for r, t in book.items() if all(w in r.lower() for w in words)]
    by_text = [(r, t) for r, t in book.items()
               if (r, t) not in by_id and all(w in f"{r} {player_text(t)}".lower()
                                              for w in words)]
    return by_id + by_text


def _example_id(engine: Game[Any, Any]) -> str:
    """A rule id of `engine` to show as an example (one that exists)."""
    book = engine.rulebook()
    wanted = f"{engine.rule_prefix}-ACT-01"
    if wanted in book:
        return wanted
    return next((r for r in book if r.startswith(f"{engine.rule_prefix}-")), wanted)


def rules_answer(engines: list[Game[Any, Any]], query: str) -> str:
    """The answer to a rules lookup: one rule in full, or a list of the rules that match."""
    hits = [(e, r, t) for e in engines for r, t in find_rules(e, query)]
    if not hits:
        where = engines[0].title if len(engines) == 1 else "any game"
        example = _example_id(engines[0]) if len(engines) == 1 else "EX-ACT-01"
        raise TableError(f"{where[:1].upper()}{where[1:]} has no rule matching that. Rule "
                         f"ids look like `{example}`, or try a word or two; start typing "
                         "for a list. "
                         f"(You wrote `{excerpt(query)}`.)")
    if len(hits) == 1:
        engine, rid, text = hits[0]
        return f"**{rid}** ({engine.title}) — {player_text(text)}"
    lines = [f"{len(hits)} rules mention that; pick one from the list as you type "
             "`/game rules rule:` to read it in full:"]
    for _engine, rid, text in hits:
        line = f"• **{rid}** {clip(one_line(text), 90)}"
        if sum(len(x) + 1 for x in lines) + len(line) > 1900:
            lines.append(f"…and {len(hits) - len(lines) + 1} more: add a word to narrow it.")
            break
        lines.append(line)
    return "\n".join(lines)


def rule_choices(engines: list[Game[Any, Any]], current: str) -> list[app_commands.Choice[str]]:
    """Autocomplete: rules of `engines` whose id or words hold what was typed, each on one
    line ("P-COMM-04 When a player is alone…")."""
    out: list[app_commands.Choice[str]] = []
    for engine in engines:
        book = engine.rulebook()
        hits = find_rules(engine, current) if current.strip() else list(book.items())
        for rid, text in hits:
            out.append(app_commands.Choice(name=clip(f"{rid} {one_line(text)}",
                                                     limits.CHOICE_NAME), value=rid))
            if len(out) == limits.CHOICES:
                return out
    return out


async def thread_game(interaction: discord.Interaction[Any]) -> GameRecord | None:
    """The game whose thread (or own channel) this interaction came from, if any."""
    bot: GameBot = interaction.client  # type: ignore[assignment]
    channel = interaction.channel
    return await bot.storage.find_game_by_thread(channel.id) if channel else None


async def engines_for(interaction: discord.Interaction[Any], game: str | None,
                      rule: str | None = None) -> list[Game[Any, Any]]:
    """Which games a lookup searches: the one named; else the one whose prefix the rule id
    carries; else the thread's game; else every game."""
    if game:
        engine = GAMES.get(game) or next((g for g in GAMES.values()
                                          if game.lower() == g.title.lower()), None)
        if engine is None:
            raise TableError(f"I don't know the game you named. Games: "
                             f"{', '.join(g.title for g in GAMES.values())}. "
                             f"(You wrote `{excerpt(game)}`.)")
        return [engine]
    if rule:
        prefix = rule.strip().upper().split("-")[0]
        for engine in GAMES.values():
            # A rule id names its game (even one it lacks: "EX-NOPE-99" is the Exorcism's).
            if "-" in rule and engine.rule_prefix == prefix:
                return [engine]
    record = await thread_game(interaction)
    if record is not None and record.game in GAMES:
        return [GAMES[record.game]]
    return list(GAMES.values())


# ---- the commands every game group has --------------------------------------------------


async def seated_here(interaction: discord.Interaction[Any],
                      game_name: str) -> tuple[GameRecord, str]:
    """The `game_name` game being played in this thread, and the caller's seat in it."""
    bot: GameBot = interaction.client  # type: ignore[assignment]
    record = await thread_game(interaction)
    title = GAMES[game_name].title
    if record is None or record.game != game_name or record.status != "active":
        raise TableError(f"Run this in the thread of a game of {title} being played.")
    seat = await bot.tables.seat_of(record.id, interaction.user.id)
    if seat is None:
        raise TableError("Only the game's players can do this; you can follow the game in "
                         "its thread.")
    return record, seat


def _label(game: Game[Any, Any], state: Any, seat: str) -> str:
    """A seat's role or character for a mention's brackets; "" while it has none."""
    label = game.seat_label(state, seat)
    return "" if label == seat else f" ({label})"


def flag_command(game_name: str) -> app_commands.Command[Any, Any, Any]:
    engine = GAMES[game_name]

    async def flag(interaction: discord.Interaction[Any], rule: str,
                   about: str = "violation") -> None:
        rid = rule.strip().upper()
        text = engine.rule_text(rid)
        if text is None:
            raise TableError(f"{engine.title} has no rule by that id: pick one from the list "
                             f"that appears as you type. (You wrote `{excerpt(rule)}`.)")
        record, seat = await seated_here(interaction, game_name)
        bot: GameBot = interaction.client  # type: ignore[assignment]
        state = await bot.tables.state(record.id)
        game = game_of(record)
        names = await delivery_for(bot).names(await bot.tables.users_of(record.id))
        who = game.player_name(state, seat, names)
        plain = game.plain_words(state)
        what = ("asks the table about" if about == "question" else
                "points out a possible violation of")
        channel = interaction.channel
        assert isinstance(channel, discord.abc.Messageable)
        await channel.send(clip(
            f"{'' if plain else '🚩 '}{who} {what} **{rid}**: “{clip(one_line(text), 300)}” "
            f"The table may pause to check it; `/game rules rule:{rid}` shows the rule "
            "privately.", limits.CONTENT),
            allowed_mentions=discord.AllowedMentions.none())
        await reply(interaction, f"Flagged {rid} for the table.")

    command: app_commands.Command[Any, Any, Any] = app_commands.Command(
        name="flag", description="Point the table to a rule: a question, or a possible "
        "violation (a fixed notice, by rule id)", callback=flag)
    command._params["rule"].description = clip(f"The rule id, e.g. {engine.rule_prefix}-ACT-01 "
                                               "(start typing for a list)",
                                               limits.COMMAND_DESCRIPTION)
    command._params["about"].description = "A possible violation (default) or a question"
    command._params["about"].choices = [
        app_commands.Choice(name="a possible violation", value="violation"),
        app_commands.Choice(name="a rules question", value="question")]

    async def complete(interaction: discord.Interaction[Any],
                       current: str) -> list[app_commands.Choice[str]]:
        return rule_choices([engine], current)

    command.autocomplete("rule")(complete)
    return command


def nudge_command(game_name: str) -> app_commands.Command[Any, Any, Any]:
    async def nudge(interaction: discord.Interaction[Any]) -> None:
        record, _seat = await seated_here(interaction, game_name)
        bot: GameBot = interaction.client  # type: ignore[assignment]
        nudged = _NUDGED.setdefault(bot, {})
        now = bot.clock()
        last = nudged.get(record.id)
        if last is not None and now - last < NUDGE_EVERY:
            raise TableError(f"This table was nudged less than {int(NUDGE_EVERY // 60)} "
                             f"minutes ago; you can nudge again {stamp(last + NUDGE_EVERY, 'R')} "
                             f"(at {stamp(last + NUDGE_EVERY, 't')}).")
        game = game_of(record)
        state = await bot.tables.state(record.id)
        users = await bot.tables.users_of(record.id)
        awaited = [(s, u) for s in sorted(game.to_act(state), key=state.seats.index)
                   if (u := users.get(s))]
        if not awaited:
            raise TableError("No player is awaited right now (the AI may be thinking).")
        nudged[record.id] = now
        channel = interaction.channel
        assert isinstance(channel, discord.abc.Messageable)
        # Away players and quiet hours are honoured as for turn pings.
        reachable = await bot.tables.reachable(u for _, u in awaited)
        who = ", ".join(f"<@{u}>{_label(game, state, s)}" for s, u in awaited)
        bell = "" if game.plain_words(state) else "🔔 "
        await channel.send(clip(f"{bell}{who}: the table is waiting for you.", limits.CONTENT),
                           allowed_mentions=discord.AllowedMentions(
                               users=[discord.Object(u) for _, u in awaited if u in reachable]))
        await reply(interaction, "Nudged.")

    return app_commands.Command(name="nudge", description="Remind the awaited players that the "
                                "table waits for them (once per 10 minutes)", callback=nudge)


def table_commands(game_name: str) -> list[app_commands.Command[Any, Any, Any]]:
    """`nudge` and `flag` for a game's group."""
    return [nudge_command(game_name), flag_command(game_name)]
