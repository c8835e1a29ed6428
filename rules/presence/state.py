"""The Presence game state: pydantic models holding everything a game is, JSON round-trippable.

The state never holds content (cards, rooms, effects): it names them by their pack ids and the
engine looks them up in the content pack whose fingerprint the state records.

Seats: the spirit seat (``spirit_seat``, the first seat unless options say otherwise, DESIGN.md)
and one visitor character per other seat (``visitors[seat]``), in table order (clockwise).

Hidden information (spec Part 5) lives here in plain fields; `rules.presence.view` decides who
sees what: ``script`` (H-07), ``script_pool`` (H-08), ``secrets[i].card`` before reveal (H-10),
``clue_box`` (H-13/H-14), ``clue_deck`` order (H-15), hands (H-17), ``tokens`` identities (H-24,
H-27), the spirit hand (H-02) and discard (H-04).

Resolution is a queue of small serialisable steps (``Step``) plus a stack of pending prompts
(rules.core.Prompt): an effect that needs a decision pushes a prompt and leaves the rest of its
work in the queue, so a restart can resume anywhere.
"""

from __future__ import annotations

import copy
from typing import Any, Literal

from pydantic import BaseModel, Field

from rules.core.game import GameState
from rules.core.rng import Rng
from rules.core.types import Prompt

Phase = Literal["setup", "visitor", "spirit", "upkeep", "over"]

_ATOMIC = (str, int, bool, float, type(None))


def fast_copy(value: Any) -> Any:
    """A deep copy of plain state data (models, lists, dicts, scalars); see the Exorcism."""
    t = type(value)
    if t in _ATOMIC:
        return value
    if t is list:
        return [x if type(x) in _ATOMIC else fast_copy(x) for x in value]
    if t is dict:
        return {k: x if type(x) in _ATOMIC else fast_copy(x) for k, x in value.items()}
    if isinstance(value, BaseModel):
        new = object.__new__(t)
        d = value.__dict__
        object.__setattr__(
            new, "__dict__",
            {k: x if type(x) in _ATOMIC else fast_copy(x) for k, x in d.items()},
        )
        object.__setattr__(new, "__pydantic_fields_set__", set(value.__pydantic_fields_set__))
        extra = value.__pydantic_extra__
        private = value.__pydantic_private__
        object.__setattr__(new, "__pydantic_extra__",
                           None if extra is None else copy.deepcopy(extra))
        object.__setattr__(new, "__pydantic_private__",
                           None if private is None else copy.deepcopy(private))
        return new
    return copy.deepcopy(value)  # pragma: no cover


class DoorState(BaseModel):
    """A door marker between two rooms (P-COMP-12, P-MOVE-04)."""

    id: str
    rooms: list[str]
    open: bool = False
    locked: bool = False


class DieState(BaseModel):
    """A presence die (P-COMP-10): on the board (``room``) or in the spirit's supply."""

    id: int
    room: str | None = None
    value: int = 0
    moved: bool = False
    """Used its Move Presence Die action this spirit turn (A-15)."""
    fresh: bool = False
    """Placed, added or relocated during this spirit turn: may not use Move (A-15, A-16)."""


class Token(BaseModel):
    """A face-down clue token in a room (P-CLUE-01): a spirit clue or a small clue."""

    kind: Literal["spirit", "small"]
    id: str


class SecretSlot(BaseModel):
    """One of the four positions of the secret board (P-SECRET-01)."""

    position: int
    card: str
    revealed: bool = False
    tier: str | None = None
    """The tier that resolved on reveal (public, H-37)."""
    discards: list[str] = Field(default_factory=list)
    """Clue cards discarded beneath this position, face up (P-CLUE-05, H-21)."""
    failed: list[int] = Field(default_factory=list)
    """For every Invoke here that failed, how many clue cards lay beneath it then (public,
    H-38): none of their traumas is this secret's. Kept for the whole game, as the table
    remembers it; the 20-line log forgets."""


class VisitorState(BaseModel):
    """One visitor character and the seat that plays it."""

    seat: str
    character: str
    room: str
    fear: int = 0
    candle_lit: bool = True
    hand: list[str] = Field(default_factory=list)
    """Action card ids and clue card ids (H-17)."""
    deck: list[str] = Field(default_factory=list)
    discard: list[str] = Field(default_factory=list)
    items: list[str] = Field(default_factory=list)
    fear_cards: list[str] = Field(default_factory=list)
    knocked_out: bool = False
    succumbed: bool = False
    succumbed_bonded: bool = False
    """Held the bonded marker when succumbing: the marker returns to the spirit at once
    (P-SUCC-05), yet a script's "the bonded visitor has succumbed" still reads it (A-39)."""
    room_actions_used: list[str] = Field(default_factory=list)
    """Room / once-per-turn abilities used this turn."""
    quick_used: int = 0
    """Quick actions taken in the current window (A-48 technical cap)."""
    laid: list[str] = Field(default_factory=list)
    """Mystery Mode: the clue cards this visitor discarded face down (P-MYST-01). It saw each
    one as it laid it, so it knows them for good (A-64: "its holder"); only its own view
    shows them (H-21)."""


class DrainState(BaseModel):
    """An active drain power (P-DRAIN-01): a card on the table with a marker in a room."""

    card: str
    power: str
    """``top`` or ``bottom``."""
    room: str
    fresh: bool = True


class SpiritState(BaseModel):
    character: str
    hand: list[str] = Field(default_factory=list)
    deck: list[str] = Field(default_factory=list)
    discard: list[str] = Field(default_factory=list)
    playing: str | None = None
    """The spirit card being played (shown to all, P-SPIRIT-11) until it is discarded."""
    pawn_room: str | None = None
    pawn_actions: int = 0


class ChamberState(BaseModel):
    """The Secret Chamber in play (P-CHAMBER): the clue card set aside at setup (its room is
    where the passage is, H-35), the cards dealt to the chamber (H-36), the passage once found."""

    aside: str
    cards: list[str] = Field(default_factory=list)
    passage_room: str | None = None
    """The room holding the secret passage token once Uncover found it (P-CHAMBER-05)."""
    searched: list[str] = Field(default_factory=list)
    """Rooms where an Uncover found nothing (public, P-CHAMBER-05): the passage is elsewhere."""


class UnknownThreatState(BaseModel):
    """Unknown Threat (P-UNK) choices made by prompts at setup: the visitors' scripts are
    public (H-09); the spirit's deck, spirit clues and secret cards are its own (H-39)."""

    scripts: list[str] = Field(default_factory=list)
    deck: list[str] = Field(default_factory=list)
    clues: list[str] = Field(default_factory=list)
    secrets: list[str] = Field(default_factory=list)


class Step(BaseModel):
    """One piece of pending resolution work (the engine's continuation queue)."""

    op: str
    args: dict[str, Any] = Field(default_factory=dict)


class PresenceState(GameState):
    """The whole game."""

    pack: str
    pack_path: str | None = None
    rng: Rng
    n: int
    """N = characters including the spirit (3/4/5), the index of every 3/4/5 table."""
    spirit_seat: str
    visitor_seats: list[str]
    """In turn order, starting left of the spirit (P-SETUP-30)."""

    rooms: list[str]
    """Rooms in play for N (P-SETUP-03)."""
    doors: dict[str, DoorState] = Field(default_factory=dict)
    fireplace_lit: bool = False
    board_side: Literal["A", "B"] = "A"
    """Main and wing boards' side (A standard; B = the Dark Board, P-DARK-01, A-57)."""
    track_side: Literal["A", "B"] = "B"
    basement_side: Literal["A", "B"] = "A"
    """The Basement board's side: B with the Dark Board or the Secret Chamber (A-57)."""
    mystery: bool = False
    """Mystery Mode: clue discards face down, only the spirit sees them (P-MYST)."""
    chamber: ChamberState | None = None
    """The Secret Chamber, when the variant is in play (P-CHAMBER)."""
    unknown_threat: UnknownThreatState | None = None
    """Unknown Threat, when in play (P-UNK)."""
    open_communication: bool = False
    """Open Communication: alone or knocked-out visitors may talk (P-OPEN-01)."""
    true_horror: bool = False
    """True Horror: alone visitors are silent on every topic; the spirit may only post the
    game's atmospheric lines (P-HORROR-01/02)."""
    first_game: bool = False
    """The first-game preset is in play (P-FIRST)."""
    controller: dict[str, str] = Field(default_factory=dict)
    """Two-player game (P-2P): visitor character slot -> the seat of the player who controls
    it. Empty in a standard game, where every visitor slot is its own seat. The first slot's
    id is the visitor player's seat; it holds the shared action deck and discard."""
    speech_grant: dict[str, Any] | None = None
    """Spirit speech an effect granted and not yet used this spirit turn: ``max_words`` and
    ``vocabulary`` (P-COMM-09, P-DISCORD-08)."""
    whispered: bool = False
    """True Horror: the spirit posted its atmospheric line this turn (P-HORROR-02)."""
    spirit_cards: list[str] = Field(default_factory=list)
    """The spirit cards this game uses (P-SETUP-11); empty = the spirit character's own."""

    time: int = 1
    hope: int | None = None
    nerve: int | None = None
    """None = lost (P-TRACK-03)."""

    display_scripts: list[str] = Field(default_factory=list)
    script_pool: list[str] = Field(default_factory=list)
    """Undrawn spirit scripts: nobody sees them (H-08)."""
    script: str = ""
    script_revealed: bool = False

    secrets: list[SecretSlot] = Field(default_factory=list)
    clue_deck: list[str] = Field(default_factory=list)
    clue_revealed: list[str] = Field(default_factory=list)
    clue_trash: list[str] = Field(default_factory=list)
    clues_shown: list[str] = Field(default_factory=list)
    """Clue cards the table has seen face up in the revealed row (P-CLUE-06): in Mystery Mode
    their names are public knowledge wherever they go later; every other clue card's name
    stays hidden from the visitors for good (A-64)."""
    clue_box: list[str] = Field(default_factory=list)
    """Clue cards removed in setup (H-13) and fear cards left out (H-14)."""
    item_deck: list[str] = Field(default_factory=list)
    cellar: list[str] = Field(default_factory=list)
    item_box_count: int = 0

    dice: list[DieState] = Field(default_factory=list)
    tokens: dict[str, list[Token]] = Field(default_factory=dict)
    spirit_clue_bag: list[str] = Field(default_factory=list)
    spirit_clue_discard: list[str] = Field(default_factory=list)
    small_clue_pile: list[str] = Field(default_factory=list)
    small_clue_discard: list[str] = Field(default_factory=list)
    drawn_spirit_clues: list[str] = Field(default_factory=list)
    """Spirit clues drawn and waiting for placement (H-25)."""

    visitors: dict[str, VisitorState] = Field(default_factory=dict)
    spirit: SpiritState
    drains: list[DrainState] = Field(default_factory=list)
    bonded: str | None = None
    action_trash: list[str] = Field(default_factory=list)

    round: int = 1
    phase: Phase = "setup"
    active: str | None = None
    actions_left: int = 0
    must_rest: bool = False
    """A knocked-out visitor's first action must be Rest (P-KO-06)."""
    spent_turns_end: bool = False
    """A-65: a visitor turn whose main actions are spent ends by itself unless something public
    makes a quick action worth taking before the end. False in games stored before this ruling
    (their histories replay as recorded, with an explicit End turn); every new game sets it."""
    secret_tiers: tuple[int, int] | None = None
    """A-66 (G-04): the reveal tiers (low_max, high_min) this game resolves reveals with at
    every position, when they are not its pack's secret board's today. Set only in a 3-player
    game of the shipped pack stored before presence-3 (≤ 1 low, ≥ 3 high), so its reveals
    resolve, and its history replays, as they were dealt; None: the pack's board."""
    targeted: list[str] = Field(default_factory=list)
    """Visitors targeted by the spirit power resolving now (targeted_by_spirit fires after)."""
    once_used: list[str] = Field(default_factory=list)
    """Once-per-turn reactions used this turn (reset at every turn start)."""
    spirit_actions: int = 0
    """Spirit actions taken this spirit turn (technical cap, A-48)."""
    declared: list[Step] = Field(default_factory=list)
    """Quick actions other visitors declared in the current window (``declared_quick``
    steps), held until the active player acts first or passes (P-VIS-11, P-TIME-06, A-18)."""

    prompts: list[Prompt] = Field(default_factory=list)
    prompt_seq: int = 0
    queue: list[Step] = Field(default_factory=list)
    private_seen: dict[str, list[str]] = Field(default_factory=dict)
    """What a seat inspected privately (Chalk, Library ...): seat -> lines for its view."""

    outcome: Literal["over"] | None = None
    winners: list[str] = Field(default_factory=list)
    reason: str = ""
    log: list[str] = Field(default_factory=list)

    def __deepcopy__(self, memo: dict[int, Any] | None = None) -> PresenceState:
        return fast_copy(self)  # type: ignore[no-any-return]
