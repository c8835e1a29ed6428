"""Tests for The Presence content pack: the shipped defaults (spec Part 3, G-01..G-25) and
the validator (the cross-file invariants of spec §3.0). Broken packs are made by copying the
default pack to a temporary folder and corrupting one thing each; every broken pack must
give an error finding naming the rule it breaks."""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path

import pytest

from rules.presence import content as content_module
from rules.presence.content import (
    DEFAULT_PACK_DIR,
    EFFECT_OPS,
    PACK_FILES,
    TRAUMAS,
    Choice,
    ContentError,
    Discard,
    Pack,
    RevealSecret,
    check_pack,
    default_pack,
    iter_effects,
    load_pack,
    pack_fingerprint,
    pack_json_schema,
    validate_pack,
)
from tests.packs import copy_pack_from, edit, errors, rules_of


@pytest.fixture(scope="module")
def pack() -> Pack:
    return default_pack()


def copy_pack(tmp_path: Path) -> Path:
    return copy_pack_from(DEFAULT_PACK_DIR, tmp_path)








# --------------------------------------------------------------------------- defaults


def test_default_pack_has_no_findings():
    assert check_pack(DEFAULT_PACK_DIR) == []


def test_default_pack_is_cached_and_loads_by_none():
    assert default_pack() is default_pack()
    assert load_pack(None) == default_pack()
    assert load_pack(DEFAULT_PACK_DIR) == default_pack()


def test_pack_files_are_all_shipped():
    shipped = {p.name for p in DEFAULT_PACK_DIR.glob("*.toml")}
    assert shipped == set(PACK_FILES)
    # The CLI recognises a Presence pack by these files (bot/content.py SIGNATURES).
    assert {"spirits.toml", "scripts.toml"} <= shipped


def test_P_COMP_02_printed_counts(pack):
    assert len(pack.visitors) == 8
    assert len(pack.action_cards) == 80
    assert len(pack.spirits) == 5
    assert len(pack.spirit_cards) == 60
    assert len(pack.secrets) == 24
    assert len(pack.clue_cards) == 40
    assert len(pack.fear_cards) == 12
    assert len(pack.item_instances()) == 32
    assert len(pack.spirit_clue_instances()) == 38
    assert len(pack.small_clue_instances()) == 16
    assert len(pack.scripts) == 10
    assert pack.manor.max_doors == 14
    assert len(pack.manor.doors) == 12


def test_P_COMP_02_instance_ids_are_unique(pack):
    for ids in (pack.item_instances(), pack.spirit_clue_instances(), pack.small_clue_instances()):
        assert len(set(ids)) == len(ids)
    assert pack.item_of("item.crucifix#2").name == "Crucifix"
    assert pack.spirit_clue_of("sclue.terror#1").name == "Terror"
    assert pack.small_clue_of("small.clue#10").copies == 10


def test_P_COMP_07_G_10_visitors(pack):
    names = {v.name for v in pack.visitors}
    assert {"The Descendant", "The Orphan", "The Detective", "The Professor"} <= names
    assert names >= {"The Caretaker", "The Medium", "The Soldier", "The Artist"}
    for v in pack.visitors:
        assert len(pack.action_deck(v.id)) == 10
    assert pack.visitor("descendant").pronoun == "she"
    assert pack.visitor("professor").pronoun == "he"
    assert pack.visitor("orphan").walk_points == 2
    assert pack.visitor("detective").walk_points == 1
    assert pack.visitor("medium").fear_track == 6
    assert all(v.fear_track == 5 for v in pack.visitors if v.id != "medium")
    starts = {v.id for v in pack.visitors for r in v.reactions if r.trigger.event == "game_start"}
    assert starts == {"descendant", "professor", "caretaker"}
    soldier = pack.visitor("soldier").abilities[0]
    assert soldier.speed == "quick" and soldier.once_per_turn
    assert soldier.requires[0].test == "die_nearby" and soldier.requires[0].value is False


def test_G_09_action_card_template(pack):
    for v in pack.visitors:
        deck = [pack.action_card(c) for c in pack.action_deck(v.id)]
        names = [tuple(a.name for a in card.actions) for card in deck]
        assert names[:8] == [
            ("Move 3", "Investigate"),
            ("Move 3", "Investigate"),
            ("Move 2", "Search"),
            ("Move 2", "Comfort"),
            ("Investigate", "Move 1"),
            ("Comfort", "Relight"),
            ("Invoke", "Move 2"),
            ("Search", "Relight"),
        ]
        assert names[8][1] == names[9][1] == "Move 2"
    card3 = pack.action_card("orphan.03").actions[0]
    assert card3.dark is not None and card3.dark.mode == "replace"
    assert card3.dark.effects[0].op == "move" and card3.dark.effects[0].points == 3
    relight = pack.action_card("orphan.06").actions[1]
    assert relight.speed == "quick" and relight.effects[0].op == "relight_candle"


def test_G_09_invoke_and_comfort(pack):
    invoke = pack.action_card("descendant.07").actions[0]
    assert invoke.name == "Invoke"
    assert isinstance(invoke.effects[0], RevealSecret) and invoke.effects[0].min_matching == 1
    assert invoke.dark is not None
    dark = invoke.dark.effects[0]
    assert isinstance(dark, RevealSecret) and dark.on_fail[0].op == "suffer_fear"
    comfort = pack.action_card("descendant.04").actions[1]
    assert comfort.name == "Comfort"
    assert [e.op for e in comfort.effects] == ["target", "choice"]
    choice = comfort.effects[1]
    assert isinstance(choice, Choice) and not choice.coloured
    assert {b[0].op for b in choice.options} == {"trash_fear_card", "cure_fear"}


def test_P_SETUP_03_G_01_rooms_and_doors_per_player_count(pack):
    assert [len(pack.rooms_in_play(n)) for n in (3, 4, 5)] == [7, 9, 11]
    assert [len(pack.clue_rooms_in_play(n)) for n in (3, 4, 5)] == [6, 8, 10]
    assert [len(pack.doors_in_play(n)) for n in (3, 4, 5)] == [7, 9, 12]
    assert "secret_chamber" not in pack.rooms_in_play(5)
    assert "secret_chamber" in pack.rooms_in_play(3, chamber=True)
    names = {r.name for r in pack.manor.rooms}
    assert {"Great Hall", "Salon", "Dining Hall", "Kitchen", "Cellar", "Secret Chamber"} <= names
    assert pack.manor.start_room == "great_hall"
    assert pack.manor.fireplace_room == "dining_hall"
    assert "great_hall" not in pack.clue_rooms_in_play(5)


def test_P_SETUP_05_A_10_initial_doors(pack):
    cellar = pack.door("D06")
    assert set(cellar.rooms) == {"kitchen", "cellar"}
    assert cellar.stairs and cellar.locked and not cellar.open
    others = [d for d in pack.manor.doors if d.id != "D06"]
    assert all(not d.locked and not d.open for d in others)
    # The Alone example: a door between the Salon and the Great Hall.
    assert any(set(d.rooms) == {"salon", "great_hall"} for d in pack.manor.doors)


def test_P_SPIRIT_07_die_adjacency(pack):
    assert set(pack.die_neighbours("kitchen", 3)) == {"salon", "dining_hall", "cellar"}
    assert set(pack.die_neighbours("kitchen", 4)) == {"salon", "dining_hall", "cellar", "nursery"}
    assert set(pack.die_neighbours("great_hall", 5)) == {
        "salon",
        "library",
        "dining_hall",
        "gallery",
    }
    assert pack.die_neighbours("secret_chamber", 5) == []


def test_G_02_G_18_room_actions(pack):
    for room in pack.manor.rooms:
        if room.chamber:
            assert room.actions_a == () and len(room.actions_b) == 2
            continue
        assert len(room.actions("A")) == 1 and len(room.actions("B")) == 1
        for act in (*room.actions_a, *room.actions_b):
            assert act.speed == "main" and act.once_per_turn
    dining = pack.room("dining_hall").actions_a[0]
    assert [e.op for e in dining.effects] == ["target", "trash_fear_card", "choice"]
    assert pack.room("great_hall").actions_a[0].requires[0].test == "other_visitor_nearby"
    assert pack.manor.chamber is not None
    assert pack.manor.chamber.uncover.effects[0].op == "uncover"


def test_P_SETUP_22_G_04_clue_deck_arithmetic(pack):
    for n, deck in ((3, 14), (4, 20), (5, 26)):
        eligible = pack.clue_cards_for(n)
        per = Counter(c.trauma for c in eligible)
        assert set(per.values()) == {len(eligible) // 4}
        board = pack.secret_board(n)
        assert sum(len(eligible) // 4 - p.remove for p in board.positions) == deck
        assert [p.in_deck for p in board.positions] == sorted(
            (p.in_deck for p in board.positions), reverse=True
        )
        assert board.positions[0].remove == 1  # set aside for the Secret Chamber
        # Clue cards of one trauma name every clue room in play once (P-CHAMBER-04).
        for t in TRAUMAS:
            rooms = [c.room for c in eligible if c.trauma == t]
            assert sorted(rooms) == sorted(pack.clue_rooms_in_play(n))


def test_P_SECRET_03_tiers(pack):
    # The rulebook example: three matching clue cards resolve the middle effect.
    assert pack.secret_board(4).tier(3) == "middle"
    assert pack.secret_board(5).tier(3) == "middle"
    assert pack.secret_board(3).tier(3) == "high"
    assert [pack.secret_board(4).tier(k) for k in range(6)] == [
        "low",
        "low",
        "middle",
        "middle",
        "high",
        "high",
    ]


def test_A_66_the_3_player_board_s_rarest_position_reveals_middle_on_one_card(pack):
    # G-04 / A-66: position 4 at 3 players prints 2 matching cards; one is the middle tier
    # there, while every other position (and every position at 4 and 5) keeps the board's.
    three = pack.secret_board(3)
    assert three.positions[3].in_deck == 2
    assert [three.tier(k, 4) for k in range(4)] == ["low", "middle", "middle", "high"]
    for position in (1, 2, 3):
        assert [three.tier(k, position) for k in range(4)] == [three.tier(k) for k in range(4)]
        assert three.tier(1, position) == "low"
    for n in (4, 5):
        board = pack.secret_board(n)
        for position in (1, 2, 3, 4):
            assert [board.tier(k, position) for k in range(7)] == [
                board.tier(k) for k in range(7)]


def test_G_05_secrets(pack):
    sets = Counter(s.set for s in pack.secrets)
    assert sets == {"A": 4, **{f"spirit_{k}": 4 for k in range(1, 6)}}
    for set_id in sets:
        assert {pack.secret(s).trauma for s in pack.spirit_secrets(set_id)} == set(TRAUMAS)
    assert all("5" in s.marks for s in pack.secrets if s.set == "spirit_5")
    sample = pack.secret("secret.a.death")
    assert [e.delta for e in sample.tiers.high] == [1, 1]
    assert [e.delta for e in sample.tiers.low] == [-1, -1]
    assert sample.tiers.middle[0].op == "choice"


def test_G_06_clue_cards(pack):
    marks = Counter(c.mark for c in pack.clue_cards)
    assert marks == {3: 24, 4: 8, 5: 8}
    special = [c for c in pack.clue_cards if c.special]
    assert {c.room for c in special} == {"library"} and len(special) == 4
    card = pack.clue_card("clue.death.kitchen")
    assert card.actions[0].effects[1].only_if[0].test == "in_card_room"


def test_P_SETUP_18_G_08_items(pack):
    specials = [pack.item_of(i).name for i in pack.special_item_ids()]
    assert Counter(specials) == {"Manor Key": 2, "Match": 2}
    assert len(pack.random_item_ids()) == 28 >= 16
    crucifix = pack.item("item.crucifix")
    assert crucifix.action is not None and crucifix.action.speed == "quick"
    lantern = pack.item("item.lantern")
    assert lantern.reaction is not None and lantern.reaction.discard_this
    assert lantern.reaction.effects[0].op == "prevent"
    assert all(i.copies == 2 for i in pack.items) and len(pack.items) == 16


def test_G_07_fear_cards(pack):
    events = Counter(f.reaction.trigger.event for f in pack.fear_cards)
    assert events["end_of_own_turn"] == 2
    assert len(events) == 11
    for f in pack.fear_cards:
        assert [e.op for e in f.reaction.effects] == ["suffer_fear"]
        assert not f.reaction.optional
    depths = pack.fear_card("fear.depths")
    assert depths.reaction.trigger.floor == -1


def test_G_11_G_12_spirits_and_spirit_cards(pack):
    assert [s.number for s in pack.spirits] == [1, 2, 3, 4, 5]
    assert [s.id for s in pack.spirits if s.first_game] == ["spirit_5"]
    for s in pack.spirits:
        cards = [pack.spirit_card(c) for c in pack.spirit_deck(s.id)]
        assert len(cards) == 12
        names = {c.name for c in cards}
        assert {"Avert Your Gaze", "Lonely Touch", "Piano Music", "Broken Form"} <= names
        assert sum(p.manifestation for c in cards for p in c.powers()) == 1
    piano = pack.spirit_card("spirit_5.piano_music").top
    assert piano.drain == 1 and piano.requirement == 1 and piano.spend == 0
    assert piano.ongoing[0].trigger.event == "start_of_spirit_turn"
    broken = pack.spirit_card("spirit_5.broken_form").top
    assert broken.manifestation and broken.effects[0].op == "place_pawn"
    assert broken.effects[1].per == "fear_card_in_play"
    lonely = pack.spirit_card("spirit_5.lonely_touch").top
    assert lonely.effects[0].selector == "alone_nearby_visitor"
    choice = lonely.effects[1]
    assert isinstance(choice, Choice) and choice.coloured and choice.who == "target"
    discard = choice.options[1][0]
    assert isinstance(discard, Discard) and discard.n == 3 and discard.cards == "action"
    gloom = pack.spirit_card("spirit_1.gloom").top
    assert gloom.hindered_by_light


def test_P_FIRST_05_first_game_deck(pack):
    deck = pack.spirit_deck("spirit_5", "A")
    assert len(deck) == 10
    assert "spirit_5.broken_form" in deck
    assert pack.spirit_deck("spirit_1", "A") == []
    fg = pack.presets.first_game
    assert (fg.spirit, fg.scripts, fg.secret_set, fg.fear_per_visitor, fg.hope_track_side) == (
        "spirit_5",
        ("A1", "A2"),
        "A",
        1,
        "A",
    )


def test_G_13_manifestation(pack):
    m = pack.manifestation
    assert m.actions_per_turn == 3 and m.drain == 1
    assert {a.name: a.cost for a in m.actions} == {
        "Glide": 0,
        "Door": 0,
        "Turn the Key": 1,
        "Touch": 1,
        "Snuff": 1,
        "Speak": 1,
    }


def test_G_14_spirit_clues_and_bag(pack):
    general = [c for c in pack.spirit_clues if c.spirit is None]
    assert sum(c.copies for c in general) == 13
    for s in pack.spirits:
        assert sum(c.copies for c in pack.spirit_clues if c.spirit == s.id) == 5
    locked = {c.name for c in pack.spirit_clues if c.unlock is not None}
    assert locked == {"Terror", "Comfort"}
    assert len(pack.spirit_clue_bag("spirit_5")) == 18
    assert len(pack.spirit_clue_bag("spirit_5", unlocked=())) == 14
    assert len(pack.spirit_clue_bag("spirit_5", unlocked={"sclue.terror"})) == 16


def test_G_15_small_clues(pack):
    assert {c.id: c.copies for c in pack.small_clues} == {
        "small.clue": 10,
        "small.item": 3,
        "small.action": 3,
    }


def test_G_16_scripts(pack):
    assert sorted(s.id for s in pack.scripts) == [
        "A1",
        "A2",
        "B1",
        "B2",
        "B3",
        "B4",
        "C1",
        "C2",
        "C3",
        "C4",
    ]
    assert len(pack.scripts_of("hope")) == 5 and len(pack.scripts_of("nerve")) == 5
    assert len(pack.scripts_of("hope", chamber=False)) == 4
    assert len(pack.scripts_of("nerve", chamber=False)) == 4
    for s in pack.scripts:
        if s.alignment == "evil":
            assert s.top.spirit_wins_if == ()
        else:
            assert [t.test for t in s.top.spirit_wins_if] == ["visitors_win"]
        assert s.top.visitors_also_need == ()
        assert s.bottom.spirit_wins_if and s.bottom.visitors_also_need
    assert {s.id for s in pack.scripts if s.needs_chamber} == {"C3", "C4"}
    assert pack.script("A1").type == "hope" and pack.script("A2").type == "nerve"


def test_P_SESSION_02_unlocks(pack):
    groups = {u.id: u for u in pack.presets.unlocks}
    first = groups["first_session"]
    assert set(first.scripts) == {"B1", "B2", "B4"}
    assert set(first.spirit_clues) == {"sclue.terror", "sclue.comfort"}
    assert first.secret_sets == ("spirit_5",)
    # The first-session unlock is exactly the Normal preset (1 hope, 2 nerve).
    assert Counter(pack.script(s).type for s in first.scripts) == {"hope": 1, "nerve": 2}


def test_P_SESSION_03_to_06_presets(pack):
    pr = pack.presets
    assert {p.id: (p.hope, p.nerve) for p in pr.script_presets} == {
        "cooperative": (0, 3),
        "normal": (1, 2),
        "competitive": (3, 0),
        "advanced": (3, 2),
        "expert": (4, 3),
    }
    assert {p.id: p.per_visitor for p in pr.fear_presets} == {"easy": 1, "normal": 2, "hard": 3}
    assert pr.difficulty_label(4) == "Standard"
    assert pr.difficulty_label(0) == "Easy"
    assert pr.difficulty_label(3) == "Relaxed"
    assert pr.difficulty_label(9) == "Nightmare"


def test_G_03_hope_track(pack):
    t = pack.hope_track
    assert (t.spaces, t.time_start, t.final_round, t.even_rounds) == (12, 1, 9, (2, 4, 6, 8))
    assert (t.sides["B"].hope, t.sides["B"].nerve) == (7, 8)
    assert (t.sides["A"].hope, t.sides["A"].nerve) == (8, 9)


def test_every_primitive_is_used_by_the_default_pack(pack):
    """Every effect op (except the custom escape hatch) is exercised by some real card."""
    used = {eff.op for _f, _c, _s, eff in iter_effects(pack)}
    assert used <= EFFECT_OPS
    assert EFFECT_OPS - used == {"custom"}


def test_rulebook_names_are_used(pack):
    item_names = {i.name for i in pack.items}
    assert {"Crucifix", "Manor Key", "Match"} <= item_names
    action_names = {a.name for c in pack.action_cards for a in c.actions}
    assert {"Comfort", "Invoke", "Investigate", "Search"} <= action_names
    assert {c.name for c in pack.spirit_clues} >= {"Terror", "Comfort"}


def test_no_spirit_clue_shares_a_name_with_a_spirit_card_or_an_action_of_our_own(pack):
    """Stop 66's demo readers met "Echo" as a spirit card and as a spirit clue, two different
    things under one name: the shipped set is ours, so its names tell them apart. Only the
    rulebook's own "Comfort" (an action and a spirit clue, both named in the rulebook, A-46)
    keeps its double name."""
    clues = {c.name for c in pack.spirit_clues}
    assert not clues & {c.name for c in pack.spirit_cards}
    actions = {a.name for c in pack.action_cards for a in c.actions}
    assert clues & actions == {"Comfort"}


def test_pack_round_trips_through_json(pack):
    again = Pack.model_validate_json(pack.model_dump_json())
    assert again == pack
    assert again.room("salon").name == "Salon"


def test_pack_fingerprint(pack, tmp_path):
    fp = pack_fingerprint(pack)
    assert fp.startswith("default@1.0.0+") and len(fp.split("+")[1]) == 12
    assert pack_fingerprint(load_pack(None)) == fp
    folder = copy_pack(tmp_path)
    edit(folder, "items.toml", 'name = "Tonic"', 'name = "Elixir"')
    assert pack_fingerprint(load_pack(folder)) != fp


def test_json_schema_is_available():
    schema = pack_json_schema()
    assert "properties" in schema and "manor" in schema["properties"]


def test_content_module_is_pure():
    """rules/ stays pure: the content module imports only stdlib and pydantic."""
    tree = ast.parse(Path(content_module.__file__).read_text())
    roots: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            roots.add(node.module.split(".")[0])
    allowed = {
        "__future__",
        "collections",
        "functools",
        "hashlib",
        "json",
        "pathlib",
        "pydantic",
        "rules",  # rules.core's shared Finding/ContentError, pure like all of rules/
        "tomllib",
        "typing",
    }
    assert roots <= allowed, roots - allowed
    assert not roots & {"discord", "asyncio", "sqlite3", "aiosqlite", "PIL", "random", "time"}


# --------------------------------------------------------------------------- loading errors


def test_load_pack_raises_content_error(tmp_path):
    folder = copy_pack(tmp_path)
    (folder / "scripts.toml").unlink()
    with pytest.raises(ContentError) as exc:
        load_pack(folder)
    assert isinstance(exc.value, ValueError)
    assert [f.rule for f in exc.value.findings] == ["G-16"]
    assert "scripts.toml" in str(exc.value)


def test_P_COMP_01_not_a_folder(tmp_path):
    findings = check_pack(tmp_path / "nope")
    assert rules_of(findings) == {"P-COMP-01"}


def test_toml_syntax_error_is_a_finding(tmp_path):
    folder = copy_pack(tmp_path)
    (folder / "items.toml").write_text("[[item]\nid = ")
    findings = check_pack(folder)
    assert len(findings) == 1
    assert findings[0].rule == "G-08" and "TOML syntax" in findings[0].message


def test_every_file_missing_is_a_finding(tmp_path):
    folder = copy_pack(tmp_path)
    for file in PACK_FILES:
        (folder / file).unlink()
    findings = check_pack(folder)
    assert {f.file for f in findings} == set(PACK_FILES)
    assert all(f.severity == "error" for f in findings)


def test_warnings_do_not_stop_loading(tmp_path):
    folder = copy_pack(tmp_path)
    edit(folder, "pack.toml", "hand_size = 5 ", "hand_size = 6 ")
    findings = check_pack(folder)
    assert rules_of(findings) == set() and rules_of(findings, "warning") == {"P-LIMIT-01"}
    assert load_pack(folder).options.hand_size == 6


def test_unknown_top_level_key(tmp_path):
    folder = copy_pack(tmp_path)
    path = folder / "fear_cards.toml"
    path.write_text("[[fears]]\nid = 'x'\n" + path.read_text())
    findings = check_pack(folder)
    assert rules_of(findings) == {"G-07"}
    assert "unexpected top-level keys" in findings[0].message


def test_schema_error_names_card_and_field(tmp_path):
    folder = copy_pack(tmp_path)
    edit(folder, "items.toml", "copies = 2", "copies = 0")
    (finding,) = check_pack(folder)
    assert finding.rule == "G-08" and finding.file == "items.toml"
    assert "item[0] (id 'item.manor_key').copies" in finding.message


# --------------------------------------------------------------------------- broken packs

# (file, old text, new text, rule id expected among the errors)
BROKEN: list[tuple[str, str, str, str, str]] = [
    # -- schema (parse) errors
    (
        "unknown_op",
        "spirit_cards.toml",
        'op = "door", actions = ["close"]',
        'op = "slam_door", actions = ["close"]',
        "P-TIME-01",
    ),
    ("unknown_key", "visitors.toml", 'pronoun = "she"', 'pronoun = "she"\nage = 30', "G-10"),
    ("bad_trauma", "clue_cards.toml", 'trauma = "death"', 'trauma = "grief"', "P-COMP-09"),
    (
        "requirement_above_6",
        "spirit_cards.toml",
        "requirement = 5",
        "requirement = 7",
        "P-SPIRIT-11",
    ),
    (
        "adjust_track_zero",
        "secrets.toml",
        'marker = "hope", delta = 1',
        'marker = "hope", delta = 0',
        "G-05",
    ),
    (
        "unknown_condition",
        "fear_cards.toml",
        '{ test = "room_dark" }',
        '{ test = "room_gloomy" }',
        "P-TIME-01",
    ),
    # -- ids
    ("duplicate_item_id", "items.toml", 'id = "item.tonic"', 'id = "item.match"', "P-ITEM-06"),
    (
        "id_collision_across_kinds",
        "fear_cards.toml",
        'id = "fear.darkness"',
        'id = "clue.death.salon"',
        "P-COMP-01",
    ),
    ("hash_in_id", "small_clues.toml", 'id = "small.item"', 'id = "small#item"', "P-COMP-01"),
    # -- options
    (
        "item_deck_missing_n",
        "pack.toml",
        "item_deck = { 3 = 12, 4 = 16, 5 = 20 }",
        "item_deck = { 3 = 12, 4 = 16 }",
        "P-SETUP-18",
    ),
    ("too_few_dice", "pack.toml", "presence_dice = 5", "presence_dice = 4", "P-SETUP-12"),
    ("too_few_candles", "pack.toml", "candles = 4", "candles = 3", "P-COMP-07"),
    # -- manor
    (
        "door_to_unknown_room",
        "manor.toml",
        'rooms = ["great_hall", "salon"]',
        'rooms = ["great_hall", "ballroom"]',
        "G-01",
    ),
    (
        "storeroom_unreachable",
        "manor.toml",
        'id = "D07"\nrooms = ["cellar", "storeroom"]',
        'id = "D07"\nrooms = ["kitchen", "dining_hall"]',
        "P-MOVE-06",
    ),
    (
        "cellar_door_unlocked",
        "manor.toml",
        "stairs = true\nlocked = true\n",
        "stairs = true\n",
        "P-SETUP-05",
    ),
    (
        "stairs_flag_missing",
        "manor.toml",
        'rooms = ["salon", "west_bedroom"]\nstairs = true\n',
        'rooms = ["salon", "west_bedroom"]\n',
        "P-MOVE-06",
    ),
    (
        "wall_across_floors",
        "manor.toml",
        '["cellar", "storeroom"],',
        '["cellar", "kitchen"],',
        "P-SPIRIT-07",
    ),
    (
        "vertical_skips_floor",
        "manor.toml",
        '["kitchen", "cellar"],',
        '["nursery", "cellar"],',
        "P-SPIRIT-07",
    ),
    ("too_many_doors", "manor.toml", "max_doors = 14", "max_doors = 11", "P-COMP-12"),
    (
        "start_room_unknown",
        "manor.toml",
        'start_room = "great_hall"',
        'start_room = "foyer"',
        "P-SETUP-16",
    ),
    (
        "start_room_is_clue_room",
        "manor.toml",
        "y = 0\nclue_room = false\n",
        "y = 0\n",
        "P-SETUP-27",
    ),
    (
        "fireplace_room_upstairs",
        "manor.toml",
        'fireplace_room = "dining_hall"',
        'fireplace_room = "gallery"',
        "P-SETUP-04",
    ),
    (
        "door_into_chamber",
        "manor.toml",
        'rooms = ["cellar", "storeroom"]',
        'rooms = ["cellar", "secret_chamber"]',
        "P-CHAMBER-06",
    ),
    (
        "chamber_gets_clue",
        "manor.toml",
        "clue_room = false\nchamber = true",
        "chamber = true",
        "P-CHAMBER-02",
    ),
    (
        "chamber_wall",
        "manor.toml",
        '["cellar", "storeroom"],',
        '["cellar", "storeroom"],\n    ["storeroom", "secret_chamber"],',
        "P-CHAMBER-07",
    ),
    ("room_on_unknown_board", "manor.toml", 'board = "east_wing"', 'board = "attic"', "G-01"),
    # -- hope track
    ("hope_below_time", "hope_track.toml", "hope = 7", "hope = 1", "P-TRACK-01"),
    (
        "final_round_past_track",
        "hope_track.toml",
        "final_round = 9",
        "final_round = 13",
        "P-ROUND-01",
    ),
    (
        "track_side_missing",
        "hope_track.toml",
        '[sides.A]                       # first game / "reduces difficulty"\n'
        "hope = 8\nnerve = 9\n",
        "",
        "P-COMP-11",
    ),
    (
        "odd_even_round",
        "hope_track.toml",
        "even_rounds = [2, 4, 6, 8]",
        "even_rounds = [2, 4, 5, 8]",
        "P-ROUND-07",
    ),
    # -- clue cards and secret boards
    (
        "clue_room_twice",
        "clue_cards.toml",
        'trauma = "death"\nroom = "salon"',
        'trauma = "death"\nroom = "kitchen"',
        "P-CHAMBER-04",
    ),
    (
        "clue_mark_too_low",
        "clue_cards.toml",
        'room = "gallery"\nmark = 5',
        'room = "gallery"\nmark = 3',
        "P-COMP-06",
    ),
    ("clue_room_not_a_room", "clue_cards.toml", 'room = "nursery"', 'room = "attic"', "G-06"),
    ("clue_room_is_start", "clue_cards.toml", 'room = "salon"', 'room = "great_hall"', "P-CLUE-07"),
    (
        "unequal_traumas",
        "clue_cards.toml",
        'trauma = "death"\nroom = "salon"',
        'trauma = "betrayal"\nroom = "salon"',
        "P-SETUP-22",
    ),
    (
        "in_deck_misprinted",
        "secret_boards.toml",
        "{ remove = 2, in_deck = 4 }",
        "{ remove = 2, in_deck = 5 }",
        "P-COMP-16",
    ),
    (
        "removal_breaks_deck_size",
        "secret_boards.toml",
        "{ remove = 4, in_deck = 2, low_max = 0 },",
        "{ remove = 3, in_deck = 3, low_max = 0 },",
        "P-SETUP-22",
    ),
    (
        "chamber_card_removal",
        "secret_boards.toml",
        "{ remove = 1, in_deck = 9 },\n    { remove = 3, in_deck = 7 },",
        "{ remove = 2, in_deck = 8 },\n    { remove = 2, in_deck = 8 },",
        "P-CHAMBER-01",
    ),
    (
        "leftmost_not_most",
        "secret_boards.toml",
        "{ remove = 1, in_deck = 5 },\n    { remove = 2, in_deck = 4 },\n"
        "    { remove = 3, in_deck = 3 },",
        "{ remove = 3, in_deck = 3 },\n    { remove = 2, in_deck = 4 },\n"
        "    { remove = 1, in_deck = 5 },",
        "P-SECRET-01",
    ),
    (
        "position_tier_overlap",
        "secret_boards.toml",
        "{ remove = 4, in_deck = 2, low_max = 0 }",
        "{ remove = 4, in_deck = 2, low_max = 3 }",
        "P-SECRET-03",
    ),
    (
        "tiers_overlap",
        "secret_boards.toml",
        "low_max = 2\nhigh_min = 5",
        "low_max = 5\nhigh_min = 5",
        "P-SECRET-03",
    ),
    ("board_missing", "secret_boards.toml", "players = 4", "players = 3", "P-COMP-16"),
    (
        "removal_above_eligible",
        "secret_boards.toml",
        "{ remove = 6, in_deck = 4 }",
        "{ remove = 11, in_deck = 0 }",
        "P-SETUP-21",
    ),
    # -- fear cards
    (
        "fear_reaction_optional",
        "fear_cards.toml",
        'effects = [{ op = "suffer_fear" }]',
        'effects = [{ op = "suffer_fear" }]\noptional = true',
        "P-FEAR-06",
    ),
    (
        "fear_without_fear",
        "fear_cards.toml",
        'effects = [{ op = "suffer_fear" }]',
        'effects = [{ op = "draw_clue" }]',
        "P-FEAR-06",
    ),
    (
        "hard_needs_more_fear_cards",
        "presets.toml",
        "per_visitor = 3",
        "per_visitor = 4",
        "P-SESSION-04",
    ),
    # -- items
    (
        "match_not_special",
        "items.toml",
        'name = "Match"\ncopies = 2\nspecial = true',
        'name = "Match"\ncopies = 2',
        "P-ITEM-06",
    ),
    (
        "three_manor_keys",
        "items.toml",
        'name = "Manor Key"\ncopies = 2',
        'name = "Manor Key"\ncopies = 3',
        "P-SETUP-18",
    ),
    (
        "item_does_nothing",
        "items.toml",
        '[item.action]\nname = "Tonic"\neffects = [{ op = "target", selector = "nearby_visitor" }, '
        '{ op = "cure_fear", n = 2, who = "target" }]\ntext = "Cure 2 fear of a nearby visitor '
        '(you included)."\n',
        "",
        "P-ITEM-02",
    ),
    (
        "draw_item_keep_too_many",
        "manor.toml",
        'op = "draw_item", n = 2, keep = 1',
        'op = "draw_item", n = 2, keep = 3',
        "P-ITEM-01",
    ),
    # -- visitors and action cards
    (
        "action_card_unknown_owner",
        "action_cards.toml",
        'owner = "artist"',
        'owner = "gardener"',
        "P-COMP-07",
    ),
    (
        "deck_of_nine",
        "action_cards.toml",
        'id = "orphan.10"\nname = "Hide / Move 2"\nowner = "orphan"',
        'id = "orphan.10"\nname = "Hide / Move 2"\nowner = "descendant"',
        "P-SETUP-17",
    ),
    # -- spirits, spirit cards, secrets, spirit clues
    (
        "spend_above_requirement",
        "spirit_cards.toml",
        'requirement = 1\nspend = 1\neffects = [{ op = "door", actions = ["close"] }]',
        'requirement = 1\nspend = 2\neffects = [{ op = "door", actions = ["close"] }]',
        "P-SPIRIT-12",
    ),
    (
        "two_manifestations",
        "spirit_cards.toml",
        'requirement = 1\nspend = 1\neffects = [{ op = "door", actions = ["close"] }]',
        'requirement = 1\nspend = 1\nmanifestation = true\neffects = [{ op = "place_pawn" }]',
        "P-MANI-01",
    ),
    (
        "place_pawn_without_manifesting",
        "spirit_cards.toml",
        'requirement = 1\nspend = 1\neffects = [{ op = "door", actions = ["close"] }]',
        'requirement = 1\nspend = 1\neffects = [{ op = "place_pawn" }]',
        "P-MANI-01",
    ),
    (
        "spirit_gains_actions_without_manifesting",
        "spirit_cards.toml",
        'effects = [{ op = "door", actions = ["close"] }]',
        'effects = [{ op = "gain_main_actions" }]',
        "P-MANI-03",
    ),
    (
        "spirit_card_unknown_spirit",
        "spirit_cards.toml",
        'spirit = "spirit_3"',
        'spirit = "spirit_9"',
        "P-COMP-08",
    ),
    (
        "ongoing_without_drain",
        "spirit_cards.toml",
        "spend = 0\ndrain = 1\n",
        "spend = 0\n",
        "P-DRAIN-01",
    ),
    (
        "power_does_nothing",
        "spirit_cards.toml",
        'effects = [{ op = "door", actions = ["close"] }]',
        "effects = []",
        "P-SPIRIT-11",
    ),
    (
        "secret_set_repeats_trauma",
        "secrets.toml",
        'trauma = "death"\nset = "spirit_2"',
        'trauma = "tragedy"\nset = "spirit_2"',
        "P-SETUP-10",
    ),
    (
        "general_set_repeats_trauma",
        "secrets.toml",
        'trauma = "death"\nset = "A"',
        'trauma = "betrayal"\nset = "A"',
        "P-FIRST-06",
    ),
    ("secret_unknown_set", "secrets.toml", 'set = "spirit_4"', 'set = "spirit_7"', "P-COMP-08"),
    (
        "first_game_deck_short",
        "spirit_cards.toml",
        'id = "spirit_5.drift"\nname = "Drift"\nspirit = "spirit_5"\nmarks = ["A"]',
        'id = "spirit_5.drift"\nname = "Drift"\nspirit = "spirit_5"',
        "P-FIRST-05",
    ),
    (
        "two_first_game_spirits",
        "spirits.toml",
        "number = 4",
        "number = 4\nfirst_game = true",
        "P-FIRST-03",
    ),
    ("duplicate_spirit_number", "spirits.toml", "number = 4", "number = 3", "P-COMP-08"),
    (
        "spirit_clue_count",
        "spirit_clues.toml",
        'spirit = "spirit_1"\ncopies = 2',
        'spirit = "spirit_1"\ncopies = 3',
        "P-SETUP-13",
    ),
    (
        "spirit_clue_unknown_spirit",
        "spirit_clues.toml",
        'spirit = "spirit_2"',
        'spirit = "spirit_8"',
        "P-SETUP-13",
    ),
    (
        "clue_unlock_group_missing",
        "spirit_clues.toml",
        'unlock = "first_session"',
        'unlock = "campaign"',
        "G-22",
    ),
    # -- scripts and presets
    (
        "evil_script_wins_hidden",
        "scripts.toml",
        'spirit_wins_if = []\ntext = "Evil',
        'spirit_wins_if = [{ test = "visitors_win" }]\ntext = "Evil',
        "P-WIN-04",
    ),
    (
        "visitor_need_while_hidden",
        "scripts.toml",
        'spirit_wins_if = []\ntext = "Evil',
        'spirit_wins_if = []\nvisitors_also_need = [{ test = "surviving_in_light" }]\ntext = "Evil',
        "P-WIN-02",
    ),
    ("script_unknown_room", "scripts.toml", 'room = "great_hall"', 'room = "ballroom"', "G-16"),
    (
        "chamber_script_not_flagged",
        "scripts.toml",
        'set = "C"\nneeds_chamber = true\nreveal = [{',
        'set = "C"\nreveal = [{',
        "P-DARK-02",
    ),
    (
        "expert_unsatisfiable",
        "presets.toml",
        "hope = 4\nnerve = 3",
        "hope = 5\nnerve = 3",
        "P-SESSION-03",
    ),
    (
        "first_game_script_missing",
        "presets.toml",
        'scripts = ["A1", "A2"]\nsecret_set',
        'scripts = ["A1", "Z9"]\nsecret_set',
        "P-FIRST-04",
    ),
    (
        "first_game_spirit_missing",
        "presets.toml",
        'spirit = "spirit_5"',
        'spirit = "spirit_6"',
        "P-FIRST-03",
    ),
    (
        "unlock_unknown_script",
        "presets.toml",
        'scripts = ["B1", "B2", "B4"]',
        'scripts = ["B1", "B2", "B9"]',
        "G-22",
    ),
    (
        "difficulty_thresholds_clash",
        "presets.toml",
        "min_symbols = 3",
        "min_symbols = 4",
        "P-SESSION-06",
    ),
    # -- effect contexts
    (
        "self_in_spirit_power",
        "spirit_cards.toml",
        '{ op = "smother_candle", who = "target" }], [{ op = "suffer_fear", n = 2, '
        'who = "target" }]',
        '{ op = "smother_candle", who = "self" }], [{ op = "suffer_fear", n = 2, who = "target" }]',
        "P-SPIRIT-13",
    ),
    (
        "target_without_target",
        "items.toml",
        '[{ op = "target", selector = "nearby_visitor" }, '
        '{ op = "cure_fear", n = 2, who = "target" }]',
        '[{ op = "cure_fear", n = 2, who = "target" }]',
        "P-TIME-03",
    ),
    (
        "visitor_op_in_spirit_power",
        "spirit_cards.toml",
        'effects = [{ op = "door", actions = ["close"] }]',
        'effects = [{ op = "investigate" }]',
        "P-SPIRIT-13",
    ),
    (
        "spirit_speak_on_a_card",
        "action_cards.toml",
        'effects = [{ op = "draw_action", n = 2 }]',
        'effects = [{ op = "spirit_speak", max_words = 3 }]',
        "P-COMM-09",
    ),
    (
        "prevent_outside_replacement",
        "items.toml",
        'trigger = { event = "die_enters_room" }\n'
        'effects = [{ op = "reduce_presence", n = 1, die = "trigger_die" }]',
        'trigger = { event = "die_enters_room" }\neffects = [{ op = "prevent" }]',
        "P-VIS-12",
    ),
    (
        "trigger_die_outside_die_event",
        "items.toml",
        'effects = [{ op = "reduce_presence", n = 2, die = "nearby" }]',
        'effects = [{ op = "reduce_presence", n = 2, die = "trigger_die" }]',
        "P-VIS-12",
    ),
    (
        "this_die_on_a_visitor_card",
        "items.toml",
        'effects = [{ op = "reduce_presence", n = 2, die = "nearby" }]',
        'effects = [{ op = "reduce_presence", n = 2, die = "this" }]',
        "P-SPIRIT-11",
    ),
    (
        "trigger_visitor_without_actor",
        "spirit_cards.toml",
        '{ op = "suffer_fear", who = "target" }]\n\n[card.bottom]\nrequirement = 2\nspend = 1\n'
        'effects = [{ op = "door", actions = ["open", "close"] }]',
        '{ op = "suffer_fear", who = "trigger_visitor" }]\n\n[card.bottom]\nrequirement = 2\n'
        'spend = 1\neffects = [{ op = "door", actions = ["open", "close"] }]',
        "P-VIS-12",
    ),
    (
        "in_card_room_on_action_card",
        "action_cards.toml",
        'effects = [{ op = "draw_action", n = 2 }]',
        'effects = [{ op = "draw_action", n = 2, only_if = [{ test = "in_card_room" }] }]',
        "P-CLUE-07",
    ),
    (
        "either_with_one_option",
        "secrets.toml",
        'options = [[{ op = "adjust_track", marker = "hope", delta = 1 }], '
        '[{ op = "adjust_track", marker = "nerve", delta = 1 }]]',
        'options = [[{ op = "adjust_track", marker = "hope", delta = 1 }]]',
        "P-TIME-12",
    ),
    (
        "may_with_two_options",
        "spirit_clues.toml",
        'options = [[{ op = "increase_presence", n = 1, die = "nearby" }]]',
        'options = [[{ op = "increase_presence", n = 1, die = "nearby" }], [{ op = "draw_clue" }]]',
        "P-TIME-12",
    ),
    (
        "unregistered_custom",
        "small_clues.toml",
        'effects = [{ op = "draw_item" }]',
        'effects = [{ op = "custom", name = "haunted_doll" }]',
        "P-TIME-01",
    ),
    (
        "condition_unknown_room",
        "fear_cards.toml",
        '{ test = "room_dark" }',
        '{ test = "room_is", room = "attic" }',
        "G-01",
    ),
    (
        "floor_on_wrong_event",
        "fear_cards.toml",
        '{ event = "enter_room", floor = -1 }',
        '{ event = "rest", floor = -1 }',
        "P-VIS-12",
    ),
    (
        "drain_waits_for_game_start",
        "spirit_cards.toml",
        'trigger = { event = "start_of_spirit_turn" }',
        'trigger = { event = "game_start" }',
        "P-DRAIN-06",
    ),
]


@pytest.mark.parametrize(
    ("file", "old", "new", "rule"),
    [pytest.param(f, o, n, r, id=name) for name, f, o, n, r in BROKEN],
)
def test_broken_pack(tmp_path, file, old, new, rule):
    folder = copy_pack(tmp_path)
    edit(folder, file, old, new)
    findings = check_pack(folder)
    assert rule in rules_of(findings), [str(f) for f in findings]
    with pytest.raises(ContentError) as exc:
        load_pack(folder)
    assert rule in {f.rule for f in exc.value.findings}


def test_P_SETUP_27_enough_small_clues(tmp_path):
    folder = copy_pack(tmp_path)
    edit(folder, "small_clues.toml", "copies = 10", "copies = 1")
    edit(folder, "small_clues.toml", "copies = 3", "copies = 1", count=2)
    findings = check_pack(folder)
    assert "P-SETUP-27" in rules_of(findings)
    assert "N=5: 5 rooms need a small clue, only 3 small clues" in str(findings)


def test_custom_effect_passes_when_registered(tmp_path):
    folder = copy_pack(tmp_path)
    edit(
        folder,
        "small_clues.toml",
        'effects = [{ op = "draw_item" }]',
        'effects = [{ op = "custom", name = "haunted_doll", params = { n = 1 } }]',
    )
    assert "P-TIME-01" in rules_of(check_pack(folder, custom_effects=()))
    assert check_pack(folder, custom_effects={"haunted_doll"}) == []


def test_P_SECRET_02_visitors_need_a_way_to_reveal_secrets(pack):
    """In memory: a pack without any reveal_secret effect could never be won by visitors."""

    def reveals(card) -> bool:
        return any(
            isinstance(e, RevealSecret)
            for a in card.actions
            for e in (*a.effects, *(a.dark.effects if a.dark else ()))
        )

    cards = tuple(c for c in pack.action_cards if not reveals(c))
    findings = validate_pack(pack.model_copy(update={"action_cards": cards}))
    assert {"P-SECRET-02", "P-SETUP-17"} <= rules_of(findings)


def test_P_CHAMBER_the_pack_may_have_no_chamber(tmp_path):
    """A pack without the Secret Chamber is valid once no script needs it."""
    folder = copy_pack(tmp_path)
    text = (folder / "manor.toml").read_text()
    cut = text.index("\n# The bonus room of the Basement B side")
    end = text.index("\n[[doors]]")
    tail = text[end:]
    tail = tail[: tail.index("\n[chamber]")]
    (folder / "manor.toml").write_text(text[:cut] + tail + "\n")
    edit(folder, "scripts.toml", "needs_chamber = true\n", "", count=2)
    edit(folder, "scripts.toml", 'room = "secret_chamber"', 'room = "salon"', count=3)
    findings = check_pack(folder)
    assert errors(findings) == [], [str(f) for f in findings]
    assert load_pack(folder).manor.chamber is None


def test_scripts_needing_a_missing_chamber(tmp_path):
    folder = copy_pack(tmp_path)
    text = (folder / "manor.toml").read_text()
    (folder / "manor.toml").write_text(text[: text.index("\n[chamber]")] + "\n")
    findings = check_pack(folder)
    assert {"P-DARK-02", "P-CHAMBER-01"} <= rules_of(findings)


def test_count_differences_are_warnings(pack):
    fewer = pack.model_copy(update={"scripts": pack.scripts[:-1]})
    findings = validate_pack(fewer)
    assert rules_of(findings) == set()
    assert "P-COMP-02" in rules_of(findings, "warning")
