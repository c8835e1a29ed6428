"""How the bot posts a whole game to its thread, checked from what Discord received.

`PostAudit` follows a game move by move (`AutoTable.play_to_end(watch=audit.watch)`) and then
reads the emulator's record of the thread:
- no repeat pings: a new post never pings a player the game was already waiting for before
  the move that made it (the reminders' nudges, not exercised here, are the only repeats);
- calm: at most 1.5 new board posts per change of decider (someone new must decide, a new
  turn, the game's end) — the same player's moves edit their post in place;
- every picture uploaded anywhere (thread, DMs, ephemeral answers, every edit) carries alt
  text;
- the game-over post names the winners by display name.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any

from demo import AutoTable
from emulator import DiscordEmulator
from emulator.records import AttachmentRecord, MessageRecord
from rules.core.game import Game
from rules.registry import GAMES

POSTS_PER_CHANGE = 1.5


async def told_lines(bot: Any, gid: int, events: list[Any]) -> list[str]:
    """`events`' public lines as the thread tells them: `Game.event_text` with the table's
    names (an Exorcism turn's header names its player), from the stored history's events."""
    from cogs.utils.table import delivery_for

    record = await bot.storage.get_game(gid)
    assert record is not None
    game = GAMES[record.game]
    state = await bot.tables.state(gid)
    names = await delivery_for(bot).names(await bot.tables.users_of(gid))
    return [game.event_text(state, e, names) for e in events if e.public]


# Emoji and pictographs (True Horror's posts carry none, P-HORROR).
EMOJI = re.compile("[\u2190-\u21ff\u2300-\u23ff\u2460-\u27bf\u2b00-\u2bff\U0001f000-\U0001faff]")
RULE_ID = re.compile(r"\b(?:P|FW|EX|H)-[A-Z0-9]+(?:-[A-Z0-9]+)*\b")


@dataclass
class Step:
    """One move: the emulator mark before it, whom the game awaited before and after it."""

    mark: int
    before: set[int]
    after: set[int]
    change: bool
    """Whether the decision passed on: someone new awaited, a new turn, or the game's end."""


@dataclass
class PostAudit:
    """Start it right after the game started: `await PostAudit.start(auto)`."""

    game: Game[Any, Any]
    users: dict[str, int | None]
    state: Any
    """The state before the next move."""
    start_mark: int = 0
    steps: list[Step] = field(default_factory=list)

    @classmethod
    async def start(cls, auto: AutoTable) -> PostAudit:
        record = await auto.bot.storage.get_game(auto.game_id)
        assert record is not None
        return cls(GAMES[record.game], await auto.bot.tables.users_of(auto.game_id),
                   await auto.bot.tables.state(auto.game_id), auto.emu.mark())

    def awaited(self, state: Any) -> set[int]:
        if self.game.result(state) is not None:
            return set()
        return {u for s in self.game.to_act(state) if (u := self.users.get(s))}

    def watch(self, state: Any, mark: int) -> None:
        before, after = self.awaited(self.state), self.awaited(state)
        seats_before = self.game.to_act(self.state)
        seats_after = self.game.to_act(state)
        change = (bool(seats_after - seats_before)
                  or self.game.turn_key(state) != self.game.turn_key(self.state)
                  or self.game.result(state) is not None)
        self.steps.append(Step(mark, before, after, change))
        self.state = state

    def step_of(self, message: MessageRecord) -> Step | None:
        """The move whose delivery created `message` (None: before the first move)."""
        found = None
        for step in self.steps:
            if step.mark < message.order:
                found = step
            else:
                break
        return found

    def boards(self, emu: DiscordEmulator, thread: Any) -> list[MessageRecord]:
        return [m for m in emu.messages_in(thread)
                if m.order > self.start_mark and any(a.filename.endswith(".png")
                                                     for a in m.attachments)]

    def check_pings(self, emu: DiscordEmulator, thread: Any) -> int:
        """No new post pings a player who was already awaited; returns how many pings."""
        pings = 0
        for message in emu.messages_in(thread):
            if message.order <= self.start_mark or not message.pinged_user_ids:
                continue
            if any(c.startswith("hb:rematch:") for c in message.custom_ids):
                continue  # the game-over post pings every player, once (#22)
            step = self.step_of(message)
            already = step.before if step is not None else set()
            again = {int(u) for u in message.pinged_user_ids} & already
            assert not again, (f"pinged again while already awaited: {again}\n"
                               f"{message.content}")
            pings += len(message.pinged_user_ids)
        return pings

    def check_calm(self, emu: DiscordEmulator, thread: Any) -> tuple[int, int]:
        """At most 1.5 new board posts per change of decider; returns (posts, changes)."""
        posts = len(self.boards(emu, thread))
        changes = sum(step.change for step in self.steps)
        assert posts <= POSTS_PER_CHANGE * changes, (posts, changes)
        return posts, changes

    def check_result_post(self, emu: DiscordEmulator, thread: Any,
                          display: dict[int, str]) -> MessageRecord:
        """The game-over post names every winner by display name."""
        result = self.game.result(self.state)
        assert result is not None, "the game is not over"
        last = self.boards(emu, thread)[-1]
        for seat in result.winners:
            user = self.users.get(seat)
            if user:  # (a name opening the sentence may be capitalised)
                assert display[user].casefold() in last.content.casefold(), (
                    display[user], last.content)
        assert all(c.startswith(("hb:rematch:", "hb:full:")) for c in last.custom_ids), (
            "the game-over post carries no choices, only Rematch and Full board")
        return last

    def check_said_once(self, emu: DiscordEmulator, thread: Any) -> None:
        """No version of a board post says the same event line twice in a row: a run reads
        once with its count ("… (5 times)."), `cogs.utils.table.words.told_once`."""
        for message in self.boards(emu, thread):
            for version in versions(message):
                bullets = [x for x in version.content.split("\n") if x.startswith("• ")]
                twice = [a for a, b in pairwise(bullets) if a == b]
                assert not twice, (twice, version.content)

    def check_all(self, emu: DiscordEmulator, thread: Any) -> tuple[int, int, int]:
        display = {int(u.id): u.global_name or u.name for u in emu.users.values()}
        self.check_said_once(emu, thread)
        pings = self.check_pings(emu, thread)
        posts, changes = self.check_calm(emu, thread)
        self.check_result_post(emu, thread, display)
        check_alt_text(emu)
        return pings, posts, changes


@dataclass
class Version:
    """One version of a message as readers saw it (the bot edits its board post in place)."""

    written: int
    """Its position in the emulator's order: judge it by what was known then."""
    content: str
    embeds: list[dict[str, Any]]
    components: list[dict[str, Any]]
    attachments: list[AttachmentRecord]

    @property
    def blob(self) -> str:
        """Everything a reader sees: text, embeds, button labels."""
        return (self.content + json.dumps(self.embeds, ensure_ascii=False)
                + json.dumps(self.components, ensure_ascii=False))


def versions(message: MessageRecord) -> list[Version]:
    """Every version of a message a reader saw, oldest first. An edit that only took the
    buttons away keeps the words (and so the moment) of the version before it."""
    out: list[Version] = []
    snapshots = [(h.written or message.order, h.content, h.embeds, h.components,
                  h.attachments) for h in message.history]
    snapshots.append((message.written or message.order, message.content, message.embeds,
                      message.components, message.attachments))
    for written, content, embeds, components, attachments in snapshots:
        if out and (content, embeds) == (out[-1].content, out[-1].embeds):
            written = out[-1].written
        out.append(Version(written, content, embeds, components, attachments))
    return out


def check_alt_text(emu: DiscordEmulator) -> int:
    """Every picture the bot uploaded, in any version of any message, has a description."""
    pictures = 0
    for message in emu.all_messages(include_ephemeral=True, include_deleted=True):
        for version in versions(message):
            for a in version.attachments:
                if a.filename.endswith(".png"):
                    pictures += 1
                    assert a.description and a.description.strip(), (a.filename, message.content)
                    assert len(a.description) <= 1024
    return pictures


def transcript(emu: DiscordEmulator, thread: Any) -> str:
    """The thread as a reader finds it at the end (final versions), pings marked."""
    lines = []
    for message in emu.messages_in(thread):
        pinged = f" [pings {len(message.pinged_user_ids)}]" if message.pinged_user_ids else ""
        edits = f" [edited {len(message.history)}x]" if message.history else ""
        pics = "".join(f" [{a.filename}: {a.description}]" for a in message.attachments)
        lines.append(f"--- #{message.order}{pinged}{edits}{pics}\n{message.content}")
    return "\n".join(lines)
