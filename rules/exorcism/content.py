"""Exorcism content: pydantic models for a content pack, its loader and its validator.

A *content pack* is a folder of TOML files (spec §3.0). The shipped default pack lives
next to this module in ``content/``; a group that owns the printed game writes its own
folder with the same files and loads it with :func:`load_pack`. Nothing in the engine
names a card: every mechanic is data written with the effect vocabulary below (spec
§3.1, DESIGN.md "Content is data").

Entry points
============
``load_pack(path=None) -> Pack``   load + validate; ``None`` = the shipped default pack.
                                   Raises :class:`ContentError` (a ``ValueError``) listing
                                   the error findings; warnings do not stop loading.
``default_pack() -> Pack``         the shipped pack, loaded once and cached.
``check_pack(path) -> list[Finding]``  every finding (errors and warnings), never raises
                                   for bad content (TOML syntax, schema errors included).
``validate_pack(pack) -> list[Finding]``  the semantic checks on an in-memory Pack.
``pack_fingerprint(pack) -> str``  ``"name@version+<12 hex>"``, stored with each game.
``register_custom_effect(name)``   lets Python code register a named custom effect that
                                   data may refer to with ``{op = "custom", name = ...}``.
``pack_json_schema()``             JSON Schema of a pack, for editors of printed packs.

Every effect/modifier class below is importable by name (``GainTool``, ``Purify``, ...);
the engine dispatches on ``effect.op`` / ``modifier.kind`` (``EFFECT_OPS``,
``MODIFIER_KINDS`` list them), never on a card's name or id.

Schema (all models frozen, ``extra="forbid"``; collections are tuples)
=====================================================================
Scalars: ``ToolType = "weapon" | "holy_relic" | "key" | "detection" | "occult"``;
``Subtype`` is the same set (EX-GAP-06); ``Direction = "N" | "E" | "S" | "W"``;
``Location`` is an int 1..6; ``Cell = tuple[int, int]`` (row, col).

Effect (discriminated on ``op``; an Action is a ``tuple[Effect, ...]`` resolved in order):
  gain_tool        types: tuple[ToolType, ...] (1 = that type, several = the player
                   chooses ONE type), n=1 (gain n of the chosen type; an empty pile gives
                   what is left, EX-TOOL-02)
  exchange_tools   n=2 (return up to n own Tools, gain as many Tools of other types)
  gain_task        source="available" (TOML key ``from`` also accepted), n=1,
                   refill=True (EX-GAP-07)
  gain_plan        n=1 (top of the Plan deck; empty deck = lost, EX-AMB-53)
  gain_points      n (Exorcism points)
  purify           room: "self" | "adjacent" | "chosen_adjacent_or_self",
                   n: int | "all" (removes up to n; never a Shrouded Room unless the pack
                   option purify_shrouded)
  heal             n=1 (Wounded, non-Devoured Characters turned into Lookouts)
  move_self        n=2, mode: "normal" (normal Move rules, up to n steps) |
                   "teleport_no_ghost" (any cell without a Ghost; n ignored)
  trade            range: int | "any" (one Trade, partner within that path distance)
  pick_up_tools    —
  unlock           cost: "key" | "free"
  swap_rooms       constraint: "adjacent_to_self" | "any" (never the Attic or Foyer)
  peek_haunt       n=3, reorder=True (look at the top n Haunt cards, put back in any order)
  prevent_wound    includes_devourer=True (the pawn goes to the Foyer or an edge cell)
  extra_action     n=1, when="this_turn"
  use_adjacent_room_action  — (an adjacent Room that is neither face-down Locked nor
                   Shrouded)
  escape_or_switch —  (the Foyer: EX-FOYER-01..03)
  custom           name: str (registered with register_custom_effect), params: dict

Modifier (discriminated on ``kind``; a standing rule of a Character or Ongoing Task):
  move_range_delta   delta: int (added to the Move range, e.g. +1 = up to 3 spaces)
  purify_amount      n: int (the Purify Action removes up to n; the largest wins)
  trade_range        range: int | "any" (orthogonal path length; nothing blocks it)
  protect_roommates  protects_self=False (other Characters in your Room are not Wounded)
  unlock_cost        cost: "key" | "free"

ActionAbility: an extra Action a player may take (Character ability, Ongoing Task):
  effects: tuple[Effect, ...]; only_in: tuple[room id, ...] | None (the Doctor's "while in
  the Foyer"); once_per_turn: bool (the spec's ``once_per_turn`` modifier).

Cards and boards:
  Room            id, name, location: Location | None (None only for the Foyer),
                  action: tuple[Effect, ...], text          (rooms.toml, locked_rooms.toml)
  Character       id, name, start (non-Locked room id), specialization: Subtype,
                  specialization_bonus=1, ability_action: ActionAbility | None,
                  rules: tuple[Modifier, ...], text                   (characters.toml)
  Task            id, name, subtype, to_complete: tuple[ToolType, ...] (a multiset),
                  points, rewards: tuple[Effect, ...], ongoing: tuple[Modifier, ...],
                  ongoing_action: ActionAbility | None, text; ``has_ongoing``   (tasks.toml)
  Plan            id, name, copies>=1, timing: "any_time" | "own_turn_only" | "on_wound",
                  effect: tuple[Effect, ...], text                        (plans.toml)
  ToolDef         type: ToolType, name, count                             (tools.toml)
  HauntCard       kind="haunt", id, location, die_value>=1,
                  arrows: Arrows(wraith, bull, devourer: Direction)
  DarknessCard    kind="darkness", id;  BullCard kind="bull", id;  DevourerCard
                  kind="devourer", id        (haunt_deck.toml; one entry per physical card)
  Clock           dice=8, starting_pips=6, action_hours=(1,4,7), time_action_tokens=1,
                  darkness_track: tuple[int, ...] (index 0 = the first "1")  (clock.toml)
  TerrorAbility   id: TerrorId, name, threshold                            (terror.toml)
  Layout          rows, cols, cells (None = full grid, 1-based), attic: FixedCell(cell,
                  name), foyer: FoyerCell(cell, name, room), adjacency="orthogonal",
                  edge="perimeter", placement_order="reading", ghost_edge:
                  GhostEdgeRules(wraith="wrap", bull="stop", devourer="stop"); geometry
                  helpers: house_cells, all_cells, exists, neighbour, neighbours,
                  edge_cells, ghost_move, distance, label                  (layout.toml)
  PackOptions     the pack options of spec §3/§4 (see the class)       (pack.toml [options])
  Pack            name, version, description, options, layout, rooms, locked_rooms,
                  characters, tasks, plans, tools, haunt_deck, clock, terror; lookups
                  room(id), character(id), task(id), plan(id), haunt_card(id), terror_ability(id),
                  tool(type); decks plan_deck(), task_deck(), haunt_deck_ids(); foyer_id.
"""

from __future__ import annotations

import itertools
from collections import Counter, deque
from collections.abc import Collection, Iterable, Mapping
from functools import cached_property
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import (
    AliasChoices,
    BaseModel,
    ConfigDict,
    Field,
    PrivateAttr,
    ValidationError,
)

from rules.core.content import (
    ContentError,
    Finding,
    PackLoader,
    fingerprint,
    private,
    read_toml_pack,
    schema_findings,
)

__all__ = [
    "DEFAULT_PACK_DIR",
    "EFFECT_OPS",
    "MODIFIER_KINDS",
    "PACK_FILES",
    "TOOL_CYCLE",
    "TOOL_TYPES",
    "ActionAbility",
    "Arrows",
    "BullCard",
    "Cell",
    "Character",
    "Clock",
    "ContentError",
    "CustomEffect",
    "DarknessCard",
    "DevourerCard",
    "Direction",
    "Effect",
    "EscapeOrSwitch",
    "ExchangeTools",
    "ExtraAction",
    "Finding",
    "FixedCell",
    "FoyerCell",
    "GainPlan",
    "GainPoints",
    "GainTask",
    "GainTool",
    "GhostEdgeRules",
    "HauntCard",
    "HauntDeckCard",
    "Heal",
    "Layout",
    "Location",
    "Modifier",
    "MoveRangeDelta",
    "MoveSelf",
    "Pack",
    "PackOptions",
    "PeekHaunt",
    "PickUpTools",
    "Plan",
    "PlanTiming",
    "PreventWound",
    "ProtectRoommates",
    "Purify",
    "PurifyAmount",
    "Room",
    "Subtype",
    "SwapRooms",
    "Task",
    "TerrorAbility",
    "TerrorId",
    "ToolDef",
    "ToolType",
    "Trade",
    "TradeRange",
    "Unlock",
    "UnlockCost",
    "UseAdjacentRoomAction",
    "check_pack",
    "default_pack",
    "load_pack",
    "pack_fingerprint",
    "pack_json_schema",
    "register_custom_effect",
    "registered_custom_effects",
    "validate_pack",
]

DEFAULT_PACK_DIR = Path(__file__).parent / "content"

# --------------------------------------------------------------------------- scalars

ToolType = Literal["weapon", "holy_relic", "key", "detection", "occult"]
# The five Task Subtypes are named after the dominant Tool (EX-GAP-06).
Subtype = ToolType
Direction = Literal["N", "E", "S", "W"]
Location = Annotated[int, Field(ge=1, le=6)]
Cell = tuple[int, int]
TerrorId = Literal[
    "cold_spot",
    "haunting_sounds",
    "moving_objects",
    "walls_bleed",
    "amnesia",
    "temporary_possession",
]

TOOL_TYPES: tuple[ToolType, ...] = ("weapon", "holy_relic", "key", "detection", "occult")
# The order of the cycle used by the default Tasks and Pawn the Loot (EX-GAP-05, EX-GAP-08).
TOOL_CYCLE: tuple[ToolType, ...] = TOOL_TYPES

DIRECTION_DELTAS: dict[str, Cell] = {"N": (-1, 0), "E": (0, 1), "S": (1, 0), "W": (0, -1)}
OPPOSITE: dict[str, Direction] = {"N": "S", "S": "N", "E": "W", "W": "E"}


class _Model(BaseModel):
    """Base of every content model: immutable, and unknown keys are errors (typos)."""

    model_config = ConfigDict(frozen=True, extra="forbid")


# --------------------------------------------------------------------------- effects


class GainTool(_Model):
    """Gain ``n`` Tools of one type; with several ``types`` the player picks the type."""

    op: Literal["gain_tool"] = "gain_tool"
    types: tuple[ToolType, ...] = Field(min_length=1)
    n: int = Field(default=1, ge=1)


class ExchangeTools(_Model):
    """Return up to ``n`` own Tools to their piles; gain as many of other types."""

    op: Literal["exchange_tools"] = "exchange_tools"
    n: int = Field(default=2, ge=1)


class GainTask(_Model):
    """Gain ``n`` Available Tasks, refilling the row after each (EX-GAP-07)."""

    op: Literal["gain_task"] = "gain_task"
    # The spec writes this parameter as ``from``, a Python keyword; both spellings load.
    source: Literal["available"] = Field(
        default="available", validation_alias=AliasChoices("source", "from")
    )
    n: int = Field(default=1, ge=1)
    refill: bool = True


class GainPlan(_Model):
    """Gain the top ``n`` Plan cards (an empty deck gives nothing, EX-AMB-53)."""

    op: Literal["gain_plan"] = "gain_plan"
    n: int = Field(default=1, ge=1)


class GainPoints(_Model):
    """Gain ``n`` Exorcism points (EX-AMB-01)."""

    op: Literal["gain_points"] = "gain_points"
    n: int = Field(ge=1)


class Purify(_Model):
    """Remove up to ``n`` (or all) Darkness Tokens from one Room.

    ``self``: your Room; ``adjacent``: one Room orthogonally adjacent to yours;
    ``chosen_adjacent_or_self``: your Room or one adjacent Room, the player chooses.
    """

    op: Literal["purify"] = "purify"
    room: Literal["self", "adjacent", "chosen_adjacent_or_self"] = "self"
    n: int | Literal["all"] = Field(default=1)

    def amount(self, present: int) -> int:
        """How many tokens this removes from a Room holding ``present`` tokens."""
        return present if self.n == "all" else min(self.n, present)


class Heal(_Model):
    """Heal ``n`` Wounded, non-Devoured Characters; each becomes a Lookout (EX-HEAL-01)."""

    op: Literal["heal"] = "heal"
    n: int = Field(default=1, ge=1)


class MoveSelf(_Model):
    """Move your own pawn: a normal Move of up to ``n`` steps, or to any Ghost-free cell."""

    op: Literal["move_self"] = "move_self"
    n: int = Field(default=2, ge=1)
    mode: Literal["normal", "teleport_no_ghost"] = "normal"


class Trade(_Model):
    """One Trade with a partner within ``range`` (orthogonal path length) or anywhere."""

    op: Literal["trade"] = "trade"
    range: int | Literal["any"] = 1


class PickUpTools(_Model):
    """Pick up any subset of the dropped Tools in your Room (EX-AMB-55)."""

    op: Literal["pick_up_tools"] = "pick_up_tools"


class Unlock(_Model):
    """Unlock the face-down Locked Room you stand in (EX-ACT-07)."""

    op: Literal["unlock"] = "unlock"
    cost: Literal["key", "free"] = "key"


class SwapRooms(_Model):
    """Swap two house cards with everything on them; never the Attic or the Foyer."""

    op: Literal["swap_rooms"] = "swap_rooms"
    constraint: Literal["adjacent_to_self", "any"] = "adjacent_to_self"


class PeekHaunt(_Model):
    """Look at the top ``n`` Haunt cards; with ``reorder`` put them back in any order."""

    op: Literal["peek_haunt"] = "peek_haunt"
    n: int = Field(default=3, ge=1)
    reorder: bool = True


class PreventWound(_Model):
    """Prevent one pending Wound; the pawn goes to the Foyer or an edge cell (EX-WOUND-03)."""

    op: Literal["prevent_wound"] = "prevent_wound"
    includes_devourer: bool = True


class ExtraAction(_Model):
    """Take ``n`` additional Actions this turn."""

    op: Literal["extra_action"] = "extra_action"
    n: int = Field(default=1, ge=1)
    when: Literal["this_turn"] = "this_turn"


class UseAdjacentRoomAction(_Model):
    """Use the Action of an adjacent Room that is neither face-down Locked nor Shrouded."""

    op: Literal["use_adjacent_room_action"] = "use_adjacent_room_action"


class EscapeOrSwitch(_Model):
    """The Foyer: Escape the House, or switch your Character with a Lookout."""

    op: Literal["escape_or_switch"] = "escape_or_switch"


class CustomEffect(_Model):
    """A named effect implemented in Python (``register_custom_effect``), for printed packs
    whose cards the vocabulary cannot say. The default pack uses none."""

    op: Literal["custom"] = "custom"
    name: str = Field(min_length=1)
    params: dict[str, int | str | bool] = Field(default_factory=dict)


Effect = Annotated[
    GainTool
    | ExchangeTools
    | GainTask
    | GainPlan
    | GainPoints
    | Purify
    | Heal
    | MoveSelf
    | Trade
    | PickUpTools
    | Unlock
    | SwapRooms
    | PeekHaunt
    | PreventWound
    | ExtraAction
    | UseAdjacentRoomAction
    | EscapeOrSwitch
    | CustomEffect,
    Field(discriminator="op"),
]

EFFECT_OPS: frozenset[str] = frozenset(
    {
        "gain_tool",
        "exchange_tools",
        "gain_task",
        "gain_plan",
        "gain_points",
        "purify",
        "heal",
        "move_self",
        "trade",
        "pick_up_tools",
        "unlock",
        "swap_rooms",
        "peek_haunt",
        "prevent_wound",
        "extra_action",
        "use_adjacent_room_action",
        "escape_or_switch",
        "custom",
    }
)

# --------------------------------------------------------------------------- modifiers


class MoveRangeDelta(_Model):
    """Add ``delta`` to the Move range (base 2, pack option ``move_range``)."""

    kind: Literal["move_range_delta"] = "move_range_delta"
    delta: int


class PurifyAmount(_Model):
    """The Purify Action removes up to ``n`` tokens (the largest modifier wins)."""

    kind: Literal["purify_amount"] = "purify_amount"
    n: int = Field(ge=1)


class TradeRange(_Model):
    """Trade range as an orthogonal path length; Ghosts and Locked Rooms do not block."""

    kind: Literal["trade_range"] = "trade_range"
    range: int | Literal["any"]


class ProtectRoommates(_Model):
    """When a Ghost ends its move in your Room, the other Characters there are not Wounded."""

    kind: Literal["protect_roommates"] = "protect_roommates"
    protects_self: bool = False


class UnlockCost(_Model):
    """What the Unlock Action costs you (``free`` = no Key needed)."""

    kind: Literal["unlock_cost"] = "unlock_cost"
    cost: Literal["key", "free"]


Modifier = Annotated[
    MoveRangeDelta | PurifyAmount | TradeRange | ProtectRoommates | UnlockCost,
    Field(discriminator="kind"),
]

MODIFIER_KINDS: frozenset[str] = frozenset(
    {"move_range_delta", "purify_amount", "trade_range", "protect_roommates", "unlock_cost"}
)


class ActionAbility(_Model):
    """An Action a player may take besides the standard ones (costs 1 Action).

    ``only_in`` restricts where it may be used (room ids, e.g. the Doctor: the Foyer);
    ``once_per_turn`` is the spec's ``once_per_turn`` modifier.
    """

    effects: tuple[Effect, ...] = Field(min_length=1)
    only_in: tuple[str, ...] | None = None
    once_per_turn: bool = False


# --------------------------------------------------------------------------- cards


class Room(_Model):
    """A Room card or a Locked Room card (EX-COMP-04). The Foyer has no Location Number."""

    id: str = Field(min_length=1)
    name: str = Field(min_length=1)
    location: Location | None = None
    action: tuple[Effect, ...] = Field(min_length=1)
    text: str = ""


class Character(_Model):
    """A Character card (EX-COMP-05): start Room, ability (Action and/or rules), Specialization."""

    id: str = Field(min_length=1)
    name: str = Field(min_length=1)
    start: str = Field(min_length=1)
    specialization: Subtype
    specialization_bonus: int = Field(default=1, ge=0)
    ability_action: ActionAbility | None = None
    rules: tuple[Modifier, ...] = ()
    text: str = ""


class Task(_Model):
    """A Task card (EX-COMP-08). Ongoing Tasks stay in play (EX-ACT-05 step 4)."""

    id: str = Field(min_length=1)
    name: str = Field(min_length=1)
    subtype: Subtype
    to_complete: tuple[ToolType, ...] = Field(min_length=1)
    points: int = Field(ge=0)
    rewards: tuple[Effect, ...] = ()
    ongoing: tuple[Modifier, ...] = ()
    ongoing_action: ActionAbility | None = None
    text: str = ""

    @property
    def called(self) -> str:
        """The Task as a sentence names it: "Key Task 6", or "the Task Lantern Vigil" for a
        pack's card whose name does not say it is a Task."""
        return self.name if "task" in self.name.lower() else f"the Task {self.name}"

    @property
    def has_ongoing(self) -> bool:
        """True when completing the Task keeps it in play (not discarded)."""
        return bool(self.ongoing) or self.ongoing_action is not None

    def cost(self) -> Counter[str]:
        """The To Complete list as a multiset of Tool types."""
        return Counter(self.to_complete)

    @cached_property
    def cost_items(self) -> tuple[tuple[str, int], ...]:
        """`cost()`'s items, built once: the AI reads them tens of thousands of times a
        decision, and a fresh Counter each time was a tenth of its CPU."""
        return tuple(Counter(self.to_complete).items())


PlanTiming = Literal["any_time", "own_turn_only", "on_wound"]


class Plan(_Model):
    """A Plan card (EX-COMP-07); ``copies`` identical physical cards share this entry."""

    id: str = Field(min_length=1)
    name: str = Field(min_length=1)
    copies: int = Field(default=1, ge=1)
    timing: PlanTiming = "any_time"
    effect: tuple[Effect, ...] = Field(min_length=1)
    text: str = ""

    @property
    def called(self) -> str:
        """The Plan as a sentence names it: "the Plan “Pawn the Loot”" (a card named like
        an order reads as one without its quotes: "gains the Plan Pawn the Loot")."""
        return f"the Plan “{self.name}”"


class ToolDef(_Model):
    """One Tool pile (EX-COMP-03); identical cards, so a pile is a counter (EX-GAP-09)."""

    type: ToolType
    name: str = Field(min_length=1)
    count: int = Field(ge=0)


class Arrows(_Model):
    """The three movement arrows of a standard Haunt card (EX-COMP-06)."""

    wraith: Direction
    bull: Direction
    devourer: Direction


class HauntCard(_Model):
    """A standard Haunt card: arrows, Location Die and Die Value (EX-COMP-06)."""

    kind: Literal["haunt"] = "haunt"
    id: str = Field(min_length=1)
    location: Location
    die_value: int = Field(ge=1)
    arrows: Arrows


class DarknessCard(_Model):
    """Advances the Darkness Track by 1 (EX-HAUNT-05)."""

    kind: Literal["darkness"] = "darkness"
    id: str = Field(min_length=1)


class BullCard(_Model):
    """Places the Bull on the Attic (EX-HAUNT-06)."""

    kind: Literal["bull"] = "bull"
    id: str = Field(min_length=1)


class DevourerCard(_Model):
    """Places the Devourer on the Attic (EX-HAUNT-07)."""

    kind: Literal["devourer"] = "devourer"
    id: str = Field(min_length=1)


HauntDeckCard = Annotated[
    HauntCard | DarknessCard | BullCard | DevourerCard, Field(discriminator="kind")
]


class Clock(_Model):
    """The Clock Tile (EX-COMP-10, EX-GAP-11)."""

    dice: int = Field(default=8, ge=1)
    starting_pips: int = Field(default=6, ge=1, le=6)
    # Hours (1-based, in order of use, EX-AMB-22) whose reveal is a Time Action.
    action_hours: tuple[int, ...] = (1, 4, 7)
    # Exorcism Tokens added to each face-down Locked Room per Time Action (EX-TIME-01).
    time_action_tokens: int = Field(default=1, ge=0)
    # Darkness Track values, index 0 = the first "1" at the top right (EX-AMB-43).
    darkness_track: tuple[int, ...] = Field(min_length=1)


class TerrorAbility(_Model):
    """A One vs All Terror Ability; the engine implements each ``id`` (EX-TERROR-01..06)."""

    id: TerrorId
    name: str = Field(min_length=1)
    threshold: int = Field(ge=0)


# --------------------------------------------------------------------------- layout


class FixedCell(_Model):
    """A fixed point of the house (the Attic), outside the shuffled cells."""

    cell: Cell
    name: str = Field(min_length=1)


class FoyerCell(FixedCell):
    """The Foyer's fixed cell and the id of the Room card that sits on it."""

    room: str = Field(min_length=1)


class GhostEdgeRules(_Model):
    """What a Ghost does at a board edge (EX-GAP-16): wrap like the Wraith, or stop."""

    wraith: Literal["wrap", "stop"] = "wrap"
    bull: Literal["wrap", "stop"] = "stop"
    devourer: Literal["wrap", "stop"] = "stop"


class Layout(_Model):
    """The house grid (EX-GAP-01) and its movement geometry (EX-GAP-16).

    House cells are 1-based (row, col); with ``cells`` unset they are the full
    ``rows`` x ``cols`` grid. The Attic and the Foyer are extra cells outside it.
    """

    rows: int = Field(ge=1)
    cols: int = Field(ge=1)
    cells: tuple[Cell, ...] | None = None
    attic: FixedCell
    foyer: FoyerCell
    adjacency: Literal["orthogonal"] = "orthogonal"
    # Edge cells: house cells with fewer than 4 house neighbours (EX-GAP-01, EX-AMB-48).
    edge: Literal["perimeter"] = "perimeter"
    placement_order: Literal["reading"] = "reading"
    ghost_edge: GhostEdgeRules = GhostEdgeRules()

    _house: tuple[Cell, ...] = PrivateAttr(default=())
    _all: frozenset[Cell] = PrivateAttr(default=frozenset())

    def model_post_init(self, context: Any, /) -> None:
        # Derived once: the geometry helpers run inside every move of every playout.
        if self.cells is None:
            house = [(r, c) for r in range(1, self.rows + 1) for c in range(1, self.cols + 1)]
        else:
            house = sorted(set(self.cells))
        self._house = tuple(house)
        self._all = frozenset([*house, self.attic.cell, self.foyer.cell])

    def house_cells(self) -> tuple[Cell, ...]:
        """The shuffled card cells in reading (placement) order, Attic and Foyer excluded."""
        return private(self, "_house")

    def all_cells(self) -> frozenset[Cell]:
        """Every cell a pawn or Ghost can stand on, Attic and Foyer included."""
        return private(self, "_all")

    def exists(self, cell: Cell) -> bool:
        return cell in private(self, "_all")

    def neighbour(self, cell: Cell, direction: str) -> Cell | None:
        """The orthogonal neighbour in ``direction``, or None when no such cell exists."""
        dr, dc = DIRECTION_DELTAS[direction]
        nxt = (cell[0] + dr, cell[1] + dc)
        return nxt if nxt in private(self, "_all") else None

    def neighbours(self, cell: Cell) -> list[Cell]:
        """Adjacent cells (orthogonal, existing), in N, E, S, W order."""
        out = []
        for d in "NESW":
            n = self.neighbour(cell, d)
            if n is not None:
                out.append(n)
        return out

    def edge_cells(self) -> tuple[Cell, ...]:
        """House cells on the perimeter, reading order (rescue/prevention placement)."""
        house = set(private(self, "_house"))
        return tuple(
            cell
            for cell in private(self, "_house")
            if sum((cell[0] + dr, cell[1] + dc) in house for dr, dc in DIRECTION_DELTAS.values())
            < 4
        )

    def _wrap(self, cell: Cell, direction: str) -> Cell:
        # EX-GAP-16: walk the opposite way along the row/column to the farthest existing cell.
        back = OPPOSITE[direction]
        cur = cell
        while (nxt := self.neighbour(cur, back)) is not None:
            cur = nxt
        return cur

    def ghost_move(self, ghost: str, cell: Cell, direction: str, steps: int = 1) -> Cell:
        """Where ``ghost`` ("wraith" | "bull" | "devourer") ends after ``steps`` steps.

        Each step goes to the neighbour in ``direction``; at an edge a ``wrap`` Ghost
        appears at the far end of its row/column (stays put if there is none), a ``stop``
        Ghost stays on the last existing cell (EX-GHOST-04/05, EX-GAP-16).
        """
        rule = getattr(self.ghost_edge, ghost)
        cur = cell
        for _ in range(steps):
            nxt = self.neighbour(cur, direction)
            if nxt is None:
                if rule == "stop":
                    break
                nxt = self._wrap(cur, direction)
            cur = nxt
        return cur

    def distance(self, a: Cell, b: Cell) -> int | None:
        """Orthogonal path length between two cells; nothing blocks it (EX-AMB-12)."""
        if a not in private(self, "_all") or b not in private(self, "_all"):
            return None
        seen = {a: 0}
        queue = deque([a])
        while queue:
            cur = queue.popleft()
            if cur == b:
                return seen[cur]
            for n in self.neighbours(cur):
                if n not in seen:
                    seen[n] = seen[cur] + 1
                    queue.append(n)
        return None

    def label(self, cell: Cell) -> str:
        """A human name for a cell: the Attic/Foyer name, else ``r1c2``."""
        if cell == self.attic.cell:
            return self.attic.name
        if cell == self.foyer.cell:
            return self.foyer.name
        return f"r{cell[0]}c{cell[1]}"


# --------------------------------------------------------------------------- pack


class PackOptions(_Model):
    """Pack options named in spec §3/§4, with the spec defaults; a pack may omit any."""

    # Components and counts (EX-COMP-01, EX-SETUP-01..05).
    locked_rooms_in_play: int = Field(default=5, ge=0)
    exorcism_target: int = Field(default=30, ge=1)
    darkness_supply: int = Field(default=30, ge=0)
    shrouds: int = Field(default=8, ge=0)
    exorcism_tokens: int = Field(default=24, ge=0)
    shroud_at: int = Field(default=4, ge=1)  # the Nth token Shrouds a Room (EX-DARK-04)
    available_tasks: int = Field(default=3, ge=1)
    lookouts: int = Field(default=3, ge=0)
    # Turn and Action numbers (EX-TURN-02, EX-ACT-01..03, EX-SOLO-02).
    actions_per_turn: int = Field(default=3, ge=1)
    solo_actions_per_turn: int = Field(default=5, ge=1)
    move_range: int = Field(default=2, ge=1)
    purify_amount: int = Field(default=1, ge=1)
    trade_range: int = Field(default=1, ge=0)
    haunt_from_round: int = Field(default=2, ge=1)  # EX-AMB-02
    # The first-game setup (EX-FIRST-01..03, a ruling: the rulebook prints none).
    first_game_exorcism_target: int = Field(default=24, ge=1)
    first_game_haunt_from_round: int = Field(default=3, ge=1)
    # Player counts per mode, inclusive (EX-PLAY-01..03).
    core_players: tuple[int, int] = (2, 5)
    ova_players: tuple[int, int] = (3, 5)
    solo_players: tuple[int, int] = (1, 1)
    # Rulings with a switch (spec §3, §4).
    initial_darkness_cards: int = Field(default=0, ge=0, le=2)  # EX-GAP-13
    shroud_returns_darkness: bool = False  # EX-DARK-07
    purify_shrouded: bool = False  # EX-AMB-52
    darkness_out_loss: Literal["on_required_placement", "on_any_haunt_draw"] = (
        "on_required_placement"  # EX-AMB-03
    )
    trade_consent: bool = True  # EX-AMB-11
    time_action_hours_from: Literal["first", "last"] = "first"  # EX-AMB-22
    hidden_plans: bool = False  # EX-VIS-16 (house option)
    # One vs All (EX-OVA-*, EX-AMB-27..30).
    ova_escape_required: bool = True
    ova_ghost_from_round: int = Field(default=2, ge=1)
    ova_hand_size: int = Field(default=3, ge=1)
    haunt_level_uses_supply: bool = True
    haunt_level_step: int = Field(default=2, ge=1)
    haunt_level_win: int = Field(default=30, ge=1)
    terror_per_turn: int = Field(default=1, ge=0)


class Pack(_Model):
    """A whole content pack. Build it with :func:`load_pack`, which also validates it."""

    name: str = Field(min_length=1)
    version: str = Field(min_length=1)
    description: str = ""
    options: PackOptions = PackOptions()
    layout: Layout
    rooms: tuple[Room, ...]
    locked_rooms: tuple[Room, ...]
    characters: tuple[Character, ...]
    tasks: tuple[Task, ...]
    plans: tuple[Plan, ...]
    tools: tuple[ToolDef, ...]
    haunt_deck: tuple[HauntDeckCard, ...]
    clock: Clock
    terror: tuple[TerrorAbility, ...]

    _rooms: dict[str, Room] = PrivateAttr(default_factory=dict)
    _characters: dict[str, Character] = PrivateAttr(default_factory=dict)
    _tasks: dict[str, Task] = PrivateAttr(default_factory=dict)
    _plans: dict[str, Plan] = PrivateAttr(default_factory=dict)
    _haunt: dict[str, HauntCard | DarknessCard | BullCard | DevourerCard] = PrivateAttr(
        default_factory=dict
    )

    def model_post_init(self, context: Any, /) -> None:
        # Lookup tables; duplicates are reported by validate_pack, the first one wins here.
        for room in (*self.rooms, *self.locked_rooms):
            self._rooms.setdefault(room.id, room)
        for ch in self.characters:
            self._characters.setdefault(ch.id, ch)
        for task in self.tasks:
            self._tasks.setdefault(task.id, task)
        for plan in self.plans:
            self._plans.setdefault(plan.id, plan)
        for card in self.haunt_deck:
            self._haunt.setdefault(card.id, card)

    # Lookups raise KeyError for an unknown id: ids come from the pack itself.
    def room(self, room_id: str) -> Room:
        return private(self, "_rooms")[room_id]

    def character(self, character_id: str) -> Character:
        return private(self, "_characters")[character_id]

    def task(self, task_id: str) -> Task:
        return private(self, "_tasks")[task_id]

    def plan(self, plan_id: str) -> Plan:
        return private(self, "_plans")[plan_id]

    def haunt_card(self, card_id: str) -> HauntCard | DarknessCard | BullCard | DevourerCard:
        return private(self, "_haunt")[card_id]

    def terror_ability(self, terror_id: str) -> TerrorAbility:
        for ability in self.terror:
            if ability.id == terror_id:
                return ability
        raise KeyError(terror_id)

    def tool(self, tool_type: str) -> ToolDef:
        for t in self.tools:
            if t.type == tool_type:
                return t
        raise KeyError(tool_type)

    def is_locked_room(self, room_id: str) -> bool:
        return any(r.id == room_id for r in self.locked_rooms)

    @property
    def foyer_id(self) -> str:
        return self.layout.foyer.room

    def house_room_ids(self) -> list[str]:
        """The Room cards that are shuffled into the house (all but the Foyer)."""
        return [r.id for r in self.rooms if r.id != self.foyer_id]

    def plan_deck(self) -> list[str]:
        """Plan ids, one per physical card (``copies`` expanded), file order."""
        return [p.id for p in self.plans for _ in range(p.copies)]

    def task_deck(self) -> list[str]:
        return [t.id for t in self.tasks]

    def haunt_deck_ids(self) -> list[str]:
        return [c.id for c in self.haunt_deck]

    def standard_haunt_ids(self) -> list[str]:
        """The cards reshuffled when the Haunt deck runs out (EX-HAUNT-10)."""
        return [c.id for c in self.haunt_deck if c.kind == "haunt"]

    def tool_counts(self) -> dict[str, int]:
        return {t.type: t.count for t in self.tools}


def table_options(opts: PackOptions, first_game: bool,
                  shroud_returns_darkness: bool = False) -> PackOptions:
    """The numbers one table plays with: the pack's, or its first-game setup (EX-FIRST-01:
    a lower Exorcism target; EX-FIRST-02: Haunt draws, or the Ghost player's turns, wait one
    round longer), and the table's Shroud ruling (EX-GAP-17: a table that chose it has a
    Shrouded Room's tokens go back to the supply, whatever the pack says; a table that did
    not plays the pack's `shroud_returns_darkness`, the rulebook's reading in the shipped one)."""
    if shroud_returns_darkness and not opts.shroud_returns_darkness:
        opts = opts.model_copy(update={"shroud_returns_darkness": True})
    if not first_game:
        return opts
    return opts.model_copy(update={
        "exorcism_target": min(opts.exorcism_target, opts.first_game_exorcism_target),
        "haunt_from_round": max(opts.haunt_from_round, opts.first_game_haunt_from_round),
        "ova_ghost_from_round": max(opts.ova_ghost_from_round,
                                    opts.first_game_haunt_from_round)})


# --------------------------------------------------------------------------- findings


_CUSTOM_EFFECTS: set[str] = set()


def register_custom_effect(name: str) -> str:
    """Declare a named custom effect implemented in Python, so packs may use it (§3.0 c)."""
    _CUSTOM_EFFECTS.add(name)
    return name


def registered_custom_effects() -> frozenset[str]:
    return frozenset(_CUSTOM_EFFECTS)


# --------------------------------------------------------------------------- loading

# file name -> (top-level key holding the list, or None for a single table; rule id for
# schema errors in that file: the component rule whose fields it carries, check (a)/(b)).
PACK_FILES: dict[str, tuple[str | None, str]] = {
    "pack.toml": (None, "EX-COMP-01"),
    "layout.toml": (None, "EX-GAP-01"),
    "rooms.toml": ("room", "EX-COMP-04"),
    "locked_rooms.toml": ("room", "EX-COMP-04"),
    "characters.toml": ("character", "EX-COMP-05"),
    "tasks.toml": ("task", "EX-COMP-08"),
    "plans.toml": ("plan", "EX-COMP-07"),
    "tools.toml": ("tool", "EX-COMP-03"),
    "haunt_deck.toml": ("card", "EX-COMP-06"),
    "clock.toml": (None, "EX-COMP-10"),
    "terror.toml": ("ability", "EX-TERROR-08"),
}

# Which Pack field each file fills.
_PACK_FIELD: dict[str, str] = {
    "layout.toml": "layout",
    "rooms.toml": "rooms",
    "locked_rooms.toml": "locked_rooms",
    "characters.toml": "characters",
    "tasks.toml": "tasks",
    "plans.toml": "plans",
    "tools.toml": "tools",
    "haunt_deck.toml": "haunt_deck",
    "clock.toml": "clock",
    "terror.toml": "terror",
}

_FILE_MODEL: dict[str, Any] = {
    "layout.toml": Layout,
    "rooms.toml": Room,
    "locked_rooms.toml": Room,
    "characters.toml": Character,
    "tasks.toml": Task,
    "plans.toml": Plan,
    "tools.toml": ToolDef,
    "haunt_deck.toml": HauntDeckCard,
    "clock.toml": Clock,
}


class _PackHeader(_Model):
    name: str = Field(min_length=1)
    version: str = Field(min_length=1)
    description: str = ""
    options: PackOptions = PackOptions()


def _loc_rule(default_rule: str, loc: tuple[int | str, ...], err_type: str = "") -> str:
    """A more precise rule id for a bad Tool type or Subtype (check (b)), else the file's."""
    last = next((p for p in reversed(loc) if isinstance(p, str)), "")
    if last in {"types", "to_complete", "type"}:
        return "EX-COMP-03"
    if last in {"subtype", "specialization"}:
        return "EX-GAP-06"
    return default_rule


def _schema_findings(
    file: str, rule: str, items: Any, key: str | None, exc: ValidationError
) -> list[Finding]:
    return schema_findings(file, rule, items, key, exc, rule_for=_loc_rule)


def _target(file: str) -> tuple[str, Any] | None:
    if file == "pack.toml":
        return None
    return _PACK_FIELD[file], TerrorAbility if file == "terror.toml" else _FILE_MODEL[file]


def _read_pack(path: Path) -> tuple[Pack | None, list[Finding]]:
    """Parse every file; return the Pack (None if anything failed) and the parse findings."""
    header, parts, findings = read_toml_pack(
        path, folder_rule="EX-COMP-01", files=PACK_FILES, target=_target,
        header_model=_PackHeader, findings_for=_schema_findings,
    )
    if header is None:
        return None, findings
    pack = Pack(
        name=header.name,
        version=header.version,
        description=header.description,
        options=header.options,
        **parts,
    )
    return pack, findings


def _walk_effects(pack: Pack) -> Iterable[tuple[str, str, Any]]:
    """(file, card id, effect) for every effect anywhere in the pack."""
    for room in pack.rooms:
        for eff in room.action:
            yield "rooms.toml", room.id, eff
    for room in pack.locked_rooms:
        for eff in room.action:
            yield "locked_rooms.toml", room.id, eff
    for ch in pack.characters:
        if ch.ability_action is not None:
            for eff in ch.ability_action.effects:
                yield "characters.toml", ch.id, eff
    for task in pack.tasks:
        for eff in task.rewards:
            yield "tasks.toml", task.id, eff
        if task.ongoing_action is not None:
            for eff in task.ongoing_action.effects:
                yield "tasks.toml", task.id, eff
    for plan in pack.plans:
        for eff in plan.effect:
            yield "plans.toml", plan.id, eff


PRINTED_TERROR: dict[str, tuple[int, str]] = {
    "cold_spot": (6, "EX-TERROR-01"),
    "haunting_sounds": (10, "EX-TERROR-02"),
    "moving_objects": (13, "EX-TERROR-03"),
    "walls_bleed": (14, "EX-TERROR-04"),
    "amnesia": (18, "EX-TERROR-05"),
    "temporary_possession": (20, "EX-TERROR-06"),
}


def validate_pack(pack: Pack, custom_effects: Collection[str] | None = None) -> list[Finding]:
    """The semantic checks (a)-(g) of spec §3.0 and the cross-file checks on a parsed Pack.

    Count mismatches against the printed component list are warnings; anything that would
    make a rule dead or the engine unable to set up is an error.
    """
    customs = registered_custom_effects() if custom_effects is None else set(custom_effects)
    out: list[Finding] = []
    opts = pack.options

    def err(rule: str, msg: str, file: str | None = None) -> None:
        out.append(Finding(rule=rule, severity="error", message=msg, file=file))

    def warn(rule: str, msg: str, file: str | None = None) -> None:
        out.append(Finding(rule=rule, severity="warning", message=msg, file=file))

    # --- unique ids (a): the engine refers to every card by id.
    room_ids = [r.id for r in (*pack.rooms, *pack.locked_rooms)]
    for file, ids, rule in (
        ("rooms.toml/locked_rooms.toml", room_ids, "EX-COMP-04"),
        ("characters.toml", [c.id for c in pack.characters], "EX-COMP-05"),
        ("tasks.toml", [t.id for t in pack.tasks], "EX-COMP-08"),
        ("plans.toml", [p.id for p in pack.plans], "EX-COMP-07"),
        ("haunt_deck.toml", [c.id for c in pack.haunt_deck], "EX-COMP-06"),
        ("terror.toml", [t.id for t in pack.terror], "EX-TERROR-08"),
    ):
        for ident, n in Counter(ids).items():
            if n > 1:
                err(rule, f"id {ident!r} is used {n} times", file)

    # --- Foyer and rooms (a), (b).
    foyer_id = pack.foyer_id
    foyer = next((r for r in pack.rooms if r.id == foyer_id), None)
    if foyer is None:
        err(
            "EX-FOYER-01",
            f"the Foyer room {foyer_id!r} named by layout.toml is not in rooms.toml",
            "rooms.toml",
        )
    else:
        if not any(e.op == "escape_or_switch" for e in foyer.action):
            err(
                "EX-FOYER-01",
                f"the Foyer {foyer_id!r} has no escape_or_switch action",
                "rooms.toml",
            )
        if foyer.location is not None:
            warn(
                "EX-HAUNT-08",
                "the Foyer has a Location Number; it never takes Darkness",
                "rooms.toml",
            )
    if pack.is_locked_room(foyer_id):
        err("EX-FOYER-04", f"the Foyer {foyer_id!r} must not be a Locked Room", "locked_rooms.toml")
    for room in pack.rooms:
        if room.location is None and room.id != foyer_id:
            err("EX-COMP-04", f"room {room.id!r} has no Location Number", "rooms.toml")
    for room in pack.locked_rooms:
        if room.location is None:
            err(
                "EX-COMP-04", f"locked room {room.id!r} has no Location Number", "locked_rooms.toml"
            )
    for file, card_id, eff in _walk_effects(pack):
        if eff.op == "escape_or_switch" and card_id != foyer_id:
            warn("EX-FOYER-01", f"{card_id!r} uses escape_or_switch outside the Foyer", file)

    # --- effects (c): only the vocabulary or a registered custom effect.
    for file, card_id, eff in _walk_effects(pack):
        if eff.op == "custom" and eff.name not in customs:
            err("EX-ACT-08", f"{card_id!r} uses unregistered custom effect {eff.name!r}", file)
        if eff.op == "gain_tool" and len(set(eff.types)) != len(eff.types):
            err("EX-COMP-03", f"{card_id!r}: gain_tool lists a type twice", file)

    # --- counts (d): warnings against EX-COMP-01.
    def count(rule: str, what: str, actual: int, expected: int, file: str | None) -> None:
        if actual != expected:
            warn(rule, f"{what}: {actual}, the printed game has {expected}", file)

    count("EX-COMP-01", "Room cards (incl. the Foyer)", len(pack.rooms), 12, "rooms.toml")
    count("EX-COMP-01", "Locked Room cards", len(pack.locked_rooms), 18, "locked_rooms.toml")
    count("EX-COMP-01", "Characters", len(pack.characters), 8, "characters.toml")
    count("EX-COMP-01", "Task cards", len(pack.tasks), 30, "tasks.toml")
    count("EX-COMP-01", "Plan cards", len(pack.plan_deck()), 30, "plans.toml")
    count("EX-COMP-01", "Tool cards", sum(t.count for t in pack.tools), 75, "tools.toml")
    count("EX-COMP-01", "Shrouded Room cards", opts.shrouds, 8, "pack.toml")
    count("EX-COMP-01", "Darkness Tokens", opts.darkness_supply, 30, "pack.toml")
    count("EX-COMP-01", "Exorcism Tokens", opts.exorcism_tokens, 24, "pack.toml")
    count("EX-COMP-02", "Time Dice", pack.clock.dice, 8, "clock.toml")
    for tdef in pack.tools:
        count("EX-AMB-09", f"{tdef.name} cards", tdef.count, 15, "tools.toml")
    tool_types = Counter(t.type for t in pack.tools)
    for ttype in TOOL_TYPES:
        if tool_types[ttype] == 0:
            err("EX-COMP-03", f"Tool type {ttype!r} has no pile", "tools.toml")
        elif tool_types[ttype] > 1:
            err("EX-COMP-03", f"Tool type {ttype!r} has {tool_types[ttype]} piles", "tools.toml")
    if opts.locked_rooms_in_play > len(pack.locked_rooms):
        err(
            "EX-SETUP-01",
            f"locked_rooms_in_play={opts.locked_rooms_in_play} but only "
            f"{len(pack.locked_rooms)} Locked Rooms",
            "pack.toml",
        )
    if opts.available_tasks > len(pack.tasks):
        warn("EX-SETUP-03", "fewer Tasks than the Available row", "tasks.toml")
    task_points = sum(t.points for t in pack.tasks)
    if task_points < opts.exorcism_target:
        warn(
            "EX-WIN-01",
            f"all Tasks together give {task_points} points, less than the target "
            f"{opts.exorcism_target}",
            "tasks.toml",
        )
    # Setup must be able to seat the most players plus the Lookouts (EX-SETUP-05, EX-SOLO-01).
    n_chars = len(pack.characters)
    for mode, (lo, hi), investigators, rule in (
        ("core", opts.core_players, opts.core_players[1], "EX-PLAY-01"),
        ("one_vs_all", opts.ova_players, opts.ova_players[1] - 1, "EX-PLAY-02"),
        ("solo", opts.solo_players, 2, "EX-PLAY-03"),
    ):
        if lo > hi or lo < 1:
            err(rule, f"{mode} player range {lo}-{hi} is empty", "pack.toml")
        elif investigators + opts.lookouts > n_chars:
            err(
                rule,
                f"{mode} with {hi} players needs {investigators + opts.lookouts} Characters, "
                f"the pack has {n_chars}",
                "characters.toml",
            )

    # --- Haunt deck (e).
    kinds = Counter(c.kind for c in pack.haunt_deck)
    if kinds["bull"] != 1:
        err(
            "EX-HAUNT-06",
            f"the Haunt deck has {kinds['bull']} Bull cards, needs exactly 1",
            "haunt_deck.toml",
        )
    if kinds["devourer"] != 1:
        err(
            "EX-HAUNT-07",
            f"the Haunt deck has {kinds['devourer']} Devourer cards, needs exactly 1",
            "haunt_deck.toml",
        )
    if kinds["haunt"] == 0:
        err("EX-HAUNT-10", "the Haunt deck has no standard Haunt cards", "haunt_deck.toml")
    track = pack.clock.darkness_track
    if kinds["darkness"] != len(track) - 1:
        err(
            "EX-DARK-02",
            f"{kinds['darkness']} Darkness cards but the track has {len(track)} spaces "
            f"(needs {len(track) - 1}: one full rotation)",
            "haunt_deck.toml",
        )
    if track[0] != 1:
        err("EX-COMP-10", f"the Darkness Track starts at {track[0]}, not 1", "clock.toml")
    if track[-1] != 3:
        err("EX-DARK-02", f"the Darkness Track ends at {track[-1]}, not the final 3", "clock.toml")
    if any(v < 1 for v in track):
        err("EX-DARK-01", "every Darkness Track value must be 1 or more", "clock.toml")
    if any(b < a for a, b in itertools.pairwise(track)):
        warn("EX-DARK-01", "the Darkness Track goes down somewhere", "clock.toml")
    haunt_locs = Counter(c.location for c in pack.haunt_deck if c.kind == "haunt")
    for face in range(1, 7):
        if haunt_locs[face] == 0 and kinds["haunt"]:
            warn("EX-HAUNT-04", f"no Haunt card shows Location {face}", "haunt_deck.toml")

    # --- Clock.
    clock = pack.clock
    for hour in clock.action_hours:
        if not 1 <= hour <= clock.dice:
            err("EX-TIME-01", f"action hour {hour} is outside 1..{clock.dice}", "clock.toml")
    if len(set(clock.action_hours)) != len(clock.action_hours):
        err("EX-TIME-01", "an action hour is listed twice", "clock.toml")

    # --- Layout (f).
    layout = pack.layout
    house = layout.house_cells()
    expected_cells = len(pack.house_room_ids()) + opts.locked_rooms_in_play
    if len(house) != expected_cells:
        err(
            "EX-GAP-01",
            f"the layout has {len(house)} house cells, needs {expected_cells} "
            f"({len(pack.house_room_ids())} Room cards + {opts.locked_rooms_in_play} "
            "Locked Rooms)",
            "layout.toml",
        )
    if layout.cells is not None and len(set(layout.cells)) != len(layout.cells):
        err("EX-GAP-01", "a house cell is listed twice", "layout.toml")
    for fixed, label in ((layout.attic.cell, "Attic"), (layout.foyer.cell, "Foyer")):
        if fixed in house:
            err("EX-GAP-01", f"the {label} cell {fixed} is also a house cell", "layout.toml")
        elif not layout.neighbours(fixed):
            err("EX-GAP-01", f"the {label} cell {fixed} has no neighbour", "layout.toml")
    if layout.attic.cell == layout.foyer.cell:
        err("EX-FOYER-04", "the Attic and the Foyer share a cell", "layout.toml")
    if not layout.edge_cells():
        err("EX-RESCUE-02", "the layout has no edge cells", "layout.toml")
    # The Attic and Foyer were checked above; a split house would strand pawns.
    if house and any(layout.distance(house[0], c) is None for c in house):
        err("EX-GAP-01", "the house is not connected", "layout.toml")

    # --- References (g).
    normal_rooms = {r.id for r in pack.rooms}
    for ch in pack.characters:
        if ch.start not in normal_rooms:
            where = "a Locked Room" if pack.is_locked_room(ch.start) else "not a Room card"
            err(
                "EX-SETUP-06",
                f"{ch.id!r} starts in {ch.start!r}, which is {where}",
                "characters.toml",
            )
        only_in = ch.ability_action.only_in if ch.ability_action else None
        for rid in only_in or ():
            if rid not in set(room_ids):
                err("EX-ACT-08", f"{ch.id!r} ability names unknown room {rid!r}", "characters.toml")
    for task in pack.tasks:
        for rid in (task.ongoing_action.only_in or ()) if task.ongoing_action else ():
            if rid not in set(room_ids):
                err(
                    "EX-TASK-04",
                    f"{task.id!r} ongoing action names unknown room {rid!r}",
                    "tasks.toml",
                )
    if not any(e.op == "heal" for r in pack.rooms for e in r.action):
        err(
            "EX-HEAL-01",
            "no non-Locked Room has a heal action (the Bathroom rule is dead)",
            "rooms.toml",
        )
    subtypes = {t.subtype for t in pack.tasks}
    for ch in pack.characters:
        if ch.specialization not in subtypes:
            warn(
                "EX-TASK-03",
                f"no Task has {ch.id!r}'s Specialization {ch.specialization!r}",
                "characters.toml",
            )

    # --- Plans.
    for plan in pack.plans:
        prevents = any(e.op == "prevent_wound" for e in plan.effect)
        if prevents and plan.timing != "on_wound":
            err(
                "EX-PLAN-02",
                f"{plan.id!r} prevents a Wound but is not timed on_wound",
                "plans.toml",
            )
        if plan.timing == "on_wound" and not prevents:
            warn("EX-PLAN-02", f"{plan.id!r} is timed on_wound but prevents nothing", "plans.toml")
        if any(e.op == "extra_action" for e in plan.effect) and plan.timing != "own_turn_only":
            warn(
                "EX-ACT-09",
                f"{plan.id!r} gives an extra Action outside own_turn_only",
                "plans.toml",
            )

    # --- Terror (One vs All).
    present: dict[str, TerrorAbility] = {t.id: t for t in pack.terror}
    for tid, (threshold, rule) in PRINTED_TERROR.items():
        ability = present.get(tid)
        if ability is None:
            warn(rule, f"Terror Ability {tid!r} is missing", "terror.toml")
        elif ability.threshold != threshold:
            warn(rule, f"{tid!r} threshold {ability.threshold}, printed {threshold}", "terror.toml")

    return out


_PACKS: PackLoader[Pack] = PackLoader(_read_pack, validate_pack, DEFAULT_PACK_DIR)
check_pack = _PACKS.check
load_pack = _PACKS.load
default_pack = _PACKS.default
pack_fingerprint = fingerprint
"""``name@version+<hash>``: which content a game was created with."""


def pack_json_schema() -> Mapping[str, Any]:
    """JSON Schema of a whole pack, for editors of printed packs (spec §3.0)."""
    return Pack.model_json_schema()
