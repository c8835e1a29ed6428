"""Issue #12, item 8: a prompt with more answers than one Discord message can show.

Engines offer every legal answer (not the first 25), so the bot pages them: selects of 25
(four to a message), with More…/Back buttons between pages; the ephemeral "My choices" menu
and the slash commands' replies page the same way, and autocomplete filters by the typed text
and shows at most 25. Wide Pick (tests/widegame.py) offers one answer per lit lantern.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from bot.limits import (
    ACTION_ROWS,
    BUTTON_LABEL,
    CHOICE_NAME,
    CHOICE_VALUE,
    CHOICES,
    PLACEHOLDER,
    ROW_COMPONENTS,
    SELECT_LABEL,
    SELECT_OPTIONS,
)
from cogs.utils.gamecog import Family, make_group
from cogs.utils.table import action_hash
from emulator.records import MessageRecord
from rules.core.types import act
from rules.registry import register, unregister
from tests.e2e.conftest import Table
from tests.widegame import GAME as WIDE


@pytest.fixture(autouse=True)
def widepick() -> Iterator[Any]:
    register(WIDE)
    yield WIDE
    unregister(WIDE.name)


def lantern(n: int) -> str:
    return action_hash(act("pick", lantern=n))


def check_limits(message: MessageRecord) -> None:
    rows = message.components
    assert len(rows) <= ACTION_ROWS
    for row in rows:
        assert len(row["components"]) <= ROW_COMPONENTS
        for comp in row["components"]:
            if comp["type"] == 2:
                assert len(comp.get("label") or "") <= BUTTON_LABEL
            if comp["type"] == 3:
                assert len(comp.get("placeholder") or "") <= PLACEHOLDER
                assert 1 <= len(comp["options"]) <= SELECT_OPTIONS
                for option in comp["options"]:
                    assert len(option["label"]) <= SELECT_LABEL


def offered(message: MessageRecord) -> list[str]:
    """Every answer value in the message's selects."""
    return [o["value"] for row in message.components for comp in row["components"]
            if comp["type"] == 3 for o in comp["options"]]


def select_holding(message: MessageRecord, value: str) -> str:
    for row in message.components:
        for comp in row["components"]:
            if comp["type"] == 3 and any(o["value"] == value for o in comp["options"]):
                return str(comp["custom_id"])
    raise AssertionError(f"no select of message {message.id} offers {value}")


def more_button(message: MessageRecord) -> str | None:
    return next((c for c in message.custom_ids if c.startswith("hb:pg:")
                 and (message.component(c) or {}).get("label", "").startswith("More")), None)


async def start(table: Table, answers: int) -> None:
    await table.lobby(game="widepick", players=(table.bob,), options=f"answers={answers}")
    await table.slash(table.alice, table.thread(), "game start")


async def test_60_answers_all_on_the_board_and_the_last_one_plays(table: Table) -> None:
    await start(table, 60)
    board = table.board()
    check_limits(board)
    assert sorted(offered(board)) == sorted(lantern(n) for n in range(1, 61))
    assert more_button(board) is None
    res = await table.emu.select(table.alice, board, select_holding(board, lantern(55)),
                                 [lantern(55)])
    await res.wait_callback()
    await table.emu.settle()
    assert "picks lantern 55" in table.emu.messages_in(table.thread())[-1].content
    table.emu.assert_no_errors()


async def test_260_answers_page_through_and_play_one_on_page_3(table: Table) -> None:
    await start(table, 260)
    board = table.board()
    check_limits(board)
    seen = offered(board)
    assert len(seen) == 100
    more = more_button(board)
    assert more is not None
    # Someone else may not page another seat's choices.
    refused = await table.emu.click(table.bob, board, more)
    await refused.wait_done()
    assert refused.ephemeral and "These choices are for" in refused.text
    # alice pages: the board stays for everyone; her pages come to her alone.
    res = await table.emu.click(table.alice, board, more)
    await res.wait_done()
    assert res.ephemeral
    page = res.messages[-1]
    check_limits(page)
    seen += offered(page)
    assert any((page.component(c) or {}).get("label", "").startswith("Back")
               for c in page.custom_ids)
    more = more_button(page)
    assert more is not None
    res = await table.emu.click(table.alice, page, more)  # turns the page in place
    await res.wait_callback()
    await table.emu.settle()
    page = table.emu.message(page.id)
    check_limits(page)
    seen += offered(page)
    assert more_button(page) is None
    assert sorted(seen) == sorted(lantern(n) for n in range(1, 261))  # every answer reachable
    res = await table.emu.select(table.alice, page, select_holding(page, lantern(250)),
                                 [lantern(250)])
    await res.wait_callback()
    await table.emu.settle()
    assert "picks lantern 250" in table.emu.messages_in(table.thread())[-1].content
    assert "Done: " in table.emu.message(page.id).content  # the used menu says so (#14)
    # bob's "My choices" pages the same way.
    menu = await table.emu.click(table.bob, table.board(), label="My choices")
    await menu.wait_done()
    check_limits(menu.messages[-1])
    assert len(offered(menu.messages[-1])) == 100 and more_button(menu.messages[-1])
    table.emu.assert_no_errors()


async def test_slash_command_autocomplete_filters_and_pages(table: Table) -> None:
    assert table.bot is not None
    table.bot.tree.add_command(make_group(
        "widepick", "Wide Pick", [Family("pick", "Pick a lantern", frozenset({"pick"}))]))
    await table.bot.tree.sync()
    await start(table, 260)
    thread = table.thread()
    every = await table.emu.autocomplete(table.alice, thread, "widepick pick", {"choice": ""},
                                         focused="choice")
    assert len(every) == CHOICES
    some = await table.emu.autocomplete(table.alice, thread, "widepick pick",
                                        {"choice": "lantern 25"}, focused="choice")
    assert 0 < len(some) <= CHOICES
    assert all(c["name"].lower().startswith("lantern 25") for c in some)
    assert {c["value"] for c in some} >= {lantern(25), lantern(250), lantern(259)}
    for choice in every + some:
        assert len(choice["name"]) <= CHOICE_NAME and len(choice["value"]) <= CHOICE_VALUE
    res = await table.slash(table.alice, thread, "widepick pick")
    assert res.ephemeral
    check_limits(res.messages[-1])
    assert more_button(res.messages[-1]) is not None
    res = await table.slash(table.alice, thread, "widepick pick", choice=lantern(199))
    assert "picks lantern 199" in table.emu.messages_in(thread)[-1].content
    table.emu.assert_no_errors()
