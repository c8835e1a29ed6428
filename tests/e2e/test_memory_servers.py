"""The memory of finished games across two servers (issue #24's walk-through): whole games
pressed through Discord in two servers, then each server's `/game history` and `/game stats`
count only its own games, `/game mine` from a DM lists the running games of both, and every
finished game moved its winner's rating up and its loser's down (fixed deals)."""

from __future__ import annotations

from typing import Any

from bot.ratings import START_MU
from demo import AutoTable
from tests.e2e.conftest import Table

FIRST_WINS = 20
"""A High Card deal where every card of the first seat (the game's creator) beats every card
of the second."""


async def _play(table: Table, channel: Any, users: list[Any]) -> int:
    """users[0] opens a High Card game in `channel` and wins it against users[1]."""
    assert table.bot is not None
    table.bot.tables.seed_source = lambda: FIRST_WINS
    auto = AutoTable(table.emu, table.bot, channel, users)
    await auto.open("highcard", None)
    table.clock_now += 600.0
    await auto.play_to_end()
    await table.emu.settle()
    return auto.game_id


async def _mu(table: Table, user: Any) -> float:
    """The user's High Card rating (the starting one before any rated game)."""
    assert table.bot is not None
    got = await table.bot.storage.table_ratings([int(user.id)], "highcard")
    return got[int(user.id)].mu if int(user.id) in got else START_MU


async def _running(table: Table, channel: Any, creator: Any, joiner: Any) -> int:
    """A started High Card game left running."""
    assert table.bot is not None
    await table.slash(creator, channel, "game new", game="highcard")
    thread = table.emu.threads_of(channel)[-1]
    await table.click(joiner, table.emu.messages_in(thread)[0], label="Join")
    res = await table.slash(creator, thread, "game start")
    assert "Started" in res.text, res.text
    record = await table.bot.storage.find_game_by_thread(int(thread.id))
    assert record is not None and record.status == "active"
    return record.id


def _listed(text: str, game_id: int) -> bool:
    return f"**#{game_id} " in text


async def test_two_servers_keep_their_own_memory(table: Table) -> None:
    emu = table.emu
    alice, bob, carol = table.alice, table.bob, table.carol
    second = emu.create_guild("Second Table")
    for user in (alice, bob, carol):
        emu.add_member(second, user)
    hall = emu.create_text_channel(second, "hall")
    await emu.settle()

    # Three finished games, each won by its creator; ratings follow every result.
    played: dict[str, int] = {}
    for name, channel, winner, loser in (("first", table.general, alice, bob),
                                         ("second", hall, bob, carol),
                                         ("third", hall, carol, alice)):
        before = (await _mu(table, winner), await _mu(table, loser))
        played[name] = await _play(table, channel, [winner, loser])
        after = (await _mu(table, winner), await _mu(table, loser))
        assert after[0] > before[0], f"{name}: the winner's rating went up"
        assert after[1] < before[1], f"{name}: the loser's rating went down"
    one, two, three = played["first"], played["second"], played["third"]

    # A game running in each server, alice seated in both.
    ours = await _running(table, table.general, alice, bob)
    theirs = await _running(table, hall, bob, alice)

    # /game history: each server lists only its own finished games (never running ones).
    res = await table.slash(carol, table.general, "game history")
    assert res.ephemeral and "1 in all" in res.text
    assert _listed(res.text, one)
    assert not any(_listed(res.text, g) for g in (two, three, ours, theirs))
    res = await table.slash(carol, hall, "game history")
    assert res.ephemeral and "2 in all" in res.text
    assert res.text.index(f"**#{three} ") < res.text.index(f"**#{two} ")  # newest first
    assert not any(_listed(res.text, g) for g in (one, ours, theirs))
    res = await table.slash(bob, hall, "game history", player=alice)
    assert "1 in all" in res.text and _listed(res.text, three) and not _listed(res.text, two)

    # /game stats: the server's figures, then alice's, counted per server.
    res = await table.slash(carol, table.general, "game stats", server=True)
    assert "— 1 finished." in res.text and f"<@{alice.id}> (1)" in res.text
    assert f"<@{carol.id}>" not in res.text  # carol never played here
    res = await table.slash(carol, hall, "game stats", server=True)
    assert "— 2 finished." in res.text and f"<@{carol.id}> (2)" in res.text
    res = await table.slash(alice, table.general, "game stats")
    assert "1 game finished" in res.text and "1 played, 1 won (100%)" in res.text
    # A rating is one per game title, whichever server the game was in.
    assert "after 2 rated games" in res.text
    res = await table.slash(alice, hall, "game stats")
    assert "1 game finished" in res.text and "1 played, 0 won (0%)" in res.text
    res = await table.slash(alice, hall, "game stats", player=bob)
    assert "1 played, 1 won (100%)" in res.text  # his loss is in the other server

    # /game mine from a DM: the running games of both servers, each linked, none finished.
    res = await table.slash(alice, None, "game mine")
    assert res.ephemeral and res.payload["context"] == 1
    text = res.text
    assert text.split("\n")[0].startswith("**Your games** — 2 games in 2 servers;"), text
    assert f"game #{ours}" in text and f"game #{theirs}" in text
    assert "**Haunted Table**" in text and "**Second Table**" in text
    assert f"/channels/{table.guild.id}/" in text and f"/channels/{second.id}/" in text
    assert not any(f"game #{g}" in text for g in (one, two, three))
