"""The Presence setup, in the spec's order (P-SETUP-01..32).

Steps that are choices are prompts (PR-24, PR-15): the spirit chooses its spirit character
(P-SETUP-07), then each visitor, in turn order, a visitor character (P-SETUP-15); the rest of
setup waits for them. Then steps 1-10 happen at once from the state's RNG (boards and doors,
the Hope Track, scripts, secret cards, the clue deck built per the secret board plus fear
cards, the item deck with the special items, dice, the spirit-clue bag, small clues, decks);
step 11 asks the spirit where to place each spirit clue + presence die (one prompt each);
then the small clues, the starting hands (step 12), game-start abilities, and round 1.
"""

from __future__ import annotations

from rules.core.rng import Rng
from rules.presence.content import pack_fingerprint
from rules.presence.engine import Engine, pack_for
from rules.presence.state import (
    DieState,
    DoorState,
    PresenceState,
    SecretSlot,
    SpiritState,
    Step,
    Token,
    VisitorState,
)


def setup_game(seats: list[str], seed: int, spirit_index: int = 0, script_preset: str = "normal",
               fear_preset: str = "normal", track_side: str = "B",
               pack_path: str | None = None) -> PresenceState:
    pack = pack_for(pack_path)
    rng = Rng.from_seed(seed)
    n = len(seats)
    spirit_seat = seats[spirit_index]
    # P-SETUP-30 / P-ROUND-03: turns start with the visitor to the left of the spirit.
    visitor_seats = seats[spirit_index + 1:] + seats[:spirit_index]
    rooms = pack.rooms_in_play(n)  # P-SETUP-03 (no Secret Chamber: variant not built)
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
    )
    # P-SETUP-08 / P-SESSION-03: the script deck from the preset, displays face up.
    preset = next(p for p in pack.presets.script_presets if p.id == script_preset)
    pool = (rng.sample(pack.scripts_of("hope", chamber=False), preset.hope)
            + rng.sample(pack.scripts_of("nerve", chamber=False), preset.nerve))
    state.display_scripts = sorted(pool)
    deck = rng.shuffled(pool)
    state.script = deck.pop()  # P-SETUP-25: drawn in secret
    state.script_pool = deck
    state.queue.append(Step(op="setup_rest", args={"fear_preset": fear_preset}))
    eng = Engine(state)
    eng.emit(f"A new session at Wrightwatch Manor: {n} players; possible scripts: "
             + ", ".join(state.display_scripts) + ".", "setup")
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
    # Step 4-5, 8: the spirit's four secret cards face down at random (P-SETUP-10, -19).
    secrets = rng.shuffled(pack.spirit_secrets(spirit))
    st.secrets = [SecretSlot(position=k + 1, card=c) for k, c in enumerate(secrets)]
    st.spirit.deck = rng.shuffled(pack.spirit_deck(spirit))  # P-SETUP-11
    st.dice = [DieState(id=k) for k in range(n)]  # P-SETUP-12
    st.spirit_clue_bag = rng.shuffled(pack.spirit_clue_bag(spirit))  # P-SETUP-13
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
    per = next(p for p in pack.presets.fear_presets if p.id == fear_preset).per_visitor
    fear_ids = [f.id for f in pack.fear_cards]
    fears = rng.sample(fear_ids, min(len(fear_ids), per * v))
    st.clue_box = removed + [f for f in fear_ids if f not in fears]
    st.clue_deck = rng.shuffled(clues + fears)
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
        eng.draw_actions(seat, pack.options.hand_size)
    st.active = st.visitor_seats[0]
    eng.emit("Setup is complete. The visitors enter the Great Hall, candles lit.", "setup")
    eng.fire("game_start")  # P-SETUP-31
    st.queue.append(Step(op="round_start"))


def new_visitor(seat: str, character: str, room: str, deck: list[str]) -> VisitorState:
    return VisitorState(seat=seat, character=character, room=room, deck=deck)
