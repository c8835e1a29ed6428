"""Every deadline or reminder time the bot shows is a Discord timestamp (`<t:UNIX:f>` /
`<t:UNIX:R>`), drawn by each reader's client in their own time zone; quiet hours take an IANA
zone name, with autocomplete. Played through the local emulator with the test game High Card
(tests/tinygame.py) and the bot's clock."""

from __future__ import annotations

from typing import Any

from bot.reminders import HOUR
from tests.e2e.conftest import Table


async def _started(table: Table) -> int:
    await table.lobby(players=(table.bob,), options="rounds=3")
    await table.slash(table.alice, table.thread(), "game start")
    return await table.game_id()


def _dms(table: Table, user: Any, words: str) -> list[str]:
    return [m.content for m in table.emu.dm_messages(user) if words in m.content]


async def _remind(table: Table, hours: float) -> None:
    assert table.bot is not None and table.bot.reminders is not None
    table.clock_now += hours * HOUR
    await table.bot.reminders.run_once()
    await table.emu.settle()


async def test_reminders_and_the_deadline_are_discord_timestamps(table: Table) -> None:
    since = int(table.clock_now)
    await _started(table)
    deadline = since + 3 * int(HOUR)
    res = await table.slash(table.alice, table.thread(), "game settings", policy="enforced",
                            reminder_hours=1.0, deadline_hours=3.0)
    assert (f"This wait began <t:{since}:R>. Next reminder: <t:{since + 3600}:f> "
            f"(<t:{since + 3600}:R>). Deadline: <t:{deadline}:f> (<t:{deadline}:R>) — then "
            "the rule's default move is played.") in res.text
    status = await table.slash(table.bob, table.thread(), "game status")
    assert f"Waiting since <t:{since}:f> (<t:{since}:R>). Deadline: <t:{deadline}:f>" in (
        status.text)
    # The first reminder, by DM, says how long the table has waited and when it acts.
    await _remind(table, 1.5)
    [dm] = _dms(table, table.alice, "It's your move")
    assert dm.endswith(f"It has waited since <t:{since}:R>. Deadline: <t:{deadline}:f> "
                       f"(<t:{deadline}:R>) — then the rule's default move is played.")
    # The ping in the thread too.
    await _remind(table, 1.0)
    pings = [m.content for m in table.emu.messages_in(table.thread())
             if "waiting for your move" in m.content]
    assert pings and f"since <t:{since}:R>" in pings[-1] and f"<t:{deadline}:f>" in pings[-1]
    # At the deadline the move is played and the DM names the deadline that passed.
    await _remind(table, 1.0)
    [passed] = _dms(table, table.alice, "deadline")
    assert f"The table's deadline (<t:{deadline}:f>) passed" in passed


async def test_an_advisory_table_shows_no_deadline(table: Table) -> None:
    since = int(table.clock_now)
    await _started(table)
    await _remind(table, 13)
    [dm] = _dms(table, table.alice, "It's your move")
    assert f"It has waited since <t:{since}:R>." in dm and "Deadline" not in dm


async def test_quiet_hours_take_a_zone_name_with_autocomplete(table: Table) -> None:
    choices = await table.emu.autocomplete(
        table.alice, table.general, "game quiet", {"start": "22", "end": "8", "tz": "paris"},
        focused="tz")
    assert choices[0] == {"name": "Europe/Paris", "value": "Europe/Paris"}
    many = await table.emu.autocomplete(
        table.alice, table.general, "game quiet", {"start": "22", "end": "8", "tz": "a"},
        focused="tz")
    assert 0 < len(many) <= 25 and all(len(c["value"]) <= 100 for c in many)
    res = await table.slash(table.alice, table.general, "game quiet", start="22", end="8",
                            tz="europe/paris")
    assert res.ephemeral and res.text.startswith("Quiet hours: 22:00–08:00 (Europe/Paris).")
    assert "<t:" in res.text and "daylight saving" not in res.text
    assert table.bot is not None
    assert (await table.bot.tables.prefs(int(table.alice.id))).tz_name == "Europe/Paris"
    # Without tz the zone given last is kept.
    res = await table.slash(table.alice, table.general, "game quiet", start="23", end="7")
    assert "(Europe/Paris)" in res.text
    res = await table.slash(table.alice, table.general, "game quiet", start="23", end="7",
                            tz="Atlantis/Capital")
    assert res.ephemeral and "isn't a time zone" in res.text
