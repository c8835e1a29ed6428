"""#22's ending, checked through Discord on a finished game: the game-over post, the recap, the
result DMs, the closed summary DMs and the Rematch button (`check_the_end`). The whole games that
end that way are played by `test_ending.py` (Fourth Wall, The Presence) and `test_exorcism.py`
(One vs All, whose game serves several checks)."""

from __future__ import annotations

import asyncio
import io
from typing import Any

from PIL import Image

from demo import AutoTable
from emulator.records import MessageRecord
from rules.registry import GAMES
from tests.e2e.conftest import Table


async def ending_post(emu: Any, thread: Any, gid: int) -> MessageRecord:
    """The game-over post, once the bot has sent it (it replays the log and draws the recap
    after the last move is stored, so it may follow the move's answer by a moment)."""
    for _ in range(400):
        posts = [m for m in emu.messages_in(thread)
                 if any(c == f"hb:rematch:{gid}" for c in m.custom_ids)]
        if posts:
            assert len(posts) == 1, "one game-over post, with Rematch"
            await emu.settle()  # the result DMs follow the post
            return posts[0]
        await asyncio.sleep(0.05)
    raise AssertionError("no game-over post")


async def check_the_end(table: Table, auto: AutoTable, game: str) -> None:
    """#22's ending of `auto`'s finished game: the game-over post pings every player and
    names who won and lost, the recap picture, a result DM each and every summary DM closed,
    the Rematch button for players only, pressed once."""
    bot = table.bot
    assert bot is not None
    record = await bot.storage.get_game(auto.game_id)
    assert record is not None and record.status == "over"
    state = await bot.tables.state(auto.game_id)
    result = GAMES[game].result(state)
    assert result is not None
    users = await bot.tables.users_of(auto.game_id)
    display = {int(u.id): u.name for u in auto.users}
    post = await ending_post(table.emu, auto.thread(), auto.game_id)

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
    # A post holding the lines a board or the end had no room for holds some (stop 64's
    # replay: an empty "(continued below)" post before the game-over post).
    for message in table.emu.messages_in(auto.thread()):
        if "(continued below)" in message.content:
            assert any(line.startswith("• ") for line in message.content.splitlines()), \
                message.content
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
        told = [m for m in dms if f"(game #{auto.game_id}) is over." in m.content]
        assert told, user.name
        if user is auto.users[0]:
            print("\nRESULT DM:\n" + told[-1].content)
        head = f"**{GAMES[game].title}** (game #{auto.game_id}) — "
        summaries = [m for m in dms if m.content.startswith(head)]
        for m in summaries:
            assert not m.custom_ids, f"{user.name}'s summary DM still has buttons"
            assert "Game over" in m.content
            closed += 1
            if closed == 1:
                print("\nCLOSED SUMMARY DM:\n" + m.content)
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
