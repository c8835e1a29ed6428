"""Exorcism setup, in the rulebook's order (EX-SETUP-01..10, EX-SOLO-01, EX-OVA-03/04).

Steps 1-4 build the house, decks and clock; step 5 assigns Characters (Solo: the player
*chooses* the Primary through a prompt, EX-PROMPT-02, and the rest of setup waits for it);
steps 6-8 are the spec defaults (EX-SETUP-07): pawns on their Starting Locations, the Wraith
in the Attic, the Haunt deck shuffled, points at 0, a random first player. One vs All adds
step 9, Manipulate the Manor (a prompt to the Ghost player, EX-PROMPT-03), and step 10, the
Ghost player's hand of 3 Haunt cards.
"""

from __future__ import annotations

from rules.core.rng import Rng
from rules.exorcism.content import pack_fingerprint
from rules.exorcism.engine import Engine, cell_id_of, geometry, pack_for
from rules.exorcism.state import (
    CellState,
    ExorcismState,
    InvestigatorState,
    Mode,
    PlayerState,
)


def new_state(seats: list[str], mode: Mode, seed: int, pack_path: str | None,
              ghost_index: int, first_game: bool = False,
              shroud_returns_darkness: bool = False,
              haunt_level_cooldown: bool = False) -> tuple[ExorcismState, Engine]:
    """Steps 1-4 and the seating; returns the state and an engine over it."""
    pack = pack_for(pack_path)
    geo = geometry(pack)
    opts = pack.options
    rng = Rng.from_seed(seed)

    # Step 1: the house (EX-SETUP-01).
    locked = rng.sample([r.id for r in pack.locked_rooms], opts.locked_rooms_in_play)
    unused = [r.id for r in pack.locked_rooms if r.id not in locked]
    deck = rng.shuffled([*pack.house_room_ids(), *locked])
    cells: dict[str, CellState] = {}
    for rc in pack.layout.house_cells():
        cid = cell_id_of(pack, rc)
        card = deck.pop()
        cells[cid] = CellState(id=cid, row=rc[0], col=rc[1], kind="house", card=card,
                               face_down=card in locked)
    a, f = pack.layout.attic.cell, pack.layout.foyer.cell
    cells["attic"] = CellState(id="attic", row=a[0], col=a[1], kind="attic")
    cells["foyer"] = CellState(id="foyer", row=f[0], col=f[1], kind="foyer", card=pack.foyer_id)
    assert set(cells) == set(geo.all)

    # Steps 2-4: Tools, Plans, Tasks, the Clock (EX-SETUP-02..04).
    plan_deck = rng.shuffled(pack.plan_deck())
    task_deck = rng.shuffled(pack.task_deck())
    available = [task_deck.pop() for _ in range(min(opts.available_tasks, len(task_deck)))]
    ghost_seat = seats[ghost_index] if mode == "one_vs_all" else None
    players = {
        s: PlayerState(seat=s, role="ghost" if s == ghost_seat else
                       ("solo" if mode == "solo" else "investigator"))
        for s in seats
    }
    state = ExorcismState(
        seats=list(seats),
        pack=pack_fingerprint(pack),
        pack_path=pack_path,
        mode=mode,
        first_game=first_game,
        shroud_returns_darkness=shroud_returns_darkness,
        haunt_level_cooldown=haunt_level_cooldown and mode == "one_vs_all",
        ghost_seat=ghost_seat,
        counts_kept=True,
        rng=rng,
        cells=cells,
        unused_locked=unused,
        ghosts={"wraith": None, "bull": None, "devourer": None},
        players=players,
        tool_piles=pack.tool_counts(),
        task_deck=task_deck,
        available_tasks=available,
        plan_deck=plan_deck,
        dice=[pack.clock.starting_pips] * pack.clock.dice,
        darkness_supply=opts.darkness_supply,
        shrouds_left=opts.shrouds,
    )
    return state, Engine(state)


def setup_game(seats: list[str], mode: Mode, seed: int, pack_path: str | None,
               ghost_index: int = 0, first_game: bool = False,
               shroud_returns_darkness: bool = False,
               haunt_level_cooldown: bool = False) -> tuple[ExorcismState, Engine]:
    state, eng = new_state(seats, mode, seed, pack_path, ghost_index, first_game,
                           shroud_returns_darkness, haunt_level_cooldown)
    pack = eng.pack
    if mode == "solo":
        # EX-SOLO-01: the Primary is chosen openly; the rest waits for the choice.
        eng.push_prompt("choose_primary", [seats[0]],
                        "Choose your Primary Investigator (the Secondary is then drawn at "
                        "random).")
        return state, eng
    investigators = [s for s in seats if s != state.ghost_seat]
    chars = state.rng.shuffled([c.id for c in pack.characters])  # EX-SETUP-05
    for seat in investigators:
        state.investigators[seat] = InvestigatorState(id=seat, seat=seat, role="investigator",
                                                      character=chars.pop())
    eng.finish_setup(chars)
    return state, eng
