"""I Am the Fourth Wall end to end: whole games pressed through Discord by AI-driven users.

Conflict (the Wall player + two Investigator players): the Wall player's DMs carry the Wall
card and its hand of Horrors, the Investigators' DMs carry the team's hands; no thread post
(content or embeds) ever names a Horror in the Wall's hand or, before An Eye Opens, the Wall
card (FW-VIS-12, FW-VIS-15), not even a button's label; the Wall's turn choices are buttons on
the board, its hand's never.
Alliance: a whole game to the end.
"""

from __future__ import annotations

import bisect
import json
from typing import Any

from demo import AutoTable
from rules.fourth_wall.engine import Engine
from rules.fourth_wall.state import FourthWallState
from rules.registry import GAMES
from tests.e2e.clicks import check_clicks
from tests.e2e.conftest import Table
from tests.e2e.posting import PostAudit, versions

FW = GAMES["fourth_wall"]
EPHEMERAL = 64


async def _auto(table: Table, mode: str) -> AutoTable:
    assert table.bot is not None
    table.bot.tables.seed_source = lambda: 3
    auto = AutoTable(table.emu, table.bot, table.general,
                     [table.alice, table.bob, table.carol])
    await auto.open("fourth_wall", mode)
    return auto


def _referenced(st: FourthWallState) -> set[str]:
    """Horror names other printed texts or names contain: a search would find those."""
    pack = Engine(st).pack
    cards = (*pack.horrors, *pack.investigators, *pack.walls, *pack.marbles)
    texts = [c.text for c in cards] + [c.name for c in cards]
    return {h.name for h in pack.horrors if any(h.name in t and h.name != t for t in texts)}


def _public_horror_names(st: FourthWallState) -> set[str]:
    eng = Engine(st)
    return {eng.horror(h.id).name for h in st.streets} | {
        eng.horror(h).name for h in st.horror_discard + st.horror_limbo}


async def test_conflict_wall_secrets_stay_out_of_the_thread(table: Table) -> None:
    auto = await _auto(table, "conflict")
    assert table.bot is not None
    state: FourthWallState = await table.bot.tables.state(auto.game_id)
    wall = state.wall_seat
    assert wall is not None
    users = await table.bot.tables.users_of(auto.game_id)
    wall_user = next(u for u in auto.users if int(u.id) == users[wall])
    team_users = [u for u in auto.users if u is not wall_user]
    eng = Engine(state)
    wall_name = eng.wall().name

    # The Wall player's DMs: the Wall card and the hand of Horrors (FW-VIS-12/15).
    wall_dms = " ".join(m.content + json.dumps(m.embeds)
                        for m in table.emu.dm_messages(wall_user))
    assert wall_name in wall_dms
    for h in state.wall_hand:
        assert eng.horror_name(h) in wall_dms
    summary = FW.private_summary(state, wall) or ""
    assert "You are The Wall" in summary and wall_name in summary
    # The Investigator players: the team's hands, never the Wall card.
    for user in team_users:
        dms = " ".join(m.content + json.dumps(m.embeds) for m in table.emu.dm_messages(user))
        assert "Investigator" in dms
        assert wall_name not in dms
    seat = next(s for s in state.seats if s != wall)
    assert "hands" in (FW.private_summary(state, seat) or "")

    known = _referenced(state) | _public_horror_names(state)
    wall_prefix = f"hb:a:{auto.game_id}:{wall}:"
    checked = 0

    # (mark before a move, what was secret right after it): a thread message sent after that
    # mark and before the next one must hold none of it.
    marks: list[int] = []
    secrets: list[set[str]] = []

    def watch(st: Any, mark: int) -> None:
        nonlocal known
        known |= _public_horror_names(st)
        e = Engine(st)
        secret = {e.horror_name(h) for h in st.wall_hand} - known
        if not st.revealed:
            secret.add(e.wall().name)
        marks.append(mark)
        secrets.append(secret)

    audit = await PostAudit.start(auto)

    def both(st: Any, mark: int) -> None:
        watch(st, mark)
        audit.watch(st, mark)

    moves = await auto.play_to_end(watch=both)
    await table.emu.settle()
    # Every version of every post (the board post is edited in place), judged by what was
    # secret when that version was written.
    for m in table.emu.messages_in(auto.thread()):
        if m.flags & EPHEMERAL:
            continue
        for version in versions(m):
            i = bisect.bisect_left(marks, version.written) - 1
            if i < 0:
                continue
            checked += 1
            blob = version.content + json.dumps(version.embeds) + json.dumps(version.components)
            for secret_text in secrets[i]:
                assert secret_text not in blob, (secret_text, blob[:300])
    assert moves > 0 and checked > 0
    record = await table.bot.storage.get_game(auto.game_id)
    assert record is not None and record.status == "over"
    assert await table.bot.tables.verify(auto.game_id)
    # the whole thread, at the end: the Wall's turn choices are public buttons (issue #14),
    # but never one that plays from its hand (Manifest names a Horror in it, FW-VIS-15)
    wall_labels = [c.get("label", "") for m in table.emu.messages_in(auto.thread())
                   for version in versions(m) for row in version.components
                   for c in row.get("components", [])
                   if str(c.get("custom_id", "")).startswith(wall_prefix)]
    assert wall_labels and not [label for label in wall_labels if "Manifest" in label]
    audit.check_all(table.emu, auto.thread())
    assert table.emu.unknown_routes == []
    # One click a move (issue #14); Marbles and Horrors in hand stay private (FW-VIS-06/15)
    check_clicks(auto, "fourth_wall conflict")


async def test_alliance_whole_game_through_discord(table: Table) -> None:
    auto = await _auto(table, "alliance")
    audit = await PostAudit.start(auto)
    moves = await auto.play_to_end(watch=audit.watch)
    assert moves > 0
    assert table.bot is not None
    record = await table.bot.storage.get_game(auto.game_id)
    assert record is not None and record.status == "over"
    assert await table.bot.tables.verify(auto.game_id)
    audit.check_all(table.emu, auto.thread())
    check_clicks(auto, "fourth_wall alliance")
    pictures = auto.pictures()
    assert pictures and all(p[:4] == b"\x89PNG" for p in pictures)
    assert table.emu.unknown_routes == []
