"""How a game reads in its thread (#13): one board post per change of decider, edited in place
while the same player keeps acting, pinging only whoever newly has to decide; the full board
one tap away; every picture described in words; `/game status` and `/game hand` in words.

High Card (tests/tinygame.py) pins the policy cheaply: the active seat wagers alone, then
every seat plays a card at once, then the next round's wager. The picture tests use a real
game (The Exorcism, Solo: one player, so it starts at once).
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot import renderpool
from cogs.utils.table import BoardPost
from emulator.records import MessageRecord
from rules.registry import GAMES
from tests.e2e.conftest import Table
from tests.e2e.posting import check_alt_text, told_lines


async def _boards_shown(table: Table, gid: int) -> None:
    """Wait until every board of game `gid` waiting to be shown is shown, then settle."""
    from cogs.utils.table import delivery_for

    assert table.bot is not None
    showing = delivery_for(table.bot)._showing_tasks
    for _ in range(3000):
        if gid not in showing:
            break
        await asyncio.sleep(0.01)
    await table.emu.settle(timeout=30)


def _boards(table: Table) -> list[MessageRecord]:
    return [m for m in table.emu.messages_in(table.thread())
            if m.content.startswith("**High Card (test game)** — game #")]


async def _play(table: Table, user: Any) -> None:
    """`user` plays their first card through **My choices** (cards are never public buttons)."""
    res = await table.click(user, table.board(), label="My choices")
    await res.wait_done()
    menu = res.messages[-1]
    card = next(c for c in menu.custom_ids if c.startswith("hb:a:"))
    await (await table.emu.click(user, menu, card)).wait_done()
    await table.emu.settle()


async def _highcard(table: Table) -> int:
    await table.lobby(players=(table.bob,), options="rounds=2")
    await table.slash(table.alice, table.thread(), "game start")
    return await table.game_id()


async def test_same_decider_edits_the_post_and_nobody_is_pinged_twice(table: Table) -> None:
    await _highcard(table)
    alice, bob = table.alice.id, table.bob.id
    first = _boards(table)[-1]
    assert first.pinged_user_ids == [alice]  # alice sets the wager
    assert "⏳ alice: " in first.content  # what she must do, not only "waiting for"
    await table.click(table.alice, table.board(), label="Wager 2")
    # Everyone now plays a card: bob newly has to decide and is pinged; alice was awaited
    # already and is not pinged again.
    boards = _boards(table)
    assert len(boards) == 2
    second = boards[-1]
    assert second.pinged_user_ids == [bob]
    assert f"<@{alice}>" not in second.content
    assert not first.custom_ids  # the old post lost its buttons
    # alice plays: the game still waits only for bob, so the same post is edited in place
    await _play(table, table.alice)
    boards = _boards(table)
    assert len(boards) == 2 and boards[-1].id == second.id
    assert second.edited and second.pinged_user_ids == [bob]
    assert "s1 plays a card face down." in second.content
    assert "sets the wager at 2" in second.content  # the stretch's lines grow
    assert "⏳ alice" not in second.content and "⏳ bob: " in second.content
    # bob plays: the round ends and round 2 begins with bob's wager — a new turn, but bob was
    # awaited all along: no ping, so no news worth a new post (#25). The post, still the
    # thread's last message, takes round 2's board in place, every line of the stretch kept.
    read = [ln for ln in table.emu.message(second.id).content.splitlines() if ln.startswith("• ")]
    await _play(table, table.bob)
    boards = _boards(table)
    assert len(boards) == 2 and boards[-1].id == second.id
    second = boards[-1]
    assert second.pinged_user_ids == [bob]  # its first version's ping, not a new one
    assert "Reveal" in second.content and "⏳ bob: " in second.content
    assert "⏳ alice" not in second.content
    assert all(line in second.content for line in read)  # nothing the table read is lost
    assert any(c.startswith("hb:a:") for c in second.custom_ids)  # bob's wager buttons
    # a wager to the end: alice is pinged again only once the decision passes back to her,
    # in a new post; the old one loses its choices
    await table.click(table.bob, table.board(), label="Wager 1")
    boards = _boards(table)
    assert len(boards) == 3 and boards[-1].pinged_user_ids == [alice]
    assert not table.emu.message(second.id).custom_ids
    await _play(table, table.bob)
    await _play(table, table.alice)
    last = _boards(table)[-1]
    # The end (#22): no choices left, only Rematch and Full board; every player pinged once.
    assert "Game over." in last.content
    assert all(c.startswith(("hb:rematch:", "hb:full:")) for c in last.custom_ids)
    assert sorted(last.pinged_user_ids) == sorted([alice, bob])


async def _round_one_to_bob(table: Table) -> MessageRecord:
    """High Card to the point where only bob's card is awaited (alice wagered and played):
    the post that pinged bob, still the thread's last message."""
    await _highcard(table)
    await table.click(table.alice, table.board(), label="Wager 2")
    await _play(table, table.alice)
    post = _boards(table)[-1]
    assert post.pinged_user_ids == [table.bob.id] and "⏳ bob: " in post.content
    return post


async def test_a_post_buried_by_talk_is_followed_by_a_new_one(table: Table) -> None:
    """A board post that pings nobody is edited in place only while it is the thread's last
    message: after the table has talked below it, the next board is a new post (pinging
    nobody) and the old one keeps every line the table read."""
    post = await _round_one_to_bob(table)
    read = table.emu.message(post.id).content
    table.emu.post(table.alice, table.thread(), "good luck bob")
    await table.emu.settle()
    await _play(table, table.bob)  # round 2: bob's wager, bob was awaited already
    boards = _boards(table)
    assert len(boards) == 3 and boards[-1].id != post.id
    newest = boards[-1]
    assert newest.pinged_user_ids == [] and "Reveal" in newest.content
    assert "s1 sets the wager at 2" not in newest.content  # the old post keeps those
    assert table.emu.message(post.id).content == read
    # The decision passing to alice is news: a new post pings her.
    await table.click(table.bob, table.board(), label="Wager 1")
    assert _boards(table)[-1].pinged_user_ids == [table.alice.id]  # news: a new post


async def test_a_post_too_full_for_the_next_board_is_followed_by_a_new_one(
        table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    """Editing in place never drops a line the post showed: when the post's lines and the
    new ones would not all fit, the next board is a new post."""
    from cogs.utils.table import boards

    post = await _round_one_to_bob(table)
    shown = [ln for ln in table.emu.message(post.id).content.splitlines()
             if ln.startswith("• ")]
    monkeypatch.setattr(boards, "MAX_POST_LINES", len(shown) + 1)
    await _play(table, table.bob)
    newest = _boards(table)[-1]
    assert newest.id != post.id and newest.pinged_user_ids == []
    kept = table.emu.message(post.id).content
    assert all(line in kept for line in shown) and "Reveal" not in kept
    assert "Reveal" in newest.content


async def test_an_edit_that_would_overflow_the_post_is_a_new_post_instead(
        table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    """Stop 64's demos: the same decider's post, edited in place, outgrew a message and its
    first lines were cut ("… (10 earlier lines: /game log)") — lines no other post held (an
    Investigator's return, a turn header, a Task's points). Now the post keeps what it showed
    and the new lines go to a new post, pinging nobody."""
    from bot import limits

    await _highcard(table)
    await table.click(table.alice, table.board(), label="Wager 2")
    post = _boards(table)[-1]
    read = table.emu.message(post.id).content
    # One more line would not fit in a message of this post's length.
    monkeypatch.setattr(limits, "CONTENT", len(read) + 5)
    await _play(table, table.alice)  # still bob's decision: an edit, were there room
    newest = _boards(table)[-1]
    assert newest.id != post.id and newest.pinged_user_ids == []
    assert table.emu.message(post.id).content == read
    assert "s1 plays a card face down." in newest.content
    assert "earlier line" not in newest.content


async def test_lines_a_new_post_has_no_room_for_go_just_before_it(
        table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    """A new post whose own lines do not fit keeps the last ones and posts the earlier ones
    just before it, in order, pinging nobody: every line of the move is in the thread once,
    and no post says "/game log" for lines the table never saw."""
    from cogs.utils.table import boards

    post = await _round_one_to_bob(table)
    monkeypatch.setattr(boards, "MAX_POST_LINES", 1)
    before = {m.id for m in table.emu.messages_in(table.thread())}
    await _play(table, table.bob)  # the round ends: several lines, then round 2's wager
    after = [m for m in table.emu.messages_in(table.thread()) if m.id not in before]
    board = _boards(table)[-1]
    assert board.id != post.id and after[-1].id == board.id
    spilled = after[:-1]
    assert spilled and all("(continued below)" in m.content and not m.pinged_user_ids
                           and not m.custom_ids for m in spilled)
    lines = [ln for m in after for ln in m.content.splitlines() if ln.startswith("• ")]
    assert len(lines) >= 2 and len(set(lines)) == len(lines), lines
    assert "Reveal" in "\n".join(lines) and "earlier line" not in "\n".join(lines)
    assert sum(ln.startswith("• ") for ln in board.content.splitlines()) == 1
    # the board post keeps (and a later edit shows) only its own line
    assert table.bot is not None
    stored = BoardPost.load(await table.bot.storage.board_post(await table.game_id()))
    assert stored is not None and len(stored.lines) == 1


async def test_the_policy_survives_a_restart(table: Table) -> None:
    gid = await _highcard(table)
    await table.click(table.alice, table.board(), label="Wager 1")
    assert table.bot is not None
    stored = BoardPost.load(await table.bot.storage.board_post(gid))
    assert stored is not None and stored.awaited == ["s1", "s2"] and stored.pinged == ["s2"]
    posts = len(_boards(table))
    await table.restart()
    await table.emu.settle()
    await _play(table, table.alice)
    # the restarted bot remembers what the post stands for: edited, nobody pinged
    boards = _boards(table)
    assert len(boards) == posts
    assert "s1 plays a card face down." in boards[-1].content
    assert boards[-1].pinged_user_ids == [table.bob.id]  # from its first version only


async def test_a_deleted_board_post_is_posted_anew_without_pings(table: Table) -> None:
    gid = await _highcard(table)
    await table.click(table.alice, table.board(), label="Wager 1")
    assert table.bot is not None
    record = await table.bot.storage.get_game(gid)
    assert record is not None and record.board_message_id is not None
    res = await table.click(table.alice, table.board(), label="My choices")
    await res.wait_done()
    menu = res.messages[-1]
    table.emu.message(str(record.board_message_id)).deleted = True  # a moderator removed it
    card = next(c for c in menu.custom_ids if c.startswith("hb:a:"))
    await (await table.emu.click(table.alice, menu, card)).wait_done()
    await table.emu.settle()
    latest = _boards(table)[-1]
    assert str(latest.id) != str(record.board_message_id)
    assert "s1 plays a card face down." in latest.content and latest.pinged_user_ids == []


async def test_a_lone_player_with_ai_stand_ins_is_not_pinged(table: Table) -> None:
    """All-AI-but-one: the one player left is watching; only the reminders nudge them."""
    gid = await _highcard(table)
    assert table.bot is not None
    await table.bot.storage.set_ai_standin(gid, "s2", True)  # bob is away: the AI plays him
    mark = table.emu.mark()
    await table.click(table.alice, table.board(), label="Wager 1")  # the AI answers for bob
    await _play(table, table.alice)  # round 2: the AI wagers and plays; alice's turn again
    assert table.bot is not None
    assert await table.bot.tables.awaited(gid) == {"s1": int(table.alice.id)}
    # Boards written since (posted, or edited in place: a post that would ping nobody need
    # not be new, #25); none of them pinged anyone, and no other message did either.
    later = [m for m in _boards(table) if m.written > mark]
    assert later and later[-1].written > later[-1].order  # round 2 shown, in place
    assert "⏳ alice: " in later[-1].content and "<@" not in later[-1].content
    assert all(m.pinged_user_ids == [] for m in table.emu.messages_in(table.thread())
               if m.order > mark)


async def _solo(table: Table) -> int:
    assert table.bot is not None
    table.bot.tables.seed_source = lambda: 5
    await table.slash(table.alice, table.general, "game new", game="exorcism", mode="solo")
    await table.slash(table.alice, table.thread(), "game start")
    return await table.game_id()


async def test_full_board_one_tap_away_rendered_once_per_version(
        table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    gid = await _solo(table)
    board = table.board()
    # the inline picture is the phone-sized turn card, described in words
    assert [a.filename for a in board.attachments] == ["turn.png"]
    assert board.attachments[0].description
    assert board.pinged_user_ids == []  # Solo: the only player is watching
    renders: list[str] = []
    real = renderpool.render

    async def counting(game: str, view: dict[str, Any]) -> bytes | None:
        renders.append(game)
        return await real(game, view)

    monkeypatch.setattr(renderpool, "render", counting)
    # Anyone may look at the public board: the player and a passer-by, several times at once.
    presses = await asyncio.gather(*(table.emu.click(user, board, label="Full board")
                                      for user in (table.alice, table.bob, table.carol)))
    for res in presses:
        await res.wait_done()
    await table.emu.settle()
    answers = [res.messages[-1] for res in presses]
    for answer in answers:
        assert answer.ephemeral and "full board" in answer.content
        assert [a.filename for a in answer.attachments] == ["full-board.png"]
        assert answer.attachments[0].data[:4] == b"\x89PNG"
        assert answer.attachments[0].description
    assert renders == ["exorcism"]  # three presses, one render
    assert table.bot is not None
    state = await table.bot.tables.state(gid)
    names = {"s1": "alice"}
    assert answers[0].attachments[0].description == GAMES["exorcism"].alt_text(state, names)
    check_alt_text(table.emu)


async def test_status_and_hand_answer_in_words_with_described_pictures(table: Table) -> None:
    gid = await _solo(table)
    assert table.bot is not None
    game = GAMES["exorcism"]
    state = await table.bot.tables.state(gid)
    names = {"s1": "alice"}
    status = await table.slash(table.alice, table.thread(), "game status")
    text = "\n".join(m.content for m in status.messages)
    assert all(m.ephemeral for m in status.messages)
    for line in game.status_lines(state, None, names):
        assert line[:1500] in text
    pictures = [a for m in status.messages for a in m.attachments]
    assert pictures and pictures[0].description == game.alt_text(state, names)
    hand = await table.slash(table.alice, table.thread(), "game hand")
    assert hand.ephemeral and "You are" in hand.text
    public = set(game.status_lines(state, None, names))
    secret = [line for line in game.status_lines(state, "s1", names) if line not in public]
    for line in secret:
        assert line in hand.text
    assert all(a.description for m in hand.messages for a in m.attachments)
    # a spectator gets the public words too, and no hand
    status = await table.slash(table.bob, table.thread(), "game status")
    assert game.status_lines(state, None, names)[0] in status.text
    check_alt_text(table.emu)


async def test_undo_edits_the_post_and_pings_nobody(table: Table) -> None:
    await _highcard(table)
    await table.click(table.alice, table.board(), label="Wager 1")
    post = _boards(table)[-1]
    assert post.pinged_user_ids == [table.bob.id]
    res = await table.slash(table.alice, table.thread(), "game undo")
    assert "Undone" in res.text
    # alice sets the wager again: the game waits for fewer players, so the same post is
    # edited (it says who took back what) and nobody is pinged anew
    assert _boards(table)[-1].id == post.id
    assert "took back their last move" in post.content and "⏳ alice: " in post.content
    # named as every post names a player (her display name), not by a seat label
    assert "alice took back their last move" in post.content
    assert post.pinged_user_ids == [table.bob.id]


async def test_boards_that_fall_behind_are_superseded_and_every_move_still_reads_in_order(
        table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    """Back-pressure (#15): while a slow board is drawn, the game's next moves are played; their
    boards merge into one (the newest), fewer pictures are drawn than moves made, and every
    move's lines still reach the thread, in order."""
    from bench.roundtrip import slash_families
    from cogs.utils.table import _decision_token, action_hash

    gid = await _solo(table)
    assert table.bot is not None
    bot = table.bot
    game = GAMES["exorcism"]
    drawn: list[int] = []
    real = renderpool.render_card

    async def slow(name: str, view: dict[str, Any]) -> bytes | None:
        drawn.append(len(drawn))
        await asyncio.sleep(0.3)  # a busy machine: boards fall behind the moves
        return await real(name, view)

    monkeypatch.setattr(renderpool, "render_card", slow)
    group, families = slash_families()["exorcism"]
    start = (await bot.tables.state(gid)).step
    answers = []
    for _ in range(8):
        state = await bot.tables.state(gid)
        if game.result(state) is not None:
            break
        seat = sorted(game.to_act(state))[0]
        action = game.ai_action(state, seat)
        family = next((f for f in families if action.kind in f.kinds), None)
        if family is None:
            break
        answers.append(await table.emu.slash(table.alice, table.thread(),
                                             f"{group} {family.name}",
                                             {"choice": action_hash(action)}))
        # The next move as soon as this one is stored — long before its board is drawn.
        for _ in range(500):
            if (await bot.tables.state(gid)).step > state.step:
                break
            await asyncio.sleep(0.01)
    moves = (await bot.tables.state(gid)).step - start
    assert moves >= 4
    for res in answers:
        await res.wait_done(timeout=30)
    # A busy bot answers "Playing: …" before the board: wait for the boards themselves.
    await _boards_shown(table, gid)
    assert 1 <= len(drawn) < moves  # superseded boards were never drawn (or were dropped)
    # Every move's public lines, in order, across the board posts of the thread.
    history = await bot.tables.history(gid)
    wanted = [line for entry in history if entry.seq > start
              for line in await told_lines(bot, gid, entry.events)]
    shown = [line[2:] for m in table.emu.messages_in(table.thread())
             if m.content.startswith("**The Exorcism")
             for line in m.content.split("\n") if line.startswith("• ")]
    assert wanted
    rest = iter(shown)
    assert all(line in rest for line in wanted), (wanted, shown)  # a subsequence: in order
    # The last board is the final state's: its buttons answer the decision now awaited.
    final = await bot.tables.state(gid)
    record = await bot.tables.get(gid)
    board = table.board()
    assert str(board.id) == str(record.board_message_id)
    awaited = sorted(game.to_act(final))
    token = _decision_token(game.decision_id(final, awaited[0]), record.epoch)
    assert any(f":{token}:" in cid for cid in board.custom_ids if cid.startswith("hb:a:"))
    assert [a.filename for a in board.attachments] == ["turn.png"]


async def test_a_spill_refused_part_way_is_not_posted_twice(
        table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    """Lines a new post has no room for go first, a post each here; Discord refuses the
    second (a 503): the board is kept and retried, and the retry posts only the lines not yet
    through — every line of the move once in the thread, none twice."""
    from bot import limits
    from cogs.utils.table import boards

    post = await _round_one_to_bob(table)
    assert table.bot is not None
    monkeypatch.setattr(table.bot.settings, "board_retry_seconds", 0.05)  # retried at once
    monkeypatch.setattr(boards, "MAX_POST_LINES", 1)
    head = f"**High Card (test game)** — game #{await table.game_id()} (continued below)"
    monkeypatch.setattr(limits, "CONTENT", len(head) + 45)  # one line a spill post
    thread = table.thread()
    table.emu.fail_next("POST", rf"^/channels/{thread.id}/messages$", status=503, after=1)
    before = {m.id for m in table.emu.messages_in(thread)}
    await _play(table, table.bob)
    await table.emu.wait_for_message(
        lambda m: m.content.startswith("**High Card (test game)** — game #")
        and m.id not in before and "(continued below)" not in m.content,
        channel=thread, timeout=10)
    await table.emu.settle()
    assert [e.status for e in table.emu.errors] == [503]
    after = [m for m in table.emu.messages_in(thread) if m.id not in before]
    spilled = [m for m in after if "(continued below)" in m.content]
    assert len(spilled) >= 2, [m.content for m in after]
    lines = [ln for m in after for ln in m.content.splitlines() if ln.startswith("• ")]
    assert len(set(lines)) == len(lines), lines
    assert "Reveal" in "\n".join(lines)
    assert _boards(table)[-1].id != post.id


async def test_the_exorcism_turn_card_header_says_the_round_and_the_game_turn(
        table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    """The card's words go in `view["turn"]`; The Exorcism's game turn, which the public view
    keeps in that same key, must still reach the card's header as "Round N · Turn T" (stop 68:
    the board post overwrote it, so every card only said "Round N")."""
    from bench.roundtrip import slash_families
    from cogs.utils.table import action_hash
    from renders.turncard import _round_text

    views: list[dict[str, Any]] = []
    real = renderpool.render_card

    async def keep(name: str, view: dict[str, Any]) -> bytes | None:
        views.append(view)
        return await real(name, view)

    monkeypatch.setattr(renderpool, "render_card", keep)
    gid = await _solo(table)
    assert table.bot is not None
    bot = table.bot
    game = GAMES["exorcism"]
    group, families = slash_families()["exorcism"]
    for _ in range(12):
        state = await bot.tables.state(gid)
        if state.game_turn >= 1 or game.result(state) is not None:
            break
        seat = sorted(game.to_act(state))[0]
        action = game.ai_action(state, seat)
        family = next(f for f in families if action.kind in f.kinds)
        res = await table.emu.slash(table.alice, table.thread(), f"{group} {family.name}",
                                    {"choice": action_hash(action)})
        await res.wait_done(timeout=30)
    state = await bot.tables.state(gid)
    assert state.game_turn >= 1
    await _boards_shown(table, gid)
    last = views[-1]
    assert isinstance(last["turn"], dict) and "awaited" in last["turn"]  # the card's words
    assert _round_text("exorcism", last) == (
        f"Round {state.round} · Turn {state.game_turn}"), _round_text("exorcism", last)


async def test_an_edit_whose_picture_is_unchanged_sends_none_and_keeps_the_posts(
        table: Table) -> None:
    """Stop 68's demos: each Marble picked for a Close a Gate edited the board post with the
    very picture it had, uploaded again (an upload is the request Discord refuses most). An
    edit of the same post with the same picture sends no attachments, and the post keeps its
    own (Discord keeps a message's attachments when an edit names none); a changed picture is
    sent."""
    from cogs.utils.table import Showing, delivery_for
    from cogs.utils.table.posts import shown_or_delayed

    gid = await _solo(table)
    assert table.bot is not None
    bot = table.bot
    delivery = delivery_for(bot)
    await table.emu.settle(timeout=30)
    board = table.board()
    kept = [a.id for a in table.emu.message(board.id).attachments]
    assert kept, "the board post has no picture"
    record = await bot.storage.get_game(gid)
    assert record is not None
    state = await bot.tables.state(gid)
    users = await bot.tables.users_of(gid)
    channel = await delivery.thread(record)
    assert channel is not None
    game = GAMES["exorcism"]
    edits = len(table.emu.message(board.id).history)
    await shown_or_delayed(delivery.show(Showing(
        record, game, state, [], None, channel, users, None, [])))
    await table.emu.settle(timeout=30)
    after = table.emu.message(board.id)
    assert len(after.history) > edits  # edited in place
    assert [a.id for a in after.attachments] == kept  # the same picture, not sent again
    # A new line on the card is a new picture: sent.
    await shown_or_delayed(delivery.show(Showing(
        record, game, state, ["A line the table reads."], None, channel, users, None, [])))
    await table.emu.settle(timeout=30)
    again = table.emu.message(board.id)
    assert "A line the table reads." in again.content
    assert again.attachments and [a.id for a in again.attachments] != kept
