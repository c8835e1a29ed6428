"""`python -m bot demo GAME`: the real bot plays a whole game against a local Discord emulator.

No token and no network: the emulator stands in for Discord on 127.0.0.1, the players are
emulated users whose every move the built-in AI picks and then *presses* — the same buttons
and menus a person would — so the demo exercises the bot exactly as a server would. At the
end it prints the thread as a transcript (and, with `--dms`, every DM each player received, in
every version, to read the game as each player) and writes every board picture to a folder.

`AutoTable` is the reusable part: end-to-end tests drive whole games with it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.client import GameBot, build_bot
from bot.options import OptionsError, parse_options
from bot.settings import Settings
from cogs.utils.table import TABLE_TOPIC, _decision_token, action_hash, delivery_for
from demo.rest import bot_at_rest
from emulator import DiscordEmulator
from emulator.permissions import GAME_BOT_PERMISSIONS, Perm
from emulator.records import MessageRecord, UserRecord, embed_text, walk_components
from emulator.testing import running_bot
from rules.core import Action
from rules.core.game import plural
from rules.registry import GAMES

log = logging.getLogger(__name__)

NAMES = ("Ada", "Basil", "Clara", "Dorian", "Edith")


@dataclass
class Move:
    """One decision the driver pressed, for the transcript."""

    user: str
    label: str
    how: str
    action: Action | None = None


DEMO_BOT_PERMISSIONS = int(GAME_BOT_PERMISSIONS | Perm.MANAGE_CHANNELS | Perm.MANAGE_ROLES
                           | Perm.MANAGE_MESSAGES | Perm.MANAGE_THREADS)
"""The bot's permissions in the demo's server: the README's required and optional ones."""


@dataclass
class AutoTable:
    """Plays one game through Discord: AI choices, pressed as components by emulated users."""

    emu: DiscordEmulator
    bot: GameBot
    channel: Any
    users: list[UserRecord]
    moves: list[Move] = field(default_factory=list)
    game_id: int = 0
    typed: int = 0
    """Every `typed`-th move is typed as the game's slash command where one covers it (its
    answer, ephemeral, carries the mover's private news), not pressed; 0: all pressed."""
    _version: int = -1
    """The game's version when the current press began."""

    def thread(self) -> Any:
        """Where the game is played: its thread, or its own channel (The Presence's
        `table_channel=channel`)."""
        threads = self.emu.threads_of(self.channel)
        if threads:
            return threads[-1]
        return next(c for c in self.emu.channels.values()
                    if c.topic == TABLE_TOPIC and not c.deleted)

    async def open(self, game: str, mode: str | None, options: str | None = None, *,
                   ai: int = 0, play_as: str | None = None, guided: bool | None = None,
                   ai_level: str | None = None) -> None:
        """`/game new` as the first user (with `ai` AI players at `ai_level`), everyone else
        joins, Start."""
        opts: dict[str, Any] = {"game": game}
        if mode:
            opts["mode"] = mode
        if options:
            opts["options"] = options
        if ai:
            opts["ai"] = ai
        if play_as:
            opts["as"] = play_as
        if guided is not None:
            opts["guided"] = guided
        if ai_level is not None:
            opts["ai_level"] = ai_level
        res = await self.emu.slash(self.users[0], self.channel, "game new", opts)
        await res.wait_done(timeout=15)
        if "is open in" not in res.text:
            raise RuntimeError(f"/game new failed: {res.text}")
        lobby = self.emu.messages_in(self.thread())[0]
        for user in self.users[1:]:
            join = await self.emu.click(user, lobby, label="Join")
            await join.wait_done()
        record = await self.bot.storage.find_game_by_thread(int(self.thread().id))
        assert record is not None
        self.game_id = record.id
        start = await self.emu.slash(self.users[0], self.thread(), "game start")
        await start.wait_done(timeout=30)  # the first board's render starts the render pool
        if "Started" not in start.text:
            raise RuntimeError(f"/game start failed: {start.text}")
        await self.emu.settle()

    def board(self) -> MessageRecord:
        for message in reversed(self.emu.messages_in(self.thread())):
            if any(c.startswith("hb:") and not c.startswith("hb:lobby")
                   for c in message.custom_ids):
                return message
        last = self.emu.messages_in(self.thread())[-1:]
        raise RuntimeError("no board post in the thread; the last message reads: "
                           + (repr(last[0].content[-300:]) if last else "nothing"))

    async def press(self, user: UserRecord, seat: str, action: Action, label: str,
                    decision: str | None = None) -> None:
        """Press `action` the way a player would, with the fewest clicks: on the board post,
        else on the player's summary DM (its private choices), else in the player's open
        private menu, else under **My choices** (two clicks). `decision` is the decision's
        token in custom ids (None: any)."""
        h = action_hash(action)
        record = await self.bot.storage.get_game(self.game_id)
        self._version = record.version if record is not None else -1
        board = self.board()
        mark = self.emu.mark()
        if await self._press_in(user, board, seat, h, decision, mark, label):
            self.moves.append(Move(user.name, label, "board", action))
            return
        dm = self.dm_panel(user, seat, h, decision)
        if dm is not None and await self._press_in(user, dm, seat, h, decision, mark, label,
                                                   board=board):
            self.moves.append(Move(user.name, label, "dm", action))
            return
        menu = self.open_menu(user, seat, h, decision)
        if menu is not None and await self._press_in(user, menu, seat, h, decision, mark,
                                                     label, board=board):
            self.moves.append(Move(user.name, label, "open menu", action))
            return
        menu_res = await self.emu.click(user, board, label="My choices")
        await menu_res.wait_done()
        menu = menu_res.messages[-1]
        mark = self.emu.mark()
        if await self._press_in(user, menu, seat, h, decision, mark, label, board=board):
            self.moves.append(Move(user.name, label, "my choices", action))
            return
        raise RuntimeError(f"{user.name} could not find “{label}” among their choices: "
                           f"{menu_res.text}")

    async def type_move(self, user: UserRecord, game: str, action: Action, label: str) -> bool:
        """Type `action` as the game's slash command (`/exorcism move choice:…`); False when
        no command of the game covers it (it is pressed instead)."""
        from cogs import exorcism, fourth_wall, presence
        from cogs.utils.talk import group_of

        families = {"exorcism": exorcism.families, "fourth_wall": fourth_wall.families,
                    "presence": presence.families}[game]()
        family = next((f for f in families if action.kind in f.kinds), None)
        if family is None:
            return False
        record = await self.bot.storage.get_game(self.game_id)
        self._version = record.version if record is not None else -1
        res = await self.emu.slash(user, self.thread(), f"{group_of(game)} {family.name}",
                                   {"choice": action_hash(action)})
        await res.wait_done(timeout=15)
        self.moves.append(Move(user.name, label, "typed", action))
        return True

    def dm_panel(self, user: UserRecord, seat: str, h: str,
                 decision: str | None) -> MessageRecord | None:
        """The user's DM (their summary, kept current) that offers `h` now, if any."""
        for message in reversed(self.emu.dm_messages(user)):
            if not message.ephemeral and self._target(message, seat, h, decision) is not None:
                return message
        return None

    def open_menu(self, user: UserRecord, seat: str, h: str,
                  decision: str | None) -> MessageRecord | None:
        """The user's newest private menu in the thread that offers `h` now, if any."""
        for message in reversed(self.emu.messages_in(self.thread(), include_ephemeral=True)):
            if not message.ephemeral or message.interaction_user_id != str(user.id):
                continue
            if self._target(message, seat, h, decision) is not None:
                return message
        return None

    def _target(self, message: MessageRecord, seat: str, h: str,
                decision: str | None) -> tuple[str, bool] | None:
        """(custom id, is a select) of the component that plays `h` for `seat`, if any."""
        prefix = f"hb:a:{self.game_id}:{seat}:"
        for cid in message.custom_ids:
            if cid.startswith(prefix) and cid.endswith(h) and (
                    decision is None or cid.split(":")[4] == decision):
                return cid, False
        for select in message.selects:
            cid = str(select.get("custom_id", ""))
            if not cid.startswith(f"hb:s:{self.game_id}:{seat}:") or (
                    decision is not None and cid.split(":")[4] != decision):
                continue
            if h in [o["value"] for o in select.get("options", [])]:
                return cid, True
        return None

    async def _press_in(self, user: UserRecord, message: MessageRecord, seat: str, h: str,
                        decision: str | None, mark: int, label: str,
                        board: MessageRecord | None = None) -> bool:
        target = self._target(message, seat, h, decision)
        if target is None:
            return False
        cid, is_select = target
        if is_select:
            res = await self.emu.select(user, message, cid, [h])
        else:
            res = await self.emu.click(user, message, cid)
        await res.wait_callback()
        await self._landed(mark, board or message, res, label)
        return True

    def shares(self) -> dict[str, int]:
        """How many moves were pressed where: "board", "dm", "open menu", "my choices"."""
        out: dict[str, int] = {}
        for move in self.moves:
            out[move.how] = out.get(move.how, 0) + 1
        return out

    async def _landed(self, mark: int, board: MessageRecord, res: Any, label: str) -> None:
        """Wait for the board the move produced (a new post, or the current one edited in
        place); a refusal raises with the bot's answer."""
        try:
            await self.emu.wait_for_write(self.thread(), board, since=mark, timeout=15)
        except AssertionError:
            # A board edited in place may be another record of the post than `board`: the
            # move landed if the game moved on.
            record = await self.bot.storage.get_game(self.game_id)
            if record is None or record.version == self._version:
                raise RuntimeError(f"“{label}” did not land: {res.text or 'no answer'}") from None

    async def play_to_end(self, max_moves: int = 5000,
                          watch: Callable[[Any, int], None] | None = None,
                          until: Callable[[Any], bool] | None = None,
                          before: Callable[[Any, str], None] | None = None) -> int:
        """Let the AI choose and press every move until the game ends; returns moves made.

        `watch(state, mark)` (tests) sees the state after each move and the emulator's message
        mark from before it: messages with a later order came from that move or after.
        `until(state)` (tests) stops early, before the first move of a state it accepts.
        `before(state, seat)` (tests) runs just before `seat`'s press (e.g. to let hours pass).
        """
        game_record = await self.bot.storage.get_game(self.game_id)
        assert game_record is not None
        game = GAMES[game_record.game]
        users = await self.bot.tables.users_of(self.game_id)
        by_id = {int(u.id): u for u in self.users}
        for n in range(max_moves):
            record = await self.bot.storage.get_game(self.game_id)
            assert record is not None
            if record.status != "active":
                await self._delivered()
                return n
            state = await self.bot.tables.state(self.game_id)
            if until is not None and until(state):
                return n
            awaited = sorted(game.to_act(state))
            if not awaited:
                return n
            people = [s for s in awaited if users.get(s) is not None]
            if not people:
                # Only AI seats are awaited: the bot plays them itself after each move.
                if not await self._moved_on(state.step):
                    raise RuntimeError(f"the AI did not move for {', '.join(awaited)}")
                continue
            seat = people[0]
            user_id = users[seat]
            assert user_id is not None
            action = game.ai_action(state, seat)
            if before is not None:
                before(state, seat)
            mark = self.emu.mark()
            decision = _decision_token(game.decision_id(state, seat), record.epoch)
            label = game.describe(state, seat, action)
            if not (self.typed and n % self.typed == self.typed - 1
                    and await self.type_move(by_id[user_id], record.game, action, label)):
                await self.press(by_id[user_id], seat, action, label, decision)
            # A board write seen after the press may be an AI move's post: wait for this move.
            if not await self._moved_on(state.step):
                raise RuntimeError(f"“{game.describe(state, seat, action)}” was not stored")
            if watch is not None:
                watch(await self.bot.tables.state(self.game_id), mark)
        # The last allowed move may have ended the game: that is an end, not an overrun.
        record = await self.bot.storage.get_game(self.game_id)
        if record is not None and record.status != "active":
            await self._delivered()
            return max_moves
        raise RuntimeError(f"the game did not end within {max_moves} moves")

    async def _delivered(self) -> None:
        """Wait until what the last move set off is in the thread: the move is stored (and
        the game's status with it) before its posts, which the bot makes under the game's
        delivery lock (an AI seat's last move ends the game while no press is awaited)."""
        async with delivery_for(self.bot).lock(self.game_id):
            pass
        # The move is stored and its delivery done: a short quiet (with the bot at rest) is
        # enough, and a whole game of presses is not spent waiting out 50 ms each.
        await self.emu.settle(quiet=0.02)

    async def _moved_on(self, step: int, timeout: float = 20.0) -> bool:
        """Wait until the game is past `step` and the bot has posted what followed; False
        if it never moves on."""
        for _ in range(int(timeout / 0.01)):
            record = await self.bot.storage.get_game(self.game_id)
            if record is None or record.version != step:
                # The move and its board post (and any AI moves after it) happen under the
                # game's delivery lock: once it is free, the thread shows the new board.
                await self._delivered()
                return True
            await asyncio.sleep(0.01)
        return False

    def transcript(self) -> list[str]:
        """The thread as a reader finds it at the end (board posts in their last version),
        mentions shown as the display names Discord shows."""
        names = {str(u.id): u.name for u in self.users}

        def shown(text: str) -> str:
            return re.sub(r"<@!?(\d+)>", lambda m: "@" + names.get(m[1], "someone"), text)

        lines = []
        for message in self.emu.messages_in(self.thread()):
            pictures = "".join(f" [{a.filename}: {a.description}]" for a in message.attachments)
            pings = f" (pinged {len(message.pinged_user_ids)})" if message.pinged_user_ids else ""
            edits = f" (edited {len(message.history)}x)" if message.history else ""
            text = shown(message.text or "")
            lines.append(f"GameMaster{pings}{edits}: {text}{pictures}")
        return lines

    def dm_transcript(self) -> list[str]:
        """Every DM each emulated player received, by display name, oldest first; a DM edited
        in place (the summary DM) shows each version it had, so a reader follows the game as
        that player did. Buttons and menus are listed by their labels."""
        names = {str(u.id): u.name for u in self.users}
        channels = {str(c.id): c.name for c in (self.channel, self.thread())}

        def shown(text: str) -> str:
            text = re.sub(r"<#(\d+)>", lambda m: "#" + channels.get(m[1], "a channel"), text)
            return re.sub(r"<@!?(\d+)>", lambda m: "@" + names.get(m[1], "someone"), text)

        def version(content: str, embeds: list[dict[str, Any]],
                    components: list[dict[str, Any]], attachments: list[Any]) -> str:
            parts = [content] if content else []
            for embed in embeds:
                parts.extend(embed_text(embed))
            controls = []
            for comp in walk_components(components):
                if comp.get("type") == 10 and comp.get("content"):
                    parts.append(str(comp["content"]))
                elif comp.get("label") or comp.get("placeholder"):
                    controls.append(str(comp.get("label") or comp.get("placeholder")))
            text = shown("\n".join(parts))
            if controls:
                text += "\n  [controls: " + " | ".join(controls) + "]"
            text += "".join(f"\n  [{a.filename}: {a.description}]" for a in attachments)
            return text

        lines: list[str] = []
        for user in self.users:
            dms = self.emu.dm_messages(user)
            lines.append(f"\n===== DMs to {user.name} ({len(dms)}) =====")
            for n, message in enumerate(dms, 1):
                versions = [(h.content, h.embeds, h.components, h.attachments)
                            for h in message.history]
                versions.append((message.content, message.embeds, message.components,
                                 message.attachments))
                for k, v in enumerate(versions, 1):
                    head = (f"[{user.name} DM {n}" + (f", version {k} of {len(versions)}"
                                                     if len(versions) > 1 else "") + "]")
                    lines.append(f"{head} {version(*v)}")
        return lines

    def calm(self) -> str:
        """How calm the thread was: board posts, their in-place edits, and pings."""
        boards = [m for m in self.emu.messages_in(self.thread()) if m.attachments]
        edits = sum(len(m.history) for m in boards)
        pings = sum(len(m.pinged_user_ids) for m in self.emu.messages_in(self.thread()))
        return (f"{len(boards)} board {plural(len(boards), 'post')}, edited in place {edits} "
                f"{plural(edits, 'time')}, {pings} {plural(pings, 'ping')}")

    def pictures(self) -> list[bytes]:
        return [a.data for m in self.emu.messages_in(self.thread()) for a in m.attachments
                if a.filename.endswith(".png")]


async def run_demo(game: str, out: Path, seed: int = 1, players: int | None = None,
                   mode: str | None = None, quiet: bool = False, opts: list[str] | None = None,
                   ai: int = 0, play_as: str | None = None, dms: bool = False) -> int:
    """Play a whole AI game through the real bot and emulator; 0 when it ended properly.

    `opts` are `key=value` options as `/game new options:` takes them; `ai` seats the bot's
    own AI players (the rest are emulated users whose moves the AI picks and presses);
    `play_as` is `/game new as:`; `dms` also prints every DM each player received."""
    engine = GAMES.get(game)
    if engine is None:
        print(f"No game `{game}`. Games: {', '.join(sorted(GAMES))}.")
        return 2
    mode = mode or engine.modes[0]
    text = " ".join(opts or []) or None
    try:
        parsed = parse_options(engine, mode, text)
    except OptionsError as exc:
        print(str(exc))
        return 2
    counts = sorted(engine.player_counts(engine.options_model.model_validate(parsed)))
    n = players or (3 if 3 in counts else counts[0])
    if n not in counts:
        print(f"{engine.title} ({mode}) takes {counts[0]}–{counts[-1]} players.")
        return 2
    if not 0 <= ai < n:
        print(f"--ai must leave at least one emulated player: 0 to {n - 1} with {n} players.")
        return 2
    logging.basicConfig(level=logging.WARNING)
    began = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        async with DiscordEmulator() as emu:
            guild = emu.create_guild("Demo Server")
            users = [emu.create_user(name) for name in NAMES[:n - ai]]
            for user in users:
                emu.add_member(guild, user)
            # Every permission the README lists, the optional ones too, as an admin who
            # invites the bot with them all: The Presence's own channel needs Manage Channels
            # and Manage Roles, strict table talk Manage Messages.
            emu.set_guild_bot_permissions(guild, DEMO_BOT_PERMISSIONS)
            channel = emu.create_text_channel(guild, "game-night",
                                              bot_permissions=DEMO_BOT_PERMISSIONS)
            settings = Settings(
                discord_token=emu.bot_token, database_path=Path(tmp) / "demo.sqlite3",
                discord_api_base=emu.api_base, discord_gateway_url=emu.gateway_url,
                guild_ready_timeout=0.05, reminder_poll_seconds=3600.0, dev_guild_id=None)
            bot = build_bot(settings)
            bot.tables.seed_source = lambda: seed
            with contextlib.ExitStack():
                async with running_bot(bot, emu):
                    # Every settle waits for the bot at rest, not the emulator's quiet alone:
                    # an AI seat's last move ends the game, and its board and recap are drawn
                    # (quiet, for the emulator) after the game is stored as over.
                    emu.busy = lambda: not bot_at_rest(bot)
                    table = AutoTable(emu, bot, channel, users)
                    await table.open(game, mode, text, ai=ai, play_as=play_as)
                    moves = await table.play_to_end()
                    record = await bot.storage.get_game(table.game_id)
                    lines = table.transcript()
                    if dms:
                        lines += table.dm_transcript()
                    pictures = table.pictures()
                    calm = table.calm()
    out.mkdir(parents=True, exist_ok=True)
    for i, data in enumerate(pictures, 1):
        (out / f"board-{i:04d}.png").write_bytes(data)
    if not quiet:
        print("\n".join(lines))
    took = time.perf_counter() - began
    status = record.status if record else "missing"
    who = f"{n} {plural(n, 'player')}" + (f", {ai} of them the bot's AI" if ai else "")
    named = engine.mode_words(mode).split(":")[0]  # "One vs All", as the lobby says it
    print(f"\n{engine.title} ({named}, {who}, seed {seed}): {moves} moves pressed through "
          f"Discord in {took:.1f} s; game {status}. {calm}. {len(pictures)} "
          f"{plural(len(pictures), 'picture')} in {out}/")
    return 0 if status == "over" else 1
