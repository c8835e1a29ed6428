"""The Presence setup, in the spec's order (P-SETUP-01..32).

Steps that are choices are prompts (PR-24, PR-15): the spirit chooses its spirit character
(P-SETUP-07), then each visitor, in turn order, a visitor character (P-SETUP-15); the rest of
setup waits for them. Then steps 1-10 happen at once from the state's RNG (boards and doors,
the Hope Track, scripts, secret cards, the clue deck built per the secret board plus fear
cards, the item deck with the special items, dice, the spirit-clue bag, small clues, decks);
step 11 asks the spirit where to place each spirit clue + presence die (one prompt each);
then the small clues, the starting hands (step 12), game-start abilities, and round 1.

Unknown Threat (P-UNK) replaces the spirit choice by the lobby steps as the game's first
prompts: the visitors pick the scripts, then (after the visitor characters) the spirit
privately builds its deck and picks its spirit clues and secret cards (`Engine.ut_*`). The
Secret Chamber (P-CHAMBER-01) takes position 1's removed clue card aside and deals V cards to
the chamber right after step 9; the Dark Board and the chamber set the board sides (A-57).
"""

from __future__ import annotations

from rules.core.rng import Rng
from rules.presence.content import pack_fingerprint
from rules.presence.engine import Engine, pack_for
from rules.presence.state import (
    DoorState,
    PresenceState,
    SpiritState,
    Step,
    UnknownThreatState,
    VisitorState,
)


def setup_game(seats: list[str], seed: int, spirit_index: int = 0, script_preset: str = "normal",
               fear_preset: str = "normal", track_side: str = "B",
               pack_path: str | None = None, *, dark_board: bool = False,
               secret_chamber: bool = False, mystery: bool = False,
               unknown_threat: bool = False, two_players: bool = False,
               first_game: bool = False, open_communication: bool = False,
               true_horror: bool = False) -> PresenceState:
    pack = pack_for(pack_path)
    rng = Rng.from_seed(seed)
    n = len(seats)
    spirit_seat = seats[spirit_index]
    # P-SETUP-30 / P-ROUND-03: turns start with the visitor to the left of the spirit.
    visitor_seats = seats[spirit_index + 1:] + seats[:spirit_index]
    controller: dict[str, str] = {}
    if two_players:
        # P-2P-01 / A-02: the 3-player setup; the visitor player's seat controls two
        # character slots (its own id and a second one) that share one turn.
        n = 3
        player = visitor_seats[0]
        visitor_seats = [player, second_slot(player)]
        controller = {s: player for s in visitor_seats}
    # A two-player table is set up as for three (its opening line said "3 players").
    players = ("2 players, set up as for 3 (one visitor player with two characters)"
               if two_players else f"{n} players")
    fg = pack.presets.first_game if first_game else None
    if fg is not None:
        track_side = fg.hope_track_side  # P-FIRST-02
    # P-SETUP-03; the Secret Chamber is printed on the Basement B side (P-DARK-02)
    secret_chamber = secret_chamber and pack.manor.chamber is not None
    rooms = pack.rooms_in_play(n, chamber=secret_chamber)
    doors = {
        d.id: DoorState(id=d.id, rooms=list(d.rooms),
                        open=(d.open or pack.options.doors_start_open) and not d.locked,
                        locked=d.locked)
        for d in pack.doors_in_play(n)
    }  # P-SETUP-05: all closed, the Cellar door locked (data)
    side = pack.hope_track.sides["A" if track_side == "A" else "B"]
    state = PresenceState(
        seats=list(seats),
        pack=pack_fingerprint(pack),
        pack_path=pack_path,
        rng=rng,
        n=n,
        spirit_seat=spirit_seat,
        spent_turns_end=True,
        visitor_seats=visitor_seats,
        rooms=rooms,
        doors=doors,
        track_side="A" if track_side == "A" else "B",
        time=pack.hope_track.time_start,  # P-SETUP-06
        hope=side.hope,
        nerve=side.nerve,
        spirit=SpiritState(character=""),
        secrets=[],
        # P-DARK-01 / A-57: the Dark Board flips Main and the wings; the Basement flips with
        # it and with the Secret Chamber
        board_side="B" if dark_board else "A",
        basement_side="B" if dark_board or secret_chamber else "A",
        mystery=mystery,  # P-MYST-01
        controller=controller,
        first_game=fg is not None,
        # P-FIRST-08: the first game plays with Open Communication
        open_communication=open_communication or (fg is not None and fg.open_communication),
        true_horror=true_horror,  # P-HORROR-01
    )
    if fg is not None:
        # P-FIRST-03..06: spirit character 5 with its ten A cards; the general A secrets
        state.spirit.character = fg.spirit
        state.spirit_cards = pack.spirit_deck(fg.spirit, mark=fg.spirit_card_mark)
    if unknown_threat:
        # P-UNK-01/02: the 5th spirit; the visitors pick the scripts by prompts first
        state.unknown_threat = UnknownThreatState()
        state.spirit.character = next(s.id for s in pack.spirits if s.number == 5)
        state.queue.append(Step(op="ut_spirit"))
        state.queue.append(Step(op="setup_rest", args={"fear_preset": fear_preset}))
        eng = Engine(state)
        eng.emit(f"A new session at Wrightwatch Manor: {players}, Unknown Threat. The spirit "
                 f"is {pack.spirit(state.spirit.character).name}; the visitors choose 2 hope "
                 "and 3 nerve scripts.", "setup")
        eng.ut_ask_script()
        return state
    # P-SETUP-08 / P-SESSION-03: the script deck from the preset, displays face up.
    preset = next(p for p in pack.presets.script_presets if p.id == script_preset)
    pool = (list(fg.scripts) if fg is not None  # P-FIRST-04: scripts A1 and A2
            else rng.sample(pack.scripts_of("hope", chamber=secret_chamber), preset.hope)
            + rng.sample(pack.scripts_of("nerve", chamber=secret_chamber), preset.nerve))
    state.display_scripts = sorted(pool)
    deck = rng.shuffled(pool)
    state.script = deck.pop()  # P-SETUP-25: drawn in secret
    state.script_pool = deck
    state.queue.append(Step(op="setup_rest", args={"fear_preset": fear_preset}))
    eng = Engine(state)
    eng.emit(f"A new session at Wrightwatch Manor: {players}; possible scripts: "
             + ", ".join(state.display_scripts) + ".", "setup")
    if fg is not None:  # P-FIRST-03: only spirit character 5 is available
        eng.emit(f"First game: the spirit is {pack.spirit(fg.spirit).name}.", "setup")
        eng.ask_visitor(0)
        return state
    eng.ask("setup", spirit_seat, "Choose your spirit character.",
            [(s.id, f"{s.name}" + (" (first-game spirit)" if s.first_game else ""))
             for s in pack.spirits], "choose_spirit")
    return state


def second_slot(seat: str) -> str:
    """The id of the second visitor character of a two-player game's visitor player (P-2P)."""
    return f"{seat}.2"


def new_visitor(seat: str, character: str, room: str, deck: list[str]) -> VisitorState:
    return VisitorState(seat=seat, character=character, room=room, deck=deck)
