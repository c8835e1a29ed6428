"""The memory of finished games through Discord (issue #24): whole games played by pressing
buttons, then `/game history` and `/game stats` answer with the right figures, privately;
`/game privacy` hides a player from others' questions (never from their own); a server that
turns ratings off (Manage Server only) shows none, on stats or on the lobby card."""

from __future__ import annotations

from typing import Any

from bot import memory
from bot.memory import GameResult, SeatResult
from demo import AutoTable
from emulator.permissions import Perm
from tests.e2e.conftest import Table

FIRST_WINS, SECOND_WINS = 20, 1
"""High Card deals where every card of the first seat (the creator) beats every card of the
second, and the other way round."""


async def _play(table: Table, seed: int, users: list[Any]) -> AutoTable:
    assert table.bot is not None
    table.bot.tables.seed_source = lambda: seed
    auto = AutoTable(table.emu, table.bot, table.general, users)
    await auto.open("highcard", None)
    table.clock_now += 600.0  # ten minutes pass before the moves
    await auto.play_to_end()
    return auto


async def test_history_and_stats_answer_from_finished_games(table: Table) -> None:
    first = await _play(table, FIRST_WINS, [table.alice, table.bob])
    second = await _play(table, SECOND_WINS, [table.alice, table.bob])
    assert table.bot is not None

    # /game history, asked by a player who sat in neither game: both games, newest first.
    res = await table.slash(table.carol, table.general, "game history")
    assert res.ephemeral
    text = res.text
    assert "2 in all" in text
    assert text.index(f"#{second.game_id} ") < text.index(f"#{first.game_id} ")
    for auto in (first, second):
        assert f"/game record game:{auto.game_id}" in text
        assert f"<#{auto.thread().id}>" in text
    assert f"<@{table.alice.id}> Player — won" in text
    assert f"<@{table.alice.id}> Player — lost" in text
    assert "Highest score" in text and "<t:" in text

    # /game stats about alice, asked by bob: one win, one loss, her rating.
    res = await table.slash(table.bob, table.general, "game stats", player=table.alice)
    assert res.ephemeral
    text = res.text
    assert "2 games finished" in text
    assert "2 played, 1 won (50%)" in text
    assert "Player: 2 played, 1 won, 1 lost" in text
    assert "rating **" in text and "after 2 rated games" in text
    assert "win streak 0 (best 1)" in text  # she lost the latest
    # The same figures as a picture (renders/stats.py), its alt text in words.
    [picture] = [a for m in res.messages for a in m.attachments if a.filename == "stats.png"]
    assert picture.data[:8] == b"\x89PNG\r\n\x1a\n"
    assert "Player" in (picture.description or "") and "50%" in (picture.description or "")

    # The server's figures: win rates per role, busiest players.
    res = await table.slash(table.carol, table.general, "game stats", server=True)
    assert "2 finished" in res.text and "50% of 4 seats won" in res.text
    assert f"<@{table.alice.id}> (2)" in res.text

    # The lobby card shows each seated player's rating in that game.
    await table.slash(table.alice, table.general, "game new", game="highcard")
    card = table.emu.messages_in(table.thread())[0]
    assert "— rating " in card.text


async def test_privacy_hides_a_player_from_others_only(table: Table) -> None:
    await _play(table, FIRST_WINS, [table.alice, table.bob])
    res = await table.slash(table.alice, table.general, "game privacy", stats="hidden")
    assert res.ephemeral and "private" in res.text
    for command in ("game stats", "game history"):
        res = await table.slash(table.bob, table.general, command, player=table.alice)
        assert res.ephemeral and "keeps their stats private" in res.text, command
        assert "played" not in res.text and "Highest score" not in res.text
    # Her own stats still answer her.
    res = await table.slash(table.alice, table.general, "game stats")
    assert "1 game finished" in res.text and "1 played, 1 won" in res.text
    # Others' history pages mask her.
    res = await table.slash(table.bob, table.general, "game history")
    assert f"<@{table.alice.id}>" not in res.text and "(private player)" in res.text
    res = await table.slash(table.alice, table.general, "game privacy", stats="shown")
    res = await table.slash(table.bob, table.general, "game stats", player=table.alice)
    assert "1 played, 1 won" in res.text


async def test_ratings_off_hides_ratings_and_needs_manage_server(table: Table) -> None:
    await _play(table, FIRST_WINS, [table.alice, table.bob])
    res = await table.slash(table.bob, table.general, "game settings", ratings="off")
    assert res.ephemeral and "Manage Server" in res.text
    admin = table.emu.create_user("dana")
    table.emu.add_member(table.guild, admin, permissions=Perm.MANAGE_GUILD)
    res = await table.slash(admin, table.general, "game settings", ratings="off")
    assert "Ratings are off" in res.text
    res = await table.slash(table.alice, table.general, "game stats")
    assert "1 played, 1 won" in res.text
    assert "rating **" not in res.text and "ratings turned off" in res.text
    # A game finished with ratings off moves none; the lobby card shows none.
    second = await _play(table, FIRST_WINS, [table.alice, table.bob])
    stored = await table.bot.storage.game_result(second.game_id)  # type: ignore[union-attr]
    assert stored is not None and not stored.rated
    await table.slash(table.alice, table.general, "game new", game="highcard")
    card = table.emu.messages_in(table.thread())[0]
    assert "rating" not in card.text


async def test_history_pages_turn_with_buttons(table: Table) -> None:
    """Twelve finished games (kept as the bot keeps them when a game ends): five a page,
    **Older** and **Newer** turn the page in place."""
    assert table.bot is not None
    guild = int(table.guild.id)
    kept = [GameResult(game_id=100 + i, guild_id=guild, thread_id=None, game="highcard",
                       mode="standard", started_at=1_000_000.0 + i * 3600,
                       finished_at=1_001_000.0 + i * 3600, moves=9,
                       outcome="The game is over: [[s1]] wins. Highest score: 3.",
                       seats=[SeatResult(seat="s1", position=0, user_id=int(table.alice.id),
                                         role="Player", side="table", outcome="won"),
                              SeatResult(seat="s2", position=1, user_id=int(table.bob.id),
                                         role="Player", side="table", outcome="lost")])
            for i in range(12)]

    def write(run: Any) -> None:
        for res in kept:
            memory.record(run, res)

    await table.bot.storage._write(write)  # type: ignore[attr-defined]
    res = await table.slash(table.carol, table.general, "game history")
    page = res.messages[-1]
    assert "page 1 of 3" in page.text and "#111 " in page.text and "#106 " not in page.text
    assert [c.split(":")[2] for c in page.custom_ids] == ["1"]  # only Older on the first page
    await table.click(table.carol, page, label="Older")
    page = res.messages[-1]
    assert "page 2 of 3" in page.text and "#106 " in page.text and "#111 " not in page.text
    assert len(page.custom_ids) == 2  # Newer and Older
    await table.click(table.carol, page, label="Newer")
    assert "page 1 of 3" in res.messages[-1].text
    # One player's games, one game's: the filters ride on the buttons.
    res = await table.slash(table.carol, table.general, "game history", player=table.bob)
    assert "of <@" in res.text and "12 in all" in res.text
