"""Issue #22 part 1: The Exorcism's house on the turn card, readable on a phone
(renders/exorcism_phone.py).

Along random legal games of every mode, the whole turn card scaled to a phone's 400 px
column reads back (tesseract) the awaited player's name and at least four room names; the
map marks what changed since the previous board post (a moved pawn) and nothing when there is
no previous post; it never raises on an empty or broken view; it is exactly as wide as asked
and about as tall as it is wide.
"""

from __future__ import annotations

import copy
import re
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from renders import exorcism_phone as phone
from renders.turncard import PAD, WIDTH, render_turn_image
from rules.core.players import random_move
from rules.core.rng import Rng
from rules.registry import GAMES
from tests.renders.ocr import TESSERACT, read_at_phone_width
from tests.rules.cases import CASES

PLAYERS = ("Ada", "Basil", "Clara", "Dmitri", "Eve")
EXORCISM = [(mode, n) for game, mode, n in CASES if game == "exorcism"]
MAP_W = WIDTH - 2 * PAD
PER_MODE = 8  # sampled board posts per mode, spread over its tables (12 until stop 64)


def _public(game: Any, state: Any, seats: list[str], before: dict[str, Any] | None
            ) -> dict[str, Any]:
    """The public view with the bot's ``names`` and a ``turn`` awaiting one player by name."""
    view: dict[str, Any] = game.view(state, None)
    names = {s: PLAYERS[k] for k, s in enumerate(seats)}
    view["names"] = names
    awaited = sorted(game.to_act(state))
    result = game.result(state)
    view["turn"] = {
        "awaited": [names[awaited[0]]] if awaited else [],
        "doing": (view.get("prompt") or {}).get("text") or "Take your turn.",
        "happened": list(view.get("log") or [])[-3:],
        "result": result.reason if result else None,
        "before": before,
    }
    return view


def _posts(mode: str, n: int, count: int, seed: int, every: int = 17
           ) -> Iterator[dict[str, Any]]:
    """``count`` public views along random legal games (each with the previous sampled post
    as ``before``), from the setup on; a game that ends early is followed by another."""
    game = GAMES["exorcism"]
    seats = [f"s{k}" for k in range(1, n + 1)]
    while count:
        state = game.setup(seats, game.options_model(mode=mode), seed)
        rng = Rng.from_seed(seed)
        before: dict[str, Any] | None = None
        step = 0
        while count:
            over = game.result(state) is not None
            if step % every == 0 or over:
                view = _public(game, state, seats, before)
                yield view
                count -= 1
                before = {k: v for k, v in view.items() if k != "turn"}
            if over:
                break
            seat, action = random_move(game, state, rng)
            state = game.apply(state, seat, action).state
            step += 1
        seed += 1000


def _room_names(view: dict[str, Any]) -> list[str]:
    """The names the map prints for the face-up rooms, the Attic and the Foyer."""
    names = phone.printed_names(view, MAP_W)
    assert len(names) == 2 + sum(1 for c in view["cells"]
                                 if c["kind"] == "house" and not c["face_down"])
    return names


# --------------------------------------------------------------------------- OCR





def _read_back(name: str, text: str) -> bool:
    """``name`` in the OCR text, its words in order, whatever the spacing and line breaks."""
    words = [re.escape(w) for w in name.split()]
    return re.search(r"\s*".join(words), text, re.IGNORECASE) is not None


@pytest.mark.skipif(TESSERACT is None, reason="tesseract is not installed "
                    "(apt-get install -y tesseract-ocr; .ci/run installs it)")
@pytest.mark.parametrize("mode", ["core", "one_vs_all", "solo"])
def test_phone_card_reads_the_awaited_player_and_four_rooms(mode: str, tmp_path: Path) -> None:
    tables = [n for m, n in EXORCISM if m == mode]
    passed, sampled, misses = 0, 0, []
    for k, n in enumerate(tables):
        share = PER_MODE // len(tables) + (1 if k < PER_MODE % len(tables) else 0)
        for view in _posts(mode, n, share, seed=31 + n):
            who = view["turn"]["awaited"]
            if not who:
                continue
            text = read_at_phone_width(render_turn_image("exorcism", view), tmp_path)
            rooms = [r for r in _room_names(view) if _read_back(r, text)]
            sampled += 1
            if _read_back(who[0], text) and len(set(rooms)) >= 4:
                passed += 1
            else:
                misses.append((who[0], rooms, text))
    assert sampled >= PER_MODE * 2 // 3
    assert passed * 4 >= sampled * 3, misses


# --------------------------------------------------------------------------- the map


@pytest.mark.parametrize("dropped", [
    (("key", 2), ("weapon", 1), ("occult", 1)),
    (("key", 1), ("weapon", 1), ("occult", 1)),
    (("key", 3), ("weapon", 2), ("occult", 1), ("detection", 1)),
    (("key", 12), ("weapon", 1), ("occult", 1)),
])
@pytest.mark.parametrize("cold_spot", [False, True])
def test_a_shrouded_rooms_four_darkness_beside_three_tool_types_are_never_covered(
        dropped: tuple[tuple[str, int], ...], cold_spot: bool) -> None:
    """Stop 69: on the phone map a Shrouded Room with 4 Darkness and 2 Keys, a Weapon and an
    Occult Item drew the discs 12 px apart (the closest allowed) and the Tools' mark "2+2"
    on its background over the last disc. In a turn card's Room (about 166 px of bottom row)
    every Darkness is told, as discs nothing covers or as one disc and its number, and no mark
    is drawn over another."""
    from PIL import ImageDraw

    cell = phone.Cell(id="r2c3", row=2, col=3, kind="house", name="Supply Room",
                      face_down=False, shrouded=True, darkness=4, tokens=0,
                      dropped=dropped, cold_spot=cold_spot, location=5)
    d = ImageDraw.Draw(Image.new("RGB", (200, 40)))
    discs: list[tuple[float, ...]] = []
    covers: list[tuple[float, ...]] = []
    said: list[str] = []
    ellipse, rectangle, text = d.ellipse, d.rectangle, d.text

    def disc(box: Any, **kw: Any) -> None:
        if box[2] - box[0] > 15:  # a Darkness token, not a free slot
            discs.append(tuple(box))
        ellipse(box, **kw)

    def cover(box: Any, **kw: Any) -> None:
        covers.append(tuple(box))
        rectangle(box, **kw)

    def words(xy: Any, w: str, **kw: Any) -> None:
        said.append(w)
        text(xy, w, **kw)

    d.ellipse, d.rectangle, d.text = disc, cover, words  # type: ignore[method-assign]
    phone._draw_bottom(d, (7, 20, 172), cell, (0, 0, 0))
    assert discs, said
    # Nothing drawn over: the Tools' mark fits after the Darkness (and a Cold Spot's
    # snowflake, left out where it does not: the Room's frame tells it).
    assert covers == [], (dropped, covers, discs)
    told = len(discs) if len(discs) > 1 else int(said[0]) if said and said[0].isdigit() else 1
    assert told == 4, (dropped, discs, said)
    assert all(b[2] <= 172 - 24 for b in discs), discs  # left of the location die


def _first_view(mode: str = "core", n: int = 3, steps: int = 0) -> dict[str, Any]:
    posts = list(_posts(mode, n, 1 + steps // 17, seed=7))
    view = posts[-1]
    view["turn"]["before"] = None
    return view


def _changed_pixels(img: Image.Image) -> int:
    colours = img.getcolors(img.width * img.height) or []
    return sum(count for count, colour in colours if colour == phone.CHANGED)


def test_a_moved_pawn_is_marked_and_nothing_is_without_a_previous_post() -> None:
    view = _first_view()
    plain = phone.phone_map(view, MAP_W)
    assert _changed_pixels(plain) == 0

    same = copy.deepcopy(view)
    same["turn"]["before"] = copy.deepcopy({k: v for k, v in view.items() if k != "turn"})
    assert _changed_pixels(phone.phone_map(same, MAP_W)) == 0  # nothing moved: no marks

    moved = copy.deepcopy(same)
    cells = moved["cells"]
    src = next(c for c in cells if c["pawns"])
    dst = next(c for c in cells if c["kind"] == "house" and not c["pawns"] and not c["ghosts"])
    dst["pawns"].append(src["pawns"].pop(0))
    img = phone.phone_map(moved, MAP_W)
    assert img.size[0] == MAP_W
    assert _changed_pixels(img) > 0
    marks = phone._marks(moved, phone._read_cells(moved))
    pawn = dst["pawns"][0]
    assert marks.moved == {f"pawn:{pawn['investigator']}": phone._direction(
        phone._read_cells(view)[cells.index(src)], phone._read_cells(moved)[cells.index(dst)])}
    assert marks.cells == {src["id"], dst["id"]}
    # The marks are in the columns the pawn left and went to, and nowhere else but the key.
    cell_w = (MAP_W - phone.GAP * 3) / 4
    for col in range(1, 5):
        x0 = round((col - 1) * (cell_w + phone.GAP))
        column = img.crop((x0, 0, round(x0 + cell_w), img.height))
        marked = col in (src["col"], dst["col"])
        assert (_changed_pixels(column) > 0) == marked or col == 1, col


def test_a_darkened_room_and_a_new_ghost_are_marked() -> None:
    view = _first_view()
    view["turn"]["before"] = copy.deepcopy({k: v for k, v in view.items() if k != "turn"})
    room = next(c for c in view["cells"] if c["kind"] == "house" and not c["face_down"])
    room["darkness"] += 1
    room["ghosts"] = ["bull"]
    marks = phone._marks(view, phone._read_cells(view))
    assert room["id"] in marks.cells
    assert marks.moved.get("ghost:bull") == "new"
    assert _changed_pixels(phone.phone_map(view, MAP_W)) > 0


@pytest.mark.parametrize("view", [
    {},
    {"cells": None, "names": "x", "turn": None},
    {"cells": [{}], "turn": {"before": {"cells": "nope"}}},
    {"cells": [{"row": "a", "col": None, "pawns": [{}], "ghosts": ["nobody", 3]}]},
    {"cells": [{"id": "r9c9", "row": 10_000, "col": 10_000, "kind": "house", "name": "Far"},
               {"id": "attic", "row": -3, "col": 2, "kind": "attic", "darkness": "many"}],
     "characters": {"lookouts": [None, {"name": 5}], "wounded": "Doctor"},
     "layout": {"cols": 10_000}, "seats_info": [{"seat": None}],
     "turn": {"before": {"cells": [{"id": "attic", "pawns": [{"investigator": "x"}]}]}}},
], ids=["empty", "wrong-types", "empty-cell", "bad-pieces", "far-cells"])
def test_the_map_never_raises_on_a_partial_view(view: dict[str, Any]) -> None:
    img = phone.phone_map(view, MAP_W)
    assert img.mode == "RGB"
    assert img.width == MAP_W
    assert img.height <= MAP_W * 2


@pytest.mark.parametrize(("mode", "n"), EXORCISM, ids=[f"{m}-{n}p" for m, n in EXORCISM])
def test_the_map_is_exactly_as_wide_as_asked_and_about_square(mode: str, n: int) -> None:
    for view in _posts(mode, n, 3, seed=5, every=40):
        for width in (MAP_W, 400):
            img = phone.phone_map(view, width)
            assert img.width == width
        # The Attic's and the Foyer's rows grow for whole names (stop 66): a few lines more
        assert phone.phone_map(view, MAP_W).height <= MAP_W * 1.2


def test_every_room_name_fits_its_cell_in_28_px_type() -> None:
    from renders.common import font, text_width

    content = Path(__file__).parents[2] / "rules" / "exorcism" / "content"
    names = [room["name"] for file in ("rooms.toml", "locked_rooms.toml")
             for room in tomllib.loads((content / file).read_text())["room"]]
    assert len(names) > 20
    cell_w = (MAP_W - phone.GAP * 3) / 4 - 2 * phone.PAD - 2 * phone.NAME_INSET
    fnt = font(phone.MIN_TYPE, True)
    for name in names:
        lines = phone.room_label(name, cell_w)
        assert 1 <= len(lines) <= 2, name
        assert all(text_width(line, fnt) <= cell_w for line in lines), (name, lines)


def test_the_map_draws_the_public_board_only() -> None:
    """Given a seat's view by mistake, the map draws the same picture: a hand, a peek or a
    plan is never on it (it reads the board, and the board is public)."""
    game = GAMES["exorcism"]
    seats = ["s1", "s2", "s3"]
    state = game.setup(seats, game.options_model(mode="one_vs_all"), 4)
    rng = Rng.from_seed(4)
    while not game.view(state, "s1").get("hand"):  # until the Ghost player holds Haunt cards
        seat, action = random_move(game, state, rng)
        state = game.apply(state, seat, action).state
    public = _public(game, state, seats, None)
    private = dict(game.view(state, "s1"), names=public["names"], turn=public["turn"])
    assert private.get("hand")  # the Ghost player's Haunt cards are in this view
    assert phone.phone_map(public, MAP_W).tobytes() == phone.phone_map(private, MAP_W).tobytes()


def test_two_ai_players_read_their_own_names() -> None:
    """Stop 60: "AI Moth" and "AI Shade" both read "AI" (then "AI2", "AI3"); the word that
    tells the names apart labels each seat."""
    game = GAMES["exorcism"]
    state = game.setup(["s1", "s2", "s3"], game.options_model(mode="core"), 1)
    view = game.view(state, None)
    view["names"] = {"s1": "AI Moth", "s2": "AI Shade", "s3": "Ada"}
    assert phone._short_names(view) == {"s1": "Moth", "s2": "Shade", "s3": "Ada"}


def test_ex_solo_one_players_two_characters_read_their_characters() -> None:
    """EX-SOLO: stop 61's Solo demo drew the one player's Primary and Secondary as "Ada1" and
    "Ada2" (only a paler blue told them apart): each pawn reads its Character. At a table of
    one Character each a pawn still reads its player."""
    game = GAMES["exorcism"]
    state = game.setup(["s1"], game.options_model(mode="solo"), 5)
    while not [p for c in game.view(state, None)["cells"] for p in c.get("pawns", [])]:
        seat = sorted(game.to_act(state))[0]
        state = game.apply(state, seat, game.ai_action(state, seat)).state
    view = game.view(state, None)
    view["names"] = {"s1": "Ada"}
    pawns = {p.key: p.labels[0] for c in phone._read_cells(view) for p in c.pieces
             if not p.ghost}
    assert pawns == {"pawn:primary": "Psy", "pawn:secondary": "Bod"}, pawns
    state = game.setup(["s1", "s2"], game.options_model(mode="core"), 5)
    while not [p for c in game.view(state, None)["cells"] for p in c.get("pawns", [])]:
        seat = sorted(game.to_act(state))[0]
        state = game.apply(state, seat, game.ai_action(state, seat)).state
    view = game.view(state, None)
    view["names"] = {"s1": "Ada", "s2": "Basil"}
    labels = {p.labels[0] for c in phone._read_cells(view) for p in c.pieces if not p.ghost}
    assert labels == {"Ada", "Basil"}, labels


def _every_word_drawn(monkeypatch: Any) -> list[str]:
    """Every text any picture draws from now on (the test's monkeypatch undoes it), in order:
    the names a map writes, whole or cut."""
    from PIL import ImageDraw

    said: list[str] = []
    draw_text = ImageDraw.ImageDraw.text

    def text(self: Any, xy: Any, words: str, *args: Any, **kw: Any) -> None:
        said.append(words)
        draw_text(self, xy, words, *args, **kw)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", text)
    return said


def _words_drawn(size: tuple[int, int], draw: Any) -> list[str]:
    """The words `draw(d)` writes on a fresh image of `size`, in order."""
    from PIL import ImageDraw

    d = ImageDraw.Draw(Image.new("RGB", size))
    said: list[str] = []
    draw_text = d.text

    def text(xy: Any, words: str, **kw: Any) -> None:
        said.append(words)
        draw_text(xy, words, **kw)

    d.text = text  # type: ignore[method-assign]
    draw(d)
    return said


def test_a_list_box_too_small_for_every_name_says_how_many_more() -> None:
    """Stop 64's recap: "Escaped: →Arc., →Jou., →Pho., →Doc." of five escaped Characters,
    the fifth dropped unsaid; the box now ends in "+N" for those it cannot hold."""
    names = ["Psychologist", "Photographer", "Journalist", "Bodyguard", "Architect", "Doctor"]
    said = _words_drawn((400, 120), lambda d: phone._draw_list(
        d, (0, 0, 220, 50), "Escaped", [(n, "escaped") for n in names], False))
    shown = [w for w in said if w != "Escaped:"]
    more = [w for w in shown if w.startswith("+")]
    assert more, said
    assert len(shown) - 1 + int(more[0].lstrip("+").rstrip(",")) == len(names), said


def test_dropped_tools_are_counted_never_left_out() -> None:
    """Stop 64's One vs All demo: 2 Weapons, 3 Keys and an Occult Item in the Occult Room drew
    as 2 Weapons and a Key (three icons a type, then nothing once the row was full). Each type
    is one icon with its count, and what does not fit is "+N"."""
    cell = phone.Cell(id="r1c1", row=1, col=1, kind="house", name="Occult Room",
                      face_down=False, shrouded=False, darkness=0, tokens=0,
                      dropped=(("weapon", 2), ("key", 3), ("occult", 1)), cold_spot=False,
                      location=6)
    for width, told in ((300, ["2", "3"]), (220, ["2+4"]), (150, ["2+4"])):
        said = _words_drawn((width + 20, 40), lambda d, w=width: phone._draw_bottom(
            d, (0, 20, w), cell, (0, 0, 0)))
        assert said == told, (width, said)


def test_tools_beside_many_darkness_discs_keep_their_tool_icons(monkeypatch: Any) -> None:
    """Stop 68's demo: the Occult Room's three Darkness discs, then a bare "+2" for its Key and
    Weapon, which read as two more Darkness. In a turn card's Room (about 166 px of bottom
    row) the Tools keep their own icons, the Darkness discs closing up for them; what does not
    fit is a mark led by a Tool's icon ("2+2": two of this Tool and two more Tools)."""
    drawn: list[str] = []
    real = phone.icon

    def icon(d: Any, name: str, *args: Any, **kw: Any) -> None:
        drawn.append(name)
        real(d, name, *args, **kw)

    monkeypatch.setattr(phone, "icon", icon)
    for darkness, shrouded, dropped, told, icons in (
            (3, False, (("key", 1), ("weapon", 1)), [], ["key", "sword"]),
            (4, True, (("key", 1), ("weapon", 1)), [], ["key", "sword"]),
            (4, True, (("key", 2), ("weapon", 1), ("occult", 1)), ["4", "2+2"], ["key"])):
        cell = phone.Cell(id="r2c3", row=2, col=3, kind="house", name="Occult Room",
                          face_down=False, shrouded=shrouded, darkness=darkness, tokens=0,
                          dropped=dropped, cold_spot=False, location=6)
        drawn.clear()
        said = _words_drawn((200, 40), lambda d, c=cell: phone._draw_bottom(
            d, (7, 20, 172), c, (0, 0, 0)))
        assert said == told, (darkness, dropped, said)
        assert [n for n in drawn if n != "die"] == icons, (darkness, dropped, drawn)


def _crowded_foyer(n: int) -> dict[str, Any]:
    """Every pawn in the Foyer, three long-named Lookouts and two Wounded (stop 65's demos)."""
    game = GAMES["exorcism"]
    seats = [f"s{k}" for k in range(1, n + 1)]
    state = game.setup(seats, game.options_model(mode="core"), 1)
    view = game.view(state, None)
    view["names"] = dict(zip(seats, ["Ada", "AI Shade", "AI Moth", "AI Raven", "AI Wisp"],
                             strict=False))
    pawns = [p for c in view["cells"] for p in c.get("pawns", [])]
    for c in view["cells"]:
        c["pawns"] = pawns if c["kind"] == "foyer" else []
    view["characters"]["lookouts"] = [{"id": c.lower(), "name": c} for c in
                                      ("Photographer", "Journalist", "Psychologist")]
    view["characters"]["wounded"] = [{"id": c.lower(), "name": c} for c in
                                     ("Bodyguard", "Detective")]
    return view


@pytest.mark.parametrize("n", [3, 5])
def test_foyer_pawns_and_the_lookouts_read_whole_names(n: int, monkeypatch: Any) -> None:
    """Stop 65's demos: Foyer pawns "Sha" and "Mo" (AI Shade, AI Moth), "Lookouts:
    Photogra., Journalist, Psycholog." and "Wounded: ♥Photogr.": a crowded Foyer spreads over
    the free cell beside it and the side rows grow a line, so every name is whole."""
    from renders.common import uncached

    said = _every_word_drawn(monkeypatch)
    view = _crowded_foyer(n)
    with uncached():
        img = phone.phone_map(view, MAP_W)
    players = set(phone._short_names(view).values())
    assert players <= set(said), (players, said)
    for name in ("Photographer,", "Journalist,", "Psychologist", "Bodyguard,", "Detective"):
        assert name in said, said
    assert img.height <= MAP_W * 1.2


@pytest.mark.skipif(TESSERACT is None, reason="tesseract is not installed")
def test_foyer_pawns_and_the_lookouts_read_back_at_a_phones_width(tmp_path: Path) -> None:
    """The same, read back by tesseract at 400 px (stop 66)."""
    text = read_at_phone_width(phone.phone_map(_crowded_foyer(3), MAP_W), tmp_path)
    for name in ("Photographer", "Journalist", "Psychologist", "Bodyguard", "Detective",
                 "Moth"):
        assert _read_back(name, text), (name, text)


def _crowded_room(n: int, ghosts: list[str], name: str | None = None) -> dict[str, Any]:
    """Every pawn and `ghosts` in one house Room, the Key Room (r2c2), renamed `name` if
    given (a name on two lines leaves the pieces less room)."""
    view = _crowded_foyer(n)
    pawns = [p for c in view["cells"] for p in c.get("pawns", [])]
    for c in view["cells"]:
        here = c["id"] == "r2c2"
        c["pawns"] = pawns if here else []
        c["ghosts"] = list(ghosts) if here else []
        if here and name:
            c["name"] = name
    return view


@pytest.mark.parametrize(("n", "name"), [
    (3, None), (4, None), (5, None), (2, "Secret Passage A"), (3, "Secret Passage A"),
    (4, "Secret Passage A")])
def test_a_crowded_rooms_pawns_read_whole_names(n: int, name: str | None,
                                                monkeypatch: Any) -> None:
    """Stop 66 grew only the Attic and the Foyer: three players in a house Room read "Moth Ada
    Sha", five "M R A Sh W" (stop 67). A crowded Room's row grows the rows of pieces whole
    names need (a row of Rooms with no piece giving up one when the map would be too tall),
    and the map stays about square."""
    from renders.common import uncached

    said = _every_word_drawn(monkeypatch)
    view = _crowded_room(n, [], name)
    with uncached():
        img = phone.phone_map(view, MAP_W)
    players = set(phone._short_names(view).values())
    assert len(players) == n and players <= set(said), (players, said)
    assert img.height <= MAP_W * 1.2
    with uncached():
        assert phone.phone_map(view, 400).width == 400


@pytest.mark.skipif(TESSERACT is None, reason="tesseract is not installed")
def test_a_crowded_rooms_pawns_read_back_at_a_phones_width(tmp_path: Path) -> None:
    """The same, read back by tesseract at 400 px (stop 67; tesseract reads these two of the
    five chips, as it read "Moth" of the Foyer's)."""
    text = read_at_phone_width(phone.phone_map(_crowded_room(5, []), MAP_W), tmp_path)
    for name in ("Raven", "Wisp"):
        assert _read_back(name, text), (name, text)


@pytest.mark.parametrize("width", [MAP_W, 400])
def test_every_room_name_keeps_each_word_in_the_width_a_cell_draws(width: int) -> None:
    """A cell draws its name in its box's whole-pixel width, less than the map's column:
    there "Secret Passage A" and "Secret Passage B" read "Secret", the two Rooms alike and
    each a word short (stop 67). A name too wide for two lines cuts its widest words with a
    full stop ("Secret" / "Pass. A"), keeping every word."""
    from renders.common import font, text_width

    content = Path(__file__).parents[2] / "rules" / "exorcism" / "content"
    names = [room["name"] for file in ("rooms.toml", "locked_rooms.toml")
             for room in tomllib.loads((content / file).read_text())["room"]]
    cell_w = int((width - phone.GAP * 3) / 4) - 1 - 2 * phone.PAD - 2 * phone.NAME_INSET
    fnt = font(phone.MIN_TYPE, True)
    for name in names:
        lines = phone.room_label(name, cell_w)
        words = [w for w in name.split() if w.lower() != "room"] or name.split()
        drawn = " ".join(lines).split()
        assert len(drawn) == len(words), (name, lines)
        assert all(w == d or (d.endswith(".") and w.startswith(d[:-1]))
                   for w, d in zip(words, drawn, strict=True)), (name, lines)
        assert all(text_width(line, fnt) <= cell_w for line in lines), (name, lines)
