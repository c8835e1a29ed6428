"""Hostile payloads answered cleanly (issue #21, part 4): interactions Discord's own client
would not send — an option of the wrong type or out of range, a value no choice offers, an
unknown command or subcommand, a missing or unknown option, a custom id whose game id overflows
the database, a lobby menu value the menu never offered. A bot must not trust its client: each
is answered ephemerally with what to do instead, nothing is logged as an unhandled error, and
no game changes (nor does one open).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

import pytest

from emulator.interaction_records import InteractionRecord
from emulator.records import ChannelRecord, UserRecord
from tests.e2e import words
from tests.e2e.conftest import Table
from tests.proof.harness import open_game

SUB, STRING, INTEGER, BOOLEAN, USER, NUMBER = 1, 3, 4, 5, 6, 10


def sub(name: str, *options: dict[str, Any]) -> list[dict[str, Any]]:
    """`data.options` of `/game <name>` with `options`."""
    return [{"type": SUB, "name": name, "options": list(options)}]


def opt(kind: int, name: str, value: Any) -> dict[str, Any]:
    return {"type": kind, "name": name, "value": value}


@dataclass
class Case:
    what: str
    where: str  # "general" (outside games) or "thread" (the live game's thread)
    command: str
    options: list[dict[str, Any]]
    says: str  # words the answer must contain: what to do instead


HUGE = 10**20
CASES = [
    Case("reminder_hours as text", "thread", "game",
         sub("settings", opt(NUMBER, "reminder_hours", "abc")), "takes a number"),
    Case("reminder_hours out of range", "thread", "game",
         sub("settings", opt(NUMBER, "reminder_hours", 0.01)), "from 1 to 168"),
    Case("replay step as text", "thread", "game",
         sub("replay", opt(INTEGER, "step", "abc")), "takes a whole number"),
    Case("replay step as a boolean", "thread", "game",
         sub("replay", opt(INTEGER, "step", True)), "takes a whole number"),
    Case("replay step beyond range", "thread", "game",
         sub("replay", opt(INTEGER, "step", HUGE)), "from 0 to 100000"),
    Case("replay step missing", "thread", "game", sub("replay"), "needs `step`"),
    Case("a whole number too large for any float", "thread", "game",
         sub("replay", opt(INTEGER, "step", 10**400)), "from 0 to 100000"),
    Case("hours too large for any float", "thread", "game",
         sub("settings", opt(NUMBER, "reminder_hours", 10**400)), "from 1 to 168"),
    Case("ai below zero", "general", "game",
         sub("new", opt(STRING, "game", "highcard"), opt(INTEGER, "ai", -1)), "from 0 to 6"),
    Case("as with any text", "general", "game",
         sub("new", opt(STRING, "game", "exorcism"), opt(STRING, "mode", "one_vs_all"),
             opt(STRING, "as", "anything")), "one of its choices"),
    Case("game as a number", "general", "game",
         sub("new", opt(STRING, "game", 7)), "takes text"),
    Case("a boolean where a choice belongs", "general", "game",
         sub("away", opt(STRING, "state", True)), "takes text"),
    Case("a choice no menu offers", "general", "game",
         sub("notify", opt(STRING, "near", "sideways")), "one of its choices"),
    Case("a number where a move's text belongs", "thread", "exorcism",
         [{"type": SUB, "name": "move", "options": [opt(STRING, "choice", 12345)]}],
         "takes text"),
    Case("a boolean where a move's text belongs", "thread", "exorcism",
         [{"type": SUB, "name": "move", "options": [opt(STRING, "choice", False)]}],
         "takes text"),
    Case("an unknown subcommand", "thread", "game", sub("frobnicate"), "don't know that command"),
    Case("an unknown command", "thread", "frobnicate", [], "don't know that command"),
    # Names of the release before issue #22, gone from Discord's list: a client that still
    # sends them (a stale command cache) gets the same polite answer, and nothing runs.
    Case("the Fourth Wall's old group", "thread", "fw", sub("end"), "don't know that command"),
    Case("end's old name", "thread", "exorcism", sub("pass"), "don't know that command"),
    Case("a game group's old rules lookup", "thread", "exorcism",
         sub("rules", opt(STRING, "rule", "EX-ACT-01")), "don't know that command"),
    Case("an unknown option", "thread", "game",
         sub("status", opt(STRING, "zzz", "1")), "has no option `zzz`"),
    Case("an option given twice", "thread", "game",
         sub("log", opt(BOOLEAN, "private", True), opt(BOOLEAN, "private", False)), "twice"),
    Case("a member id beyond 64 bits", "thread", "game",
         sub("replace", opt(USER, "old", str(2**64 + 5)), opt(USER, "new", str(2**63))),
         "takes a member"),
    Case("members the payload does not describe", "thread", "game",
         sub("replace", opt(USER, "old", "123"), opt(USER, "new", "456")), "couldn't find"),
    Case("options that are not a list", "thread", "game", "x", "couldn't read"),  # type: ignore[arg-type]
    Case("subcommand options that are not a list", "thread", "game",
         [{"type": SUB, "name": "status", "options": 5}], "couldn't read"),
    Case("an option with no name", "thread", "game",
         [{"type": SUB, "name": "replay", "options": [{"type": INTEGER, "value": 1}]}],
         "couldn't read"),
    Case("a member that is not a number", "thread", "game",
         sub("replace", opt(USER, "old", "bob"), opt(USER, "new", "dave")), "takes a member"),
]


@pytest.fixture
def quick_fallback(monkeypatch: pytest.MonkeyPatch) -> None:
    # Presses nobody handles are answered by the bot's fallback after this grace.
    monkeypatch.setattr("bot.client.UNKNOWN_COMPONENT_GRACE", 0.2)


async def _games(table: Table) -> list[tuple[int, int, str, Any]]:
    """Every game's (id, version, status, options): what no hostile payload may change."""
    assert table.bot is not None
    records = await table.bot.storage.list_games(int(table.guild.id), ["lobby", "active"])
    return sorted((r.id, r.version, r.status, r.options) for r in records)


def _clean(res: InteractionRecord, says: str) -> list[str]:
    text = res.text or "\n".join(m.text for m in res.followups)
    problems = []
    if "Something went wrong" in text or not text:
        problems.append(f"{res.describe()}: {text!r}")
    if not (res.ephemeral or all(m.ephemeral for m in res.followups)):
        problems.append(f"{res.describe()}: not ephemeral: {text!r}")
    if says.lower() not in text.lower():
        problems.append(f"{res.describe()}: does not say {says!r}: {text!r}")
    return problems


async def test_hostile_slash_payloads_are_refused_at_the_edge(
        table: Table, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING)
    emu = table.emu
    thread = await open_game(emu, table.general, [table.alice, table.bob, table.carol],
                             "exorcism")
    before = await _games(table)
    problems: list[str] = []
    for case in CASES:
        channel: ChannelRecord = thread if case.where == "thread" else table.general
        res = await emu.slash_raw(table.alice, channel, case.command, case.options)
        await res.wait_done()
        await emu.settle()
        problems += [f"{case.what}: {p}" for p in _clean(res, case.says)]
        if await _games(table) != before:
            problems.append(f"{case.what}: a game changed or opened")
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert not problems, "\n".join(problems)
    assert not errors, [r.getMessage() for r in errors[:5]]
    raw = words.scan_messages(emu)
    assert not raw, "raw words in the answers:\n" + words.dump(raw)
    # The edge lets what fits through: the same commands, well formed, still work.
    res = await emu.slash_raw(table.alice, thread, "game",
                              sub("replay", opt(INTEGER, "step", 0)))
    await res.wait_done()
    assert "the board after step 0" in res.text


async def test_hostile_autocomplete_payloads_get_no_suggestions_and_no_error(
        table: Table, caplog: pytest.LogCaptureFixture) -> None:
    """An autocomplete whose other options do not fit (a number where text belongs) gets an
    empty answer, not an exception logged from inside the suggestions."""
    caplog.set_level(logging.WARNING)
    emu = table.emu
    thread = await open_game(emu, table.general, [table.alice, table.bob, table.carol],
                             "exorcism")
    for options in (
        sub("rules", {"type": STRING, "name": "rule", "value": "al", "focused": True},
            opt(STRING, "game", 99)),
        [{"type": SUB, "name": "move",
          "options": [{"type": STRING, "name": "choice", "value": [1, 2], "focused": True}]}],
        [{"type": SUB, "name": "move",
          "options": [{"type": STRING, "name": "choice", "value": 42, "focused": True}]}],
        [{"type": SUB, "name": "frobnicate",
          "options": [{"type": STRING, "name": "choice", "value": "a", "focused": True}]}],
        [{"type": SUB, "name": "move", "options": "x"}],
    ):
        command = "game" if options[0]["name"] == "rules" else "exorcism"
        res = await emu.slash_raw(table.alice, thread, command, options, autocomplete=True)
        await res.wait_callback(timeout=8)
        assert res.choices == [], res.choices
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert not errors, [r.getMessage() for r in errors[:5]]


async def test_hostile_custom_ids_and_menu_values_are_answered_and_change_nothing(
        table: Table, caplog: pytest.LogCaptureFixture, quick_fallback: None) -> None:
    caplog.set_level(logging.WARNING)
    emu = table.emu
    live = await open_game(emu, table.general, [table.alice, table.bob], "highcard",
                           "rounds=3")
    # A One vs All lobby: variants, presets and the creator's side are menus on its card.
    res = await emu.slash(table.alice, table.general, "game new",
                          {"game": "exorcism", "mode": "one_vs_all"})
    await res.wait_done()
    lobby_thread = emu.threads_of(table.general)[-1]
    lobby = emu.messages_in(lobby_thread)[0]
    assert table.bot is not None
    record = await table.bot.storage.find_game_by_thread(int(lobby_thread.id))
    assert record is not None
    gid = record.id
    before = await _games(table)
    problems: list[str] = []

    async def press(user: UserRecord, channel: ChannelRecord, cid: str, says: str,
                    values: list[str] | None = None) -> None:
        if values is None:
            comp: dict[str, Any] = {"type": 2, "style": 1, "label": "?", "custom_id": cid}
        else:
            comp = {"type": 3, "custom_id": cid,
                    "options": [{"label": v or "?", "value": v} for v in values]}
        planted = emu.plant_bot_message(channel, "old", components=[
            {"type": 1, "components": [comp]}])
        res = await (emu.click(user, planted, cid) if values is None
                     else emu.select(user, planted, cid, values))
        await res.wait_done(timeout=8)
        await emu.settle()
        problems.extend(f"{cid} {values or ''}: {p}" for p in _clean(res, says))
        if await _games(table) != before:
            problems.append(f"{cid} {values or ''}: a game changed")

    huge = str(2**63)
    gone = "isn't one I know"
    for cid in (f"hb:play:{huge}", f"hb:hand:{2**64}", f"hb:full:{huge}",
                f"hb:a:{huge}:s1:x:0123456789", f"hb:pg:{huge}:s1:x:1",
                f"hb:lobby:join:{huge}", f"hb:play:{'٣' * 3}", f"hb:pg:{gid}:s1:x:99999"):
        await press(table.carol, live, cid, gone)
    await press(table.carol, live, f"hb:lobbyopt:var:{huge}", gone, ["x"])
    # The lobby's own menus, with values they never offered: refused, options as they were
    # (a junk variant value no longer reads as "every variant off", nor a side as "team").
    choose = "isn't one of the menu's choices"
    await press(table.alice, lobby_thread, f"hb:lobbyopt:var:{gid}", choose, ["junk"])
    await press(table.alice, lobby_thread, f"hb:lobbyopt:seat:{gid}", choose, ["junk"])
    await press(table.alice, lobby_thread, f"hb:lobbyopt:preset:{gid}", choose, ["gates=abc"])
    assert lobby.id  # the real card is untouched by the planted menus
    # Select values that are not a list of texts: read as nothing picked.
    board = [m for m in emu.messages_in(live) if any(c.startswith("hb:") for c in m.custom_ids)]
    assert table.bot is not None
    live_id = (await table.bot.storage.find_game_by_thread(int(live.id))).id  # type: ignore[union-attr]
    for cid, values, says in (
            (f"hb:s:{live_id}:s1:x:0", 5, "Pick one"),
            (f"hb:s:{live_id}:s1:x:0", [True], "Pick one"),
            (f"hb:lobbyopt:var:{gid}", "junk", "isn't one of the menu's choices"),
            (f"hb:lobbyopt:seat:{gid}", [{"a": 1}], "isn't one of the menu's choices"),
            ("hb:help:rules", 7, "")):
        comp = {"type": 3, "custom_id": cid, "options": [{"label": "?", "value": "?"}]}
        planted = emu.plant_bot_message(live if cid.startswith("hb:s") else lobby_thread,
                                        "old", components=[{"type": 1, "components": [comp]}])
        res = await emu.press_raw(table.alice, planted, {"custom_id": cid,
                                                         "component_type": 3,
                                                         "values": values})
        await res.wait_done(timeout=8)
        await emu.settle()
        if says:
            problems.extend(f"{cid} {values!r}: {p}" for p in _clean(res, says))
        if await _games(table) != before:
            problems.append(f"{cid} {values!r}: a game changed")
    assert board
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert not problems, "\n".join(problems)
    assert not errors, [r.getMessage() for r in errors[:5]]
