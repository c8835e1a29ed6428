"""I Am the Fourth Wall setup, in the rulebook's order (FW-SETUP-01..09, FW-SETC-01..07,
FW-SETA-01..08).

1. Shuffle the Marble and Investigator decks; the first-game option takes out The Street
   Magician (ignored when there are not enough cards left to deal, FW-AMB-10).
2. Roles: Conflict — the Wall seat (option ``wall_seat``, default the first seat, FW-AMB-29);
   every other seat is an Investigator player. Alliance — every seat is.
3. Investigators: ``investigators`` (3-6) or by player count (1 player → 3, 2 → 4, n → n,
   FW-PLAY-01/02). Seats take investigators interleaved in turn order, clockwise from the
   left of The Wall (FW-AMB-09, FW-TURN-02): P1-a, P2-a, P1-b, P2-b ...
4. Deal two Investigator cards per investigator; each keeps one through a prompt
   (FW-PROMPT-01); the returned cards are shuffled back (FW-GAP-09); then Marbles equal to
   Sanity (FW-SETUP-05). The rest of setup waits for those prompts.
5. The Wall / the Ancient One: one Wall card face down; 3 (4, 5) Open Gates from the unused
   Wall cards; the rest is the Gate supply (FW-SETC-04/05, FW-SETA-04/05).
6. The Turn Tracker side by number of Investigators (FW-SETC-03, FW-AMB-19).
7. Conflict: the Wall draws five Horrors (FW-SETC-06). Alliance: the Presence deck, the
   five Streets (empty), the Target Token to the last investigator in turn order (FW-SETA-07).
"""

from __future__ import annotations

from rules.core.errors import IllegalAction
from rules.core.rng import Rng
from rules.fourth_wall.content import pack_fingerprint
from rules.fourth_wall.engine import Engine, pack_for
from rules.fourth_wall.state import FourthWallState, InvestigatorState, Mode, Step


def investigator_count(players: int, requested: int | None, pack_path: str | None) -> int:
    """FW-PLAY-01/02: how many Investigators `players` investigator players play."""
    opts = pack_for(pack_path).options
    if requested is not None:
        n = requested
    elif players == 1:
        n = opts.solo_investigators
    elif players == 2:
        n = 2 * opts.duo_investigators_each
    else:
        n = players
    return n


def setup_game(seats: list[str], mode: Mode, seed: int, pack_path: str | None = None,
               wall_index: int = 0, investigators: int | None = None, gates: int | None = None,
               first_game: bool = False, wrath_doom: int | None = None) -> FourthWallState:
    pack = pack_for(pack_path)
    opts = pack.options
    rng = Rng.from_seed(seed)

    # Step 2: roles (FW-SETC-02 / FW-SETA-02).
    wall_seat: str | None = None
    if mode == "conflict":
        if not 0 <= wall_index < len(seats):
            raise IllegalAction("The Wall player must be one of the seats.", rule="FW-AMB-29")
        wall_seat = seats[wall_index]
        players = seats[wall_index + 1:] + seats[:wall_index]
    else:
        players = list(seats)
    n_inv = investigator_count(len(players), investigators, pack_path)
    if not opts.min_investigators <= n_inv <= opts.max_investigators:
        raise IllegalAction(f"The game takes {opts.min_investigators} to "
                            f"{opts.max_investigators} Investigators, not {n_inv}.",
                            rule="FW-PLAY-02")
    if n_inv < len(players):
        raise IllegalAction(f"{len(players)} Investigator players need at least "
                            f"{len(players)} Investigators.", rule="FW-PLAY-02")
    start_gates = opts.starting_gates if gates is None else gates
    if start_gates not in opts.starting_gate_choices:
        raise IllegalAction(f"Start with one of {list(opts.starting_gate_choices)} Open Gates.",
                            rule="FW-SETUP-08")

    # Step 1: decks (FW-SETUP-01/02).
    marble_ids = [f"m{k:02d}" for k in range(1, len(pack.marble_deck()) + 1)]
    horror_ids = [f"h{k:02d}" for k in range(1, len(pack.horror_deck()) + 1)]
    marble_cards = dict(zip(marble_ids, pack.marble_deck(), strict=True))
    horror_cards = dict(zip(horror_ids, pack.horror_deck(), strict=True))
    inv_deck = pack.investigator_deck()
    removed: list[str] = []
    dealt = opts.investigator_cards_dealt
    if (first_game and opts.first_game_remove in inv_deck
            and len(inv_deck) - 1 >= dealt * n_inv):  # FW-AMB-10
        inv_deck.remove(opts.first_game_remove)
        removed.append(opts.first_game_remove)
    rng.shuffle(inv_deck)
    marble_deck = rng.shuffled(marble_ids)

    # Step 3-4: investigators, interleaved by seat (FW-AMB-09).
    invs = [InvestigatorState(id=f"i{k + 1}", seat=players[k % len(players)])
            for k in range(n_inv)]
    for inv in invs:
        inv.dealt = [inv_deck.pop() for _ in range(dealt)]

    # Step 5: The Wall / Ancient One and the Gates.
    wall_deck = rng.shuffled(pack.wall_deck())
    wall_card = wall_deck.pop()
    open_gates = [wall_deck.pop() for _ in range(min(start_gates, len(wall_deck)))]

    state = FourthWallState(
        seats=list(seats),
        pack=pack_fingerprint(pack),
        pack_path=pack_path,
        mode=mode,
        rng=rng,
        wall_seat=wall_seat,
        start_gates=start_gates,
        wrath_doom=wrath_doom if mode == "conflict" else None,
        investigators=invs,
        marble_cards=marble_cards,
        horror_cards=horror_cards,
        investigator_deck=inv_deck,
        marble_deck=marble_deck,
        horror_deck=rng.shuffled(horror_ids),
        removed_investigators=removed,
        wall_card=wall_card,
        gates=open_gates,
        gate_supply=wall_deck,
        tracker_size=n_inv,
        elect_after_action=True,  # FW-TURN-06, stop 63
    )
    # Step 7.
    if mode == "conflict":
        state.wall_hand = [state.horror_deck.pop()
                           for _ in range(min(opts.wall_starting_hand, len(state.horror_deck)))]
    else:
        state.presence_deck = rng.shuffled(pack.presence_instances())
        state.target = invs[-1].id
    eng = Engine(state)
    eng.later(Step(op="setup_choose", args={"k": 0}))
    eng.run()
    return state
