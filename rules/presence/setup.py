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
    ChamberState,
    DieState,
    DoorState,
    PresenceState,
    SecretSlot,
    SpiritState,
    Step,
    Token,
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
        eng.emit(f"A new session at Wrightwatch Manor: {n} players, Unknown Threat. The spirit "
                 f"is {pack.spirit(state.spirit.character).name}; the visitors choose 2 hope "
                 "and 3 nerve scripts (P-UNK-01).", "setup")
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
    eng.emit(f"A new session at Wrightwatch Manor: {n} players; possible scripts: "
             + ", ".join(state.display_scripts) + ".", "setup")
    if fg is not None:  # P-FIRST-03: only spirit character 5 is available
        eng.emit(f"First game: the spirit is {pack.spirit(fg.spirit).name}.", "setup")
        eng.ask_visitor(0)
        return state
    eng.ask("setup", spirit_seat, "Choose your spirit character (P-SETUP-07).",
            [(s.id, f"{s.name}" + (" (first-game spirit)" if s.first_game else ""))
             for s in pack.spirits], "choose_spirit")
    return state


def setup_rest(eng: Engine, fear_preset: str) -> None:
    """Steps 4-12 once the characters are chosen."""
    st = eng.st
    pack = eng.pack
    rng = st.rng
    n = st.n
    v = n - 1
    spirit = st.spirit.character
    ut = st.unknown_threat
    # Step 4-5, 8: the spirit's four secret cards face down at random (P-SETUP-10, -19);
    # Unknown Threat: the four the spirit picked, one per trauma (P-UNK-04, A-47).
    secret_set = pack.presets.first_game.secret_set if st.first_game else spirit
    secrets = rng.shuffled(ut.secrets if ut else pack.spirit_secrets(secret_set))  # P-FIRST-06
    st.secrets = [SecretSlot(position=k + 1, card=c) for k, c in enumerate(secrets)]
    if ut:
        st.spirit_cards = list(ut.deck)  # P-UNK-03: the custom twelve
    st.spirit.deck = rng.shuffled(st.spirit_cards or pack.spirit_deck(spirit))  # P-SETUP-11
    st.dice = [DieState(id=k) for k in range(n)]  # P-SETUP-12
    # P-SETUP-13; Unknown Threat: the five chosen replace the spirit's own five
    bag = (pack.spirit_clue_instances(pack.general_spirit_clues() + ut.clues) if ut
           else pack.spirit_clue_bag(spirit))
    st.spirit_clue_bag = rng.shuffled(bag)
    st.small_clue_pile = rng.shuffled(pack.small_clue_instances())  # P-SETUP-14
    # Step 7: the item deck (P-SETUP-18).
    special = pack.special_item_ids()
    randoms = pack.random_item_ids()
    extra = rng.sample(randoms, pack.options.item_deck[n] - len(special))  # type: ignore[index]
    st.item_deck = rng.shuffled(special + extra)
    st.item_box_count = len(randoms) - len(extra)
    # Step 9: the clue deck (P-SETUP-20..23).
    board = pack.secret_board(n)
    eligible = [c.id for c in pack.clue_cards_for(n)]
    removed: list[str] = []
    for slot, pos in zip(st.secrets, board.positions, strict=True):
        trauma = pack.secret(slot.card).trauma
        mine = [c for c in eligible if pack.clue_card(c).trauma == trauma]
        removed += rng.sample(mine, pos.remove)
    clues = [c for c in eligible if c not in removed]
    per = (pack.presets.first_game.fear_per_visitor if st.first_game  # P-FIRST-07
           else next(p for p in pack.presets.fear_presets if p.id == fear_preset).per_visitor)
    fear_ids = [f.id for f in pack.fear_cards]
    fears = rng.sample(fear_ids, min(len(fear_ids), per * v))
    st.clue_box = removed + [f for f in fear_ids if f not in fears]
    st.clue_deck = rng.shuffled(clues + fears)
    chamber = pack.manor.chamber
    if chamber is not None and chamber.room in st.rooms:
        # P-CHAMBER-01 / P-SETUP-24 (A-07, A-08): position 1's removed card is set aside
        # under the passage token; V cards from the shuffled deck go to the chamber.
        aside = removed[0]
        st.clue_box.remove(aside)
        st.chamber = ChamberState(aside=aside,
                                  cards=[st.clue_deck.pop() for _ in range(min(v, len(
                                      st.clue_deck)))])
    # Step 11: one spirit clue + one die per die, placed by the spirit (PR-15).
    for _ in range(n):
        if st.spirit_clue_bag:
            st.drawn_spirit_clues.append(st.spirit_clue_bag.pop())
    eng.emit(f"The spirit is {pack.spirit(spirit).name}. The secret cards, the clue deck "
             f"({len(st.clue_deck)} cards) and the item deck ({len(st.item_deck)} cards) are "
             "ready.", "setup")
    eng.later(Step(op="place_drawn_clue", args={"used": [], "setup": True}),
              Step(op="setup_final"))


def setup_final(eng: Engine) -> None:
    """Step 11 small clues, step 12 hands, game-start abilities, round 1."""
    st = eng.st
    pack = eng.pack
    for room in pack.clue_rooms_in_play(st.n):
        if room in st.rooms and not st.tokens.get(room) and st.small_clue_pile:
            st.tokens[room] = [Token(kind="small", id=st.small_clue_pile.pop())]  # P-SETUP-27
    for _ in range(st.n):  # P-SETUP-28
        if st.spirit.deck:
            st.spirit.hand.append(st.spirit.deck.pop())
    for seat in st.visitor_seats:  # P-SETUP-29
        if st.controller and seat != st.controller[seat]:
            continue  # P-2P-03: the visitor player draws one hand of 7 from the shared deck
        eng.draw_actions(seat, eng.hand_size())
    # The spirit's deal reaches only the spirit, by DM (H-02, H-10); visitors are told their
    # hands as they draw them.
    secrets = "; ".join(f"position {s.position}: {pack.secret(s.card).name} "
                        f"({pack.secret(s.card).trauma})" for s in st.secrets)
    hand = ", ".join(eng.card_name(c) for c in st.spirit.hand) or "none"
    eng.emit(f"Your secret cards — {secrets}. Your spirit cards: {hand}.", "deal",
             [st.spirit_seat])
    if st.chamber is not None:  # H-35, H-36: the spirit may look at these at any time
        eng.emit(f"Secret Chamber — the passage card: {eng.card_name(st.chamber.aside)}; "
                 "the cards in the chamber: "
                 + (", ".join(eng.card_name(c) for c in st.chamber.cards) or "none") + ".",
                 "deal", [st.spirit_seat])
    st.active = st.visitor_seats[0]
    eng.emit("Setup is complete. The visitors enter the Great Hall, candles lit.", "setup")
    eng.fire("game_start")  # P-SETUP-31
    st.queue.append(Step(op="round_start"))


def second_slot(seat: str) -> str:
    """The id of the second visitor character of a two-player game's visitor player (P-2P)."""
    return f"{seat}.2"


def new_visitor(seat: str, character: str, room: str, deck: list[str]) -> VisitorState:
    return VisitorState(seat=seat, character=character, room=room, deck=deck)
