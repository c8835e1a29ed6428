"""Tests for the I Am the Fourth Wall content pack: the shipped defaults (spec §3.2) and the
validator (spec §3.0 checks (a)-(g) plus cross-file checks). Broken packs are made by copying
the default pack to a temporary folder and corrupting one thing each."""

from __future__ import annotations

import ast
import typing
from collections import Counter
from pathlib import Path

import pytest

from rules.fourth_wall import content as content_module
from rules.fourth_wall.content import (
    DEFAULT_PACK_DIR,
    EFFECT_OPS,
    MODIFIER_KINDS,
    PACK_FILES,
    ContentError,
    CustomEffect,
    Finding,
    Pack,
    check_pack,
    default_pack,
    iter_effects,
    load_pack,
    pack_fingerprint,
    register_custom_effect,
)
from tests.packs import copy_pack_from, drop_entry, edit, errors, rules_of


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
    assert load_pack(str(DEFAULT_PACK_DIR)) == default_pack()


def test_FW_COMP_01_counts(pack):
    assert len(pack.investigators) == 12
    assert len(pack.marble_deck()) == 54
    assert len(pack.walls) == 6
    assert len(pack.horror_deck()) == 36
    assert len(pack.presence_deck()) == 9
    assert len(pack.streets) == 5
    assert len(pack.trackers) == 4
    assert {(t.card, t.side) for t in pack.trackers} == {(1, "A"), (1, "B"), (2, "A"), (2, "B")}


def test_FW_COMP_02_tokens(pack):
    assert (pack.options.doom_tokens, pack.options.enhancement_tokens) == (6, 8)
    assert pack.options.doom_cap is None  # FW-GAP-10: not a cap


def test_FW_GAP_01_investigators(pack):
    table = {
        "INV-01": (6, 1),
        "INV-02": (5, 1),
        "INV-03": (5, 1),
        "INV-04": (4, 2),
        "INV-05": (6, 1),
        "INV-06": (5, 0),
        "INV-07": (4, 1),
        "INV-08": (5, 1),
        "INV-09": (6, 2),
        "INV-10": (4, 1),
        "INV-11": (5, 1),
        "INV-12": (5, 1),
    }
    assert {i.id: (i.sanity, i.unique.cost) for i in pack.investigators} == table
    assert sum(i.sanity for i in pack.investigators) == 60
    # FW-AMB-04: every Exploit the Rift costs 1 AP.
    assert {i.exploit.cost for i in pack.investigators} == {1}
    assert pack.investigator("INV-12").name == "The Street Magician"
    assert len({i.name for i in pack.investigators}) == 12


def test_FW_GAP_01_investigator_instructions(pack):
    def ops(instr):
        return [[e.op for e in sentence] for sentence in instr]

    inv = pack.investigator
    assert ops(inv("INV-01").unique.instruction) == [["draw_marbles"]]
    assert inv("INV-01").unique.instruction[0][0].n == 2
    find = inv("INV-01").exploit.instruction[0][0]
    assert (find.op, find.deck, find.name, find.to) == ("find", "marble", None, "hand")
    attach = inv("INV-02").unique.instruction[0][0]
    assert (attach.op, attach.n, attach.up_to) == ("attach", 2, True)
    blitz = inv("INV-02").exploit.instruction[0][0]
    assert (blitz.op, blitz.n, blitz.symbols) == ("blitz", 3, ("force",))
    give = inv("INV-03").unique.instruction[0][0]
    assert (give.op, give.giver, give.to, give.n) == (
        "give_marbles",
        "self",
        "chosen_other_investigator",
        2,
    )
    regroup = inv("INV-03").exploit.instruction[0][0]
    assert (regroup.op, regroup.who, regroup.optional) == ("regroup", "elected", True)
    close = inv("INV-04").unique.instruction[0][0]
    assert (close.op, close.cost, close.distinct_symbols) == ("close_gate", "marbles", 2)
    assert ops(inv("INV-04").exploit.instruction) == [["drain"]]
    assert ops(inv("INV-05").unique.instruction) == [["take_from_marble_discard"]]
    assert ops(inv("INV-05").exploit.instruction) == [["return_horror"]]
    assert ops(inv("INV-06").unique.instruction) == [["give_or_trade"]]
    assert inv("INV-06").exploit.instruction[0][0].who == "chosen_other_investigator"
    assert inv("INV-07").unique.instruction[0][0].symbols == ("clue", "science")
    assert inv("INV-07").exploit.instruction[0][0].n == 4
    assert ops(inv("INV-08").unique.instruction) == [["move_attachment"]]
    defeat = inv("INV-08").exploit.instruction[0][0]
    assert (defeat.deathrattle, defeat.defeat_cost_symbols) == (False, 1)
    assert inv("INV-09").unique.instruction[0][0].draw == 3
    shield = inv("INV-09").exploit.instruction[0][0]
    assert (shield.op, shield.scope) == ("shield_next_loss", "any_investigator")
    peek = inv("INV-10").unique.instruction[0][0]
    assert (peek.deck, peek.n, peek.take, peek.rest) == ("marble", 3, 1, "bottom")
    seer = inv("INV-10").exploit.instruction
    assert [(s[0].op, s[0].only_if[0].mode) for s in seer] == [
        ("view_hand", "conflict"),
        ("peek", "alliance"),
    ]
    assert inv("INV-11").unique.instruction[0][0].who == "self_and_regrouped"
    rally = inv("INV-11").exploit.instruction
    assert [(s[0].op, s[0].only_if[0].value) for s in rally] == [
        ("draw_marbles", False),
        ("remove_scourge", True),
    ]
    assert ops(inv("INV-12").unique.instruction) == [["swap_with_street_marble"]]
    take = inv("INV-12").exploit.instruction[0][0]
    assert (take.op, take.source) == ("take_street_marble", "attached")


def test_FW_SETUP_02_first_game_removes_the_street_magician(pack):
    assert pack.investigator(pack.options.first_game_remove).name == "The Street Magician"


def test_FW_GAP_02_marble_composition(pack):
    copies = {m.id: (m.copies, m.symbols) for m in pack.marbles}
    assert copies == {
        "M-C": (10, ("clue",)),
        "M-F": (10, ("force",)),
        "M-S": (10, ("science",)),
        "M-CF": (2, ("clue", "force")),
        "M-CS": (2, ("clue", "science")),
        "M-FS": (2, ("force", "science")),
        "M-ELDER": (1, ()),
        "M-HOLY": (4, ("clue",)),
        "M-ADRENALINE": (4, ("force",)),
        "M-MOLOTOV": (3, ("force",)),
        "M-ANCHOR": (3, ("science",)),
        "M-DRAW2": (3, ("science",)),
    }
    totals: Counter[str] = Counter()
    for m in pack.marbles:
        for sym in m.symbols:
            totals[sym] += m.copies
    assert totals == {"clue": 18, "force": 21, "science": 20}
    names = {m.id: m.name for m in pack.marbles}
    assert names["M-ELDER"] == "Elder Sign"
    assert names["M-HOLY"] == "Holy Symbol"
    assert names["M-ADRENALINE"] == "Adrenaline"
    assert names["M-MOLOTOV"] == "Molotov Cocktail"


def test_FW_GAP_02_marble_instructions(pack):
    elder = pack.marble("M-ELDER")
    close = elder.utilise[0][0]
    assert (close.op, close.cost) == ("close_gate", "none")
    defeat = elder.intervene[0][0]
    assert (defeat.op, defeat.horror, defeat.deathrattle) == ("defeat", "this", False)

    holy = pack.marble("M-HOLY")
    assert not holy.can_utilise
    (reaction,) = holy.reactions
    assert (reaction.window, reaction.scope, reaction.repeatable) == (
        "before_lose_marble",
        "holder",
        False,
    )
    assert [e.op for e in reaction.effects] == ["ignore_loss"]

    adrenaline = pack.marble("M-ADRENALINE")
    (reaction,) = adrenaline.reactions
    assert (reaction.window, reaction.scope, reaction.repeatable) == (
        "before_blitz_reveal",
        "any",
        True,
    )
    assert [(e.op, e.n) for e in reaction.effects] == [("blitz_bonus", 1)]
    grant = adrenaline.utilise[0][0]
    assert (grant.op, grant.who, grant.ap) == ("grant_action", "elected_other", 1)

    molotov = pack.marble("M-MOLOTOV").utilise
    assert [[e.op for e in s] for s in molotov] == [["blitz"], ["lose_marble"]]
    assert molotov[0][0].symbols == ("force",) and molotov[0][0].n == 3
    assert molotov[1][0].who == "each_other_investigator"

    anchor = pack.marble("M-ANCHOR")
    assert anchor.anchor and anchor.can_utilise and anchor.utilise == ()
    (mod,) = anchor.anchored
    assert (mod.kind, mod.action, mod.n) == ("action_cost_delta", "regroup", -1)

    draw2 = pack.marble("M-DRAW2").utilise[0][0]
    assert (draw2.op, draw2.n) == ("draw_marbles", 2)
    plain = [m for m in pack.marbles if m.id in {"M-C", "M-F", "M-S", "M-CF", "M-CS", "M-FS"}]
    assert all(not m.can_utilise and not m.intervene and not m.reactions for m in plain)


def test_FW_GAP_11_horrors(pack):
    table = {
        h.name: (h.copies, h.manifest.doom, h.manifest.drain, Counter(h.defeat), h.trigger_cost)
        for h in pack.horrors
    }
    assert table == {
        "Cultist": (8, 1, False, Counter(force=1), 1),
        "Cult Leader": (3, 3, False, Counter(clue=1, force=1), 2),
        "Ghoul": (6, 2, False, Counter(force=2), 2),
        "Restless Spirit": (4, 2, False, Counter(clue=1, science=1), 2),
        "Gatekeeper": (2, 4, True, Counter(clue=1, force=1, science=1), 3),
        "Watcher": (5, 1, True, Counter(science=1), 1),
        "Breaker": (4, 2, False, Counter(clue=2), 1),
        "Brute": (4, 3, False, Counter(force=1, science=2), 3),
    }
    with_deathrattle = {h.name for h in pack.horrors if h.deathrattle}
    assert with_deathrattle == {"Gatekeeper", "Breaker", "Brute"}


def test_FW_GAP_11_horror_instructions(pack):
    def ops(instr):
        return [[e.op for e in s] for s in instr]

    h = pack.horror
    assert ops(h("H-CULTIST").trigger) == [["lose_marble"]]
    leader = h("H-CULT-LEADER")
    assert ops(leader.trigger) == [["sacrifice"], ["open_gate"]]
    assert leader.trigger[0][0].named == "Cultist"
    (mod,) = leader.modifiers
    assert (mod.kind, mod.scope, mod.symbol, mod.n) == ("defeat_cost_delta", "this", "force", 1)
    assert [(c.test, c.n) for c in mod.only_if] == [("open_gates_at_least", 4)]
    ghoul = h("H-GHOUL").trigger
    assert ghoul[0][0].mode == "random"
    assert (ghoul[1][0].op, ghoul[1][0].name, ghoul[1][0].to) == ("find", "Ghoul", "streets")
    # FW-INSTR-03 Pro Tip: Restless Spirit Targets in two separate sentences.
    spirit = h("H-RESTLESS-SPIRIT").trigger
    assert len(spirit) == 2 and all(s[0].who == "target" for s in spirit)
    assert ops(h("H-GATEKEEPER").trigger) == [["open_gate"]]
    assert h("H-GATEKEEPER").deathrattle[0][0].who == "elected"
    assert h("H-WATCHER").trigger[0][0].mode == "wall_choice"
    assert ops(h("H-BREAKER").trigger) == [["destroy_marble"]]
    assert h("H-BREAKER").deathrattle[0][0].who == "target"
    assert h("H-BRUTE").trigger[0][0].who == "each_investigator"
    brute = h("H-BRUTE").deathrattle[0][0]
    assert (brute.op, brute.who, brute.optional) == ("regroup", "elected", True)


def test_FW_GAP_03_walls(pack):
    costs = {w.id: [u.cost for u in w.uniques] for w in pack.walls}
    assert costs == {"W-1": [2], "W-2": [1], "W-3": [3], "W-4": [2], "W-5": [1], "W-6": [2, 4]}
    auras = {w.id: [m.kind for m in w.aura] for w in pack.walls}
    assert auras == {
        "W-1": ["defeat_cost_delta"],
        "W-2": ["exploit_doom_delta"],
        "W-3": ["action_cost_delta"],
        "W-4": ["ignore_instruction_kind"],
        "W-5": ["gate_requirement_extra"],
        "W-6": ["on"],
    }
    w1 = pack.wall("W-1").aura[0]
    assert (w1.scope, w1.symbol, w1.n) == ("all_on_streets", "clue", 1)
    # W-2: one sentence, "it" = the same Horror.
    (sentence,) = pack.wall("W-2").top_unique.instruction
    assert [(e.op, e.horror) for e in sentence] == [("undrain", "chosen"), ("trigger", "same")]
    assert sentence[1].free is True
    assert pack.wall("W-3").aura[0].action == "give_or_trade"
    assert pack.wall("W-4").aura[0].instruction == "intervene"
    assert pack.wall("W-4").top_unique.instruction[0][0].named == "Cultist"
    assert [s[0].op for s in pack.wall("W-5").top_unique.instruction] == ["destroy_marble"] * 2
    assert pack.wall("W-5").aura[0].symbol == "clue"
    # FW-PRES-03: W-6 has a top and a second Unique Action.
    w6 = pack.wall("W-6")
    assert w6.top_unique is w6.uniques[0]
    assert len(w6.top_unique.instruction) == 2
    assert w6.uniques[1].instruction[0][0].op == "open_gate"
    on = w6.aura[0]
    assert on.event == "horror_defeated" and on.instruction[0][0].op == "lose_marble"


def test_FW_GAP_04_presence(pack):
    kinds = Counter(pack.presence_card(pid).action for pid in pack.presence_deck())
    assert kinds == {"trouble": 5, "delve": 2, "wrath": 1, "destroy_marble": 1}
    streets = sorted(p.street for p in pack.presence if p.action == "trouble")
    assert streets == [1, 2, 3, 4, 5]


def test_FW_GAP_05_scourge_has_no_extra_effect(pack):
    assert pack.scourge.modifiers == ()
    assert pack.options.scourge_optional is False  # FW-AMB-08


def test_FW_GAP_06_streets(pack):
    assert pack.street_numbers() == [1, 2, 3, 4, 5]
    assert [s.name for s in pack.streets] == [f"Street {n}" for n in range(1, 6)]
    kinds = {s.number: [m.kind for m in s.aura] for s in pack.streets}
    assert kinds == {
        1: ["exploit_doom_delta"],
        2: ["action_cost_delta"],
        3: ["defeat_cost_delta"],
        4: ["regroup_draw_delta"],
        5: ["on"],
    }
    assert pack.street(3).aura[0].scope == "this" and pack.street(3).aura[0].symbol == "science"
    assert pack.street(4).aura[0].n == -1
    on = pack.street(5).aura[0]
    assert on.event == "wall_turn_start" and on.instruction[0][0].op == "add_doom"
    with pytest.raises(KeyError):
        pack.street(6)


def test_FW_GAP_07_tracker_layouts(pack):
    expected = {
        3: ([9, 8, 7, 6], [5, 4, 3], [2, 1], [0]),
        4: ([8, 7, 6], [5, 4, 3], [2, 1], [0]),
        5: ([7, 6, 5], [4, 3], [2, 1], [0]),
        6: ([6, 5], [4, 3], [2, 1], [0]),
    }
    for n, stages in expected.items():
        layout = pack.tracker(n)
        got = (layout.slumber, layout.eye_opens, layout.crescendo, layout.awakens)
        assert tuple(list(x) for x in got) == stages
    # Rounds before loss 9/8/7/6; Investigator turns 27/32/35/36.
    assert {n: pack.tracker(n).rounds_before_loss for n in expected} == {3: 9, 4: 8, 5: 7, 6: 6}
    assert {n: n * pack.tracker(n).rounds_before_loss for n in expected} == {
        3: 27,
        4: 32,
        5: 35,
        6: 36,
    }
    # An Eye Opens fires at the end of round 4 / 3 / 3 / 2.
    for n, round_end in {3: 4, 4: 3, 5: 3, 6: 2}.items():
        layout = pack.tracker(n)
        assert layout.start_rank - round_end == layout.first_rank("eye_opens")
    three = pack.tracker(3)
    assert three.start_rank == 9
    assert [three.stage_of(r) for r in (9, 6, 5, 3, 2, 1, 0)] == [
        "slumber",
        "slumber",
        "eye_opens",
        "eye_opens",
        "crescendo",
        "crescendo",
        "awakens",
    ]
    with pytest.raises(KeyError):
        three.stage_of(10)
    with pytest.raises(KeyError):
        pack.tracker(7)


def test_pack_options_defaults(pack):
    opts = pack.options
    assert (opts.min_investigators, opts.max_investigators) == (3, 6)  # FW-PLAY-02
    assert (opts.solo_investigators, opts.duo_investigators_each) == (3, 2)  # FW-PLAY-01
    assert opts.investigator_cards_dealt == 2  # FW-SETUP-04
    assert opts.wall_starting_hand == 5  # FW-SETC-06
    assert (opts.max_open_gates, opts.starting_gates) == (5, 3)  # FW-COMP-09, FW-SETUP-08
    assert opts.starting_gate_choices == (3, 4, 5)
    assert (opts.action_points, opts.crescendo_extra_ap) == (2, 1)  # FW-AP-01, FW-TRACK-08
    costs = opts.action_costs
    assert (costs.close_gate, costs.search, costs.intervene, costs.utilise) == (2, 1, 1, 1)
    assert (costs.give_or_trade, costs.regroup) == (1, 2)
    assert opts.regroup_draw == 2 and opts.regroup_to == "hand_limit"  # FW-AMB-43
    assert (opts.wrath_doom, opts.brood_doom, opts.alliance_doom) == (1, 1, 2)  # FW-DOOM-01/02
    assert (opts.first_turn_extra_doom, opts.crescendo_extra_doom, opts.exploit_doom) == (1, 1, 1)
    assert (opts.delve_cost, opts.destroy_marble_cost) == (1, 1)  # FW-WALL-05, FW-WALL-07
    assert opts.presence_reshuffle is True  # FW-AMB-34


def test_cross_references_resolve(pack):
    horror_names = {h.name for h in pack.horrors}
    marble_names = {m.name for m in pack.marbles}
    for _file, _card, _place, eff in iter_effects(pack):
        if eff.op == "find" and eff.name is not None:
            assert eff.name in (horror_names if eff.deck == "horror" else marble_names)
        if eff.op == "sacrifice" and eff.named is not None:
            assert eff.named in horror_names
    for card in pack.presence:
        if card.action == "trouble":
            assert card.street in pack.street_numbers()


def test_vocabulary_is_closed_and_complete(pack):
    used_ops = {eff.op for _f, _c, _p, eff in iter_effects(pack)}
    assert used_ops <= EFFECT_OPS
    assert "custom" not in used_ops  # the default pack needs no custom effect
    union = typing.get_args(typing.get_args(content_module.Effect)[0])
    assert {cls.model_fields["op"].default for cls in union} == EFFECT_OPS
    mod_union = typing.get_args(typing.get_args(content_module.Modifier)[0])
    assert {cls.model_fields["kind"].default for cls in mod_union} == MODIFIER_KINDS


def test_decks_and_instances(pack):
    assert pack.marble_deck().count("M-C") == 10
    instances = pack.marble_instances()
    assert len(instances) == 54 and len(set(instances)) == 54
    assert "M-C#10" in instances and "M-C#11" not in instances
    assert pack.marble_of("M-HOLY#2").name == "Holy Symbol"
    assert pack.marble("M-HOLY") is pack.marble_of("M-HOLY#4")
    assert pack.horror_of("H-GHOUL#6").name == "Ghoul"
    assert len(set(pack.horror_instances())) == 36
    assert len(set(pack.presence_instances())) == 9
    assert pack.presence_of("P-DELVE-2#1").action == "delve"
    assert len(set(pack.presence_deck())) == 9  # one entry per physical card
    assert len(pack.investigator_deck()) == 12 and len(pack.wall_deck()) == 6
    assert [h.id for h in pack.horrors_named("Cultist")] == ["H-CULTIST"]
    assert [m.id for m in pack.marbles_named("Adrenaline")] == ["M-ADRENALINE"]


def test_pack_json_round_trip_and_fingerprint(pack):
    again = Pack.model_validate_json(pack.model_dump_json())
    assert again == pack
    assert pack_fingerprint(again) == pack_fingerprint(pack)
    assert pack_fingerprint(pack).startswith("default@1.0.0+")


def test_fingerprint_changes_with_content(tmp_path, pack):
    folder = copy_pack(tmp_path)
    edit(folder, "horrors.toml", "trigger_cost = 3", "trigger_cost = 2")
    assert pack_fingerprint(load_pack(folder)) != pack_fingerprint(pack)


def test_content_module_is_pure():
    tree = ast.parse(Path(content_module.__file__).read_text())
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            imported.add(node.module.split(".")[0])
    assert not imported & {"discord", "asyncio", "sqlite3", "aiosqlite", "PIL", "bot", "cogs"}
    assert imported <= {
        "__future__",
        "collections",
        "functools",
        "hashlib",
        "itertools",
        "json",
        "pathlib",
        "pydantic",
        "rules",  # rules.core's shared Finding/ContentError, pure like all of rules/
        "tomllib",
        "typing",
    }


def test_pack_files_are_all_shipped():
    assert sorted(p.name for p in DEFAULT_PACK_DIR.glob("*.toml")) == sorted(PACK_FILES)


def test_bot_cli_recognises_the_pack():
    from bot.content import check_content, detect_game

    assert detect_game(DEFAULT_PACK_DIR) == "fourth_wall"
    game, findings = check_content(DEFAULT_PACK_DIR)
    assert (game, findings) == ("fourth_wall", [])


def test_pack_json_schema_for_editors():
    schema = content_module.pack_json_schema()
    assert {"investigators", "marbles", "horrors", "walls", "trackers"} <= set(schema["properties"])
    assert "LoseMarble" in schema["$defs"] and "TrackerLayout" in schema["$defs"]


# --------------------------------------------------------------------------- broken packs


def test_FW_COMP_07_unknown_effect_op(tmp_path):
    folder = copy_pack(tmp_path)
    edit(folder, "horrors.toml", 'op = "find"', 'op = "summon_shoggoth"')
    found = errors(check_pack(folder))
    assert len(found) == 1
    (f,) = found
    assert (f.rule, f.file) == ("FW-COMP-07", "horrors.toml")
    assert "H-GHOUL" in f.message and "summon_shoggoth" in f.message
    assert ".trigger[1][0]" in f.message and "lose_marble" in f.message  # names the vocabulary


def test_FW_COMP_04_bad_parameter_path(tmp_path):
    folder = copy_pack(tmp_path)
    edit(folder, "investigators.toml", 'who = "self_and_regrouped"', 'who = "everyone"')
    (f,) = errors(check_pack(folder))
    assert (f.rule, f.file) == ("FW-COMP-04", "investigators.toml")
    assert "INV-11" in f.message and "unique.instruction[0][0].who" in f.message


def test_FW_COMP_03_unknown_symbol(tmp_path):
    folder = copy_pack(tmp_path)
    edit(folder, "marbles.toml", 'symbols = ["clue", "force"]', 'symbols = ["clue", "magic"]')
    edit(folder, "horrors.toml", 'defeat = ["force", "force"]', 'defeat = ["force", "fist"]')
    found = errors(check_pack(folder))
    assert {f.rule for f in found} == {"FW-COMP-03"}
    assert {f.file for f in found} == {"marbles.toml", "horrors.toml"}


def test_FW_COMP_07_costs_are_non_negative_integers(tmp_path):
    folder = copy_pack(tmp_path)
    edit(folder, "horrors.toml", "trigger_cost = 3", "trigger_cost = -1")
    edit(folder, "horrors.toml", "manifest = { doom = 2, drain = false }", "manifest = 2")
    found = errors(check_pack(folder))
    assert {f.rule for f in found} == {"FW-COMP-07"}
    assert any(".trigger_cost" in f.message for f in found)
    assert any(".manifest" in f.message for f in found)


def test_FW_COMP_07_horror_needs_a_defeat_cost(tmp_path):
    folder = copy_pack(tmp_path)
    edit(folder, "horrors.toml", 'defeat = ["science"]', "defeat = []")
    (f,) = errors(check_pack(folder))
    assert f.rule == "FW-COMP-03" and "H-WATCHER" in f.message and ".defeat" in f.message


def test_FW_COMP_06_wall_needs_a_unique_action(tmp_path):
    folder = copy_pack(tmp_path)
    edit(
        folder,
        "walls.toml",
        'uniques = [{ cost = 2, instruction = [[{ op = "lose_marble", who = "target", '
        'mode = "wall_choice" }]] }]',
        "uniques = []",
    )
    (f,) = errors(check_pack(folder))
    assert (f.rule, f.file) == ("FW-COMP-06", "walls.toml") and "W-1" in f.message


def test_FW_COMP_06_duplicate_id(tmp_path):
    folder = copy_pack(tmp_path)
    edit(folder, "walls.toml", 'id = "W-2"', 'id = "W-1"')
    found = errors(check_pack(folder))
    assert [f.rule for f in found] == ["FW-COMP-06"]
    assert "'W-1'" in found[0].message


def test_FW_COMP_09_too_few_wall_cards_for_five_gates(tmp_path):
    folder = copy_pack(tmp_path)
    drop_entry(folder, "walls.toml", "wall", 'id = "W-5"')
    findings = check_pack(folder)
    assert rules_of(findings) == {"FW-COMP-09"}
    assert rules_of(findings, "warning") == {"FW-COMP-01"}


def test_FW_COMP_01_count_mismatch_is_a_warning(tmp_path):
    folder = copy_pack(tmp_path)
    edit(folder, "marbles.toml", "copies = 10", "copies = 9")
    findings = check_pack(folder)
    assert errors(findings) == []
    assert rules_of(findings, "warning") == {"FW-COMP-01"}
    assert "53" in findings[0].message
    assert len(load_pack(folder).marble_deck()) == 53


def test_FW_TERM_08_find_names_unknown_card(tmp_path):
    folder = copy_pack(tmp_path)
    edit(folder, "horrors.toml", 'name = "Ghoul", to = "streets"', 'name = "Gnoul", to = "streets"')
    (f,) = errors(check_pack(folder))
    assert f.rule == "FW-TERM-08" and "Gnoul" in f.message and "H-GHOUL" in f.message


def test_FW_TERM_08_find_to_streets_needs_a_horror(tmp_path):
    folder = copy_pack(tmp_path)
    edit(
        folder,
        "investigators.toml",
        '{ op = "find", deck = "marble", to = "hand" }',
        '{ op = "find", deck = "marble", to = "streets" }',
    )
    assert rules_of(check_pack(folder)) == {"FW-TERM-08"}


def test_FW_HORROR_08_sacrifice_names_unknown_horror(tmp_path):
    folder = copy_pack(tmp_path)
    edit(folder, "walls.toml", 'named = "Cultist"', 'named = "Cultists"')
    (f,) = errors(check_pack(folder))
    assert (f.rule, f.file) == ("FW-HORROR-08", "walls.toml") and "W-4" in f.message


def test_renaming_the_cultist_breaks_its_references(tmp_path):
    folder = copy_pack(tmp_path)
    edit(folder, "horrors.toml", 'name = "Cultist"', 'name = "Acolyte"')
    found = errors(check_pack(folder))
    assert {f.rule for f in found} == {"FW-HORROR-08"}
    assert {f.file for f in found} == {"horrors.toml", "walls.toml"}


def test_FW_PRES_05_trouble_on_a_missing_street(tmp_path):
    folder = copy_pack(tmp_path)
    edit(folder, "presence.toml", "street = 5", "street = 6")
    (f,) = errors(check_pack(folder))
    assert f.rule == "FW-PRES-05" and "P-TROUBLE-5" in f.message


def test_FW_PRES_01_unknown_presence_action(tmp_path):
    folder = copy_pack(tmp_path)
    edit(folder, "presence.toml", 'action = "wrath"', 'action = "rage"')
    (f,) = errors(check_pack(folder))
    assert (f.rule, f.file) == ("FW-PRES-01", "presence.toml") and "'rage'" in f.message


def test_FW_PRES_01_missing_kind_is_a_warning(tmp_path):
    folder = copy_pack(tmp_path)
    drop_entry(folder, "presence.toml", "presence", 'id = "P-WRATH"')
    findings = check_pack(folder)
    assert errors(findings) == []
    assert rules_of(findings, "warning") == {"FW-PRES-01", "FW-COMP-01"}


def test_FW_SETA_03_streets_numbered_one_to_n(tmp_path):
    folder = copy_pack(tmp_path)
    edit(folder, "streets.toml", "number = 4", "number = 7")
    found = errors(check_pack(folder))
    assert "FW-SETA-03" in {f.rule for f in found}


def test_FW_STREET_01_duplicate_street(tmp_path):
    folder = copy_pack(tmp_path)
    edit(folder, "streets.toml", "number = 4", "number = 3")
    assert "FW-STREET-01" in rules_of(check_pack(folder))


def test_FW_SETC_03_missing_tracker_side(tmp_path):
    folder = copy_pack(tmp_path)
    drop_entry(folder, "trackers.toml", "layout", "investigators = 5")
    findings = check_pack(folder)
    assert rules_of(findings) == {"FW-SETC-03"}
    assert "5 Investigators" in errors(findings)[0].message
    assert rules_of(findings, "warning") == {"FW-COMP-01"}


def test_FW_SETC_03_max_investigators_needs_a_side(tmp_path):
    folder = copy_pack(tmp_path)
    edit(folder, "pack.toml", "max_investigators = 6", "max_investigators = 7")
    assert "FW-SETC-03" in rules_of(check_pack(folder))


def test_FW_TRACK_01_every_stage_needs_a_rank(tmp_path):
    folder = copy_pack(tmp_path)
    edit(
        folder,
        "trackers.toml",
        "eye_opens = [4, 3]\ncrescendo = [2, 1]",
        "eye_opens = [4, 3, 2, 1]\ncrescendo = []",
    )
    found = errors(check_pack(folder))
    assert [f.rule for f in found] == ["FW-TRACK-01"]
    assert "crescendo" in found[0].message and "tracker for 5" in found[0].message


def test_FW_TRACK_09_exactly_one_awakens_rank(tmp_path):
    folder = copy_pack(tmp_path)
    edit(
        folder,
        "trackers.toml",
        "crescendo = [2, 1]\nawakens = [0]",
        "crescendo = [2]\nawakens = [1, 0]",
    )
    assert rules_of(check_pack(folder)) == {"FW-TRACK-09"}


def test_FW_TRACK_01_ranks_go_down_by_one(tmp_path):
    folder = copy_pack(tmp_path)
    edit(folder, "trackers.toml", "slumber = [9, 8, 7, 6]", "slumber = [9, 8, 6, 7]")
    (f,) = errors(check_pack(folder))
    assert f.rule == "FW-TRACK-01" and "go down by one" in f.message


def test_FW_SETUP_02_first_game_remove_must_exist(tmp_path):
    folder = copy_pack(tmp_path)
    edit(folder, "pack.toml", 'first_game_remove = "INV-12"', 'first_game_remove = "INV-99"')
    assert rules_of(check_pack(folder)) == {"FW-SETUP-02"}


def test_FW_SETUP_04_enough_investigators_to_deal_two_each(tmp_path):
    folder = copy_pack(tmp_path)
    drop_entry(folder, "investigators.toml", "investigator", 'id = "INV-01"')
    findings = check_pack(folder)
    assert rules_of(findings) == {"FW-SETUP-04"}
    # Capping the table at 5 Investigators makes the 11-card pack legal again.
    edit(folder, "pack.toml", "max_investigators = 6", "max_investigators = 5")
    findings = check_pack(folder)
    assert errors(findings) == []


def test_FW_PLAY_01_solo_player_count_in_range(tmp_path):
    folder = copy_pack(tmp_path)
    edit(folder, "pack.toml", "solo_investigators = 3 ", "solo_investigators = 2 ")
    assert rules_of(check_pack(folder)) == {"FW-PLAY-01"}


def test_FW_SETUP_08_starting_gates(tmp_path):
    folder = copy_pack(tmp_path)
    edit(folder, "pack.toml", "starting_gates = 3 ", "starting_gates = 6 ")
    assert rules_of(check_pack(folder)) == {"FW-SETUP-08"}


def test_FW_ACT_01_every_symbol_must_be_on_some_marble(tmp_path):
    folder = copy_pack(tmp_path)
    text = (folder / "marbles.toml").read_text().replace('"science"', '"force"')
    (folder / "marbles.toml").write_text(text)
    found = errors(check_pack(folder))
    assert [f.rule for f in found] == ["FW-ACT-01"] and "science" in found[0].message


def test_FW_INSTR_03_same_needs_an_earlier_effect(tmp_path):
    folder = copy_pack(tmp_path)
    edit(
        folder,
        "walls.toml",
        '{ op = "undrain", horror = "chosen" }',
        '{ op = "undrain", horror = "same" }',
    )
    # Now both effects say "same"; only the first one has nothing to refer to.
    found = errors(check_pack(folder))
    assert [f.rule for f in found] == ["FW-INSTR-03"] and "W-2" in found[0].message


def test_FW_INSTR_01_this_names_no_horror_on_an_investigator(tmp_path):
    folder = copy_pack(tmp_path)
    edit(
        folder,
        "investigators.toml",
        '{ op = "drain", horror = "chosen" }',
        '{ op = "drain", horror = "this" }',
    )
    (f,) = errors(check_pack(folder))
    assert f.rule == "FW-INSTR-01" and "INV-04" in f.message


def test_FW_INSTR_01_a_trigger_may_not_trigger_itself(tmp_path):
    folder = copy_pack(tmp_path)
    edit(
        folder,
        "horrors.toml",
        '[{ op = "open_gate", n = 1 }]',
        '[{ op = "trigger", horror = "this" }]',
    )
    (f,) = errors(check_pack(folder))
    assert f.rule == "FW-INSTR-01" and "H-CULT-LEADER" in f.message


def test_FW_INSTR_01_all_only_for_drain(tmp_path):
    folder = copy_pack(tmp_path)
    edit(
        folder,
        "investigators.toml",
        '{ op = "return_horror", horror = "chosen" }',
        '{ op = "return_horror", horror = "all" }',
    )
    assert rules_of(check_pack(folder)) == {"FW-INSTR-01"}


def test_FW_HORROR_04_this_on_a_wall_aura(tmp_path):
    folder = copy_pack(tmp_path)
    edit(folder, "walls.toml", 'scope = "all_on_streets"', 'scope = "this"')
    assert rules_of(check_pack(folder)) == {"FW-HORROR-04"}


def test_FW_GAP_02_reaction_effect_outside_a_reaction(tmp_path):
    folder = copy_pack(tmp_path)
    edit(
        folder,
        "marbles.toml",
        'utilise = [[{ op = "draw_marbles", who = "self", n = 2 }]]',
        'utilise = [[{ op = "ignore_loss" }]]',
    )
    (f,) = errors(check_pack(folder))
    assert f.rule == "FW-GAP-02" and "M-DRAW2" in f.message


def test_FW_TERM_11_holy_symbol_in_the_wrong_window(tmp_path):
    folder = copy_pack(tmp_path)
    edit(folder, "marbles.toml", 'window = "before_lose_marble"', 'window = "before_blitz_reveal"')
    findings = check_pack(folder)
    assert rules_of(findings) == {"FW-TERM-11"}
    # ... and no Marble can ignore a loss any more.
    assert rules_of(findings, "warning") == {"FW-TERM-11"}


def test_FW_TERM_03_no_adrenaline_is_a_warning(tmp_path):
    folder = copy_pack(tmp_path)
    edit(
        folder,
        "marbles.toml",
        'reactions = [{ window = "before_blitz_reveal", scope = "any", repeatable = true, '
        'effects = [{ op = "blitz_bonus", n = 1 }] }]\n',
        "",
    )
    findings = check_pack(folder)
    assert errors(findings) == []
    assert rules_of(findings, "warning") == {"FW-TERM-03"}


def test_FW_TERM_02_anchor_that_does_nothing(tmp_path):
    folder = copy_pack(tmp_path)
    edit(
        folder,
        "marbles.toml",
        'anchored = [{ kind = "action_cost_delta", action = "regroup", n = -1 }]\n',
        "",
    )
    assert rules_of(check_pack(folder)) == {"FW-TERM-02"}


def test_FW_GAP_15_custom_effects_must_be_registered(tmp_path):
    folder = copy_pack(tmp_path)
    edit(
        folder,
        "marbles.toml",
        '{ op = "draw_marbles", who = "self", n = 2 }',
        '{ op = "custom", name = "read_the_necronomicon", params = { pages = 2 } }',
    )
    assert rules_of(check_pack(folder)) == {"FW-GAP-15"}
    assert check_pack(folder, custom_effects={"read_the_necronomicon"}) == []
    register_custom_effect("read_the_necronomicon")
    try:
        assert check_pack(folder) == []
        effect = load_pack(folder).marble("M-DRAW2").utilise[0][0]
        assert isinstance(effect, CustomEffect) and effect.params == {"pages": 2}
    finally:
        content_module._CUSTOM_EFFECTS.discard("read_the_necronomicon")


def test_FW_COMP_05_unknown_key_is_an_error(tmp_path):
    folder = copy_pack(tmp_path)
    edit(folder, "marbles.toml", "copies = 3\nsymbols", "copys = 3\nsymbols")
    (f,) = errors(check_pack(folder))
    assert f.rule == "FW-COMP-05" and "copys" in f.message and "M-MOLOTOV" in f.message


def test_unexpected_top_level_key(tmp_path):
    folder = copy_pack(tmp_path)
    with (folder / "streets.toml").open("a") as fh:
        fh.write('\n[[streets]]\nnumber = 6\nname = "Street 6"\n')
    (f,) = errors(check_pack(folder))
    assert f.rule == "FW-STREET-01" and "streets" in f.message


def test_missing_effect_op_key(tmp_path):
    folder = copy_pack(tmp_path)
    edit(folder, "horrors.toml", '{ op = "open_gate", n = 1 }', "{ n = 1 }")
    found = errors(check_pack(folder))
    assert found and all(f.rule == "FW-COMP-07" for f in found)
    assert "missing the 'op' key" in found[0].message


def test_give_marbles_accepts_giver_spelling(tmp_path):
    folder = copy_pack(tmp_path)
    edit(folder, "investigators.toml", 'from = "self"', 'giver = "self"')
    assert check_pack(folder) == []


def test_FW_COMP_01_toml_syntax_error(tmp_path):
    folder = copy_pack(tmp_path)
    edit(folder, "pack.toml", 'version = "1.0.0"', "version = = 1")
    (f,) = check_pack(folder)
    assert (f.rule, f.severity, f.file) == ("FW-COMP-01", "error", "pack.toml")
    assert "TOML syntax" in f.message


def test_missing_file_is_an_error(tmp_path):
    folder = copy_pack(tmp_path)
    (folder / "trackers.toml").unlink()
    found = check_pack(folder)
    assert [(f.rule, f.file, f.message) for f in found] == [
        ("FW-TRACK-01", "trackers.toml", "file is missing")
    ]


def test_not_a_folder(tmp_path):
    found = check_pack(tmp_path / "nope")
    assert [f.rule for f in found] == ["FW-COMP-01"]


def test_load_pack_raises_content_error_with_findings(tmp_path):
    folder = copy_pack(tmp_path)
    edit(folder, "presence.toml", "street = 5", "street = 9")
    with pytest.raises(ContentError) as info:
        load_pack(folder)
    assert isinstance(info.value, ValueError)
    assert [f.rule for f in info.value.findings] == ["FW-PRES-05"]
    assert "FW-PRES-05" in str(info.value)
    with pytest.raises(ContentError) as info:
        load_pack(tmp_path / "nope")
    assert [f.rule for f in info.value.findings] == ["FW-COMP-01"]


def test_finding_str():
    f = Finding(rule="FW-PRES-05", severity="error", message="boom", file="presence.toml")
    assert str(f) == "ERROR FW-PRES-05 presence.toml: boom"
