"""Exorcism game state: pydantic models that hold everything a game is, JSON round-trippable.

The state never holds content (cards, rooms, effects): it names cards by their pack ids, and
the engine looks them up in the content pack whose fingerprint the state records. Positions on
the board are cell ids: ``r1c1`` .. ``r4c4`` for the house cells, ``attic`` and ``foyer`` for
the fixed points (EX-GAP-01). A card lies on a cell; an Architect swap (or Manipulate the Manor)
exchanges the card *and everything on it* between two cells, so a cell record holds the card
with its tokens, shroud and dropped Tools together.

Who is who:
- a *seat* is a player at the table (``PlayerState``); the Ghost player in One vs All is a seat
  with no Character (EX-AMB-57);
- an *investigator* is a pawn slot a seat controls (``InvestigatorState``): one per seat in
  core and One vs All (id = the seat id), two in Solo (ids ``primary`` and ``secondary``,
  EX-SOLO-01). The Character in the slot changes on rescue or a Foyer switch; the slot keeps
  its role (EX-AMB-38) and its Tools stay with the player on a switch (EX-AMB-19).

Resolution is a queue of small serialisable steps (``Step``) plus a stack of pending prompts
(rules.core.Prompt): an effect that needs a decision pushes a prompt and leaves the rest of its
work in the queue, so a restart can resume anywhere (spec §6).
"""

from __future__ import annotations

import copy
from typing import Any, Literal

from pydantic import BaseModel, Field

from rules.core.game import GameState
from rules.core.rng import Rng
from rules.core.types import Prompt

Mode = Literal["core", "one_vs_all", "solo"]

_ATOMIC = (str, int, bool, float, type(None))


def fast_copy(value: Any) -> Any:
    """A deep copy of plain state data (models, lists, dicts, scalars).

    `Game.apply` deep-copies the state before every action; the generic `copy.deepcopy`
    spent most of a playout's time there, so the state copies itself with this.
    """
    t = type(value)
    if t in _ATOMIC:
        return value
    if t is list:
        return [x if type(x) in _ATOMIC else fast_copy(x) for x in value]
    if t is dict:
        return {k: x if type(x) in _ATOMIC else fast_copy(x) for k, x in value.items()}
    if isinstance(value, BaseModel):
        # What pydantic's own __copy__ does, with our copy of the field values.
        new = object.__new__(t)
        d = value.__dict__
        object.__setattr__(
            new, "__dict__",
            {k: x if type(x) in _ATOMIC else fast_copy(x) for k, x in d.items()},
        )
        object.__setattr__(new, "__pydantic_fields_set__", set(value.__pydantic_fields_set__))
        object.__setattr__(new, "__pydantic_extra__", copy.deepcopy(value.__pydantic_extra__))
        object.__setattr__(new, "__pydantic_private__",
                           copy.deepcopy(value.__pydantic_private__))
        return new
    return copy.deepcopy(value)  # pragma: no cover - nothing else lives in the state
Phase = Literal["setup", "haunt", "actions", "ghost", "over"]


class CellState(BaseModel):
    """One cell of the house and the card lying on it, with everything on that card."""

    id: str
    row: int
    col: int
    kind: Literal["house", "attic", "foyer"]
    card: str | None = None
    """Room or Locked Room id on this cell; None on the Attic (not a Room card, EX-AMB-42)."""
    face_down: bool = False
    """A Locked Room not yet unlocked (EX-SETUP-01 step 6)."""
    darkness: int = 0
    """Darkness Tokens on the card, including the ones kept under a Shroud (EX-DARK-07)."""
    shrouded: bool = False
    exorcism_tokens: int = 0
    """Tokens from Time Actions on a face-down Locked Room (EX-TIME-01)."""
    dropped: dict[str, int] = Field(default_factory=dict)
    """Dropped or placed Tools lying here, by type (EX-WOUND-01, EX-TERROR-03)."""


class InvestigatorState(BaseModel):
    """A pawn slot a seat controls (see the module docstring)."""

    id: str
    seat: str
    role: Literal["investigator", "primary", "secondary"]
    character: str | None = None
    """None between a Wound and the Rescue (EX-RESCUE-01)."""
    cell: str | None = None
    tools: dict[str, int] = Field(default_factory=dict)
    escaped: bool = False
    last_character: str | None = None
    """The Character this pawn slot carried at its latest Wound: names the seat until the
    Rescue, and for good after a Wound no Lookout could Rescue (EX-LOSE-02)."""
    tasks_done: int = 0
    """Tasks this pawn slot completed, whichever Characters it carried (the recap's count:
    a Character changes hands through the Lookouts, so its name cannot tell whose it was)."""
    wounds: int = 0
    """Wounds this pawn slot suffered (devoured included)."""


class PlayerState(BaseModel):
    """A seat: its Tasks and Plans belong to the player (EX-TASK-02, EX-AMB-20)."""

    seat: str
    role: Literal["investigator", "ghost", "solo"]
    tasks: list[str] = Field(default_factory=list)
    plans: list[str] = Field(default_factory=list)
    ongoing: list[str] = Field(default_factory=list)
    """Completed Tasks with an Ongoing Ability, kept in the play area (EX-TASK-04)."""
    turns_taken: int = 0
    out: bool = False
    """Escaped after the exorcism: no more turns (EX-FOYER-03, EX-TURN-05)."""
    pending_delta: int = 0
    """Amnesia: Actions lost (-) or gained (+) on this seat's next turn (EX-TERROR-05)."""


class Step(BaseModel):
    """One piece of pending resolution work (the engine's continuation queue)."""

    op: str
    args: dict[str, Any] = Field(default_factory=dict)


class ExorcismState(GameState):
    """The whole game."""

    pack: str
    """Fingerprint of the content pack (``name@version+hash``) the game was set up with,
    kept for replays and migrations (DESIGN.md "Deploys mid-game")."""
    pack_path: str | None = None
    """Folder of a non-default pack, or None for the shipped default pack."""
    mode: Mode
    first_game: bool = False
    """The first-game setup (EX-FIRST-01..03): a lower target, a calmer first round."""
    haunt_level_cooldown: bool = False
    """The table's One vs All Haunt Level ruling (EX-AMB-59, the `haunt_level_cooldown` table
    option): at most one Increase the Haunt Level per Haunt phase, none in the phase right
    after one that had it."""
    shroud_returns_darkness: bool = False
    """The table's Shroud ruling (EX-GAP-17, the `shroud_returns_darkness` table option): a
    Shrouded Room's 4 Darkness Tokens go back to the supply. False: the pack decides (the
    shipped pack keeps them under the Shroud, EX-DARK-07)."""
    ghost_seat: str | None = None
    counts_kept: bool = False
    """Whether the pawn slots count their Tasks and Wounds (`InvestigatorState.tasks_done`):
    True from setup on; a game stored before the counts began keeps the recap's count by
    Character name."""
    rng: Rng

    cells: dict[str, CellState]
    unused_locked: list[str] = Field(default_factory=list)
    """The Locked Rooms returned to the box: secret forever (EX-VIS-03)."""
    ghosts: dict[str, str | None] = Field(default_factory=dict)
    """Ghost name -> cell id, or None while outside the house (EX-GHOST-01)."""

    investigators: dict[str, InvestigatorState] = Field(default_factory=dict)
    players: dict[str, PlayerState] = Field(default_factory=dict)
    lookouts: list[str] = Field(default_factory=list)
    wounded: list[str] = Field(default_factory=list)
    devoured: list[str] = Field(default_factory=list)
    out_of_play: list[str] = Field(default_factory=list)
    escaped: list[str] = Field(default_factory=list)

    tool_piles: dict[str, int] = Field(default_factory=dict)
    task_deck: list[str] = Field(default_factory=list)
    available_tasks: list[str] = Field(default_factory=list)
    task_discard: list[str] = Field(default_factory=list)
    plan_deck: list[str] = Field(default_factory=list)
    plan_discard: list[str] = Field(default_factory=list)
    haunt_deck: list[str] = Field(default_factory=list)
    """Top of the deck is the END of the list (rules.core.deck)."""
    haunt_discard: list[str] = Field(default_factory=list)
    """Discarded standard Haunt cards: reshuffled when the deck runs out (EX-HAUNT-10)."""
    haunt_removed: list[str] = Field(default_factory=list)
    """Discarded Darkness/Bull/Devourer cards: never again (EX-AMB-10)."""
    ghost_hand: list[str] = Field(default_factory=list)

    dice: list[int] = Field(default_factory=list)
    """Pips of each Time Die in clock order; 0 = discarded (EX-CLOCK-01)."""
    track_index: int = 0
    darkness_supply: int = 0
    shrouds_left: int = 0
    haunt_level: int = 0
    points: int = 0
    exorcised: bool = False

    first_seat: str | None = None
    active: str | None = None
    round: int = 1
    game_turn: int = 0
    phase: Phase = "setup"
    actions_left: int = 0
    turn_delta: int = 0
    ghost_budget: int = 0
    turn_lost: bool = False
    refunds: int = 0
    """Trades cancelled or declined this turn (their Action refunded). No rule limits them;
    the built-in AI reads the count so that it stops re-offering refused Trades."""
    once_used: list[str] = Field(default_factory=list)
    walked: dict[str, list[str]] = Field(default_factory=dict)
    """Investigator id -> the Rooms its Moves left this turn, in order, since its last other
    Action (public: every Move is announced). No rule reads it; the built-in AI does, so that
    it never walks a pawn back where it came from within a turn (issue #23)."""
    terror_used: int = 0
    last_terror: str | None = None
    """The Terror ability the Ghost player caused last (public: every Terror is announced). No
    rule reads it; the built-in AI does, to expect the Ghost player's habit (stop 69: read off
    the log, whose last 20 lines lost it in a third of the turns it mattered)."""
    raised_in_phase: int = 0
    """Increases of the Haunt Level in the current Haunt phase (One vs All)."""
    raised_last_phase: bool = False
    """Whether the Haunt phase before the current one had an Increase (EX-AMB-59 ruling)."""
    cold_spot: str | None = None
    haunting_sounds: str | None = None
    walls_bleed: bool = False

    prompts: list[Prompt] = Field(default_factory=list)
    prompt_seq: int = 0
    queue: list[Step] = Field(default_factory=list)
    peek: list[str] = Field(default_factory=list)
    peek_team: bool = False
    """The peek is for the investigators only (One vs All, EX-VIS-12)."""
    haunt_seen: int = 0
    """How many cards on top of the Haunt deck a finished peek showed, in the order they lie:
    known to the peek's audience (`peek_team`) until drawn; a reshuffle forgets them."""

    outcome: Literal["won", "lost"] | None = None
    reason: str = ""
    log: list[str] = Field(default_factory=list)
    last_haunt: str | None = None

    def __deepcopy__(self, memo: dict[int, Any] | None = None) -> ExorcismState:
        return fast_copy(self)  # type: ignore[no-any-return]
