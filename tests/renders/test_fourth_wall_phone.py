"""Issue #22 part 1: I Am the Fourth Wall's board drawn into the turn card for a phone
(renders/fourth_wall_phone.py).

Along random legal playouts of every mode, the whole turn card scaled to a phone's 400 px
column still reads (tesseract) the awaited player's name and at least four of the five Gate
numbers; what changed since the previous board post is marked; a missing or malformed view
draws as empty instead of raising; the map stays about as tall as it is wide.
"""

from __future__ import annotations

import copy
import random
import re
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageChops, ImageDraw

from renders import fourth_wall_phone as phone
from renders.turncard import WIDTH, render_turn_image
from rules.fourth_wall.content import default_pack
from rules.registry import GAMES
from tests.renders.ocr import TESSERACT, read_at_phone_width

GAME = GAMES["fourth_wall"]
MAP_W = 736  # the card's 800 px less its 32 px padding each side
PLAYERS = ("Ada", "Basil", "Clara", "Dev", "Esme", "Farid", "Gwen")
MODES = sorted(GAME.modes)
SAMPLES = 8  # stop 64: 12 → 8 to keep the default suite's OCR time in bounds
GATE_RE = re.compile(r"Gate\s*([1-5])")


def _largest(mode: str) -> int:
    return max(GAME.player_counts(GAME.options_model(mode=mode)))


def _playout(mode: str, n: int, seed: int, want: int = SAMPLES,
             every: int = 11) -> list[dict[str, Any]]:
    """Public views (with ``names`` and the card's ``turn``, ``before`` being the previous
    sampled view) every ``every`` moves of a game played with random legal actions."""
    seats = [f"s{i}" for i in range(1, n + 1)]
    names = {s: PLAYERS[i] for i, s in enumerate(seats)}
    state = GAME.setup(seats, GAME.options_model(mode=mode), seed)
    rng = random.Random(seed)
    out: list[dict[str, Any]] = []
    before: dict[str, Any] | None = None
    for step in range(4000):
        result = GAME.result(state)
        acting = sorted(GAME.to_act(state))
        if (step % every == 0 or result is not None) and acting:
            view = GAME.view(state, None)
            public = copy.deepcopy(view)
            prompt = view.get("prompt") or {}
            view["names"] = names
            view["turn"] = {
                "awaited": [names[acting[0]]],
                "doing": prompt.get("text") or "Take your turn.",
                "happened": list(view.get("log") or [])[-3:],
                "result": None,
                "before": before,
            }
            before = public
            out.append(view)
            if len(out) >= want:
                break
        if result is not None or not acting:
            break
        seat = rng.choice(acting)
        state = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat))).state
    return out




@pytest.mark.skipif(TESSERACT is None, reason="tesseract is not installed "
                    "(apt-get install -y tesseract-ocr; .ci/run installs it)")
@pytest.mark.parametrize("mode", MODES)
def test_phone_card_reads_the_awaited_name_and_four_gates(mode: str, tmp_path: Path) -> None:
    views = _playout(mode, _largest(mode), seed=23)
    assert len(views) >= SAMPLES // 2
    passed = 0
    misses: list[str] = []
    for view in views:
        who = view["turn"]["awaited"][0]
        text = read_at_phone_width(render_turn_image("fourth_wall", view), tmp_path)
        gates = set(GATE_RE.findall(text))
        if who in text and len(gates) >= 4:
            passed += 1
        else:
            misses.append(f"{who}: gates {sorted(gates)} in {text!r}")
    assert passed * 4 >= len(views) * 3, "\n".join(misses)


@pytest.mark.parametrize("mode", MODES)
def test_map_is_exactly_as_wide_as_asked_and_about_square(mode: str) -> None:
    for n in sorted(GAME.player_counts(GAME.options_model(mode=mode)))[::2]:
        for view in _playout(mode, n, seed=5, want=8, every=17):
            img = phone.phone_map(view, MAP_W)
            assert img.mode == "RGB"
            assert img.width == MAP_W
            assert img.height <= MAP_W * 1.12, (mode, n, img.height)
            card = render_turn_image("fourth_wall", view)
            assert card.width == WIDTH


def _mid_view(mode: str) -> dict[str, Any]:
    """A view with a Horror On the Streets and an Open Gate (a random playout's first)."""
    for view in _playout(mode, 3, seed=9, want=40, every=5):
        if view.get("horrors") and view["gates"]["open"] and view["investigators"]:
            view["turn"]["before"] = None
            return view
    raise AssertionError("no playout state with a Horror and an Open Gate")


def _highlight_pixels(img: Image.Image) -> int:
    hi = Image.new("RGB", img.size, phone.CHANGED)
    diff = ImageChops.difference(img, hi).convert("L")
    return sum(diff.point(lambda v: 255 if v < 8 else 0).histogram()[255:])


@pytest.mark.parametrize("mode", MODES)
def test_what_changed_since_the_last_post_is_marked(mode: str) -> None:
    view = _mid_view(mode)
    plain = phone.phone_map(view, MAP_W)
    # The same board as before: nothing is marked.
    same = copy.deepcopy(view)
    same["turn"]["before"] = copy.deepcopy({k: v for k, v in view.items() if k != "turn"})
    assert ImageChops.difference(plain, phone.phone_map(same, MAP_W)).getbbox() is None
    # Before, the Horror was not there yet, a Gate was shut and an Investigator held one more
    # Marble: each is marked with a dashed ring and its word or number.
    before = copy.deepcopy({k: v for k, v in view.items() if k != "turn"})
    arrived = before["horrors"].pop()
    k = max(i for i, lit in enumerate(view["gates"]["pentagram"]) if lit)
    before["gates"]["pentagram"][k] = False
    before["gates"]["open"] -= 1
    before["investigators"][0]["hand_count"] = view["investigators"][0]["hand_count"] + 1
    changed = copy.deepcopy(view)
    changed["turn"]["before"] = before
    now = phone._read(view)
    marks = phone._changes(now, before)
    assert marks.horrors == {arrived["id"]: "NEW"}
    assert marks.gates == {k: "NEW"}
    assert marks.invs == {view["investigators"][0]["id"]: "-1"}
    img = phone.phone_map(changed, MAP_W)
    assert img.width == MAP_W
    assert ImageChops.difference(plain, img).getbbox() is not None
    assert _highlight_pixels(img) > _highlight_pixels(plain) + 500


def test_a_horror_that_left_and_a_gate_that_closed_are_marked_too() -> None:
    view = _mid_view("conflict")
    before = copy.deepcopy({k: v for k, v in view.items() if k != "turn"})
    before["horrors"].append({"id": "h-gone", "name": "Ghoul", "defeat_cost": ["force"]})
    shut = view["gates"]["pentagram"].index(False)
    before["gates"]["pentagram"][shut] = True
    before["gates"]["open"] += 1
    marks = phone._changes(phone._read(view), before)
    assert [h.name for h in marks.gone] == ["Ghoul"]
    assert marks.gates == {shut: "SHUT"}
    view["turn"]["before"] = before
    # The "Gone: Ghoul" line adds a row.
    assert phone.phone_map(view, MAP_W).height > phone.phone_map(
        {**view, "turn": {}}, MAP_W).height


PARTIAL_VIEWS: list[dict[str, Any]] = [
    {},
    {"mode": "alliance"},
    {"gates": None, "wall": "x", "tracker": [], "horrors": None, "investigators": "nobody"},
    {"gates": {"open": 9, "max": "5", "pentagram": [True, "no", None]}},
    {"horrors": [None, 3, "x", {"id": 7, "street": "two", "defeat_cost": {"clue": 2}},
                 {"name": "Ghoul", "negated": [], "attached": "many"}]},
    {"mode": "alliance", "streets": [None, {"number": "1"}, {"number": 2}],
     "horrors": [{"id": "h1", "street": 2, "drained": True, "scourge": True}]},
    {"investigators": [{}, None, {"name": 5, "sanity": "lots", "insane": True},
                       {"name": "The Quartermaster", "sanity": 4, "is_active": True}],
     "phase": "investigator"},
    {"tracker": {"ranks": [{"rank": 3, "stage": "crescendo", "current": True}, {"stage": "?"},
                           None]}},
    {"wall": {"revealed": True, "name": None, "doom": -4}},
    {"turn": {"before": "yesterday"}},
    {"turn": {"before": {"horrors": [{"id": "a"}], "gates": {"open": 2},
                         "investigators": [{"id": "i1", "sanity": None}]}},
     "investigators": [{"id": "i1", "sanity": 3}], "gates": {"open": 1}},
]


@pytest.mark.parametrize("view", PARTIAL_VIEWS)
def test_an_empty_or_partial_view_draws_instead_of_raising(view: dict[str, Any]) -> None:
    for width in (MAP_W, 400):
        img = phone.phone_map(view, width)
        assert img.mode == "RGB" and img.width == width
        assert 0 < img.height <= max(width, MAP_W) * 1.12
    assert render_turn_image("fourth_wall", view).width == WIDTH


def test_the_map_reads_the_public_view_only() -> None:
    """A seat's private keys (the Wall's hand and card, a team's hands) never change the map:
    it draws from the keys the public view shares, whatever else it is given."""
    view = _mid_view("conflict")
    secret = copy.deepcopy(view)
    secret["hand"] = [{"id": "hx", "name": "Gatekeeper", "defeat": ["clue"]}]
    secret["wall_card"] = {"name": "The Awakener", "text": "secret"}
    for inv in secret["investigators"]:
        inv["hand"] = [{"id": "m1", "name": "Elder Sign", "symbols": []}]
    assert ImageChops.difference(phone.phone_map(view, MAP_W),
                                 phone.phone_map(secret, MAP_W)).getbbox() is None


def test_no_word_on_the_map_is_smaller_than_28_px(monkeypatch: pytest.MonkeyPatch) -> None:
    """14 px on a phone: the map abbreviates ("St 3") or wraps rather than shrink type."""
    sizes: list[int] = []
    real = phone.font

    def spy(size: int, bold: bool = False) -> Any:
        sizes.append(size)
        return real(size, bold)

    monkeypatch.setattr(phone, "font", spy)
    for mode in MODES:
        for view in _playout(mode, _largest(mode), seed=3, want=6, every=23):
            phone.phone_map(view, MAP_W)
    assert sizes and min(sizes) >= phone.MIN_TYPE == 28


def test_a_crowded_street_and_the_walls_turn_still_fit() -> None:
    horrors = [{"id": f"h{k}", "name": "Restless Spirit", "defeat_cost": ["clue", "force"],
                "drained": k % 2 == 0, "scourge": k == 3} for k in range(8)]
    investigators = [{"id": f"i{k}", "name": "The Quartermaster", "sanity": k,
                      "insane": k == 0} for k in range(6)]
    view: dict[str, Any] = {"mode": "conflict", "phase": "wall", "horrors": horrors,
                            "investigators": investigators, "gates": {"open": 5},
                            "wall": {"doom": 9}, "turn": {"before": {"horrors": []}}}
    img = phone.phone_map(view, MAP_W)
    assert img.width == MAP_W and img.height <= MAP_W * 1.12
    rows = phone._street_rows(phone._read(view), phone._changes(phone._read(view), {}))
    assert len(rows) == phone.MAX_HORROR_ROWS
    notes = phone._notes(phone._read(view), phone._Changes(), rows)
    assert notes == [("+3 more Horrors On the Streets", "")]
    # The Wall's turn is framed; an Investigator's turn is not the same picture.
    other = phone.phone_map({**view, "phase": "investigator"}, MAP_W)
    assert ImageChops.difference(img, other).getbbox() is not None


def test_a_pasted_turn_tracker_carries_no_mark_of_the_walls_turn_above_it() -> None:
    """The Turn Tracker is pasted while unchanged (memo_region), and its region starts 8 px
    above it, where the bottom row of the Wall's-turn frame lands: a tracker kept from a card
    drawn on the Wall's turn showed a stray yellow line under the Wall's card on the next
    card (found by drawing many games' cards interleaved, cached against uncached)."""
    from renders.common import clear_layer_cache, uncached

    view = next(v for v in _playout("conflict", 2, seed=3, want=60, every=2)
                if phone._read(v).ranks)
    walls_turn = {**copy.deepcopy(view), "phase": "wall"}
    investigators = {**copy.deepcopy(view), "phase": "investigator"}
    assert phone._read(walls_turn).wall_turn and not phone._read(investigators).wall_turn
    clear_layer_cache()
    try:
        for drawn in (walls_turn, investigators, walls_turn):
            cached = phone.phone_map(drawn, MAP_W)
            with uncached():
                fresh = phone.phone_map(drawn, MAP_W)
            assert ImageChops.difference(cached, fresh).getbbox() is None, drawn["phase"]
    finally:
        clear_layer_cache()


@pytest.mark.parametrize("mode", MODES)
def test_the_turn_card_keys_the_glyphs_its_map_draws(mode: str) -> None:
    """Stop 63's and 64's demos: the heart's number, the Target's cross-hairs, the change
    badges and the Symbol discs had no key on a phone. The card now draws a legend of the
    ones its map shows, and only those."""
    from renders.fourth_wall_phone import legend_items, phone_legend

    views = _playout(mode, 4, seed=9, want=12, every=5)
    seen: set[str] = set()
    for view in views:
        items = dict(legend_items(view))
        seen |= set(items)
        needs = {s for h in phone._read(view).horrors for s in h.need}
        assert {k[4:] for k in items if k.startswith("sym:")} == needs
        img = phone_legend(view, 700)
        assert (img is None) == (not items)
        if img is not None:
            # Four rows at most: the tick, the Horror and the change tags joined the key.
            assert img.width == 700 and img.height <= 200
    assert "heart" in seen


def _changed_view(mode: str) -> dict[str, Any]:
    """A view whose map draws a ticked (negated) Symbol, a "+1" on a Horror, a NEW Horror and a
    GONE one: a Brute with a Force Attached since the last post, a Watcher come and a Cultist
    gone."""
    from rules.fourth_wall.engine import Engine
    from tests.fourth_wall.helpers import (
        clear_streets,
        free_marble,
        inv_turn,
        new_game,
        put_horror,
    )

    st = inv_turn(new_game(mode, 2, 1), "i1")
    clear_streets(st)
    alliance = mode == "alliance"
    brute = put_horror(st, "H-BRUTE", **({"street": 1} if alliance else {}))
    cultist = put_horror(st, "H-CULTIST", **({"street": 3} if alliance else {}))
    before = GAME.view(st, None)
    Engine(st).on_streets(brute).attached.append(free_marble(st, "M-F"))  # type: ignore[union-attr]
    st.streets = [h for h in st.streets if h.id != cultist]
    put_horror(st, "H-WATCHER", **({"street": 2} if alliance else {}))
    view = GAME.view(st, None)
    view["turn"] = {"awaited": ["Basil"], "doing": "Take your turn.", "happened": [],
                    "result": None, "before": before}
    return view


@pytest.mark.parametrize("mode", MODES)
def test_the_legend_keys_the_tick_the_horror_and_the_new_and_gone_tags(
        mode: str, tmp_path: Path) -> None:
    """Demo readers: the tick on a negated Defeat Symbol, the Horror's token, a count on a
    Horror and the NEW / GONE tags had no key below the map. Each is keyed when the map draws
    it, never otherwise, and the key reads at a phone's 400 px."""
    from renders.fourth_wall_phone import legend_items, phone_legend

    view = _changed_view(mode)
    items = dict(legend_items(view, MAP_W))
    assert items["spent:force"] == "negated"
    assert items["horror"] == "a Horror"
    assert items["tags:NEW,GONE"] == "since the last post"
    assert items["badge"] == "Marbles since the last post"  # the Brute's "+1"
    # Nothing of it without a Horror, a negated Symbol or a previous post.
    quiet = {**view, "horrors": [], "turn": {}}
    assert not {k for k, _ in legend_items(quiet, MAP_W)} & {
        "spent:force", "horror", "tags:NEW,GONE", "badge"}
    unticked = copy.deepcopy(view)
    for h in unticked["horrors"]:
        h["negated"] = {}
    assert not any(k.startswith("spent:") for k, _ in legend_items(unticked, MAP_W))
    # A Horror row too narrow for its ticked Symbol draws no tick: none is keyed.
    assert not any(k.startswith("spent:") for k, _ in legend_items(view, 260))
    img = phone_legend(view, MAP_W)
    assert img is not None and img.width == MAP_W and img.height <= 200
    if TESSERACT is not None:
        text = read_at_phone_width(img, tmp_path)
        for words in ("negated", "Horror", "since the last post"):
            assert words in text, text
    # The "!" on a Horror newly Drained (or an Investigator gone Insane) is keyed with them.
    drained = copy.deepcopy(view)
    brute = next(h for h in drained["horrors"] if h["card"] == "H-BRUTE")
    brute["drained"] = True
    before = drained["turn"]["before"]
    old = next(h for h in before["horrors"] if h["card"] == "H-BRUTE")
    old["attached"] = brute["attached"]  # no "+1" now: the Drain is the change
    keys = dict(legend_items(drained, MAP_W))
    assert keys.get("tags:NEW,GONE,!") == "since the last post", keys


# --------------------------------------------------------------------------- names written whole
NAMES = [i.name for i in default_pack().investigators]


def _chips_view(names: list[str], changed: bool, active: int | None = 0) -> dict[str, Any]:
    """Investigators `names` (Conflict) on `active`'s turn (None: The Wall's), each holding 4
    Marbles; with `changed`, each held 1 at the previous post (a "+3" badge on every chip)."""
    invs = [{"id": f"i{k}", "name": n, "sanity": 5, "hand_count": 4, "is_active": k == active}
            for k, n in enumerate(names)]
    before = {"investigators": [{**i, "hand_count": 1} for i in invs]} if changed else None
    return {"mode": "conflict", "phase": "wall" if active is None else "investigator",
            "investigators": invs,
            "gates": {"open": 3}, "wall": {"doom": 2}, "horrors": [],
            "turn": {"awaited": ["Ada"], "doing": "Take your turn.", "before": before}}


def test_every_investigators_name_is_written_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    """Stop 66's demo read "Ralli." and "Demoliti." on the chips at 400 px: three columns
    left a name less room than it needs beside its change badge. Every name of the pack is
    written whole (on one line, or two at a space), in every table size, with a badge and
    with the arrow of whose turn it is, at 28 px or more."""
    drawn: list[str] = []
    real = ImageDraw.ImageDraw.text

    def spy(self: ImageDraw.ImageDraw, xy: Any, text: Any, *args: Any, **kw: Any) -> None:
        drawn.append(str(text))
        real(self, xy, text, *args, **kw)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", spy)
    for n in (2, 3, 4, 5, 6):
        for first in range(0, len(NAMES), n):
            names = (NAMES[first:] + NAMES)[:n]
            for changed in (False, True):
                for active in (0, n - 1):
                    drawn.clear()
                    img = phone.phone_map(_chips_view(names, changed, active), MAP_W)
                    said = " ".join(drawn)
                    for name in names:
                        assert name.removeprefix("The ") in said, (name, drawn)
                    assert not any(t.endswith(".") for t in drawn), drawn
                    assert img.height <= MAP_W * 1.12


@pytest.mark.skipif(TESSERACT is None, reason="tesseract is not installed")
def test_the_longest_names_read_whole_at_phone_width(tmp_path: Path) -> None:
    """Tesseract reads every Investigator's name whole on the turn card shrunk to 400 px, in
    three columns and in two (on The Wall's turn with nothing changed; the frame of whose
    turn it is and the change rings: the next test)."""
    longest = sorted(NAMES, key=len, reverse=True)
    for names in (longest[:3], longest[:6], ["The Rallier", *longest[:2]],
                  ["The Rallier", "The Fixer", "The Seer"]):
        text = " ".join(read_at_phone_width(render_turn_image(
            "fourth_wall", _chips_view(names, False, None)), tmp_path).split())
        for name in names:
            assert name.removeprefix("The ") in text, (name, text)


@pytest.mark.skipif(TESSERACT is None, reason="tesseract is not installed")
def test_names_read_inside_the_turns_frame_and_the_change_rings(tmp_path: Path) -> None:
    """Stop 67: on the card shrunk to 400 px tesseract lost or misread a name boxed by the
    thick frame of whose turn it is or by a dashed change ring ("street Magician", "Demo!",
    "Street Magi"), though each chip cropped alone read (stop 66 left the test above on The
    Wall's turn with nothing changed for that). Every name reads, on the first and on the last
    Investigator's turn, and with every chip's Marbles changed, on The Wall's turn and on an
    Investigator's."""
    longest = sorted(NAMES, key=len, reverse=True)
    misses: list[str] = []
    for names in (longest[:6], NAMES[8:12], NAMES[:4]):
        for changed, active in ((False, 0), (False, len(names) - 1), (True, None), (True, 1)):
            text = " ".join(read_at_phone_width(render_turn_image(
                "fourth_wall", _chips_view(names, changed, active)), tmp_path).split())
            misses += [f"{name} (changed: {changed}, turn: {active}) in {text!r}"
                       for name in names if name.removeprefix("The ") not in text]
    # 56 names read; the code before missed 20. Two misses are forgiven: a few pixels move
    # tesseract's reading (stop 67 measured 2-14 misses in 136 as a name moved 14-28 px), and
    # another tesseract version than the one measured (5.3) must not fail the suite.
    assert len(misses) <= 2, "\n".join(misses)


# --------------------------------------------------------------------------- short forms noted
def test_a_horror_or_wall_name_written_short_is_noted_as_a_cut() -> None:
    """Stop 67: a Horror's row and The Wall's line fell back to a short form ("Spirit",
    "Breaker") without noting the cut, so the whole-game "nothing cut" test could not see
    it; Investigator chips already noted theirs. A name drawn whole notes nothing."""
    from renders.common import reset_truncations, truncations

    horror = {"id": "h1", "name": "Restless Spirit", "street": 3, "drained": True,
              "scourge": True, "defeat_cost": ["clue", "force", "science"] * 2, "attached": []}
    # Alliance's row counts the Presence cards to come (stop 70), as a played view holds
    wall = {"revealed": True, "name": "The Breaker of Trinkets", "doom": 9,
            "presence_cards": {"n": 9, "this_turn": True}}
    view: dict[str, Any] = {
        "mode": "alliance", "phase": "wall", "gates": {"open": 2}, "wall": wall,
        "horrors": [horror], "streets": [{"number": 3}], "investigators": [],
        "turn": {"before": {"mode": "alliance", "gates": {"open": 2},
                            "wall": {"revealed": False, "doom": 1}, "horrors": [],
                            "streets": [{"number": 3}]}}}
    reset_truncations()
    phone.phone_map(view, 520)  # narrower than the card's: the Wall's name is cut too
    assert set(truncations()) == {"Restless Spirit", "The Breaker of Trinkets"}, truncations()
    # The same board with room for both names: nothing is noted.
    reset_truncations()
    phone.phone_map({**view, "horrors": [{**horror, "name": "Ghoul", "defeat_cost": []}],
                     "wall": {**wall, "name": "The Shredder"}}, MAP_W)
    assert truncations() == []


def test_the_walls_name_is_written_whole_beside_a_grown_doom() -> None:
    """Stop 67: on the card, "The Breaker of Trinkets" just revealed beside a Doom that grew
    was written "Breaker" while four Doom tokens kept their room; the tokens give way first
    (the count stays written)."""
    from renders.common import reset_truncations, truncations

    drawn: list[str] = []
    real = ImageDraw.ImageDraw.text

    def spy(self: ImageDraw.ImageDraw, xy: Any, text: Any, *args: Any, **kw: Any) -> None:
        drawn.append(str(text))
        real(self, xy, text, *args, **kw)

    view: dict[str, Any] = {
        "mode": "conflict", "phase": "wall", "gates": {"open": 2}, "horrors": [],
        "wall": {"revealed": True, "name": "The Breaker of Trinkets", "doom": 9},
        "investigators": [],
        "turn": {"before": {"mode": "conflict", "gates": {"open": 2},
                            "wall": {"revealed": False, "doom": 1}}}}
    reset_truncations()
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(ImageDraw.ImageDraw, "text", spy)
        phone.phone_map(view, MAP_W)
    assert "Breaker of Trinkets" in drawn and "Doom 9" in drawn, drawn
    assert truncations() == []


# --------------------------------------------------------------------------- rings on the rows
HORRORS = [(h.name, list(h.defeat)) for h in default_pack().horrors]
# (Gates now, Gates at the previous post): every Gate changes, each way, across the four.
GATE_CHANGES = [
    ([True, True, False, False, False], [False, False, True, True, False]),
    ([True, False, True, False, True], [False, True, False, True, False]),
    ([False, False, False, False, True], [True, True, True, True, False]),
    ([True, True, True, True, False], [False, False, True, False, True]),
]


def _rows_view(mode: str, gates: tuple[list[bool], list[bool]], first: int,
               scourge: int, wall_turn: bool) -> dict[str, Any]:
    """A board whose Gates changed as `gates` says and whose five Horror rows (the pack's,
    from `first` on) each changed: the first arrived, the others gained or lost Marbles or
    were Drained, the row `scourge` bears The Scourge (Conflict); three Investigators, a Turn
    Tracker, some Doom."""
    now_gates, was_gates = gates
    horrors: list[dict[str, Any]] = []
    was_horrors: list[dict[str, Any]] = []
    for k in range(5):
        name, cost = HORRORS[(first + k) % len(HORRORS)]
        h: dict[str, Any] = {"id": f"h{k}", "name": name, "defeat_cost": cost,
                             "attached": ["m"] * (k % 3), "drained": k == 3,
                             "scourge": k == scourge and mode == "conflict"}
        if mode == "alliance":
            h["street"] = k + 1
        horrors.append(h)
        if k:
            was = {**h, "attached": ["m"] * (k % 3 + (1 if k == 2 else -1 if k == 1 else 0)),
                   "drained": False, "scourge": False}
            was_horrors.append(was)
    invs = [{"id": f"i{k}", "name": n, "sanity": 5, "hand_count": 3 + k,
             "is_active": k == 1 and not wall_turn}
            for k, n in enumerate(["The Fixer", "The Seer", "The Rallier"])]
    ranks = [{"rank": r, "stage": s, "current": r == 6}
             for r, s in zip(range(9, -1, -1), ["slumber"] * 4 + ["eye_opens"] * 3
                             + ["crescendo"] * 2 + ["awakens"], strict=True)]
    base: dict[str, Any] = {
        "mode": mode, "phase": "wall" if wall_turn else "investigator",
        "investigators": invs, "wall": {"doom": 3}, "tracker": {"ranks": ranks},
        "streets": [{"number": k} for k in range(1, 6)] if mode == "alliance" else []}
    before = {**base, "gates": {"open": sum(was_gates), "pentagram": was_gates},
              "horrors": was_horrors}
    return {**base, "gates": {"open": sum(now_gates), "pentagram": now_gates},
            "horrors": horrors,
            "turn": {"awaited": ["Ada"], "doing": "Take your turn.", "before": before}}


@pytest.mark.skipif(TESSERACT is None, reason="tesseract is not installed")
def test_gates_and_horror_names_read_inside_the_change_rings(tmp_path: Path) -> None:
    """Stop 68: shrunk to 400 px, tesseract misread "Gate N" above a changed Gate and the
    names of changed Horror rows ("Restless Spit", "cultist_-~777", a lost "Brute"), boxed by
    the bright dashed change ring, as stop 67 found of Investigator chips. Every Gate's
    number and every Horror's name reads on boards where each Gate and each Horror row
    changed, in both modes, on The Wall's turn and on an Investigator's."""
    misses: list[str] = []
    for mode in MODES:
        for g, gates in enumerate(GATE_CHANGES):
            for first in (0, 3):
                view = _rows_view(mode, gates, first, scourge=4 - g, wall_turn=g % 2 == 0)
                text = " ".join(read_at_phone_width(
                    render_turn_image("fourth_wall", view), tmp_path).split())
                read = set(GATE_RE.findall(text))
                misses += [f"{mode} Gate {k} in {text!r}" for k in "12345" if k not in read]
                misses += [f"{mode} {h['name']} in {text!r}" for h in view["horrors"]
                           if h["name"] not in text]
    # 160 words read; the code before missed 21 (stop 68). Two misses are forgiven, as for the
    # names in the Investigators' frames above (tesseract moves with a few pixels and its
    # version).
    assert len(misses) <= 2, f"{len(misses)} misses:\n" + "\n".join(misses)


# --------------------------------------------------------------------------- setup
def test_no_marble_count_before_the_marbles_are_dealt(monkeypatch: pytest.MonkeyPatch) -> None:
    """Stop 68's demos: while the others still chose their Investigator cards, a chosen
    Investigator's heart read "0" and the card's numbers "Fewest Marbles 0" (in danger's red),
    though no Marble is dealt before every card is chosen (FW-SETUP). Until then the heart
    holds no number, the key names no "Marbles held" and the numbers no Fewest Marbles; once
    the Marbles are dealt, they say what each holds."""
    from renders.cardwords import numbers

    seats = ["s1", "s2", "s3"]
    state = GAME.setup(seats, GAME.options_model(mode="alliance"), 68)
    seat = sorted(GAME.to_act(state))[0]
    state = GAME.apply(state, seat, GAME.legal_actions(state, seat)[0]).state
    view = GAME.view(state, None)
    assert view["phase"] == "setup" and view["investigators"][0]["sanity"] == 5
    hearts: list[str] = []  # what the map writes in a heart (white type with a dark stroke)
    real = ImageDraw.ImageDraw.text

    def spy(self: ImageDraw.ImageDraw, xy: Any, text: Any, *args: Any, **kw: Any) -> None:
        if kw.get("stroke_width"):
            hearts.append(str(text))
        real(self, xy, text, *args, **kw)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", spy)
    phone.phone_map(view, MAP_W)
    assert hearts == [], hearts
    assert "heart" not in dict(phone.legend_items(view, MAP_W))
    assert "Fewest Marbles" not in [n.label for n in numbers("fourth_wall", view)]
    # Every card chosen: the Marbles are dealt and counted.
    while GAME.view(state, None)["phase"] == "setup":
        seat = sorted(GAME.to_act(state))[0]
        state = GAME.apply(state, seat, GAME.legal_actions(state, seat)[0]).state
    view = GAME.view(state, None)
    phone.phone_map(view, MAP_W)
    assert hearts == [str(i["hand_count"]) for i in view["investigators"]], hearts
    assert "heart" in dict(phone.legend_items(view, MAP_W))
    assert "Fewest Marbles" in [n.label for n in numbers("fourth_wall", view)]


# --------------------------------------------------------------------------- twins told apart
@pytest.mark.skipif(TESSERACT is None, reason="tesseract is not installed")
def test_four_ghoul_rows_are_told_apart_at_phone_width(tmp_path: Path) -> None:
    """Stop 69: in Conflict four Ghoul rows looked alike on the map (the log told them apart:
    "Ghoul (the older one)", "(the third to arrive)", "(The Scourge)"). Each row says which
    Ghoul it is in the log's words, readable at 400 px; The Scourge's row says SCOURGE. The
    full board's Horror cards say the same."""
    from renders import fourth_wall as fw
    from tests.fourth_wall.helpers import clear_streets, inv_turn, new_game, put_horror

    st = inv_turn(new_game("conflict", 4, seed=2)).model_copy(deep=True)
    clear_streets(st)
    ghouls = [put_horror(st, "H-GHOUL", drained=k == 1) for k in range(4)]
    st.scourge = ghouls[2]
    view = GAME.view(st, None)
    view["names"] = {s: PLAYERS[k] for k, s in enumerate(st.seats)}
    view["turn"] = {**view["turn"], "awaited": ["Basil"], "doing": "Take your turn.",
                    "happened": [], "result": None}
    text = " ".join(read_at_phone_width(render_turn_image("fourth_wall", view),
                                        tmp_path).split())
    for row in ("Ghoul (first)", "Ghoul (second)", "Ghoul (fourth)", "SCOURGE"):
        assert row in text, (row, text)
    assert [h.called for h in fw._read(view).horrors] == [
        "Ghoul (first)", "Ghoul (second)", "Ghoul", "Ghoul (fourth)"]


def test_FW_ALLY_02_alliances_wall_row_counts_the_presence_cards_as_the_tile_does() -> None:
    """Stop 70's Alliance demo: the card's tile read "Presence cards 3 · next Wall turn"
    (stop 69) while the map's Ancient One row above it read "Doom 0" (the pool is spent
    whole at each Wall turn). The row counts the same cards; at game over, with no Wall turn
    to come, it counts nothing (the tile is left out too); Conflict keeps its Doom."""
    from renders.cardwords import numbers
    from rules.fourth_wall.engine import Engine
    from tests.fourth_wall.helpers import inv_turn, new_game

    def drawn_words(view: dict[str, Any]) -> list[str]:
        out: list[str] = []
        real = ImageDraw.ImageDraw.text

        def spy(self: ImageDraw.ImageDraw, xy: Any, text: Any, *a: Any, **kw: Any) -> None:
            out.append(str(text))
            real(self, xy, text, *a, **kw)

        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(ImageDraw.ImageDraw, "text", spy)
            phone.phone_map(view, MAP_W)
        return out

    game = GAMES["fourth_wall"]
    st = inv_turn(new_game("alliance", 3, seed=2))
    view = game.view(st, None)
    n = view["wall"]["presence_cards"]["n"]
    tile = next(x for x in numbers("fourth_wall", view) if x.label == "Presence cards")
    assert tile.value == str(n) and n != view["wall"]["doom"]
    words = drawn_words(view)
    assert f"{n} cards" in words and not any(w.startswith("Doom") for w in words), words
    eng = Engine(st)
    eng.finish("investigators", "every Gate is closed")
    over = game.view(eng.st, None)
    over["turn"] = {"before": view}
    words = drawn_words(over)
    assert not any(w.startswith("Doom") or w.endswith(("card", "cards")) for w in words), words
    conflict = game.view(inv_turn(new_game("conflict", 3, seed=2)), None)
    assert any(w.startswith("Doom ") for w in drawn_words(conflict))
