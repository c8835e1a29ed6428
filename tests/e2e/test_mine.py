"""Issue #24 through Discord: `/game mine` lists a player's games in every server — the ones
waiting for them first, how long they have waited, what for, a link to each thread — in a
server and in a DM with the bot; each summary DM points there. `/game record` opens a finished
game of this server (result, recap picture, replay hint, public log file); `/game replay` takes
the same `game` option outside the thread."""

from __future__ import annotations

import json
import re
import time
from typing import Any

import pytest

from bot.storage import GameListing, GameSettings
from bot.tables import TableService
from cogs.utils.mine import (
    MINE_PAGE,
    MineEntry,
    board_awaited,
    mine_entries,
    mine_order,
    mine_text,
)
from cogs.utils.record import finished_label, game_ref
from demo import AutoTable
from rules.core import Action
from tests.e2e.conftest import Table

LINK = re.compile(r"https://discord\.com/channels/(\d+)/(\d+)")


async def _open(table: Table, creator: Any, channel: Any, *joiners: Any, start: bool = True
                ) -> tuple[int, Any]:
    """`creator` opens a High Card game in `channel`, `joiners` join, the creator starts it."""
    await table.slash(creator, channel, "game new", game="highcard")
    thread = table.emu.threads_of(channel)[-1]
    lobby = table.emu.messages_in(thread)[0]
    for user in joiners:
        await table.click(user, lobby, label="Join")
    if start:
        res = await table.slash(creator, thread, "game start")
        assert not res.ephemeral or "start" in res.text.lower() or res.text, res.text
    assert table.bot is not None
    record = await table.bot.storage.find_game_by_thread(int(thread.id))
    assert record is not None
    return record.id, thread


async def test_mine_lists_every_server_awaited_first_in_a_dm_and_a_server(table: Table) -> None:
    emu = table.emu
    other = emu.create_guild("Second Table")
    for user in (table.alice, table.bob):
        emu.add_member(other, user)
    hall = emu.create_text_channel(other, "hall")
    await emu.settle()
    # Second server: bob's game, alice seated; it waits for bob (the first seat sets the wager).
    theirs, their_thread = await _open(table, table.bob, hall, table.alice)
    table.clock_now += 3600
    # First server: alice's game with bob; it waits for alice, for a shorter time.
    ours, our_thread = await _open(table, table.alice, table.general, table.bob)
    table.clock_now += 600
    # And a lobby of alice's, not started.
    lobby, lobby_thread = await _open(table, table.alice, table.general, start=False)
    assert table.bot is not None
    assert (await table.bot.tables.awaited(ours)) == {"s1": int(table.alice.id)}
    assert (await table.bot.tables.awaited(theirs)) == {"s1": int(table.bob.id)}

    res = await table.slash(table.alice, None, "game mine")  # in a DM with the bot
    assert res.payload["context"] == 1 and res.ephemeral
    text = res.text
    print("\n/game mine in a DM:\n" + text)
    lines = text.split("\n")
    assert lines[0] == "**Your games** — 3 games in 2 servers; 1 waits for you."
    assert f"game #{ours}" in lines[1] and "**waiting for you**" in lines[1]
    assert f"game #{theirs}" in lines[2] and "waiting for you" not in lines[2]
    assert f"game #{lobby}" in lines[3] and "in the lobby" in lines[3]
    assert "**Haunted Table**" in lines[1] and "**Second Table**" in lines[2]
    # Since when, as Discord timestamps; what is awaited, in words (public: no card named).
    record = await table.bot.storage.get_game(ours)
    assert record is not None and record.awaited_since is not None
    assert f"<t:{int(record.awaited_since)}:R>" in lines[1]
    assert "set the wager" in lines[1].lower() or "choice" in lines[1].lower(), lines[1]
    # Each line links its own thread, in its own server.
    links = [LINK.search(line) for line in lines[1:4]]
    assert [(m.group(1), m.group(2)) if m else None for m in links] == [
        (table.guild.id, our_thread.id), (other.id, their_thread.id),
        (table.guild.id, lobby_thread.id)]
    # Nothing of a hand: no card value of alice's hidden hand is printed as a card.
    state = await table.bot.tables.state(ours)
    assert "hand" not in text.lower() and str(state.hands["s1"]) not in text

    # In a server the same list, privately; bob's own list puts his game first.
    res = await table.slash(table.bob, table.general, "game mine")
    assert res.ephemeral and res.payload["context"] == 0
    bob_lines = res.text.split("\n")
    assert f"game #{theirs}" in bob_lines[1] and "**waiting for you**" in bob_lines[1]
    assert f"game #{ours}" in bob_lines[2]
    # carol sits nowhere: told so, with what to do.
    res = await table.slash(table.carol, None, "game mine")
    assert "not seated in any game" in res.text

    # Any other /game command in a DM is answered, not run.
    res = await table.slash(table.alice, None, "game status")
    assert res.ephemeral and "works in a server" in res.text and "/game mine" in res.text

    # The summary DM points at /game mine, clickable with the synced command's id.
    command = emu.commands.find("game", None)
    assert command is not None
    dms = [m.content for m in emu.dm_messages(table.alice) if f"(game #{ours})" in m.content]
    assert dms and any(f"All your games: </game mine:{command['id']}>" in t for t in dms), dms


def _listing(gid: int, status: str = "active", **changes: Any) -> GameListing:
    base: dict[str, Any] = dict(
        id=gid, guild_id=1, channel_id=2, thread_id=3, game="highcard", options={},
        status=status, version=4, settings=GameSettings(), created_at=10.0, updated_at=20.0,
        awaited_since=15.0, board_version=4,
        board_post='{"awaited": ["s2"], "turn": "t", "lines": [], "pinged": []}',
        seats={"s1": 7, "s2": 8})
    base.update(changes)
    return GameListing(**base)


def test_board_awaited_trusts_only_a_current_board_post() -> None:
    assert board_awaited(_listing(1)) == ["s2"]
    assert board_awaited(_listing(1, board_version=3)) is None  # behind: the state says
    assert board_awaited(_listing(1, board_post=None)) is None
    assert board_awaited(_listing(1, board_post="not json")) is None
    assert board_awaited(_listing(1, status="lobby")) == []


def _entry(gid: int, mine: bool, since: float, status: str = "active") -> MineEntry:
    return MineEntry(game_id=gid, title="High Card", server="**S**", link=f"L{gid}",
                     status=status, mine=mine, since=since, awaited="alice: set the wager.")


def test_mine_order_awaited_first_longest_wait_first_lobbies_last() -> None:
    entries = [_entry(1, False, 5.0), _entry(2, True, 50.0), _entry(3, False, 1.0, "lobby"),
               _entry(4, True, 10.0), _entry(5, False, 2.0)]
    assert [e.game_id for e in mine_order(entries)] == [4, 2, 5, 1, 3]


def test_mine_text_pages_and_words() -> None:
    entries = mine_order([_entry(i, i % 3 == 0, float(i)) for i in range(1, 24)])
    first = mine_text(entries, 1, 2)
    lines = first.split("\n")
    assert lines[0] == "**Your games** — 23 games in 2 servers; 7 wait for you."
    assert len(lines) == 1 + MINE_PAGE + 1
    assert lines[1].startswith("⏳ **High Card** — game #3, **S**: **waiting for you** since "
                               "<t:3:R>. alice: set the wager. L3")
    assert lines[-1] == "Page 1 of 3 — `/game mine page:2` for the next."
    last = mine_text(entries, 9, 2)  # past the end: the last page
    assert last.split("\n")[-1] == "Page 3 of 3" and len(last.split("\n")) == 1 + 3 + 1
    one = mine_text([_entry(9, False, 1.0, "lobby")], 1, 1)
    assert one.split("\n")[0] == "**Your games** — 1 game in 1 server; none waits for you."
    assert "in the lobby since <t:1:R>" in one


def test_game_ref_reads_numbers_only() -> None:
    assert game_ref("12") == 12 and game_ref("#12") == 12 and game_ref("game #12") == 12
    for bad in ("", "twelve", "١٢", "1" * 19, "12; drop"):
        assert game_ref(bad) is None, bad


def test_finished_label_public_facts_within_100_characters(highcard: Any) -> None:
    label = finished_label(_listing(42, "over", updated_at=86400.0 * 365),
                           {"s1": "alice", "s2": "b*ob"})
    assert label == "#42 High Card (test game) — 1971-01-01 — over — alice, b*ob"
    long = finished_label(_listing(42, "abandoned"), {"s1": "x" * 200})
    assert len(long) <= 100 and "abandoned" in long


async def test_record_of_a_finished_game_and_replay_outside_its_thread(table: Table) -> None:
    assert table.bot is not None
    bot = table.bot
    bot.tables.seed_source = lambda: 5
    auto = AutoTable(table.emu, bot, table.general, [table.alice, table.bob])
    await auto.open("fourth_wall", "conflict")
    gid = auto.game_id
    # Still running: its record opens when it ends, and its thread is linked.
    res = await table.slash(table.carol, table.general, "game record", game=str(gid))
    assert res.ephemeral and "still running" in res.text and auto.thread().id in res.text
    # A running game is replayed in its own thread only.
    res = await table.slash(table.carol, table.general, "game replay", step=0, game=str(gid))
    assert "still running: `/game replay` it in its own thread" in res.text, res.text
    res = await table.slash(table.carol, auto.thread(), "game replay", step=0, game=str(gid))
    assert f"game #{gid}, the board after step 0" in res.text, res.text
    await auto.play_to_end()
    await table.emu.settle()
    record = await bot.storage.get_game(gid)
    assert record is not None and record.status == "over"

    # The autocomplete offers it, newest first, by number, title, date and players.
    choices = await table.emu.autocomplete(table.carol, table.general, "game record",
                                           {"game": ""}, focused="game")
    assert choices and choices[0]["value"] == str(gid)
    assert "Fourth Wall" in choices[0]["name"] and "alice" in choices[0]["name"]
    typed = await table.emu.autocomplete(table.carol, table.general, "game record",
                                         {"game": "bob"}, focused="game")
    assert [c["value"] for c in typed] == [str(gid)]

    res = await table.slash(table.carol, table.general, "game record", game=str(gid))
    assert res.ephemeral, res.text
    text = res.text
    print("\n/game record:\n" + text)
    assert f"game #{gid}, finished <t:" in text and "🏁" in text
    assert f"`/game replay game:{gid} step:0`" in text and f"step:{record.version}" in text
    files = {f.filename: f for f in res.files}
    assert "recap.png" in files and (files["recap.png"].description or "")
    log_text = files[f"game-{gid}-log.txt"].data.decode()
    assert log_text.split("\n")[0].endswith(f"game #{gid} — public log")
    entries = await bot.tables.history(gid)
    public = [e.text for entry in entries for e in entry.events if e.public]
    private = {e.text for entry in entries for e in entry.events if not e.public} - set(public)
    assert public and all(line in log_text for line in public[-5:])
    assert not any(line in log_text for line in private), "a private event in the record"

    # /game replay game: works from the channel, outside the thread, for a finished game.
    res = await table.slash(table.carol, table.general, "game replay", step=1, game=str(gid))
    assert f"game #{gid}, the board after step 1 of {record.version}" in res.text, res.text
    # Another server's game is not found; a number of no game neither.
    other = table.emu.create_guild("Other Table")
    table.emu.add_member(other, table.carol)
    elsewhere = table.emu.create_text_channel(other, "elsewhere")
    await table.emu.settle()
    res = await table.slash(table.carol, elsewhere, "game record", game=str(gid))
    assert "no finished game" in res.text
    res = await table.slash(table.carol, table.general, "game record", game="999999")
    assert "no finished game" in res.text
    choices = await table.emu.autocomplete(table.carol, elsewhere, "game record",
                                           {"game": ""}, focused="game")
    assert choices == []


async def test_mine_reads_states_only_for_the_page_shown(table: Table,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """A player in 120 games: the list comes from their rows and the stored board posts; a
    game's state is read only for the 10 lines shown (the "what now" sentence), and for a game
    whose board post is behind (bounded)."""
    assert table.bot is not None
    bot = table.bot
    alice, bob = int(table.alice.id), int(table.bob.id)
    guild, channel = int(table.guild.id), int(table.general.id)
    ids = []
    for i in range(120):
        rec = await bot.tables.create(guild, channel, 10_000 + i, "highcard", {}, alice)
        await bot.tables.join(rec.id, bob)
        started = await bot.tables.start(rec.id, alice, seed=i)
        # Boards as the delivery stores them: every third game waits for alice (her wager),
        # the others for bob (alice has wagered and played her card).
        awaited = ["s1"]
        if i % 3 != 0:
            await bot.tables.act(rec.id, alice, Action(kind="wager", params={"amount": 1}))
            card = (await bot.tables.legal_actions(rec.id, alice))[0]
            await bot.tables.act(rec.id, alice, card)
            awaited = ["s2"]
        record = await bot.storage.get_game(rec.id)
        assert record is not None and started.record.id == rec.id
        await bot.storage.set_board_message(
            rec.id, 1, record.version,
            json.dumps({"awaited": awaited, "turn": "", "lines": [], "pinged": []}))
        ids.append(rec.id)
    # One board behind its game: its state says who is awaited.
    behind = ids[5]
    await bot.storage.set_board_message(behind, 1, 0, None)
    loads = 0
    real = TableService._load

    async def counted(self: TableService, rec: Any) -> Any:
        nonlocal loads
        loads += 1
        return await real(self, rec)

    monkeypatch.setattr(TableService, "_load", counted)
    began = time.perf_counter()
    entries, servers = await mine_entries(bot, alice, 1)
    took = time.perf_counter() - began
    print(f"\n/game mine over {len(entries)} games: {took * 1000:.0f} ms, {loads} states read")
    assert len(entries) == 120 and servers == 1
    assert loads <= MINE_PAGE + 1
    waiting = [e for e in entries if e.mine]
    assert [e.game_id for e in waiting] == ids[::3]
    assert entries[:len(waiting)] == waiting
    assert all(e.awaited for e in entries[:MINE_PAGE]) and not any(
        e.awaited for e in entries[MINE_PAGE:])


async def test_record_of_abandoned_games_says_so_and_keeps_the_public_log(table: Table) -> None:
    """An abandoned game's record: no winner, the moves made, the public log (the hands never
    in it); a lobby abandoned before it started has no log at all."""
    assert table.bot is not None
    gid, thread = await _open(table, table.alice, table.general, table.bob)
    await table.bot.tables.act(gid, int(table.alice.id),
                               Action(kind="wager", params={"amount": 2}))
    await table.slash(table.alice, thread, "game abandon")
    lobby, _ = await _open(table, table.alice, table.general, start=False)
    await table.bot.tables.abandon(lobby, int(table.alice.id), False)

    res = await table.slash(table.bob, table.general, "game record", game=f"#{gid}")
    print("\n/game record (abandoned):\n" + res.text)
    assert f"game #{gid}, abandoned <t:" in res.text
    assert "abandoned" in res.text and "after 1 move: nobody won" in res.text
    files = {f.filename: f for f in res.files}
    assert set(files) == {f"game-{gid}-log.txt"}  # High Card draws no picture
    log_text = files[f"game-{gid}-log.txt"].data.decode()
    assert "   1. " in log_text
    state = await table.bot.tables.state(gid)
    hands = {str(c) for cards in state.hands.values() for c in cards}
    numbers = set(re.findall(r"\b\d+\b", log_text.split("\n", 1)[1]))
    assert not numbers & hands - {"1", "2"}, "a card of a hidden hand in the log"

    res = await table.slash(table.bob, table.general, "game record", game=str(lobby))
    assert "abandoned before it started" in res.text and not res.files
