"""Tests for the Exorcism content pack: the shipped defaults (spec §3.2) and the validator
(spec §3.0 checks (a)-(g)). Broken packs are made by copying the default pack to a
temporary folder and corrupting one thing each."""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path

import pytest

from rules.exorcism import content as content_module
from rules.exorcism.content import (
    DEFAULT_PACK_DIR,
    PACK_FILES,
    TOOL_CYCLE,
    ContentError,
    HauntCard,
    Pack,
    check_pack,
    default_pack,
    load_pack,
    pack_fingerprint,
    register_custom_effect,
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


def test_EX_COMP_01_counts(pack):
    assert len(pack.rooms) == 12
    assert pack.foyer_id in {r.id for r in pack.rooms}
    assert len(pack.house_room_ids()) == 11
    assert len(pack.locked_rooms) == 18
    assert len(pack.characters) == 8
    assert len(pack.tasks) == 30
    assert sum(t.points for t in pack.tasks) == 90
    assert len(pack.plan_deck()) == 30
    assert sum(t.count for t in pack.tools) == 75
    assert pack.options.shrouds == 8
    assert pack.options.darkness_supply == 30
    assert pack.options.exorcism_tokens == 24
    assert pack.clock.dice == 8


def test_EX_COMP_01_character_names(pack):
    assert {c.name for c in pack.characters} == {
        "Architect",
        "Bodyguard",
        "Detective",
        "Doctor",
        "Journalist",
        "Medium",
        "Photographer",
        "Psychologist",
    }


def test_EX_COMP_03_EX_AMB_09_tools(pack):
    assert pack.tool_counts() == {t: 15 for t in TOOL_CYCLE}


def test_EX_GAP_10_haunt_deck_composition(pack):
    kinds = Counter(c.kind for c in pack.haunt_deck)
    assert kinds == {"haunt": 30, "darkness": 11, "bull": 1, "devourer": 1}
    assert len(pack.haunt_deck) == 43
    assert len(set(pack.haunt_deck_ids())) == 43
    standard = [c for c in pack.haunt_deck if isinstance(c, HauntCard)]
    assert Counter(c.location for c in standard) == {face: 5 for face in range(1, 7)}
    assert all(c.die_value == c.location for c in standard)
    assert Counter(c.arrows.wraith for c in standard) == {"N": 8, "E": 8, "S": 7, "W": 7}
    assert Counter(c.arrows.bull for c in standard) == {"N": 8, "E": 8, "S": 7, "W": 7}
    assert Counter(c.arrows.devourer for c in standard) == {"N": 6, "E": 8, "S": 8, "W": 8}
    first = standard[0]
    assert (first.location, first.arrows.wraith, first.arrows.bull, first.arrows.devourer) == (
        1,
        "N",
        "E",
        "E",
    )
    assert pack.standard_haunt_ids() == [c.id for c in standard]


def test_EX_DARK_02_darkness_cards_equal_track_spaces_minus_one(pack):
    track = pack.clock.darkness_track
    darkness = [c for c in pack.haunt_deck if c.kind == "darkness"]
    assert len(darkness) == len(track) - 1
    assert track[0] == 1 and track[-1] == 3


def test_EX_GAP_11_clock(pack):
    assert pack.clock.darkness_track == (1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3)
    assert pack.clock.starting_pips == 6
    assert pack.clock.action_hours == (1, 4, 7)
    assert pack.clock.time_action_tokens == 1


def test_EX_GAP_02_rooms(pack):
    rooms = {r.id: r for r in pack.rooms}
    foyer = rooms["FOYER"]
    assert foyer.name == "Foyer" and foyer.location is None
    assert [e.op for e in foyer.action] == ["escape_or_switch"]
    bath = rooms["R01"]
    assert bath.name == "Bathroom" and bath.location == 1
    assert [e.op for e in bath.action] == ["heal"]
    expected_locations = {
        "R01": 1, "R02": 2, "R03": 3, "R04": 4, "R05": 5, "R06": 6,
        "R07": 1, "R08": 2, "R09": 3, "R10": 4, "R11": 5,
    }  # fmt: skip
    assert {rid: rooms[rid].location for rid in expected_locations} == expected_locations
    supply = rooms["R11"].action[0]
    assert supply.op == "gain_tool" and set(supply.types) == set(TOOL_CYCLE)
    cleansing = rooms["R10"].action[0]
    assert cleansing.op == "purify"
    assert (cleansing.room, cleansing.n) == ("chosen_adjacent_or_self", 2)
    assert rooms["R07"].action[0].op == "gain_task" and rooms["R09"].action[0].op == "gain_plan"


def test_EX_GAP_03_locked_rooms(pack):
    locked = {r.id: r for r in pack.locked_rooms}
    assert sorted(locked) == [f"L{i:02d}" for i in range(1, 19)]
    assert Counter(r.location for r in pack.locked_rooms) == {f: 3 for f in range(1, 7)}
    assert [(e.op, e.types, e.n) for e in locked["L03"].action] == [("gain_tool", ("key",), 2)]
    assert [e.op for e in locked["L06"].action] == ["gain_task", "gain_plan"]
    assert locked["L08"].action[0].n == "all"
    assert locked["L14"].action[0].mode == "teleport_no_ghost"
    assert locked["L16"].action[0].op == "exchange_tools"
    assert (locked["L18"].action[0].op, locked["L18"].action[0].n) == ("peek_haunt", 3)


def test_EX_GAP_04_characters(pack):
    starts = {c.id: c.start for c in pack.characters}
    assert starts == {
        "architect": "R04",
        "bodyguard": "FOYER",
        "detective": "R05",
        "doctor": "R01",
        "journalist": "R07",
        "medium": "R06",
        "photographer": "R09",
        "psychologist": "R10",
    }
    assert all(c.specialization_bonus == 1 for c in pack.characters)
    doctor = pack.character("doctor")
    assert doctor.ability_action is not None
    assert doctor.ability_action.only_in == ("FOYER",)
    assert [e.op for e in doctor.ability_action.effects] == ["heal"]
    assert [m.kind for m in pack.character("bodyguard").rules] == ["protect_roommates"]
    detective = pack.character("detective").rules[0]
    assert detective.kind == "trade_range" and detective.range == 2
    assert pack.character("psychologist").rules[0].kind == "purify_amount"
    architect = pack.character("architect").ability_action
    assert architect is not None and architect.effects[0].op == "swap_rooms"


def test_EX_SETUP_06_start_rooms_exist_and_are_not_locked(pack):
    normal = {r.id for r in pack.rooms}
    for ch in pack.characters:
        assert ch.start in normal
        assert not pack.is_locked_room(ch.start)


def test_EX_HEAL_01_heal_effect_on_a_non_locked_room(pack):
    assert any(e.op == "heal" for r in pack.rooms for e in r.action)


def test_EX_GAP_05_tasks(pack):
    for i, x in enumerate(TOOL_CYCLE):
        y, z = TOOL_CYCLE[(i + 1) % 5], TOOL_CYCLE[(i + 2) % 5]
        tasks = [t for t in pack.tasks if t.subtype == x]
        assert [Counter(t.to_complete) for t in tasks] == [
            Counter([x, x]),
            Counter([x, y]),
            Counter([x, x, y]),
            Counter([x, y, z]),
            Counter([x, x, y, z]),
            Counter([x, x, x, y]),
        ]
        assert [t.points for t in tasks] == [2, 2, 3, 3, 4, 4]
        assert [e.op for e in tasks[4].rewards] == ["gain_plan"]
        assert [t.has_ongoing for t in tasks] == [False] * 5 + [True]
    ongoing = {t.subtype: t for t in pack.tasks if t.has_ongoing}
    assert ongoing["weapon"].ongoing[0].kind == "move_range_delta"
    assert ongoing["holy_relic"].ongoing[0].kind == "purify_amount"
    assert ongoing["key"].ongoing[0].kind == "unlock_cost"
    assert ongoing["detection"].ongoing[0].kind == "trade_range"
    occult = ongoing["occult"].ongoing_action
    assert occult is not None and occult.once_per_turn
    assert occult.effects[0].op == "use_adjacent_room_action"


def test_EX_GAP_08_plans(pack):
    by_name = Counter(pack.plan(pid).name for pid in pack.plan_deck())
    assert by_name == {
        "Pawn the Loot": 5,
        "Triage": 4,
        "Extra Move": 5,
        "Cleanse": 4,
        "Remote Trade": 4,
        "Extra Action": 4,
        "Gain Task": 4,
    }
    pairs = {tuple(p.effect[0].types) for p in pack.plans if p.name == "Pawn the Loot"}
    assert pairs == {(TOOL_CYCLE[i], TOOL_CYCLE[(i + 1) % 5]) for i in range(5)}
    assert pack.plan("triage").timing == "on_wound"
    assert pack.plan("triage").effect[0].op == "prevent_wound"
    assert pack.plan("extra_action").timing == "own_turn_only"
    assert pack.plan("remote_trade").effect[0].range == "any"


def test_EX_GAP_01_layout(pack):
    layout = pack.layout
    assert len(layout.house_cells()) == 16
    assert layout.house_cells()[0] == (1, 1) and layout.house_cells()[-1] == (4, 4)
    assert layout.neighbours(layout.attic.cell) == [(1, 2)]
    assert layout.neighbours(layout.foyer.cell) == [(4, 3)]
    edges = layout.edge_cells()
    assert len(edges) == 12
    assert (2, 2) not in edges and layout.attic.cell not in edges
    assert layout.label((0, 2)) == "Attic" and layout.label((2, 3)) == "r2c3"


def test_EX_GAP_16_ghost_movement_worked_examples(pack):
    layout = pack.layout
    assert layout.ghost_move("wraith", (0, 2), "N") == (4, 2)
    assert layout.ghost_move("wraith", (5, 3), "S") == (1, 3)
    assert layout.ghost_move("wraith", (2, 4), "E") == (2, 1)
    assert layout.ghost_move("bull", (0, 2), "S", steps=6) == (4, 2)
    # No cell in the Attic's row: the Wraith stays put.
    assert layout.ghost_move("wraith", (0, 2), "E") == (0, 2)
    # The Bull and the Devourer stop at the edge.
    assert layout.ghost_move("devourer", (2, 4), "E") == (2, 4)
    assert layout.ghost_move("bull", (2, 1), "E", steps=6) == (2, 4)


def test_EX_AMB_12_distance(pack):
    layout = pack.layout
    assert layout.distance((1, 1), (1, 1)) == 0
    assert layout.distance((1, 1), (2, 2)) == 2
    assert layout.distance((0, 2), (5, 3)) == 6


def test_EX_TERROR_thresholds(pack):
    assert {t.id: t.threshold for t in pack.terror} == {
        "cold_spot": 6,
        "haunting_sounds": 10,
        "moving_objects": 13,
        "walls_bleed": 14,
        "amnesia": 18,
        "temporary_possession": 20,
    }


def test_pack_options_defaults(pack):
    opts = pack.options
    assert opts.initial_darkness_cards == 0
    assert opts.shroud_returns_darkness is False
    assert opts.purify_shrouded is False
    assert opts.locked_rooms_in_play == 5
    assert opts.exorcism_target == 30
    assert (opts.actions_per_turn, opts.solo_actions_per_turn, opts.ova_hand_size) == (3, 5, 3)
    assert opts.darkness_out_loss == "on_required_placement"
    assert opts.trade_consent is True
    assert opts.core_players == (2, 5)


def test_pack_json_round_trip_and_fingerprint(pack):
    again = Pack.model_validate_json(pack.model_dump_json())
    assert again == pack
    assert pack_fingerprint(again) == pack_fingerprint(pack)
    assert pack_fingerprint(pack).startswith("default@1.0.0+")


def test_fingerprint_changes_with_content(tmp_path, pack):
    folder = copy_pack(tmp_path)
    edit(folder, "tasks.toml", "points = 2", "points = 3")
    assert pack_fingerprint(load_pack(folder)) != pack_fingerprint(pack)


def test_content_module_is_pure():
    tree = ast.parse(Path(content_module.__file__).read_text())
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            imported.add(node.module.split(".")[0])
    assert not imported & {"discord", "asyncio", "sqlite3", "aiosqlite", "PIL"}


# --------------------------------------------------------------------------- broken packs


def test_EX_COMP_04_room_location_out_of_range(tmp_path):
    folder = copy_pack(tmp_path)
    edit(
        folder,
        "rooms.toml",
        'name = "Weapon Room"\nlocation = 2',
        'name = "Weapon Room"\nlocation = 7',
    )
    found = errors(check_pack(folder))
    assert len(found) == 1
    assert found[0].rule == "EX-COMP-04" and found[0].file == "rooms.toml"
    assert "R02" in found[0].message and "location" in found[0].message


def test_EX_COMP_06_haunt_card_values(tmp_path):
    folder = copy_pack(tmp_path)
    edit(
        folder,
        "haunt_deck.toml",
        'id = "H01"\nlocation = 1\ndie_value = 1',
        'id = "H01"\nlocation = 7\ndie_value = 0',
    )
    edit(folder, "haunt_deck.toml", 'wraith = "E"', 'wraith = "X"')
    found = errors(check_pack(folder))
    assert {f.rule for f in found} == {"EX-COMP-06"}
    assert len(found) == 3
    assert any("H01" in f.message and "location" in f.message for f in found)
    assert any("die_value" in f.message for f in found)
    assert any("wraith" in f.message for f in found)


def test_EX_COMP_04_unknown_effect_op(tmp_path):
    folder = copy_pack(tmp_path)
    edit(folder, "rooms.toml", '{ op = "heal", n = 1 }', '{ op = "summon_priest", n = 1 }')
    found = errors(check_pack(folder))
    assert found and found[0].rule == "EX-COMP-04"
    assert "summon_priest" in found[0].message and "R01" in found[0].message


def test_EX_COMP_07_unknown_effect_op_in_plan(tmp_path):
    folder = copy_pack(tmp_path)
    edit(folder, "plans.toml", 'op = "trade"', 'op = "teleport_everyone"')
    assert "EX-COMP-07" in rules_of(check_pack(folder))


def test_EX_COMP_03_unknown_tool_type(tmp_path):
    folder = copy_pack(tmp_path)
    edit(folder, "rooms.toml", 'types = ["weapon"]', 'types = ["sword"]')
    assert rules_of(check_pack(folder)) == {"EX-COMP-03"}


def test_EX_FOYER_01_missing_foyer(tmp_path):
    folder = copy_pack(tmp_path)
    text = (folder / "rooms.toml").read_text()
    start = text.index('[[room]]\nid = "FOYER"')
    end = text.index("[[room]]", start + 1)
    (folder / "rooms.toml").write_text(text[:start] + text[end:])
    findings = check_pack(folder)
    assert "EX-FOYER-01" in rules_of(findings)
    # The Bodyguard starts in the Foyer, which is now gone.
    assert "EX-SETUP-06" in rules_of(findings)
    # 11 Room cards is only a count warning.
    assert "EX-COMP-01" in rules_of(findings, "warning")
    with pytest.raises(ContentError) as info:
        load_pack(folder)
    assert {f.rule for f in info.value.findings} >= {"EX-FOYER-01"}


def test_EX_FOYER_01_foyer_without_escape(tmp_path):
    folder = copy_pack(tmp_path)
    edit(
        folder, "rooms.toml", 'action = [{ op = "escape_or_switch" }]', 'action = [{ op = "heal" }]'
    )
    assert "EX-FOYER-01" in rules_of(check_pack(folder))


def test_EX_HAUNT_06_two_bull_cards(tmp_path):
    folder = copy_pack(tmp_path)
    with (folder / "haunt_deck.toml").open("a") as fh:
        fh.write('\n[[card]]\nkind = "bull"\nid = "BULL2"\n')
    assert rules_of(check_pack(folder)) == {"EX-HAUNT-06"}


def test_EX_HAUNT_07_no_devourer_card(tmp_path):
    folder = copy_pack(tmp_path)
    edit(folder, "haunt_deck.toml", '[[card]]\nkind = "devourer"\nid = "DEVOURER"\n', "")
    assert rules_of(check_pack(folder)) == {"EX-HAUNT-07"}


def test_EX_HAUNT_duplicate_card_id(tmp_path):
    folder = copy_pack(tmp_path)
    edit(folder, "haunt_deck.toml", 'id = "H02"', 'id = "H01"')
    found = errors(check_pack(folder))
    assert [f.rule for f in found] == ["EX-COMP-06"]
    assert "H01" in found[0].message


def test_EX_DARK_02_darkness_card_count(tmp_path):
    folder = copy_pack(tmp_path)
    edit(folder, "haunt_deck.toml", '[[card]]\nkind = "darkness"\nid = "D11"\n', "")
    assert rules_of(check_pack(folder)) == {"EX-DARK-02"}


def test_EX_DARK_02_track_must_end_at_3(tmp_path):
    folder = copy_pack(tmp_path)
    edit(
        folder,
        "clock.toml",
        "[1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3]",
        "[1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 2]",
    )
    assert "EX-DARK-02" in rules_of(check_pack(folder))


def test_EX_COMP_10_track_must_start_at_1(tmp_path):
    folder = copy_pack(tmp_path)
    edit(folder, "clock.toml", "[1, 1, 1, 1,", "[2, 1, 1, 1,")
    assert "EX-COMP-10" in rules_of(check_pack(folder))


def test_EX_GAP_01_wrong_layout_cell_count(tmp_path):
    folder = copy_pack(tmp_path)
    edit(folder, "layout.toml", "cols = 4", "cols = 5")
    found = errors(check_pack(folder))
    assert [f.rule for f in found] == ["EX-GAP-01"]
    assert "20 house cells" in found[0].message


def test_EX_GAP_01_attic_without_neighbour(tmp_path):
    folder = copy_pack(tmp_path)
    edit(folder, "layout.toml", "cell = [0, 2]", "cell = [0, 9]")
    found = errors(check_pack(folder))
    assert [f.rule for f in found] == ["EX-GAP-01"]
    assert "Attic" in found[0].message


def test_EX_GAP_01_explicit_cells(tmp_path):
    # An irregular house given cell by cell is fine when the count matches.
    folder = copy_pack(tmp_path)
    cells = ", ".join(f"[{r}, {c}]" for r in range(1, 5) for c in range(1, 5))
    edit(folder, "layout.toml", "rows = 4\n", f"rows = 4\ncells = [{cells}]\n")
    assert check_pack(folder) == []


def test_EX_SETUP_06_start_in_locked_room(tmp_path):
    folder = copy_pack(tmp_path)
    edit(folder, "characters.toml", 'start = "R04"', 'start = "L01"')
    found = errors(check_pack(folder))
    assert [f.rule for f in found] == ["EX-SETUP-06"]
    assert "Locked" in found[0].message


def test_EX_SETUP_06_start_in_unknown_room(tmp_path):
    folder = copy_pack(tmp_path)
    edit(folder, "characters.toml", 'start = "R04"', 'start = "NOWHERE"')
    assert rules_of(check_pack(folder)) == {"EX-SETUP-06"}


def test_EX_HEAL_01_no_heal_on_a_normal_room(tmp_path):
    folder = copy_pack(tmp_path)
    edit(folder, "rooms.toml", '{ op = "heal", n = 1 }', '{ op = "gain_points", n = 1 }')
    # The Locked Infirmaries still heal, but they may be absent from the house.
    assert rules_of(check_pack(folder)) == {"EX-HEAL-01"}


def test_EX_COMP_10_toml_syntax_error(tmp_path):
    folder = copy_pack(tmp_path)
    edit(folder, "clock.toml", "dice = 8", "dice = = 8")
    found = check_pack(folder)
    assert len(found) == 1
    assert found[0].rule == "EX-COMP-10" and found[0].severity == "error"
    assert found[0].file == "clock.toml" and "TOML syntax" in found[0].message


def test_missing_file_is_an_error(tmp_path):
    folder = copy_pack(tmp_path)
    (folder / "terror.toml").unlink()
    found = check_pack(folder)
    assert [(f.rule, f.file) for f in found] == [("EX-TERROR-08", "terror.toml")]


def test_not_a_folder(tmp_path):
    found = check_pack(tmp_path / "nope")
    assert [f.rule for f in found] == ["EX-COMP-01"]


def test_schema_errors_one_finding_each_with_path(tmp_path):
    folder = copy_pack(tmp_path)
    edit(folder, "tasks.toml", "points = 2", "points = -1", count=2)
    edit(folder, "characters.toml", 'specialization = "key"', 'specialization = "keys"')
    found = errors(check_pack(folder))
    task_errs = [f for f in found if f.file == "tasks.toml"]
    assert len(task_errs) == 2
    assert all(f.rule == "EX-COMP-08" and ".points" in f.message for f in task_errs)
    assert "weapon-1" in task_errs[0].message
    spec_errs = [f for f in found if f.file == "characters.toml"]
    assert [f.rule for f in spec_errs] == ["EX-GAP-06"]


def test_unknown_key_is_an_error(tmp_path):
    folder = copy_pack(tmp_path)
    edit(folder, "plans.toml", "copies = 4", "copys = 4")
    found = errors(check_pack(folder))
    assert found and found[0].rule == "EX-COMP-07" and "copys" in found[0].message


def test_EX_COMP_01_count_mismatch_is_a_warning(tmp_path):
    folder = copy_pack(tmp_path)
    text = (folder / "tasks.toml").read_text()
    start = text.index('[[task]]\nid = "weapon-1"')
    end = text.index("[[task]]", start + 1)
    (folder / "tasks.toml").write_text(text[:start] + text[end:])
    findings = check_pack(folder)
    assert errors(findings) == []
    assert rules_of(findings, "warning") == {"EX-COMP-01"}
    assert len(load_pack(folder).tasks) == 29


def test_EX_PLAN_02_triage_must_react_to_wounds(tmp_path):
    folder = copy_pack(tmp_path)
    edit(folder, "plans.toml", 'timing = "on_wound"', 'timing = "any_time"')
    assert rules_of(check_pack(folder)) == {"EX-PLAN-02"}


def test_EX_SETUP_01_too_few_locked_rooms(tmp_path):
    folder = copy_pack(tmp_path)
    edit(folder, "pack.toml", "locked_rooms_in_play = 5 ", "locked_rooms_in_play = 19")
    assert "EX-SETUP-01" in rules_of(check_pack(folder))


def test_EX_PLAY_01_enough_characters_for_max_players(tmp_path):
    folder = copy_pack(tmp_path)
    edit(folder, "pack.toml", "core_players = [2, 5]", "core_players = [2, 6]")
    assert rules_of(check_pack(folder)) == {"EX-PLAY-01"}


def test_EX_TERROR_threshold_change_is_a_warning(tmp_path):
    folder = copy_pack(tmp_path)
    edit(folder, "terror.toml", "threshold = 6", "threshold = 8")
    findings = check_pack(folder)
    assert errors(findings) == []
    assert rules_of(findings, "warning") == {"EX-TERROR-01"}


def test_custom_effects_must_be_registered(tmp_path):
    folder = copy_pack(tmp_path)
    edit(
        folder,
        "plans.toml",
        '{ op = "trade", range = "any" }',
        '{ op = "custom", name = "ouija", params = { n = 2 } }',
    )
    assert rules_of(check_pack(folder)) == {"EX-ACT-08"}
    assert check_pack(folder, custom_effects={"ouija"}) == []
    register_custom_effect("ouija")
    try:
        assert check_pack(folder) == []
    finally:
        content_module._CUSTOM_EFFECTS.discard("ouija")


def test_gain_task_accepts_source_spelling(tmp_path):
    folder = copy_pack(tmp_path)
    edit(folder, "rooms.toml", 'from = "available"', 'source = "available"')
    assert check_pack(folder) == []


def test_pack_files_are_all_shipped():
    assert sorted(p.name for p in DEFAULT_PACK_DIR.glob("*.toml")) == sorted(PACK_FILES)


def test_effect_errors_name_the_vocabulary(tmp_path):
    folder = copy_pack(tmp_path)
    edit(folder, "characters.toml", 'kind = "trade_range"', 'kind = "trade_rang"')
    edit(folder, "plans.toml", '{ op = "trade", range = "any" }', '{ range = "any" }')
    found = errors(check_pack(folder))
    by_file = {f.file: f for f in found}
    assert "'trade_rang'" in by_file["characters.toml"].message
    assert "protect_roommates" in by_file["characters.toml"].message
    assert by_file["characters.toml"].rule == "EX-COMP-05"
    assert "missing the 'op' key" in by_file["plans.toml"].message


def test_pack_json_schema_for_editors():
    schema = content_module.pack_json_schema()
    assert "layout" in schema["properties"]
    assert "GainTool" in schema["$defs"]
