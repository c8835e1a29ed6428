"""The end of a game through Discord (issue #22): whole games of each game, pressed by AI-driven
users, end with a post that pings every player, names who won and who lost and why, carries the
recap picture with its alt text and a **Rematch** button that opens the same game with the same
players; each player gets a result DM and their summary DM is closed (no buttons, "Game over")."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot import limits
from bot.storage import GameRecord, GameSettings
from cogs.utils.ending import close_summary, closed_summary, post_text
from cogs.utils.table import delivery_for
from demo import AutoTable
from emulator.records import UserRecord
from rules.registry import GAMES
from tests.e2e.conftest import Table
from tests.e2e.endings import check_the_end, ending_post


async def _play(table: Table, game: str, mode: str, players: int) -> AutoTable:
    assert table.bot is not None
    table.bot.tables.seed_source = lambda: 5
    users = [table.alice, table.bob, table.carol][:players]
    auto = AutoTable(table.emu, table.bot, table.general, users)
    await auto.open(game, mode)
    await auto.play_to_end()
    return auto


@pytest.mark.parametrize(("game", "mode", "players"), [
    ("fourth_wall", "conflict", 2),
    ("presence", "session", 3),
])
async def test_the_end_pings_tells_and_offers_a_rematch(table: Table, game: str, mode: str,
                                                         players: int) -> None:
    """The Exorcism's ending is checked by `check_the_end` at the end of the One vs All game
    `tests/e2e/test_exorcism.py` plays through Discord anyway (the same seed, players and
    game: one whole game where three tests played it three times)."""
    await check_the_end(table, await _play(table, game, mode, players), game)


async def _play_card(table: Table, user: UserRecord) -> None:
    """`user` plays their first card through **My choices** (cards are never public buttons)."""
    res = await table.click(user, table.board(), label="My choices")
    await res.wait_done()
    card = next(c for c in res.messages[-1].custom_ids if c.startswith("hb:a:"))
    await (await table.emu.click(user, res.messages[-1], card)).wait_done()
    await _shown(table)


async def _shown(table: Table) -> None:
    """Wait until the bot has shown every move: its posts go out under the game's delivery
    lock (the game-over post replays the log and may take a moment)."""
    assert table.bot is not None
    gid = await table.game_id()
    async with delivery_for(table.bot).lock(gid):
        pass
    await table.emu.settle()


async def test_rematch_works_after_a_restart(table: Table) -> None:
    """The **Rematch** button is matched by its custom id, not a live view: after a restart a
    player's press still opens the rematch (a game without pictures: words only)."""
    await table.lobby(players=(table.bob,), options="rounds=1")
    await table.slash(table.alice, table.thread(), "game start")
    gid = await table.game_id()
    await table.click(table.alice, table.board(), label="Wager 1")
    await _shown(table)
    await _play_card(table, table.alice)
    await _play_card(table, table.bob)
    bot = table.bot
    assert bot is not None
    record = await bot.storage.get_game(gid)
    assert record is not None and record.status == "over"
    post = await ending_post(table.emu, table.thread(), gid)
    assert not post.attachments  # the test game has no pictures, so no recap either
    assert "Game over." in post.content and "Thanks for playing" in post.content
    bot = await table.restart()
    res = await table.emu.click(table.bob, post, label="Rematch")
    await res.wait_done(timeout=30)
    assert "Rematch started" in res.text, res.text
    rematch = await bot.storage.find_game_by_rematch(gid)
    assert rematch is not None and rematch.status == "active"


# ---- the words of the end, without Discord ------------------------------------------------
def _presence_over(true_horror: bool) -> tuple[Any, Any]:
    from rules.core.players import playout

    g = GAMES["presence"]
    options = g.options_model(mode="session", true_horror=true_horror)
    state = playout(g, options, ["s1", "s2", "s3"], 3).state
    return g, state


@pytest.mark.parametrize("true_horror", [False, True])
def test_post_words_fit_and_true_horror_reads_plain(true_horror: bool) -> None:
    """The post stays within Discord's limit however many lines the last moves had, keeps the
    result and the Rematch line, and True Horror's table reads no emoji (P-HORROR)."""
    g, state = _presence_over(true_horror)
    result = g.result(state)
    assert result is not None
    end = g.ending(state, result, [], {"s1": "Ada", "s2": "Basil", "s3": "Clara"})
    record = GameRecord(id=7, guild_id=1, channel_id=1, thread_id=None, game="presence",
                        options={}, status="over", state_json=None, version=0, seed=3,
                        created_by=1, engine_version="1", settings=GameSettings(),
                        board_message_id=None, created_at=0.0, updated_at=0.0,
                        next_reminder_at=None, reminder_stage=0, awaited_since=None)
    text = post_text(record, g, state, ["A long line of what happened. " * 20] * 40, end,
                     [1, 2, 3])
    assert len(text) <= limits.CONTENT
    assert end.headline in text and "**Rematch**" in text and "<@1>, <@2>, <@3>" in text
    assert ("🏁" not in text and "🎲" not in text) if true_horror else "🏁" in text


def test_a_closed_summary_keeps_what_was_held_and_drops_the_question() -> None:
    g, state = _presence_over(False)
    seat = state.visitor_seats[0]
    last = (f"**{g.title}** (game #7) — you are **the Orphan**.\nYour hand: Candle."
            "\n\n**Your move:** choose a card to discard.")
    closed = closed_summary(g, 7, state, seat, last)
    assert closed.startswith(f"**{g.title}** (game #7) — **Game over.** You were ")
    assert "Your move" not in closed
    held = g.private_summary(state, seat)
    assert (held or "Your hand: Candle.") in closed


class _Refusing:
    """A DM channel that refuses edits as Discord refuses old ones (30046)."""

    def __init__(self) -> None:
        self.sent: list[str] = []
        self.deleted: list[int] = []

    def get_partial_message(self, message_id: int) -> Any:
        channel = self

        class _Message:
            async def edit(self, **_: Any) -> None:
                response = SimpleNamespace(status=400, reason="Bad Request")
                raise discord.HTTPException(response, {"code": 30046, "message": "old"})  # type: ignore[arg-type]

            async def delete(self) -> None:
                channel.deleted.append(message_id)

        return _Message()

    async def send(self, text: str) -> Any:
        self.sent.append(text)
        return SimpleNamespace(id=99)


async def test_a_summary_dm_too_old_to_edit_is_closed_by_a_new_dm() -> None:
    """Past Discord's limit on old edits, the closed summary replaces the old DM (sent anew,
    the old one deleted), so no DM is left offering choices in a finished game."""
    g, state = _presence_over(False)
    seat = state.visitor_seats[0]
    channel = _Refusing()
    known = SimpleNamespace(user_id=5, message_id=42, text="old words", panel="key")

    async def dm_channel(user_id: int) -> Any:
        return channel

    delivery = SimpleNamespace(_summaries={(7, seat): known}, _dm_channel=dm_channel)
    record = SimpleNamespace(id=7)
    await close_summary(delivery, record, g, state, seat, 5)  # type: ignore[arg-type]
    assert channel.deleted == [42] and len(channel.sent) == 1
    assert "**Game over.**" in channel.sent[0]
    assert known.message_id == 99 and known.panel == ""


async def test_a_recap_too_large_for_the_server_ends_the_game_in_words_saying_why(
        table: Table) -> None:
    """Stop 69: Discord refuses a recap over the server's upload limit (413 / 40005). The
    game-over post goes as its words and Rematch, and says why the picture is missing, as a
    board post does (it went without a word of the picture)."""
    table.emu.attachment_size_limit = 16  # smaller than any picture
    auto = await _play(table, "fourth_wall", "conflict", 2)
    post = await ending_post(table.emu, auto.thread(), auto.game_id)
    assert "Game over" in post.content and not post.attachments
    assert "too large for this server" in post.content
