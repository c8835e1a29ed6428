"""The I Am the Fourth Wall board picture (renders/fourth_wall.py) drawn from real game views.

Checks the DESIGN.md "Board posts" habits: a PNG, landscape (never square), wide enough, small
enough to upload; the public picture cannot depend on hidden information (an Investigator's
hand, FW-VIS-06; the Wall's hand of Horrors, FW-VIS-15; the Wall card before An Eye Opens,
FW-VIS-12); the Wall seat's picture adds its card and hand, an Investigator seat's picture
adds the team's hands (FW-SETUP-07); rendering never raises on random states of both modes.
"""

from __future__ import annotations

import copy
import io
import random
from typing import Any

import pytest
from PIL import Image

from renders import renderer_for
from renders.common import PNG_SIGNATURE
from renders.fourth_wall import HEIGHT, WIDTH, render_board
from rules.core.players import playout
from rules.fourth_wall.game import GAME
from rules.fourth_wall.state import FourthWallState

MODES: tuple[tuple[str, int], ...] = (
    ("conflict", 2),
    ("conflict", 4),
    ("conflict", 7),
    ("alliance", 1),
    ("alliance", 3),
    ("alliance", 6),
)
NAMES = {
    f"s{i}": n
    for i, n in enumerate(("Morgana", "Bob", "Chloé", "Dmitri", "Eve", "Farid", "Gus"), 1)
}


def _seats(n: int) -> list[str]:
    return [f"s{i}" for i in range(1, n + 1)]


def _state(mode: str, n: int, seed: int, steps: int) -> FourthWallState:
    po = playout(GAME, GAME.options_model(mode=mode), _seats(n), seed=seed, max_steps=steps)
    state: FourthWallState = po.state
    return state


def _view(state: FourthWallState, seat: str | None) -> dict[str, Any]:
    """The view the bot renders: the engine's view plus the players' display names."""
    view = GAME.view(state, seat)
    view["names"] = {s: NAMES[s] for s in state.seats}
    return view


def _png_size(data: bytes) -> tuple[int, int]:
    with Image.open(io.BytesIO(data)) as img:
        img.load()
        return img.size


def _check_png(data: bytes) -> tuple[int, int]:
    assert data.startswith(PNG_SIGNATURE)
    width, height = _png_size(data)
    assert width >= 1280
    assert width != height
    assert width > height  # landscape
    assert len(data) < 400_000
    return width, height


def _mid_game(mode: str, n: int, seed: int = 3) -> FourthWallState:
    """A state a few rounds in that is not over (tries a few lengths)."""
    for steps in (60, 40, 25, 15):
        state = _state(mode, n, seed, steps)
        if GAME.result(state) is None and state.phase != "setup":
            return state
    raise AssertionError("no mid-game state found")


def _strip_private(view: dict[str, Any]) -> dict[str, Any]:
    """A seat's view with everything only that seat may see taken out."""
    out = copy.deepcopy(view)
    for key in ("hand", "wall_card", "seat", "viewer", "peek"):
        out.pop(key, None)
    for inv in out.get("investigators", []):
        inv["hand"] = None
        inv["dealt"] = None
    wall = out.get("wall") or {}
    if not wall.get("revealed"):
        for key in ("name", "text", "uniques", "aura"):
            wall[key] = None
    return out


# --------------------------------------------------------------------------- public picture


@pytest.mark.parametrize(("mode", "n"), MODES, ids=[f"{m}-{n}p" for m, n in MODES])
@pytest.mark.parametrize("steps", [30, 20_000], ids=["mid", "end"])
def test_public_picture_is_a_small_landscape_png(mode: str, n: int, steps: int) -> None:
    state = _state(mode, n, seed=7, steps=steps)
    if steps > 1000:
        assert GAME.result(state) is not None
    data = render_board(_view(state, None))
    assert _check_png(data) == (WIDTH, HEIGHT)


def test_registry_finds_the_renderer() -> None:
    assert renderer_for("fourth_wall") is render_board


def test_public_picture_ignores_every_hand_and_the_hidden_wall_card() -> None:
    """FW-VIS-06, FW-VIS-12, FW-VIS-15: other hands, another secret Wall card, same picture."""
    state = _mid_game("conflict", 4)
    assert not state.revealed and state.gate_supply and state.wall_hand
    public = render_board(_view(state, None))

    other_horrors = [h for h in state.horror_deck if h not in state.wall_hand]
    # Other Marbles in every hand. (A card of the last Blitz reveal stays where it is: the
    # public view lists only the revealed cards that are in no hand.)
    invs = [inv.model_copy(deep=True) for inv in state.investigators]
    pool = [m for m in state.marble_deck if m not in state.revealed_cards]
    for inv in invs:
        inv.hand = [m if m in state.revealed_cards else pool.pop() for m in inv.hand]
    swapped = state.model_copy(
        update={
            "wall_hand": other_horrors[: len(state.wall_hand)],
            "investigators": invs,
            "wall_card": state.gate_supply[0],
        },
        deep=True,
    )
    assert swapped.wall_hand != state.wall_hand and swapped.wall_card != state.wall_card
    assert [i.hand for i in swapped.investigators] != [i.hand for i in state.investigators]
    assert render_board(_view(swapped, None)) == public


@pytest.mark.parametrize("mode", ["conflict", "alliance"])
def test_public_picture_equals_every_private_view_without_its_secrets(mode: str) -> None:
    state = _mid_game(mode, 4, seed=11)
    public_view = _view(state, None)
    assert all(inv["hand"] is None for inv in public_view["investigators"])
    assert "hand" not in public_view and "wall_card" not in public_view
    public = render_board(public_view)
    for seat in state.seats:
        private = _view(state, seat)
        stripped = _strip_private(private)
        if private["prompt"] and seat in private["prompt"]["seats"]:
            # The answering seat reads its own question in full (a selection in progress,
            # FW-VIS-33); every other reader gets the public wording.
            stripped["prompt"]["text"] = public_view["prompt"]["text"]
        assert render_board(stripped) == public, seat


def test_wall_card_is_hidden_before_an_eye_opens_in_both_modes() -> None:
    for mode in ("conflict", "alliance"):
        state = _state(mode, 3, seed=5, steps=12)
        assert not state.revealed
        view = _view(state, None)
        assert view["wall"]["name"] is None
        _check_png(render_board(view))


# --------------------------------------------------------------------------- private pictures


def test_wall_seat_picture_adds_its_card_and_hand() -> None:
    state = _mid_game("conflict", 4)
    assert state.wall_seat is not None
    wall_view = _view(state, state.wall_seat)
    assert "hand" in wall_view and "wall_card" in wall_view
    private = render_board(wall_view)
    public = render_board(_view(state, None))
    assert private != public
    width, height = _check_png(private)
    assert (width, height) != (WIDTH, HEIGHT) and height > HEIGHT
    # Another hand gives another private picture.
    others = [h for h in state.horror_deck if h not in state.wall_hand][:3]
    swapped = state.model_copy(update={"wall_hand": others}, deep=True)
    assert render_board(_view(swapped, state.wall_seat)) != private


@pytest.mark.parametrize("mode", ["conflict", "alliance"])
def test_investigator_seat_picture_adds_the_team_hands(mode: str) -> None:
    state = _mid_game(mode, 3, seed=9)
    seat = state.investigators[0].seat
    view = _view(state, seat)
    assert any(inv["hand"] for inv in view["investigators"])
    private = render_board(view)
    assert private != render_board(_view(state, None))
    assert _check_png(private)[1] > HEIGHT
    # Different Marbles in a hand give a different private picture.
    invs = [inv.model_copy(deep=True) for inv in state.investigators]
    held = next(inv for inv in invs if inv.hand)
    spare = [
        m for m in state.marble_deck if state.marble_cards[m] != state.marble_cards[held.hand[0]]
    ]
    held.hand = [spare[0], *held.hand[1:]]
    swapped = state.model_copy(update={"investigators": invs}, deep=True)
    assert render_board(_view(swapped, seat)) != private


# --------------------------------------------------------------------------- robustness


def test_renders_never_raise_on_random_states() -> None:
    rng = random.Random(20240607)
    for k in range(30):
        mode, n = MODES[k % len(MODES)]
        state = _state(
            mode, n, seed=rng.randrange(10_000), steps=rng.choice([0, 2, 9, 30, 80, 400])
        )
        _check_png(render_board(_view(state, None)))
        if k % 2 == 0:  # a seat's picture too: the Wall's or an Investigator's
            seat = state.seats[(k // 2) % len(state.seats)]
            _check_png(render_board(_view(state, seat)))


def _crowded(view: dict[str, Any]) -> dict[str, Any]:
    """A view with everything at once: many Horrors, long texts, full hands."""
    horrors = view["horrors"] or [
        {
            "id": "hx",
            "name": "Cult Leader",
            "defeat_cost": ["clue", "force"],
            "attached": [],
            "text": "Trigger (2): Open a Gate.",
        }
    ]
    marble = {"id": "mx", "name": "Clue and Force Marble", "symbols": ["clue", "force"]}
    many = []
    for k in range(14):
        h = copy.deepcopy(horrors[k % len(horrors)])
        h.update(
            id=f"h{k}",
            street=(k % 5) + 1,
            drained=k % 2 == 0,
            scourge=k == 3,
            attached=[marble] * 6,
            defeat_cost=["clue", "force", "science"] * 3,
        )
        many.append(h)
    view["horrors"] = many
    view["anchored"] = [
        marble,
        {"id": "my", "name": "A Very Long Anchored Marble Name", "symbols": []},
    ] * 8
    view["revealed"] = [marble] * 9
    for inv in view["investigators"]:
        inv.update(hand_count=14, insane=True, regrouped=True, is_target=True, name="N" * 60)
        if inv.get("hand") is not None:
            inv["hand"] = [marble] * 16
    view["wall"]["doom"] = 40
    view["wall"]["doom_deferred"] = 9
    view["log"] = ["A very long event " * 30] * 40
    view["prompt"] = {"id": "p", "kind": "x", "text": "A long prompt " * 30, "seats": ["s1"]}
    if "hand" in view:
        view["hand"] = view["hand"] * 6
    return view


@pytest.mark.parametrize(("mode", "n"), MODES, ids=[f"{m}-{n}p" for m, n in MODES])
def test_crowded_and_broken_views_still_draw(mode: str, n: int) -> None:
    state = _state(mode, n, seed=2, steps=40)
    for seat in (None, state.seats[0]):
        _check_png(render_board(_crowded(_view(state, seat))))
    _check_png(render_board({}))
    _check_png(
        render_board(
            {
                "mode": mode,
                "horrors": "nonsense",
                "investigators": [None, 3, {"hand": [None]}],
                "tracker": {"ranks": [{"rank": "x", "stage": "eye_opens"}, 5]},
                "gates": {"open": 99, "pentagram": [True]},
                "wall": {"doom": float("nan")},
            }
        )
    )


def test_FW_ALLY_02_the_alliance_wall_panel_says_the_next_wall_turns_presence_cards() -> None:
    """Stop 69: Alliance's Doom pool, spent whole at each Wall turn, read 0 nearly always on
    the full board too. The Ancient One's panel says how many Presence cards the next Wall
    turn resolves (Street 5's Aura counted), as the turn card's tile does; Conflict's panel
    has no such row."""
    from renders import fourth_wall as fw
    from tests.fourth_wall.helpers import clear_streets, inv_turn, new_game, put_horror

    st = inv_turn(new_game("alliance", 3, seed=2), "i2", ap=2)
    clear_streets(st)
    put_horror(st, "H-GHOUL", street=5)
    rows = [text for _, text, _ in fw._wall_rows(fw._read(GAME.view(st, None)))]
    assert "Next Wall turn: 3 Presence cards" in rows, rows
    conflict = fw._read(GAME.view(new_game("conflict", 3, seed=2), None))
    assert not any("Presence card" in text for _, text, _ in fw._wall_rows(conflict))
