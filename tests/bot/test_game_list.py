"""`/game list` (issue #25, item 3): a server's open games read a page at a time from an
index, active games waiting longest first then lobbies, with Previous and Next.

Storage's page on both backends; on SQLite, the statements it costs and the plan SQLite runs
(the index's order, no sort); the page as players read it, within Discord's limits."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot import limits
from bot.storage import GameListPage, GameRecord, GameSettings, ListedGame, SqliteStorage, Storage
from cogs.utils.gamelist import PER_PAGE, list_embed, list_view, listed_line
from rules.registry import GAMES, register, unregister
from tests.bot import CHANNEL, GUILD, HOUR, T0
from tests.sqlcount import SqlCount
from tests.tinygame import GAME as HIGHCARD


@pytest.fixture
def highcard() -> Iterator[None]:
    """The tiny game registered, as the bot would have it (its title in the list)."""
    if HIGHCARD.name in GAMES:
        yield
        return
    register(HIGHCARD)
    try:
        yield
    finally:
        unregister(HIGHCARD.name)


async def lobby(storage: Storage, thread: int, *, guild: int = GUILD, ai: int = 0,
                mode: str = "standard") -> GameRecord:
    rec = await storage.create_game(
        guild_id=guild, channel_id=CHANNEL, thread_id=thread, game="highcard",
        options={"mode": mode, "rounds": 3}, created_by=thread, engine_version="highcard-1",
        settings=GameSettings(), now=T0)
    for _ in range(ai):
        await storage.add_seat(rec.id, None, T0)
    return rec


async def active(storage: Storage, thread: int, waiting_since: float) -> GameRecord:
    """A started game whose wait began at `waiting_since`."""
    rec = await lobby(storage, thread)
    await storage.add_seat(rec.id, thread + 1, T0)
    return await storage.start_game(rec.id, '{"step": 0}', 1, seat_ids=["s1", "s2"],
                                    now=waiting_since, next_reminder_at=None)


def ids(page: GameListPage) -> list[int]:
    return [g.id for g in page.games]


async def test_pages_list_active_games_waiting_longest_first_then_lobbies(storage: Storage):
    recent = await active(storage, 3001, T0 + 3 * HOUR)
    oldest = await active(storage, 3002, T0 + 1 * HOUR)
    middle = await active(storage, 3003, T0 + 2 * HOUR)
    first_lobby = await lobby(storage, 3004, ai=1)
    second_lobby = await lobby(storage, 3005, mode="duel")
    ended = await active(storage, 3006, T0)
    await storage.set_status(ended.id, "over", T0 + HOUR)
    await lobby(storage, 3007, guild=GUILD + 1)  # another server's

    pages = [await storage.open_games(GUILD, n, 2) for n in range(3)]
    assert [ids(p) for p in pages] == [[oldest.id, middle.id], [recent.id, first_lobby.id],
                                       [second_lobby.id]]
    assert all((p.pages, p.active, p.lobbies, p.total) == (3, 3, 2, 5) for p in pages)
    assert [p.page for p in pages] == [0, 1, 2]
    # A page past the end (a button older than the last closed game) shows the last one.
    assert (await storage.open_games(GUILD, 9, 2)).page == 2
    assert (await storage.open_games(GUILD, -1, 2)).page == 0

    waiting, joinable = pages[1].games
    assert waiting == ListedGame(id=recent.id, game="highcard", mode="standard",
                                 status="active", channel_id=CHANNEL, thread_id=3001,
                                 awaited_since=T0 + 3 * HOUR, seats=2, ai_seats=0)
    assert (joinable.status, joinable.seats, joinable.ai_seats, joinable.awaited_since) == (
        "lobby", 2, 1, None)
    assert pages[2].games[0].mode == "duel"

    # Everything on one page; a server with nothing open has one empty page.
    whole = await storage.open_games(GUILD, 0, 25)
    assert ids(whole) == [oldest.id, middle.id, recent.id, first_lobby.id, second_lobby.id]
    empty = await storage.open_games(GUILD + 2, 0, 25)
    assert (empty.games, empty.page, empty.pages, empty.total) == ([], 0, 1, 0)
    with pytest.raises(ValueError):
        await storage.open_games(GUILD, 0, 0)


async def test_a_page_is_two_statements_and_reads_no_state(db_path: Path, storage: Storage):
    assert isinstance(storage, SqliteStorage)
    for n in range(30):
        await (active(storage, 4000 + 2 * n, T0 + n) if n % 3 else lobby(storage, 4000 + 2 * n))
    count = await SqlCount.install(storage)
    for page in (0, 1, 5):
        count.reset()
        await storage.open_games(GUILD, page, 4)
        # This test's own call: counted as the driver's (tests/sqlcount.py).
        assert count.driver_statements == 2  # the counts, the page
    con = sqlite3.connect(db_path)
    try:
        from bot.storage import _OPEN_GAMES, _sqlite_text

        sql = _sqlite_text(_OPEN_GAMES, ("guild", "live", "per_page", "skip"))
        sql = sql.replace("(__[POSTCOMPILE_live])", "('active', 'lobby')")
        plan = " | ".join(str(r[3]) for r in con.execute(
            f"EXPLAIN QUERY PLAN {sql}",
            {"guild": GUILD, "per_page": 4, "skip": 8}).fetchall())
    finally:
        con.close()
    # In the index's order: no sort of the server's games, and the seats counted by key.
    assert "games_guild_waiting" in plan, plan
    assert "TEMP B-TREE" not in plan, plan


def listed(n: int, **changes: object) -> ListedGame:
    base = ListedGame(id=n, game="highcard", mode="standard", status="active",
                      channel_id=CHANNEL, thread_id=900_000_000_000_000_000 + n,
                      awaited_since=T0, seats=3, ai_seats=1)
    return base.model_copy(update=changes)


@pytest.mark.usefixtures("highcard")
def test_a_line_says_what_a_player_may_join_or_wait_for():
    line = listed_line(listed(7))
    assert line.startswith(f"#7 **{HIGHCARD.title}** (Standard) — waiting since ")
    assert f"<t:{int(T0)}:R>" in line and "3 seats (1 AI)" in line
    assert line.endswith(f"<#{900_000_000_000_000_000 + 7}>")
    open_lobby = listed_line(listed(8, status="lobby", awaited_since=None, seats=1, ai_seats=0,
                                    thread_id=None))
    assert "lobby, open to join — 1 seat — " in open_lobby
    assert open_lobby.endswith(f"<#{CHANNEL}>")  # no thread: the channel it was opened in


def test_a_full_page_of_long_names_fits_one_embed():
    long = [listed(10**17 + n, game="x" * 300, mode="y" * 300) for n in range(PER_PAGE)]
    page = GameListPage(games=long, page=3, pages=90, active=1700, lobbies=80)
    embed = list_embed(page)
    assert embed.description is not None
    assert len(embed.description) <= limits.EMBED_DESCRIPTION
    assert len(embed) <= limits.EMBED_TOTAL
    # Every line keeps its id and where it is played; only the names give way.
    for game, line in zip(long, embed.description.splitlines(), strict=True):
        assert line.startswith(f"#{game.id} **") and line.endswith(f"<#{game.thread_id}>")
    assert embed.footer.text is not None and embed.footer.text.startswith(
        "Page 4 of 90 · 1700 active, 80 in the lobby")


def test_previous_and_next_are_there_only_with_pages_to_turn():
    one = GameListPage(games=[listed(1)], page=0, pages=1, active=1, lobbies=0)
    assert list_view(one) is None

    def buttons(page: int) -> list[tuple[str | None, bool]]:
        view = list_view(GameListPage(games=[listed(1)], page=page, pages=3, active=3,
                                      lobbies=0))
        assert view is not None
        return [(b.item.custom_id, b.item.disabled) for b in view.children  # type: ignore[attr-defined]
                ]

    assert buttons(0) == [("hb:list:prev:0", True), ("hb:list:next:1", False)]
    assert buttons(1) == [("hb:list:prev:0", False), ("hb:list:next:2", False)]
    assert buttons(2) == [("hb:list:prev:1", False), ("hb:list:next:2", True)]
    for page in (0, 1, 2):
        assert all(len(cid or "") <= limits.CUSTOM_ID for cid, _ in buttons(page))
