"""Bad-input proof: 100 (`-m soak`: 200; PROOF_SCALE=N: N times as many) of random and
malformed interactions —
wrong user, outsiders, wrong game, stale buttons, forged custom ids, garbage select values and
option values, commands outside a game thread or in another game's thread, double presses —
mixed with real moves. Every one gets an answer (ephemeral when it is a refusal), nothing is
logged as an unhandled error, and a game's version moves only by the real moves (a double press
moves it once).
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections import Counter
from dataclasses import dataclass
from typing import Any

import pytest

from cogs.utils.table import _decision_token, action_hash
from emulator.errors import EmulatorError
from emulator.interaction_records import InteractionRecord
from emulator.records import ChannelRecord, MessageRecord, UserRecord
from rules.registry import GAMES
from tests.e2e.conftest import Table
from tests.proof.harness import open_game, scale
from tests.tinygame import GAME as HIGHCARD

WRONG_TYPE: dict[int, list[Any]] = {
    3: [5, True, 1.5, [1], None, {"x": 1}],  # text
    4: ["abc", 1.5, True, None, [1]],  # whole number
    10: ["abc", True, None, [1]],  # number
    5: ["yes", 1, None],  # true or false
    6: ["bob", str(2**64), True, None, "123"],  # member (or one the payload does not describe)
    7: ["general", str(2**64), None, "123"],  # channel
}
"""Per option type, values Discord's client would never send for it (#21, part 4)."""

GARBAGE = ["", " ", "x" * 120, "🂠🂠🂠", "../../etc/passwd", "'; DROP TABLE games; --",
           "0", "-1", "99999999999999999999", "None", "null", "\u0000", "r9c9", "%s%s%n"]


@dataclass
class LiveGame:
    game_id: int
    thread: ChannelRecord
    seats: dict[str, UserRecord]
    name: str = "highcard"


def _answer(res: InteractionRecord) -> str:
    """What the presser was told: the replies, not the pressed message itself."""
    if res.callback_type == 6:  # deferred update: the answer is a follow-up
        return "\n".join(m.text for m in res.followups)
    return res.text


def _category(res: InteractionRecord) -> str:
    """A short name for what the bot answered."""
    text = _answer(res)
    if "Something went wrong" in text:
        return "UNEXPECTED"
    for key, words in (
        ("not-your-seat", "These choices are for"), ("not-playing", "not playing"),
        ("stale", "earlier moment"), ("unavailable", "no longer available"),
        ("no-game-here", "no game in this channel"), ("over", "over"),
        ("no-such-game", "no longer exists"), ("lobby", "hasn't started"),
        ("unknown-game", "I don't know the game"), ("bad-option", "option"),
        ("wrong-game-thread", "this thread's game is"), ("not-your-move", "not your move"),
        ("unknown-choice", "isn't something you can"), ("creator-only", "creator"),
        ("already", "already"), ("retired-button", "isn't one I know"),
        ("pick", "Pick one"), ("menu", "choices"), ("hand", "You are"),
        ("stale", "earlier turn"), ("no-mode", "has no mode"), ("started", "has started"),
        ("not-live", "isn't being played"), ("created (blank options)", "is open in"),
        ("bad-payload", " takes "), ("bad-payload", "must be"), ("bad-payload", "has no option"),
        ("bad-payload", "needs `"), ("bad-payload", "couldn't find"),
        ("bad-payload", "don't know that command"), ("bad-payload", "couldn't read"),
    ):
        if words.lower() in text.lower():
            return key
    return "other:" + text[:40]


KINDS = ("wrong-seat", "outsider", "stale", "wrong-game", "forged", "garbage-select",
         "slash-outside", "slash-garbage", "wrong-game-command", "slash-hostile")
"""Every kind of bad interaction the proof sends (each run sends each one)."""


async def test_bad_input_every_interaction_answered_and_no_state_change(
        table: Table, caplog: pytest.LogCaptureFixture,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The default suite's share (stop 67): 100 bad interactions, every kind of them."""
    await _bad_input_proof(table, caplog, monkeypatch, 100)


@pytest.mark.soak
async def test_soak_bad_input_every_interaction_answered_and_no_state_change(
        table: Table, caplog: pytest.LogCaptureFixture,
        monkeypatch: pytest.MonkeyPatch) -> None:
    await _bad_input_proof(table, caplog, monkeypatch, 200)


async def _bad_input_proof(table: Table, caplog: pytest.LogCaptureFixture,
                           monkeypatch: pytest.MonkeyPatch, tries: int) -> None:
    caplog.set_level(logging.WARNING)
    # No live View answers anything here: the unknown-button answer need not wait long.
    monkeypatch.setattr("bot.client.UNKNOWN_COMPONENT_GRACE", 0.2)
    emu = table.emu
    assert table.bot is not None
    bot = table.bot
    rng = random.Random(11)
    dave = emu.create_user("dave")
    emu.add_member(table.guild, dave)
    everyone = [table.alice, table.bob, table.carol, dave]

    async def open_live(name: str, users: list[UserRecord], options: str | None) -> LiveGame:
        thread = await open_game(emu, table.general, users, name, options)
        record = await bot.storage.find_game_by_thread(int(thread.id))
        assert record is not None
        by_id = {int(u.id): u for u in users}
        seat_users = await bot.tables.users_of(record.id)
        return LiveGame(record.id, thread, {s: by_id[u] for s, u in seat_users.items() if u},
                        name)

    trio = [table.alice, table.bob, table.carol]
    games = [await open_live("highcard", trio, "rounds=5"),
             await open_live("highcard", [table.bob, dave], "rounds=5"),
             await open_live("exorcism", trio, None)]

    async def version(g: LiveGame) -> int:
        record = await bot.storage.get_game(g.game_id)
        assert record is not None
        return record.version

    def boards(g: LiveGame) -> list[MessageRecord]:
        return [m for m in emu.messages_in(g.thread, include_ephemeral=True)
                if m.id not in planted_ids
                and any(c.startswith(("hb:a:", "hb:s:", "hb:hand:", "hb:play:"))
                        for c in m.custom_ids)]

    async def current(g: LiveGame) -> tuple[Any, str, Any, str] | None:
        """(state, awaited seat, AI action, its custom id) or None if the game is not live."""
        record = await bot.storage.get_game(g.game_id)
        assert record is not None
        if record.status != "active":
            return None
        game = GAMES[g.name]
        state = await bot.tables.state(g.game_id)
        awaited = sorted(game.to_act(state))
        if not awaited:
            return None
        seat = rng.choice(awaited)
        action = game.ai_action(state, seat)
        cid = (f"hb:a:{g.game_id}:{seat}:{_decision_token(game.decision_id(state, seat))}:"
               f"{action_hash(action)}")
        return state, seat, action, cid

    async def answered(res: InteractionRecord) -> InteractionRecord:
        await res.wait_done(timeout=8)
        # A deferred update counts as done once its message is touched (another press may
        # strip that board's buttons first): the answer itself is the follow-up.
        for _ in range(160):
            if res.callback_type != 6 or res.followups:
                break
            await asyncio.sleep(0.05)
        return res

    planted_ids: set[str] = set()
    outcomes: Counter[str] = Counter()
    kinds: Counter[str] = Counter()
    problems: list[str] = []
    moves = 0

    async def bad(kind: str, res: InteractionRecord) -> None:
        kinds[kind] += 1
        try:
            await answered(res)
        except AssertionError as exc:
            problems.append(f"{kind}: no answer: {exc}")
            outcomes["NO ANSWER"] += 1
            return
        cat = _category(res)
        outcomes[cat] += 1
        if cat == "UNEXPECTED" or cat == "other:":
            problems.append(f"{kind}: {res.describe()} answered {res.callback_type} "
                            f"{res.text!r} {[m.attachments for m in res.messages]}")
        # A reply of its own (callback 4 or 5) must be ephemeral, and so must every follow-up:
        # `all` of no follow-ups alone would pass a reply the whole thread reads.
        if not ((res.ephemeral or res.callback_type not in (4, 5))
                and all(m.ephemeral for m in res.followups)):
            problems.append(f"{kind}: answer not ephemeral: {res.text[:100]}")

    async def legit_move(g: LiveGame, double: bool) -> None:
        nonlocal moves
        cur = await current(g)
        if cur is None:
            return
        _state, seat, _action, cid = cur
        user = g.seats[seat]
        target = next((m for m in reversed(boards(g)) if cid in m.custom_ids), None)
        if target is None:
            # the board post (the newest message with buttons may be a private menu, #14)
            board = [m for m in boards(g) if not m.ephemeral][-1]
            menu = await emu.click(user, board, label="My choices", check=False)
            await answered(menu)
            target = next((m for m in menu.messages if cid in m.custom_ids), None)
            assert target is not None, menu.text
        before = await version(g)
        presses = [await emu.click(user, target, cid)]
        if double:
            presses.append(await emu.click(user, target, cid, check=False))
        for res in presses:
            await res.wait_callback(timeout=8)
        await emu.settle()
        for _ in range(100):
            if await version(g) == before + 1:
                break
            await asyncio.sleep(0.05)
        after = await version(g)
        assert after == before + 1, (g.game_id, before, after, [p.text for p in presses])
        moves += 1
        if double:
            kinds["double-press"] += 1
            second = presses[1]
            await answered(second)
            cat = _category(second)
            outcomes[cat] += 1
            if cat == "UNEXPECTED" or not ((second.ephemeral or second.callback_type not in (4, 5))
                                           and all(m.ephemeral for m in second.followups)):
                problems.append(f"double press: {second.text}")

    n = tries * scale()
    tried = 0
    while tried < n:
        g = rng.choice(games[:2]) if rng.random() < 0.8 else games[2]
        versions = {x.game_id: await version(x) for x in games}
        roll = rng.random()
        hb = boards(g)
        cur = await current(g)
        if roll < 0.12 and g.name == "highcard":
            await legit_move(g, double=rng.random() < 0.5)
            if cur is not None and (await current(g)) is None and g is games[0]:
                games[0] = await open_live("highcard", trio, "rounds=5")
            continue
        tried += 1
        kind = rng.choice(KINDS)
        res: InteractionRecord
        try:
            posts = [m for m in hb if not m.ephemeral]  # others cannot see a private menu
            if kind == "wrong-seat" and cur is not None and len(g.seats) > 1 \
                    and posts and cur[3] in posts[-1].custom_ids:
                _state, seat, _action, cid = cur
                other = rng.choice([u for s, u in g.seats.items() if s != seat])
                res = await emu.click(other, posts[-1], cid)
            elif kind == "outsider" and hb:
                outsider = next(u for u in everyone if u not in g.seats.values())
                message = rng.choice([m for m in hb if not m.ephemeral])
                res = await emu.click(outsider, message, rng.choice(message.custom_ids))
            elif kind == "stale" and len(hb) > 1 and cur is not None:
                old = [m for m in hb[:-1] if not m.ephemeral]
                message = rng.choice(old) if old else hb[0]
                ids = [c for c in message.custom_ids if c.startswith("hb:a:")
                       and c.split(":")[4] != cur[3].split(":")[4]]
                if not ids:
                    kind = "stale-my-hand"
                    if message.ephemeral and posts:  # a private menu has no My hand (#14)
                        message = posts[0]
                    ids = [c for c in message.custom_ids if c.startswith("hb:hand:")]
                seat = ids[0].split(":")[3] if ids[0].startswith("hb:a:") else next(iter(g.seats))
                user = g.seats.get(seat, table.alice)
                if message.ephemeral:
                    user = emu.users[message.interaction_user_id or table.alice.id]
                res = await emu.click(user, message, rng.choice(ids))
            elif kind in ("wrong-game", "forged", "garbage-select"):
                gid = g.game_id
                seat = rng.choice(list(g.seats))
                user = rng.choice(everyone)
                state = await bot.tables.state(gid)
                dec = _decision_token(GAMES[g.name].decision_id(state, seat))
                other_game = rng.choice([x for x in games if x is not g])
                rand_h = f"{rng.getrandbits(40):010x}"
                cid = rng.choice({
                    "wrong-game": [f"hb:a:{other_game.game_id}:{seat}:{dec}:{rand_h}",
                                   f"hb:a:999999:{seat}:{dec}:{rand_h}",
                                   f"hb:a:0:{seat}:0:{rand_h}",
                                   f"hb:hand:{rng.randint(10**4, 10**6)}",
                                   f"hb:play:{rng.randint(10**4, 10**6)}"],
                    "forged": [f"hb:a:{gid}:zz:{dec}:{rand_h}", f"hb:a:{gid}:{seat}:{dec}:{rand_h}",
                               f"hb:lobby:start:{gid}", f"hb:lobby:join:{gid}",
                               f"hb:lobby:leave:{gid}", "hb:a:not-a-number", "hb:retired:1",
                               "".join(rng.choice("abc:/_-9") for _ in range(rng.randint(1, 90)))],
                    "garbage-select": [f"hb:s:{gid}:{seat}:{dec}:0"],
                }[kind])
                # Discord only sends presses of components a message carries: a message of an
                # older bot (or a crafted one) carries the forged id.
                if cid.startswith("hb:s:"):
                    value = rng.choice(GARBAGE) or "x"
                    comp = {"type": 3, "custom_id": cid,
                            "options": [{"label": "?", "value": value}]}
                    planted = emu.plant_bot_message(g.thread, "old", components=[
                        {"type": 1, "components": [comp]}])
                    planted_ids.add(planted.id)
                    res = await emu.select(g.seats[seat], planted, cid, [value])
                else:
                    comp = {"type": 2, "style": 1, "label": "?", "custom_id": cid}
                    planted = emu.plant_bot_message(g.thread, "old", components=[
                        {"type": 1, "components": [comp]}])
                    planted_ids.add(planted.id)
                    res = await emu.click(user, planted, cid)
            elif kind == "slash-outside":
                command = rng.choice(["game start", "game hand", "game status", "game join",
                                      "game leave", "game abandon", "exorcism move",
                                      "fourth-wall play" if "fourth-wall play" in
                                      emu.commands.paths() else "exorcism purify"])
                if command not in emu.commands.paths():
                    command = "game status"
                res = await emu.slash(rng.choice(everyone), table.general, command)
            elif kind == "slash-garbage":
                choice = rng.choice(GARBAGE) or "zz"
                option = rng.choice([
                    ("game new", {"game": choice}),
                    ("game new", {"game": "highcard", "options": choice}),
                    ("game new", {"game": "highcard", "options": "rounds=99"}),
                    ("game new", {"game": "highcard", "mode": choice}),
                    ("game new", {"game": "exorcism", "options": "ghost_seat=9 =="}),
                ])
                if rng.random() < 0.5:
                    ex = games[2]
                    fam = rng.choice([p for p in emu.commands.paths() if p.startswith("exorcism ")])
                    res = await emu.slash(rng.choice([*ex.seats.values(), dave]), ex.thread,
                                          fam, {"choice": choice})
                else:
                    res = await emu.slash(rng.choice(everyone), table.general, *option)
            elif kind == "slash-hostile":
                # A payload Discord's client would not send: an option of another type, a
                # number out of its range, or an unknown subcommand (#21, part 4).
                group = rng.choice(["game", "exorcism"])
                registered = emu.commands.find(group, table.guild.id)
                assert registered is not None
                subs = [o for o in registered.get("options") or [] if o.get("type") == 1]
                sub = rng.choice(subs)
                params = [o for o in sub.get("options") or [] if o["type"] in WRONG_TYPE]
                if not params or rng.random() < 0.1:
                    leaf: list[dict[str, Any]] = []
                    sub = {"name": "frobnicate"}
                else:
                    param = rng.choice(params)
                    value = rng.choice(WRONG_TYPE[param["type"]])
                    if "min_value" in param and rng.random() < 0.4:
                        value = param["min_value"] - 1
                    leaf = [{"type": param["type"], "name": param["name"], "value": value}]
                place = rng.choice([g.thread, table.general])
                res = await emu.slash_raw(rng.choice(everyone), place, group,
                                          [{"type": 1, "name": sub["name"], "options": leaf}])
            elif kind == "wrong-game-command":
                fam = rng.choice([p for p in emu.commands.paths()
                                  if p.startswith(("exorcism ", "presence ", "fourth-wall "))])
                where = games[0]
                res = await emu.slash(rng.choice(list(where.seats.values())), where.thread, fam)
            else:
                tried -= 1
                continue
        except EmulatorError:
            # a command whose required options this generator does not fill (Discord's
            # client would not send it): not an interaction the bot can receive
            tried -= 1
            continue
        await bad(kind, res)
        await emu.settle()
        for x in games:
            if x.game_id in versions and await version(x) != versions[x.game_id]:
                problems.append(f"{kind} changed game {x.game_id}: {res.describe()} {res.text}")

    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    print(f"\nBAD INPUT tried={tried} + double presses={kinds['double-press']} real moves={moves}"
          f"\n  by kind: {dict(sorted(kinds.items()))}"
          f"\n  outcomes: {dict(sorted(outcomes.items()))}"
          f"\n  problems={len(problems)} logged errors={len(errors)}")
    assert not problems, "\n".join(problems[:15])
    assert not errors, [r.getMessage() for r in errors[:5]]
    assert sum(outcomes.values()) == tried + kinds["double-press"]
    assert outcomes["retired-button"] > 0 and outcomes["stale"] > 0
    assert set(KINDS) - {"stale"} <= set(kinds) and kinds["stale"] + kinds["stale-my-hand"] > 0, \
        kinds
    for g in games:
        assert await bot.tables.verify(g.game_id)
    assert moves > 0 and HIGHCARD.name in GAMES
