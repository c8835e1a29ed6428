"""#14: human words and one vocabulary. `/help`, `/game rules` by words with the thread's
game as default, the renamed commands and their old names, `rules`/`nudge`/`flag` in every
game, and the raw-word scan itself. (Whole games of every mode are scanned for raw words in
tests/proof/test_secrets.py, which already plays them through the emulator.)"""

from __future__ import annotations

from typing import Any

from bot.tables import ai_name
from cogs.help import PAGES
from demo import AutoTable
from rules.registry import GAMES
from tests.e2e import words
from tests.e2e.conftest import Table
from tests.e2e.test_requests import _generous


async def _auto(table: Table, game: str, mode: str | None, players: int = 3) -> AutoTable:
    assert table.bot is not None
    table.bot.tables.seed_source = lambda: 5
    auto = AutoTable(table.emu, table.bot, table.general,
                     [table.alice, table.bob, table.carol][:players])
    await auto.open(game, mode)
    return auto


async def _seat_users(table: Table, auto: AutoTable) -> dict[str, Any]:
    assert table.bot is not None
    users = await table.bot.tables.users_of(auto.game_id)
    by_id = {int(u.id): u for u in auto.users}
    return {seat: by_id[uid] for seat, uid in users.items() if uid}


AI_NAMES = {ai_name(k) for k in range(1, 9)}

ISSUE_22_BAD = (
    # The Presence: dice by id, "card: action", a trauma said twice.
    "Move die 0 (1) in the Kitchen to the Salon", "+1 on die 2 (2) in the Kitchen",
    "Move 3 / Investigate: Move 3", "Search / Relight: Relight (quick)",
    "The Descendant uses Move 3 / Investigate: Investigate.",
    "Secret 1: Betrayal (Spirit I) (betrayal)",
    "bob discards the clue card Suffering: Kitchen (suffering, Kitchen) beneath position 2.",
    # The Exorcism: a Haunt card's fields, a Ghost's move as an arrow.
    "Haunt card: Location 6, Die Value 6; Wraith right, Bull left, Devourer left.",
    "The Ghosts move: Wraith → Attic.",
    # `/game rules`: the spec's tags and design notes.
    "**EX-HAUNT-12** {core} {solo} If a Darkness Token must be placed",
    "**EX-GAP-05** The 30 Tasks. • Default: each Subtype has six Tasks",
    "**EX-PLAY-01** (EX-GAP-14) {core} supports 2–5 players.",
    # The Fourth Wall: words its buttons do not use.
    "bob (the Seer): 2 AP left for the Seer — Intervene, Blitz, Draw, Trade or use an ability",
    # A seat named by its character alone; two AI seats both "AI"; a mode as code.
    "These choices are for Psychologist. Press My choices to see yours.",
    "• AI (the Architect)", "Mode: one_vs_all",
    # A count whose noun says "(s)".
    "The spirit ends its turn and draws 2 spirit card(s).",
    # "a" before a vowel.
    "Moving Objects: a Occult Item is taken from Psychologist.", "Gain a Occult Item",
    # A ruling id in brackets.
    "The Descendant has no main actions left: the turn ends (A-65).",
    # One said as many.
    "3 presence dice worth 5 in all, 1 spirit cards in hand", "1 presence dice in the supply",
    "• … (1 earlier lines: `/game log`)", "7 board posts, edited in place 94 times, 1 pings",
    # Stop 59: the Solo log, a Horror's tags read as Symbols, a Python-ish door.
    "Psychologist & Detective ends the turn.", "Psychologist gains the Task Key Task 6.",
    "Watcher — needs Science Drained", "Brute — needs Force, Science×2 Scourge",
    "The door Salon–West Bedroom: close.",
    "New to The Presence? the creator can turn on **First game** in the Variants menu.",
    "3 main actions left. Clue tokens wait on your floor in the Salon, the Kitchen: Walk.",
    # Stop 60: a list of names, a small clue, a question after a card's colon.
    "Targeted: The Orphan, The Detective.",
    "Alone visitors may only talk procedurally: The Descendant, The Orphan.",
    "The Descendant investigates and reveals the small clue Small Clue: Action.",
    "Discard the clue card Tragedy: Cellar: beneath which secret?",
    "Bodyguard picks up 1 Detection Tool, 1 Key, 1 Occult Item.",
    "Bea (the Architect) is in the Supply Room (row 3, column 4): 1 Key and 2 Holy Relic.",
    "You hold 2 Doom and 4 Horror cards; 1 of 5 Gates are Open.",
    "The spirit ends its turn and draws 0 spirit cards.",
    "The spirit uses the top power of Piano Music (spends 0).",
    "AI Moth (the Steadfast): 0 Gates closed; 6 moves.", "0 spirit cards played",
    "Bodyguard: 0 Tasks completed, escaped the house", "Competitive: 3 hope and 0 nerve",
    "The Steadfast draws Force Marble. (only you and AI Ember, AI Moth and AI Raven see this)",
)
"""Each jargon example of issue #22 (part 4), as players met it: each must fail the check."""

ISSUE_22_GOOD = (
    "Move the presence die showing 1 in the Kitchen to the Salon",
    "Move 3 (play Move 3 / Investigate)", "Relight (play Search / Relight) (quick)",
    "The Descendant plays Move 3 / Investigate for Investigate.",
    "Secret 1: Betrayal (Spirit I)", "bob discards the clue card Suffering: Kitchen beneath "
    "position 2.",
    "Haunt card (Location 6): Wraith right, Bull 6 spaces right, Devourer left.",
    "The Wraith stays in the Attic; the Bull moves to the Hall.",
    "**EX-HAUNT-12** In Co-op and Solo: If a Darkness Token must be placed",
    "**EX-GAP-05** The 30 Tasks. • Our ruling: each Subtype has six Tasks",
    "bob (the Seer): 2 AP left for the Seer — Search (draw a Marble), Intervene with a "
    "Marble, Utilise, Give or Trade a Marble, Regroup or Close a Gate — or end the turn.",
    "These choices are for bob (the Psychologist). Press My choices to see yours.",
    "These choices are for another player.",
    "• AI Wisp (the Architect)", "AI players to seat now", "Mode: One vs All",
    "The spirit ends its turn and draws 1 spirit card.",
    "The spirit ends its turn and draws no spirit card.",
    "The spirit uses the top power of Piano Music (spends nothing).",
    "AI Moth (the Steadfast): no Gate closed; 0 moves.", "Exorcism 0 of 30; Doom 0",
    "Scripts: Competitive: 3 hope scripts", "Scripts: Normal: 1 hope and 2 nerve scripts",
    "The Steadfast draws Force Marble. (only you, AI Ember, AI Moth and AI Raven see this)",
    "The Steadfast draws Force Marble. (only you and AI Ember see this)",
    "Moving Objects: an Occult Item is taken from Psychologist.", "Gain an Occult Item",
    "a Unique Action", "A Gate opens", "Task Room A and a Key",
    "The Descendant has no main actions left: the turn ends.",
    "The most the game allows (rule A-48): wait for the next action.",
    "1 presence die worth 5 in all, 1 spirit card in hand", "1 of 5 Gates is Open",
    "Time left 1 hour 30 minutes", "1 AP left",
    "• … (1 earlier line: `/game log`)", "7 board posts, edited in place 94 times, 1 ping",
    "Psychologist & Detective end the turn.", "Psychologist gains Key Task 6.",
    "Watcher (Drained) — needs Science", "Brute (The Scourge) — needs Force, Science×2",
    "The door Salon–West Bedroom closes.",
    "New to The Presence? The creator can turn on **First game** in the Variants menu.",
    "3 main actions left. Clue tokens wait on your floor in the Salon and the Kitchen: Walk "
    "there.",
    "Targeted: the Orphan and the Detective.", "Targeted: The Detective.",
    "Alone visitors may only talk procedurally: the Descendant and the Orphan.",
    "The Descendant investigates and reveals Small Clue: Action.",
    "The Orphan investigates and reveals the spirit clue Shadow.",
    "Beneath which secret does the clue card Tragedy: Cellar go?",
    "Script B4: the bottom half applies.",
    "Bodyguard picks up 1 Detection Tool, 1 Key and 1 Occult Item.",
    "Bea (the Architect) is in the Supply Room (row 3, column 4): 1 Key and 2 Holy Relics.",
    "Horror Brute: Manifest 3; defeat needs 1 Force and 2 Science.", "2 Keys, 10 Marbles",
    "You hold 2 Doom and 5 Horror cards; 3 of 5 Gates are Open.",
    "**Your move:** Draw a clue card: from the deck or a revealed card?",
    "alice (the Orphan): Choose for the Orphan: which one? https://discord.com/channels/1/2",
)
"""The same things in the words players now read: each must pass."""


def test_each_jargon_example_of_issue_22_fails_the_check() -> None:
    for bad in ISSUE_22_BAD:
        assert words.raw_words(bad), bad
    # A `/game rules` answer quotes a rule on request: its design notes still fail.
    assert words.raw_words("**EX-GAP-05** (see EX-AMB-54) the Tasks", rules=True)


def test_a_button_label_cut_at_80_characters_without_an_ellipsis_fails() -> None:
    from emulator.records import MessageRecord

    def message(label: str) -> MessageRecord:
        record = MessageRecord.__new__(MessageRecord)
        record.components = [{"type": 1, "components": [{"type": 2, "label": label}]}]
        record.history = []
        return record

    cut = ("Move the Ghosts: Haunt card: Location 6, Die Value 6; Wraith right, Bull left, "
           "Devourer left")[:80]
    assert words.cut_labels(message(cut))
    assert not words.cut_labels(message(cut[:79] + "…"))
    assert not words.cut_labels(message("End your turn"))


def test_raw_word_patterns_catch_what_players_must_not_read() -> None:
    for bad in ("You are s2.", "Player 3 wins", "Investigator 1 & Investigator 3",
                "What you can do: manor_done, manor_pick", "pack_path = None",
                "first_game = False", "[T] Component list", "[R] ruling",
                "Architect moves to Task Room A (r2c3).", "Locked Room (r1c2)",
                "Vote (FW-VIS-02: the team sees which)", "the Haunt Level reaches 30 (EX-OVA-11).",
                "Pick a clue (P-CLUE-03)", "[B] Bot rule", "(see EX-AMB-54)",
                "You draw H19: Haunt card: Location 1", "Mystery Mode (P-MYST)"):
        assert words.raw_words(bad), bad
    for good in ("You are the Medium.", "True Horror: no emoji", "None of your Investigators",
                 "the first Investigator", "P-COMM-04", "game #12 <#3417>",
                 "You can't move there (rule EX-ACT-01)", "**FW-GATE-02** — a Gate opens",
                 "the Locked Room (row 1, column 2)", "r2d2 is a robot, rc1 a rocket",
                 "**EX-PLAY-01** In Co-op: supports 2–5 players.", *ISSUE_22_GOOD):
        assert not words.raw_words(good), good
    # What players ask for by rule: the rules lookup's choices quote rules, with their ids.
    assert not words.scan_choices("game rules", [{"name": "EX-PLAY-01 (EX-OVA-02) 2–5"}])
    # …but not the design notes behind a rule (#22).
    assert words.scan_choices("game rules", [{"name": "EX-PLAY-01 (EX-GAP-14) 2–5"}])
    assert words.scan_choices("exorcism move", [{"name": "Move to Locked Room (r1c2)"}])


async def test_help_pages_by_menu_ephemeral_and_in_human_words(table: Table) -> None:
    res = await table.slash(table.alice, table.general, "help")
    assert res.ephemeral and "Haunt Bot" in res.text and "/game new" in res.text
    [message] = res.messages
    seen = {res.text}
    for key, _label, _desc, title, _text in PAGES:
        [menu] = [c for c in message.custom_ids if c.startswith("hb:help:")]
        pick = await table.emu.select(table.alice, message, menu, values=[key])
        await pick.wait_callback()
        await table.emu.settle()
        assert title in message.text, key
        seen.add(message.text)
        for part in words.readable_parts(message):
            assert not words.raw_words(part), part
    text = "\n".join(seen)
    for must in ("thread", "DM", "My choices", "undo",
                 "Reminders", "The Exorcism at the House of Monkton Falls Rulebook",
                 "I Am the Fourth Wall Rulebook", "The Presence Rulebook", "/game rules"):
        assert must in text, must
    assert not words.raw_words(text)


async def test_help_in_a_game_thread_opens_on_that_game(table: Table) -> None:
    auto = await _auto(table, "presence", None)
    res = await table.slash(table.bob, auto.thread(), "help")
    assert res.ephemeral and "The Presence — in two minutes" in res.text


async def test_game_rules_by_words_defaults_to_the_threads_game(table: Table) -> None:
    auto = await _auto(table, "presence", None)
    res = await table.slash(table.alice, auto.thread(), "game rules", rule="alone")
    assert res.ephemeral and "P-COMM-04" in res.text
    assert "EX-" not in res.text and "FW-" not in res.text
    assert not words.raw_words(res.text)
    one = await table.slash(table.alice, auto.thread(), "game rules", rule="P-COMM-04")
    assert one.text.startswith("**P-COMM-04**") and "\n" not in one.text.split("—", 1)[1]
    assert not words.raw_words(one.text)
    choices = await table.emu.autocomplete(table.alice, auto.thread(), "game rules",
                                           {"rule": "alone"}, focused="rule")
    presence = GAMES["presence"].rulebook()
    assert choices and all(c["value"] in presence for c in choices)
    assert not words.scan_choices("game rules", choices)
    everything = await table.emu.autocomplete(table.alice, auto.thread(), "game rules",
                                              {"rule": ""}, focused="rule")
    assert everything and all(c["value"] in presence for c in everything)
    assert not words.scan_choices("game rules", everything)
    # Outside a thread: another game by name, or by a rule id's prefix.
    ex = await table.slash(table.alice, table.general, "game rules", rule="wounded",
                           game="exorcism")
    assert "EX-" in ex.text and "P-" not in ex.text.split("\n")[0][:8]
    fw = await table.slash(table.alice, table.general, "game rules", rule="FW-ACT-01")
    assert fw.text.startswith("**FW-ACT-01**") and not words.raw_words(fw.text)


async def test_fourthwall_is_the_group_and_the_old_names_are_gone(table: Table) -> None:
    """Issue #22: `/fw`, `pass` and each group's own `rules` are gone from Discord's list;
    the rules lookup is `/game rules`, which in a game's thread searches that game."""
    assert table.emu.commands.find("fourthwall", table.guild.id) is not None
    assert table.emu.commands.find("fw", table.guild.id) is None
    paths = table.emu.commands.all_paths()
    for group in ("exorcism", "fourthwall", "presence"):
        assert f"{group} pass" not in paths and f"{group} rules" not in paths, group
    auto = await _auto(table, "fourth_wall", "alliance")
    users = await _seat_users(table, auto)
    user = next(iter(users.values()))
    found = await table.slash(user, auto.thread(), "game rules", rule="insane")
    assert found.ephemeral and "FW-" in found.text and "EX-" not in found.text
    assert not words.raw_words(found.text)


async def test_end_ends_a_turn_in_every_game(table: Table) -> None:
    for group in ("exorcism", "fourthwall", "presence"):
        command = table.emu.commands.find(group, table.guild.id)
        assert command is not None
        names = {o["name"] for o in command.get("options") or []}
        assert {"end", "answer", "nudge", "flag"} <= names, (group, names)
    # "Done" is the move's result within the answer's grace: on a loaded machine the
    # default 0.25 s can pass first and the answer is "Playing: …" (tested elsewhere).
    await _generous(table)
    auto = await _auto(table, "exorcism", "core", 2)
    assert table.bot is not None
    users = await _seat_users(table, auto)
    for _turn in range(2):
        state = await table.bot.tables.state(auto.game_id)
        [awaited] = sorted(GAMES["exorcism"].to_act(state))
        res = await table.slash(users[awaited], auto.thread(), "exorcism end")
        assert res.text.startswith("Done"), res.text
        after = await table.bot.tables.state(auto.game_id)
        assert after.step == state.step + 1


async def test_a_command_that_does_nothing_now_names_commands_not_action_kinds(
        table: Table) -> None:
    """EX Ghost player: `/exorcism move` answered "What you can do: manor_done, manor_pick"."""
    auto = await _auto(table, "exorcism", "one_vs_all", 3)
    assert table.bot is not None
    users = await _seat_users(table, auto)
    game = GAMES["exorcism"]
    state = await table.bot.tables.state(auto.game_id)
    refused = 0
    for seat, user in users.items():
        if any(a.kind == "move" for a in game.legal_actions(state, seat)):
            continue
        res = await table.slash(user, auto.thread(), "exorcism move")
        assert "You can't move right now" in res.text or "not your move" in res.text
        assert not words.raw_words(res.text), res.text
        refused += 1
    assert refused


async def test_nudge_and_flag_in_every_game(table: Table) -> None:
    for game, mode, group in (("exorcism", "core", "exorcism"),
                              ("fourth_wall", "alliance", "fourthwall")):
        auto = await _auto(table, game, mode, 2)
        assert table.bot is not None
        users = await _seat_users(table, auto)
        state = await table.bot.tables.state(auto.game_id)
        awaited = sorted(GAMES[game].to_act(state))
        idle = next((s for s in users if s not in awaited), next(iter(users)))
        mark = table.emu.mark()
        res = await table.slash(users[idle], auto.thread(), f"{group} nudge")
        assert res.ephemeral and "Nudged" in res.text
        posts = [m for m in table.emu.messages_in(auto.thread()) if m.order > mark]
        [post] = posts
        assert "waiting for you" in post.content
        assert sorted(post.pinged_user_ids) == sorted(users[s].id for s in awaited
                                                      if s in users)
        rid = f"{GAMES[game].rule_prefix}-ACT-01"
        mark = table.emu.mark()
        flag = await table.slash(users[idle], auto.thread(), f"{group} flag", rule=rid,
                                 about="question")
        assert "Flagged" in flag.text
        [notice] = [m for m in table.emu.messages_in(auto.thread()) if m.order > mark]
        assert f"asks the table about **{rid}**" in notice.content
        assert notice.pinged_user_ids == [] and not words.raw_words(notice.content)
        # the player is named by their display name, not a seat
        assert users[idle].name in notice.content


async def test_readme_lists_every_command(table: Table) -> None:
    """The README's table names every slash command and subcommand players can use, and the
    README names no command the bot does not have (as the removed `/fw` group)."""
    from pathlib import Path
    readme = Path(__file__).resolve().parents[2].joinpath("README.md").read_text()
    import re
    # The first cell of each command row (a `\|` inside it separates alternatives).
    rows = [re.split(r"(?<!\\)\|", line)[1] for line in readme.splitlines()
            if line.startswith("| `/")]
    missing = []
    for name in ("game", "exorcism", "fourthwall", "presence", "help"):
        command = table.emu.commands.find(name, table.guild.id)
        assert command is not None, name
        subs = [o["name"] for o in command.get("options") or [] if o.get("type") in (1, 2)]
        for sub in subs or [""]:
            if not any(f"/{name}" in row and (not sub or re.search(rf"\b{sub}\b", row))
                       for row in rows):
                missing.append(f"/{name} {sub}".strip())
    assert not missing, missing
    paths = table.emu.commands.all_paths()
    known = {*paths, *(p.split()[0] for p in paths)}  # a group alone is named too (`/game`)
    # A command, not a path in the container (`/data/…`).
    named = re.findall(r"`/([a-z]+)(?![/.\w])(?: ([a-z]+))?", readme)
    unknown = sorted({f"/{top} {sub}".strip() for top, sub in named
                      if (f"{top} {sub}" if sub else top) not in known})
    assert not unknown, unknown
    assert "../" not in readme


# ---- issue #20 item 6: display names are text, never markdown or mentions -----------------

NASTY = ("[x](https://evil.example)", "**bold**", "||spoiler||", "_lean_", "`tick`",
         "@everyone", "<@123456789012345678>", "~~gone~~")


def _unescaped(text: str, raw: str, escaped: str) -> bool:
    """Whether `raw` shows in `text` other than as `escaped` (which may contain it)."""
    return raw in text.replace(escaped, "")


def test_every_kind_of_markup_in_a_name_is_escaped() -> None:
    from cogs.utils.table import escape_name

    for name in (*NASTY, "a\\b"):
        assert name not in escape_name(name), name
    # A timestamp, a channel link, markup only at a line's start: escaped by a backslash.
    for name in ("<t:0:R>", "<#123456789012345678>", "# Big", "> quote"):
        assert escape_name(name).startswith("\\"), name
    assert "](" not in escape_name(NASTY[0])  # no masked link, even half-parsed
    assert "@everyone" not in escape_name("@everyone")
    assert escape_name("Ada Lovelace") == "Ada Lovelace"


async def test_markdown_and_mentions_in_display_names_are_escaped_everywhere(
        table: Table, monkeypatch: Any) -> None:
    """Players named like a masked link, bold and a spoiler play a whole short game: every
    message, embed and DM the bot sent names them escaped (never as a link, formatting or a
    ping); the pictures and alt text show the names as they are; labels never carry an
    escape."""
    from bot import renderpool
    from cogs.utils.table import escape_name

    drawn: list[dict[str, str]] = []
    card_words: list[str] = []
    real_render, real_card = renderpool.render, renderpool.render_card

    async def render(game: str, view: dict[str, Any]) -> bytes | None:
        drawn.append(dict(view.get("names") or {}))
        return await real_render(game, view)

    async def render_card(game: str, view: dict[str, Any]) -> bytes | None:
        drawn.append(dict(view.get("names") or {}))
        turn = view.get("turn") or {}
        written = [*turn.get("awaited", []), turn.get("doing") or "",
                   *turn.get("happened", []), turn.get("result") or ""]
        card_words.extend(written)
        return await real_card(game, view)

    monkeypatch.setattr(renderpool, "render", render)
    monkeypatch.setattr(renderpool, "render_card", render_card)
    players = [table.emu.create_user(f"nasty{i}", global_name=name)
               for i, name in enumerate(NASTY[:3])]
    for user in players:
        table.emu.add_member(table.guild, user)
    assert table.bot is not None
    table.bot.tables.seed_source = lambda: 5
    auto = AutoTable(table.emu, table.bot, table.general, players)
    await auto.open("fourth_wall", "alliance")
    await auto.play_to_end()
    for user in players:  # the status in words names every player too
        res = await table.slash(user, auto.thread(), "game status")
        assert res.ephemeral
    seen = {name: 0 for name in NASTY[:3]}
    for m in table.emu.all_messages(include_ephemeral=True, include_deleted=True):
        if m.author_id != table.emu.bot_user.id and not m.ephemeral:
            continue
        texts = [m.content, *(h.content for h in m.history)]
        for embed in words._walk(m.embeds):
            texts += [v for k, v in embed.items() if isinstance(v, str) and k != "url"]
        for name in seen:
            for text in texts:
                assert not _unescaped(text, name, escape_name(name)), (name, text)
                seen[name] += text.count(escape_name(name))
        assert not m.everyone_pinged
        for part in words.readable_parts(m):
            if part not in texts:  # labels, placeholders, alt text: plain text on Discord
                assert "\\" not in part, part
    assert all(seen.values()), seen  # each name was shown, escaped
    alt = [a.description or "" for m in table.emu.messages_in(auto.thread())
           for a in m.attachments]
    assert any(NASTY[1] in d for d in alt)  # alt text names the player as they are
    assert drawn and all(set(names.values()) <= {*NASTY, *AI_NAMES} for names in drawn)
    assert any(NASTY[0] in names.values() for names in drawn)
    assert card_words and not [w for w in card_words if "\\" in w]  # drawn as they are
    assert any(NASTY[2] in w for w in card_words)


def test_game_rules_answers_in_words_and_finds_a_room_by_its_name() -> None:
    """#22: `/game rules` showed the spec's "{core} {solo}" tags and "EX-GAP-05 … Default:"
    notes, and "Weapon Room" found the setup diagram rather than what the room does."""
    from cogs.utils.talk import find_rules, rule_choices, rules_answer

    exorcism = GAMES["exorcism"]
    room = rules_answer([exorcism], "Weapon Room")
    assert room.startswith("**Weapon Room**") and "Gain 1 Weapon." in room, room
    assert find_rules(exorcism, "weapon room")[0][0] == "Weapon Room"
    assert find_rules(exorcism, "Architect")[0][1].startswith("A Character. Action: swap")
    haunt = rules_answer([exorcism], "EX-HAUNT-12")
    assert "In Co-op and Solo: If a Darkness Token" in haunt, haunt
    notes = rules_answer([exorcism], "EX-GAP-05")
    assert "Our ruling:" in notes and "Default" not in notes
    play = rules_answer([exorcism], "EX-PLAY-01")
    assert "EX-GAP" not in play and "In Co-op: supports" in play, play
    # No rule of any game reads with the spec's tags or its design notes, in full or in the
    # autocomplete's one-line choices.
    spec = ("a tag or template slot", "a design note")
    for engine in GAMES.values():
        for rid in engine.rulebook():
            answer = rules_answer([engine], rid)
            assert not [h for h in words.raw_words(answer) if h.startswith(spec)], answer
        for choice in rule_choices([engine], ""):
            hits = words.scan_choices("game rules", [{"name": choice.name}])
            assert not [h for h in hits if h.startswith(spec)], choice.name
