"""I Am the Fourth Wall game state: pydantic models, JSON round-trippable.

The state never holds content: it names cards by *instance ids* and the engine looks their
card definitions up in the content pack whose fingerprint the state records.

Instance ids (opaque, so a public view that shows an id never tells what a hidden card is):
- Marbles ``m01`` .. ``m54`` (``marble_cards[id]`` -> Marble card id in the pack);
- Horrors ``h01`` .. ``h36`` (``horror_cards[id]`` -> Horror card id);
- Investigator, Wall, Presence and Street cards are unique, so their pack ids are used.

Who is who (FW-PLAY-01..03, FW-AMB-09):
- a *seat* is a player at the table; in Conflict the Wall player is one seat
  (``wall_seat``) and every other seat is an Investigator player;
- an *investigator* (``InvestigatorState``) is one Investigator card plus a hand, with its own
  turn; ids ``i1`` .. ``iN`` in turn order (clockwise from the left of The Wall / the Lead
  Investigator). A seat may control several investigators: seats are dealt investigators
  interleaved (P1-a, P2-a, P1-b, P2-b ...).

Resolution (spec §6 / §7.1) is a queue of small serialisable steps (``Step``) plus a stack of
pending prompts (``rules.core.Prompt``). A card being resolved is a ``Frame`` (its source, its
side, the investigator or Horror it belongs to, whether some part could not be completed);
steps refer to frames by id so nothing relies on shared mutable objects.
"""

from __future__ import annotations

import copy
from typing import Any, Literal

from pydantic import BaseModel, Field

from rules.core.game import GameState
from rules.core.rng import Rng
from rules.core.types import Prompt

Mode = Literal["conflict", "alliance"]
Phase = Literal["setup", "wall", "investigator", "over"]
Side = Literal["investigators", "wall"]

_ATOMIC = (str, int, bool, float, type(None))


def fast_copy(value: Any) -> Any:
    """A deep copy of plain state data (models, lists, dicts, scalars); much faster than
    `copy.deepcopy`, which `Game.apply` would otherwise run before every action."""
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
            new,
            "__dict__",
            {k: x if type(x) in _ATOMIC else fast_copy(x) for k, x in d.items()},
        )
        object.__setattr__(new, "__pydantic_fields_set__", set(value.__pydantic_fields_set__))
        object.__setattr__(new, "__pydantic_extra__", copy.deepcopy(value.__pydantic_extra__))
        object.__setattr__(new, "__pydantic_private__", copy.deepcopy(value.__pydantic_private__))
        return new
    return copy.deepcopy(value)  # pragma: no cover - nothing else lives in the state


class InvestigatorState(BaseModel):
    """One Investigator seat in turn order (see the module docstring)."""

    id: str
    seat: str
    card: str | None = None
    """Investigator card id; None until chosen at setup (FW-SETUP-04)."""
    dealt: list[str] = Field(default_factory=list)
    """The two cards dealt at setup, until one is kept (FW-PROMPT-01)."""
    hand: list[str] = Field(default_factory=list)
    insane: bool = False
    regrouped: bool = False


class HorrorOnStreets(BaseModel):
    """A Horror On the Streets with what is Attached to it."""

    id: str
    street: int | None = None
    """Alliance: the Street (1..5) it sits on (FW-HORROR-09); Conflict: None."""
    attached: list[str] = Field(default_factory=list)
    drained: bool = False


class Frame(BaseModel):
    """A set of Instructions being resolved (FW-INSTR-01..05)."""

    id: int
    src: str
    """``inv_unique:<card>``, ``inv_exploit:<card>``, ``utilise:<marble>``,
    ``intervene:<marble>``, ``trigger:<horror>``, ``deathrattle:<horror>``,
    ``wall_unique:<card>:<n>``, ``aura:<card>``, ``street:<n>``, ``anchor:<marble>``,
    ``blitz`` (a Blitz from a card) ..."""
    side: Side
    """Whose card: an Investigator's (their controller decides; a failure lets The Wall take
    a Doom) or The Wall's (The Wall / the Presence AI decides; a failure lets an Elected
    Investigator Regroup)."""
    inv: str | None = None
    """The investigator who played it (investigator side) — "you" / "self"."""
    horror: str | None = None
    """The Horror instance the card is (trigger / deathrattle), for ``this``."""
    marble: str | None = None
    """The Marble instance the card is (utilise / intervene), for ``this``."""
    failed: bool = False
    no_penalty: bool = False
    """A failure whose penalty is replaced by a specific rule (Find, FW-AMB-16; Trouble /
    Delve triggers, FW-AMB-17)."""
    stop: bool = False
    """Stop resolving the rest of the card (Find failed: the Action is lost)."""
    data: dict[str, Any] = Field(default_factory=dict)


class Shield(BaseModel):
    """A ``shield_next_loss``: the next ``n`` Lose-a-Marble effects on ``scope`` are ignored,
    until the start of ``owner``'s next turn."""

    owner: str
    scope: Literal["self", "any_investigator"]
    n: int = 1


class Grant(BaseModel):
    """An out-of-sequence action granted to an investigator (FW-PROMPT-24)."""

    inv: str
    ap: int


class Step(BaseModel):
    """One piece of pending resolution work (the engine's continuation queue)."""

    op: str
    args: dict[str, Any] = Field(default_factory=dict)


class FourthWallState(GameState):
    """The whole game."""

    pack: str
    """Fingerprint of the content pack (``name@version+hash``) the game was set up with."""
    pack_path: str | None = None
    mode: Mode
    rng: Rng
    wall_seat: str | None = None
    """Conflict: the Wall player's seat (FW-SETC-02). Alliance: None."""
    start_gates: int = 3
    wrath_doom: int | None = None
    """Conflict: Doom per Wrath the table chose (option `wrath_doom`, ruling FW-LOBBY-03);
    None: the pack's (the book's 1). Games stored before the option load with None."""

    investigators: list[InvestigatorState] = Field(default_factory=list)
    marble_cards: dict[str, str] = Field(default_factory=dict)
    horror_cards: dict[str, str] = Field(default_factory=dict)

    investigator_deck: list[str] = Field(default_factory=list)
    marble_deck: list[str] = Field(default_factory=list)
    """Top of every deck is the END of the list (rules.core.deck)."""
    marble_discard: list[str] = Field(default_factory=list)
    horror_deck: list[str] = Field(default_factory=list)
    horror_discard: list[str] = Field(default_factory=list)
    wall_hand: list[str] = Field(default_factory=list)
    presence_deck: list[str] = Field(default_factory=list)
    presence_discard: list[str] = Field(default_factory=list)
    removed_investigators: list[str] = Field(default_factory=list)
    """Cards taken out at setup (the first-game Street Magician option, FW-SETUP-02)."""

    wall_card: str = ""
    gates: list[str] = Field(default_factory=list)
    """Open Gates (face-down Wall cards; only their number matters, FW-GATE-01)."""
    gate_supply: list[str] = Field(default_factory=list)
    revealed: bool = False
    """The Wall card is face up (An Eye Opens reached, FW-TRACK-03)."""

    tracker_size: int = 3
    """Which Turn Tracker layout (by number of Investigators) is in use (FW-SETC-03)."""
    rank_index: int = 0
    """Position on the Turn Tracker layout (0 = the starting Slumber rank)."""

    streets: list[HorrorOnStreets] = Field(default_factory=list)
    """Horrors On the Streets in the order they were placed (Alliance: each on a Street)."""
    anchored: list[str] = Field(default_factory=list)
    scourge: str | None = None
    """The Horror carrying The Scourge Token, or None (card set aside, FW-AMB-02)."""

    doom: int = 0
    """The Wall's Action Pool."""
    doom_deferred: int = 0
    """Doom "to use on their next turn" gained during The Wall's own turn (FW-DOOM-06)."""
    target: str | None = None
    """Alliance: the investigator holding the Target Token (FW-TARGET-01)."""

    phase: Phase = "setup"
    round: int = 1
    turn_index: int = 0
    """Index (in turn order) of the investigator whose turn is next or now."""
    wall_turns: int = 0
    """Wall turns started this game (1 during the first, FW-AMB-33)."""
    wall_mode: Literal["wrath", "brood"] | None = None
    wall_spending: bool = False
    """The Wall turn's Doom step is over: Doom gained now is deferred (FW-DOOM-06)."""
    last_wall_brood: bool = False
    wall_unique_used: bool = False
    ap: int = 0
    uniques_used: list[str] = Field(default_factory=list)
    """Investigators that used their Unique Action this turn (once per turn, FW-ACT-03)."""
    refunds: int = 0
    declined_trades: list[str] = Field(default_factory=list)
    """Trades declined this turn, each as ``"offerer>partner"`` (Investigator ids; public, as the
    decline is). The AI does not offer a Trade again to a partner who declined one this turn
    (`rules.fourth_wall.ai.without_declined_trades`); a player still may."""
    turn_over: bool = False
    """The active investigator went Insane: its turn ends after this Action (FW-INSANE-04)."""
    elect_after_action: bool = False
    """FW-TURN-06: The Wall's failed Instruction's Elected Regroup (FW-INSTR-05) is an Action
    of its own, so the failed one ends first (its Insanity checks) and an Investigator it
    drove Insane cannot be Elected. Set by games begun since stop 63; a game begun before keeps
    electing at once (`FourthWallGame.replay_rulings`), so its log replays as it was played."""
    in_play: list[str] = Field(default_factory=list)
    """Marbles being resolved: a revealed Utilise card, Blitz cards waiting to Intervene."""
    horror_limbo: list[str] = Field(default_factory=list)
    """{A} A Delved Horror while its Trigger Action resolves."""
    defeating: list[str] = Field(default_factory=list)
    """Horrors Defeated whose Deathrattle is resolving (still On the Streets)."""
    shields: list[Shield] = Field(default_factory=list)
    grants: list[Grant] = Field(default_factory=list)
    peek: list[str] = Field(default_factory=list)
    """Cards being looked at (top first), out of their deck until put back."""
    peek_deck: Literal["marble", "horror"] | None = None
    peek_for: str | None = None

    prompts: list[Prompt] = Field(default_factory=list)
    prompt_seq: int = 0
    queue: list[Step] = Field(default_factory=list)
    frames: list[Frame] = Field(default_factory=list)
    frame_seq: int = 0

    outcome: Literal["investigators", "wall"] | None = None
    reason: str = ""
    log: list[str] = Field(default_factory=list)
    last_presence: str | None = None
    revealed_cards: list[str] = Field(default_factory=list)
    """The last Blitz reveal (marble ids, public, FW-VIS-24)."""

    def __deepcopy__(self, memo: dict[int, Any] | None = None) -> FourthWallState:
        return fast_copy(self)  # type: ignore[no-any-return]
