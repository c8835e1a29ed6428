"""The end of a game through Discord (issue #22): whole games of each game, pressed by AI-driven
users, end with a post that pings every player, names who won and who lost and why, carries the
recap picture with its alt text and a **Rematch** button that opens the same game with the same
players; each player gets a result DM and their summary DM is closed (no buttons, "Game over")."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from demo import AutoTable
from emulator.records import MessageRecord
from rules.registry import GAMES
from tests.e2e.conftest import Table


async def _play(table: Table, game: str, mode: str, players: int) -> AutoTable:
    assert table.bot is not None
    table.bot.tables.seed_source = lambda: 5
    users = [table.alice, table.bob, table.carol][:players]
    auto = AutoTable(table.emu, table.bot, table.general, users)
    await auto.open(game, mode)
    await auto.play_to_end()
    return auto


def _ending_post(auto: AutoTable) -> MessageRecord:
    posts = [m for m in auto.emu.messages_in(auto.thread())
             if any(c.startswith("hb:rematch:") for c in m.custom_ids)]
    assert len(posts) == 1, "one game-over post, with Rematch"
    return posts[0]


@pytest.mark.parametrize(("game", "mode", "players"), [
    ("exorcism", "one_vs_all", 3),
    ("fourth_wall", "conflict", 2),
    ("presence", "session", 3),
])
async def test_the_end_pings_tells_and_offers_a_rematch(table: Table, game: str, mode: str,
                                                         players: int) -> None:
    auto = await _play(table, game, mode, players)
    bot = table.bot
    assert bot is not None
    record = await bot.storage.get_game(auto.game_id)
    assert record is not None and record.status == "over"
    state = await bot.tables.state(auto.game_id)
    result = GAMES[game].result(state)
    assert result is not None
    users = await bot.tables.users_of(auto.game_id)
    display = {int(u.id): u.name for u in auto.users}
    post = _ending_post(auto)

    # Every player pinged, once, on the game-over post.
    assert {int(u) for u in post.pinged_user_ids} == {int(u.id) for u in auto.users}
    # Winners and losers named, and why.
    text = post.content
    assert "Game over" in text
    for seat in result.winners:
        assert display[users[seat]].casefold() in text.casefold()  # type: ignore[index]
    for seat in result.losers:
        assert display[users[seat]].casefold() in text.casefold()  # type: ignore[index]
    assert (" lose" in text or "loses" in text) and "round" in text
    # The recap picture: a phone-width PNG with alt text in whole sentences.
    recap = [a for a in post.attachments if a.filename == "recap.png"]
    assert recap, "the recap picture"
    image = Image.open(io.BytesIO(recap[0].data))
    assert image.width == 800
    alt = recap[0].description or ""
    assert 0 < len(alt) <= 1024 and alt.endswith((".", "!", "?"))
    assert "The game lasted" in alt

    # Each player: a result DM, and the summary DM closed (no buttons, "Game over").
    closed = 0
    for user in auto.users:
        dms = table.emu.dm_messages(user)
        assert any(f"(game #{auto.game_id}) is over." in m.content for m in dms), user.name
        head = f"**{GAMES[game].title}** (game #{auto.game_id}) — "
        summaries = [m for m in dms if m.content.startswith(head)]
        for m in summaries:
            assert not m.custom_ids, f"{user.name}'s summary DM still has buttons"
            assert "Game over" in m.content
            closed += 1
    assert closed, "at least one player held something hidden and had a summary DM"
    print("\n" + post.content + "\nALT: " + alt)

    # A non-player is told no; a player opens the rematch; a second press is told where it is.
    outsider = table.emu.create_user("dora")
    table.emu.add_member(table.guild, outsider)
    res = await table.emu.click(outsider, post, label="Rematch")
    await res.wait_done()
    assert "Only this game's players" in res.text
    res = await table.emu.click(auto.users[-1], post, label="Rematch")
    await res.wait_done(timeout=30)
    assert "Rematch started" in res.text, res.text
    rematch = await bot.storage.find_game_by_rematch(auto.game_id)
    assert rematch is not None and rematch.status == "active"
    assert rematch.game == game and rematch.options == record.options
    new_users = await bot.tables.users_of(rematch.id)
    assert {u for u in new_users.values() if u} == {u for u in users.values() if u}
    again = await table.emu.click(auto.users[0], post, label="Rematch")
    await again.wait_done()
    assert "already started" in again.text and f"<#{rematch.thread_id}>" in again.text
