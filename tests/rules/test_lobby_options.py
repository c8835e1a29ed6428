"""The lobby card's options come from the engine (`effective_options`) and must say what
`setup` really used, for every preset and variant; impossible combinations are refused with a
reason (`option_conflicts`); guided play has a real hint for every kind of decision
(`guide_text`), public-safe.
"""

from __future__ import annotations

import ast
import random
from pathlib import Path
from typing import Any

import pytest

from rules.registry import GAMES

ROOT = Path(__file__).resolve().parents[2]


def card(game: str, **options: Any) -> dict[str, str]:
    g = GAMES[game]
    return dict(g.effective_options(g.options_model(**options)))


def setup(game: str, n: int, **options: Any) -> Any:
    g = GAMES[game]
    return g.setup([f"s{i + 1}" for i in range(n)], g.options_model(**options), 7)


# ---- The Presence -----------------------------------------------------------------------

PRESENCE_CASES: list[dict[str, Any]] = [
    {}, {"first_game": True}, {"first_game": True, "true_horror": True},
    {"first_game": True, "hope_track": "B", "scripts": "expert", "fear": "hard"},
    {"hope_track": "A"}, {"dark_board": True}, {"secret_chamber": True}, {"mystery": True},
    {"unknown_threat": True}, {"two_players": True}, {"open_communication": True},
    {"true_horror": True}, {"spirit_seat": 2}, {"scripts": "cooperative"},
    {"scripts": "competitive"}, {"scripts": "advanced"}, {"scripts": "expert"},
    {"fear": "easy"}, {"fear": "hard"},
]


@pytest.mark.parametrize("options", PRESENCE_CASES, ids=lambda o: ",".join(o) or "standard")
def test_P_LOBBY_01_card_matches_what_setup_used(options: dict[str, Any]) -> None:
    from rules.presence.engine import pack_for

    shown = card("presence", **options)
    state = setup("presence", 2 if options.get("two_players") else 4, **options)
    pack = pack_for(None)
    assert shown["Hope Track"].startswith(f"side {state.track_side}")
    assert shown["Board"].startswith(f"{state.board_side} side")
    assert shown["The spirit"] == f"seat {state.seats.index(state.spirit_seat) + 1} in table order"
    talk = shown["Table talk"]
    assert ("Open Communication" in talk) == state.open_communication
    assert ("True Horror" in shown) == state.true_horror
    assert ("Mystery Mode" in shown) == state.mystery
    if state.first_game:
        fg = pack.presets.first_game
        assert "(first game)" in shown["Scripts"] and sorted(state.display_scripts) == sorted(
            fg.scripts)
        assert pack.spirit(state.spirit.character).name in shown["Spirit character"]
        assert shown["Fear cards"].startswith(f"{fg.fear_per_visitor} per visitor")
    elif state.unknown_threat is not None:
        assert "chosen by the visitors" in shown["Scripts"]
        assert pack.spirit(state.spirit.character).name in shown["Spirit character"]
    else:
        preset = next(p for p in pack.presets.script_presets
                      if p.id == options.get("scripts", "normal"))
        assert len(state.display_scripts) == preset.hope + preset.nerve
        assert shown["Scripts"].startswith(preset.name)
    # Python's words never reach the card
    for value in shown.values():
        assert value not in ("None", "True", "False") and " = " not in value, value
        assert "None" not in value and "False" not in value and "pack" not in value


def test_P_LOBBY_01_first_game_with_true_horror_reads_as_played() -> None:
    """The reported case: the card said `hope_track = B` and `open_communication = False`
    while setup used side A and Open Communication."""
    shown = card("presence", first_game=True, true_horror=True)
    state = setup("presence", 4, first_game=True, true_horror=True)
    assert state.track_side == "A" and state.open_communication
    assert shown["Hope Track"] == "side A (first game)"
    assert shown["Table talk"].startswith("Open Communication (first game)")


def test_P_LOBBY_02_variants_that_exclude_each_other_are_refused() -> None:
    g = GAMES["presence"]
    ok = g.option_conflicts(g.options_model(first_game=True))
    assert ok == []
    both = g.option_conflicts(g.options_model(first_game=True, unknown_threat=True))
    assert both and "first_game" in both[0] and "unknown_threat" in both[0]
    horror = g.option_conflicts(g.options_model(open_communication=True, true_horror=True))
    assert horror and "True Horror" in horror[0]
    assert g.option_conflicts(g.options_model(two_players=True, spirit_seat=3))


# ---- I Am the Fourth Wall -------------------------------------------------------------------

@pytest.mark.parametrize("options,n", [
    ({"mode": "conflict"}, 3), ({"mode": "conflict", "wall_seat": 2}, 3),
    ({"mode": "conflict", "gates": 4}, 2), ({"mode": "alliance", "gates": 5}, 1),
    ({"mode": "alliance", "first_game": True}, 2), ({"mode": "alliance", "investigators": 5}, 2),
    ({"mode": "conflict", "first_game": True, "investigators": 6}, 2),
    ({"mode": "conflict", "wrath_doom": 2}, 3), ({"mode": "conflict", "wrath_doom": 1}, 2),
])
def test_FW_LOBBY_01_card_matches_what_setup_used(options: dict[str, Any], n: int) -> None:
    from rules.fourth_wall.engine import Engine, pack_for

    shown = card("fourth_wall", **options)
    state = setup("fourth_wall", n, **options)
    if options["mode"] == "conflict":  # FW-LOBBY-03: the Doom per Wrath the engine will use
        assert shown["Doom per Wrath"].split(",")[0].split()[0] == str(
            Engine(state).wrath_doom())
    assert shown["Open Gates at the start"].split()[0] == str(state.start_gates)
    if options["mode"] == "conflict":
        assert shown["The Wall"] == f"seat {state.seats.index(state.wall_seat) + 1} in table order"
    else:
        assert "The Wall" not in shown and state.wall_seat is None
    if options.get("first_game"):
        name = pack_for(None).investigator(state.removed_investigators[0]).name \
            if state.removed_investigators else None
        # FW-AMB-10: with 6 Investigators nothing is taken out, and the card says so
        assert shown["First game"].startswith("yes")
        assert (name is not None and name in shown["First game"]) or (
            options.get("investigators") == 6 and "not with 6" in shown["First game"])
    else:
        assert shown["First game"] == "no" and not state.removed_investigators
    if options.get("investigators"):
        assert shown["Investigators"].startswith(str(len(state.investigators)))


def test_FW_LOBBY_02_a_wall_seat_no_table_has_is_refused() -> None:
    g = GAMES["fourth_wall"]
    problems = g.option_conflicts(g.options_model(mode="conflict", investigators=3, wall_seat=6))
    assert problems and "The Wall can't be seat 7" in problems[0]


# ---- The Exorcism -----------------------------------------------------------------------------

@pytest.mark.parametrize("options,n", [
    ({"mode": "core"}, 3), ({"mode": "solo"}, 1), ({"mode": "one_vs_all"}, 3),
    ({"mode": "one_vs_all", "ghost_seat": 2}, 4),
])
def test_EX_LOBBY_01_card_matches_what_setup_used(options: dict[str, Any], n: int) -> None:
    shown = card("exorcism", **options)
    state = setup("exorcism", n, **options)
    assert shown["Mode"].lower().startswith(state.mode.replace("_", " ").split()[0][:4])
    if state.mode == "one_vs_all":
        assert shown["The Ghost player"] == (
            f"seat {state.seats.index(state.ghost_seat) + 1} in table order")
    else:
        assert "The Ghost player" not in shown


def test_EX_LOBBY_02_ghost_seat_beyond_the_table_is_refused() -> None:
    g = GAMES["exorcism"]
    assert g.option_conflicts(g.options_model(mode="one_vs_all", ghost_seat=4)) == []
    assert g.role_seat(g.options_model(mode="core")) is None
    assert g.role_seat(g.options_model(mode="one_vs_all"))[0] == "ghost_seat"


# ---- guided play --------------------------------------------------------------------------

def _prompt_kinds(game: str) -> set[str]:
    """Every prompt kind the engine's source can ask (ask/choose/push_prompt/Prompt(kind=))."""
    kinds: set[str] = set()
    for path in (ROOT / "rules" / game).rglob("*.py"):  # the engine is a package of phases
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "attr", getattr(node.func, "id", ""))
            if name in ("ask", "choose", "choose_hidden", "push_prompt"):
                for arg in node.args[:3]:
                    if isinstance(arg, ast.Constant) and isinstance(arg.value, str) \
                            and arg.value.isidentifier():
                        kinds.add(arg.value)
                        break
    return kinds


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_decision_kind_has_a_guide(game: str) -> None:
    module = __import__(f"rules.{game}.guide", fromlist=["guide"])
    table = module.KINDS if game == "presence" else module.PROMPTS
    kinds = _prompt_kinds(game)
    assert kinds, "the scan found no prompts"
    missing = sorted(kinds - set(table))
    assert not missing, f"no guide for {missing}"
    for text in table.values():
        assert 40 <= len(text) <= 400 and text.endswith((".", ")"))


GUIDED_RUNS = [("exorcism", {"mode": "core"}, 2), ("exorcism", {"mode": "one_vs_all"}, 3),
               ("exorcism", {"mode": "solo"}, 1), ("fourth_wall", {"mode": "conflict"}, 2),
               ("fourth_wall", {"mode": "alliance"}, 2), ("presence", {}, 3),
               ("presence", {"first_game": True}, 3), ("presence", {"two_players": True}, 2),
               ("presence", {"unknown_threat": True}, 3)]


@pytest.mark.parametrize("game,options,n", GUIDED_RUNS,
                         ids=[f"{g}-{'-'.join(map(str, o.values())) or 'std'}"
                              for g, o, _ in GUIDED_RUNS])
def test_every_awaited_decision_gets_a_public_safe_hint(game: str, options: dict[str, Any],
                                                        n: int) -> None:
    g = GAMES[game]
    opts = g.options_model(**options)
    for seed in range(2):
        state = g.setup([f"s{i + 1}" for i in range(n)], opts, seed)
        rng = random.Random(seed)
        for _ in range(1500):
            if g.result(state) is not None:
                break
            awaited = sorted(g.to_act(state))
            if not awaited:
                break
            secrets = g.public_secrets(state)
            for seat in awaited:
                public = g.guide_text(state, seat)
                assert public, (game, seat, state.prompts[-1].kind if state.prompts else None)
                assert not [s for s in secrets if s and s in public], public
                assert g.guide_text(state, seat, private=True)
            seat = awaited[0]
            legal = g.legal_actions(state, seat)
            action = g.ai_action(state, seat) if rng.random() < 0.8 else rng.choice(legal)
            state = g.apply(state, seat, action).state
        assert g.guide_text(state, "nobody") is None


def test_guided_is_on_for_a_first_game_unless_turned_off() -> None:
    p, fw, ex = GAMES["presence"], GAMES["fourth_wall"], GAMES["exorcism"]
    assert p.guided(p.options_model(first_game=True))
    assert not p.guided(p.options_model(first_game=True, guided=False))
    assert not p.guided(p.options_model())
    assert fw.guided(fw.options_model(first_game=True)) and not fw.guided(fw.options_model())
    assert ex.guided(ex.options_model(guided=True)) and not ex.guided(ex.options_model())
