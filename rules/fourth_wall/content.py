"""I Am the Fourth Wall content: pydantic models of a content pack, its loader and validator.

A *content pack* is a folder of TOML files (spec §3.0). The shipped default pack lives next
to this module in ``content/``; a group that owns the printed game writes its own folder with
the same files and loads it with :func:`load_pack`. Nothing in the engine names a card: every
mechanic is data written with the effect vocabulary below (spec §3.1, DESIGN.md "Content is
data"), and the engine dispatches on ``effect.op`` / ``modifier.kind`` / ``condition.test`` /
``presence.action``, never on a card's name or id.

Entry points
============
``load_pack(path=None) -> Pack``   load + validate; ``None`` = the shipped default pack.
                                   Raises :class:`ContentError` (a ``ValueError``) listing the
                                   error findings; warnings do not stop loading.
``default_pack() -> Pack``         the shipped pack, loaded once and cached.
``check_pack(path) -> list[Finding]``  every finding (errors and warnings); never raises for
                                   bad content (missing files, TOML syntax, schema errors).
``validate_pack(pack) -> list[Finding]``  the semantic checks on an in-memory Pack.
``pack_fingerprint(pack) -> str``  ``"name@version+<12 hex>"``, stored with each game.
``register_custom_effect(name)``   a named effect implemented in Python that data may use as
                                   ``{op = "custom", name = ...}`` (spec §3.0 d).
``pack_json_schema()``             JSON Schema of a whole pack, for editors of printed packs.

Files and top-level keys: ``pack.toml`` (name, version, description, ``[options]``,
``[scourge]``), ``investigators.toml`` ``[[investigator]]``, ``marbles.toml`` ``[[marble]]``,
``horrors.toml`` ``[[horror]]``, ``walls.toml`` ``[[wall]]``, ``presence.toml``
``[[presence]]``, ``streets.toml`` ``[[street]]``, ``trackers.toml`` ``[[layout]]``.
All models are frozen with ``extra="forbid"``; every collection is a tuple.

Instructions (FW-INSTR-01..03)
==============================
An Instruction is resolved **sentence by sentence**: ``Instruction = tuple[Sentence, ...]``
and ``Sentence = tuple[Effect, ...]`` (TOML: ``trigger = [[{op = ...}], [{op = ...}]]``).
Each sentence is resolved fully before the next and makes its own choices (a new Target per
sentence; in Alliance the Target Token passes after every Target mention). Inside one
sentence, the selector ``"same"`` refers to the Investigator / Horror the previous effect of
that sentence affected ("Undrain a Horror, then Trigger it"). Every effect may carry
``only_if`` (a tuple of Conditions, all must hold when the effect resolves); an effect whose
condition is false is skipped and is *not* a "cannot complete".

Selectors
---------
``Who`` (Investigators; the Insane are never eligible, FW-INSANE-03):
  ``self`` the Investigator resolving the card; ``target`` Target Investigator ({C} The Wall
  picks, {A} the Target Token holder); ``elected`` / ``elected_other`` (Elected, the second
  excludes self); ``chosen_investigator`` / ``chosen_other_investigator`` (picked by the
  card's player, FW-INSTR-02); ``each_investigator`` / ``each_other_investigator`` (in turn
  order from the active seat); ``self_and_regrouped`` (you plus every other Regrouped
  Investigator); ``same`` (who the previous effect of the sentence affected).
``HorrorSel``: ``chosen`` (a Horror On the Streets picked by the card's controller; in
  Alliance Wall-side picks take the lowest-numbered Street, FW-STREET-03), ``lowest_street``,
  ``this`` (the Horror whose Trigger/Deathrattle/modifier this is, or the Horror a Marble
  was Attached to by its Intervene Instruction, or the Horror on a Street for a Street Aura),
  ``same``, ``all`` (drain/undrain only).

Effects (discriminated on ``op``; fields with defaults may be omitted)
---------------------------------------------------------------------
  lose_marble        who="target", mode="own_choice"|"random"|"wall_choice", n=1 (each loss
                     opens the Holy Symbol window first, FW-TERM-11..13, FW-AMB-38)
  draw_marbles       who="self", n=1
  draw_to_sanity     who="self" (up to the current Hand Limit, FW-AMB-43)
  take_from_marble_discard  who="self", n=1 (the player picks the cards)
  take_street_marble who="self", source="attached"|"anchored"|"any", n=1 (into hand)
  give_marbles       giver="self" (TOML key ``from`` also accepted), to=
                     "chosen_other_investigator", n=1, up_to=True (recipient chosen per Marble)
  give_or_trade      — (one standard Give or Trade, no AP; consent rules FW-AMB-27)
  find               deck="marble"|"horror", name: str|None (None = the player names one of
                     the pack's names in that deck), to="hand"|"streets" (FW-TERM-08)
  blitz              n>=1, symbols: tuple[Symbol, ...] (FW-TERM-03)
  attach             n=1, up_to=True (Intervene with Marbles from the resolver's hand, no AP;
                     each resolves its Intervene Instruction, then the Defeat check)
  move_attachment    n=1 (move an Attached Marble to another Horror; Defeat check on both)
  swap_with_street_marble  — (a hand Marble for one Attached/Anchored; the incoming Marble
                     takes its place without its Intervene Instruction; Defeat check)
  defeat             horror="chosen", deathrattle=True, defeat_cost_symbols: int|None (only
                     Horrors whose effective Defeat Cost has exactly that many Symbols)
  open_gate          n=1 (one at a time, win check after each)
  close_gate         n=1, cost="none"|"marbles", distinct_symbols=3 (with "marbles": discard
                     Marbles showing at least that many different Symbol types; Aura extras
                     apply; the Scourge lock always applies, FW-AMB-32)
  add_doom           n=1
  drain / undrain    horror="chosen" (or "all")
  sacrifice          horror="chosen", named: str|None (no Deathrattle, FW-HORROR-08)
  return_horror      horror="chosen" (FW-HORROR-07)
  manifest           source="hand"|"deck_top", free=False
  trigger            horror="chosen", free=False (free = no Trigger Cost paid)
  destroy_marble     which="chosen"|"most_symbols" (Alliance always uses most_symbols,
                     FW-AI-03)
  regroup            who="self", draw=2 (the "draw n" option; draw-to-Hand-Limit is always
                     offered), optional=False (True: the affected seat may decline, FW-PROMPT-08)
  grant_action       who="elected_other", ap=1, when="now", optional=True (FW-PROMPT-24)
  peek               deck="marble"|"horror", n=3, take=0 (cards put into hand), rest="top"|
                     "bottom", reorder=True
  view_hand          viewer="self", owner="wall" | Who ({C} The Wall's hand of Horrors)
  shield_next_loss   scope="self"|"any_investigator", n=1, until="start_of_your_next_turn"
  remove_scourge     — (set the Scourge card aside, FW-SCOURGE-04)
  ignore_loss        — (reaction only: the pending Lose-a-Marble is ignored)
  blitz_bonus        n=1 (reaction only: the pending Blitz reveals n more cards)
  custom             name: str (registered), params: dict[str, int|str|bool]

Conditions (discriminated on ``test``): ``stage_at_least`` stage; ``open_gates_at_least`` n;
``street_occupied`` street; ``scourge_on_streets`` value=True; ``mode`` mode.

Modifiers (discriminated on ``kind``; standing rules of Auras, Anchored Marbles, Horrors,
the Scourge and Investigators; each may carry ``only_if`` Conditions):
  defeat_cost_delta       scope="this"|"all_on_streets", symbol, n (FW-HORROR-04)
  action_cost_delta       action: ActionName, n (AP; never below 0; not the free Regroup
                          Give/Trade window, FW-AMB-11)
  hand_limit_delta        n, scope="self"|"each_investigator"
  exploit_doom_delta      n (Doom added per Exploit the Rift on top of options.exploit_doom)
  gate_requirement_extra  symbol, n (Close a Gate needs n more of that Symbol)
  ignore_instruction_kind instruction="intervene"|"utilise"|"deathrattle"|"trigger"
  regroup_draw_delta      n (added to both Regroup draw options; never below 0)
  on                      event="wall_turn_start"|"horror_defeated"|"marble_lost"|
                          "gate_opened", instruction: Instruction

Reactions (quick use, FW-GAP-02): ``Reaction(window, scope, repeatable, effects: Sentence)``,
cost is always "discard this Marble from the holder's hand". Windows: ``before_lose_marble``,
``before_blitz_reveal``, ``any_time_out_of_turn``. ``scope="holder"``: only for a loss of /
a Blitz by the holder; ``"any"``: any Investigator's.

Cards
=====
  Investigator  id, name, sanity>=1, unique: Ability(cost AP>=0, instruction), exploit:
                Ability (cost defaults to 1, FW-AMB-04), modifiers, text       (FW-COMP-04)
  Marble        id, name, copies>=1, symbols (multiset, may be empty), utilise: Instruction,
                anchor: bool (Utilise + Anchor to the Streets; Utilise may then have no
                other Instruction), anchored: modifiers active while Anchored, intervene:
                Instruction, reactions, text; ``can_utilise``                  (FW-COMP-05)
  WallCard      id, name, uniques: tuple[WallUnique(cost Doom, instruction), ...] (the first
                is the "top" one, FW-PRES-03), aura: modifiers, text            (FW-COMP-06)
  Horror        id, name, copies, manifest: ManifestCost(doom, drain), defeat: Symbols
                (>=1), trigger_cost, trigger: Instruction (>=1 sentence), deathrattle:
                Instruction, modifiers (own standing rules, e.g. Cult Leader), text (FW-COMP-07)
  Presence      discriminated on ``action``: delve | wrath | destroy_marble | trouble
                (street); id, name, copies                               (FW-PRES-01..05)
  Street        number 1.., name, aura: modifiers (active while a Horror is on it)
  TrackerLayout investigators, card, side, slumber/eye_opens/crescendo/awakens: rank numbers
                (FW-TRACK-01, FW-GAP-07); helpers ranks(), start_rank, stage_of(rank),
                first_rank(stage), rounds_before_loss
  Scourge       modifiers (FW-GAP-05: none by default)
  PackOptions   the rule numbers and switches of spec §1/§3/§4 (see the class)
  Pack          name, version, description, options, scourge, investigators, marbles,
                horrors, walls, presence, streets, trackers; lookups by id and decks.

Decks: ``marble_deck()`` / ``horror_deck()`` / ``presence_deck()`` give one definition id per
physical card (copies expanded, file order); ``*_instances()`` give unique instance ids
``"<id>#<k>"`` (k from 1), and ``marble_of`` / ``horror_of`` / ``presence_of`` accept either.
The default pack lists every Presence card as its own entry (``copies = 1``), so Presence ids
are unique per physical card. ``iter_effects(pack)`` walks every effect with its file, card
id and slot, for tools and tests.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Collection, Iterable, Mapping
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
    "ACTION_NAMES",
    "CONDITION_TESTS",
    "DEFAULT_PACK_DIR",
    "EFFECT_OPS",
    "HORROR_SELECTORS",
    "MODIFIER_KINDS",
    "PACK_FILES",
    "STAGES",
    "SYMBOLS",
    "WHO_SELECTORS",
    "Ability",
    "ActionCostDelta",
    "ActionCosts",
    "ActionName",
    "AddDoom",
    "Attach",
    "Blitz",
    "BlitzBonus",
    "CloseGate",
    "Condition",
    "ContentError",
    "CustomEffect",
    "Defeat",
    "DefeatCostDelta",
    "DestroyMarble",
    "Drain",
    "DrawMarbles",
    "DrawToSanity",
    "Effect",
    "ExploitDoomDelta",
    "Find",
    "Finding",
    "GateRequirementExtra",
    "GiveMarbles",
    "GiveOrTrade",
    "GrantAction",
    "HandLimitDelta",
    "Horror",
    "HorrorSel",
    "IgnoreInstructionKind",
    "IgnoreLoss",
    "Instruction",
    "Investigator",
    "LoseMarble",
    "Manifest",
    "ManifestCost",
    "Marble",
    "ModeIs",
    "Modifier",
    "MoveAttachment",
    "OnEvent",
    "OpenGate",
    "OpenGatesAtLeast",
    "Pack",
    "PackOptions",
    "Peek",
    "Presence",
    "PresenceDelve",
    "PresenceDestroyMarble",
    "PresenceTrouble",
    "PresenceWrath",
    "Reaction",
    "Regroup",
    "RegroupDrawDelta",
    "RemoveScourge",
    "ReturnHorror",
    "Sacrifice",
    "Scourge",
    "ScourgeOnStreets",
    "Sentence",
    "ShieldNextLoss",
    "Stage",
    "StageAtLeast",
    "Street",
    "StreetOccupied",
    "SwapWithStreetMarble",
    "Symbol",
    "TakeFromMarbleDiscard",
    "TakeStreetMarble",
    "TrackerLayout",
    "Trigger",
    "Undrain",
    "ViewHand",
    "WallCard",
    "WallUnique",
    "Who",
    "check_pack",
    "default_pack",
    "iter_effects",
    "load_pack",
    "pack_fingerprint",
    "pack_json_schema",
    "register_custom_effect",
    "registered_custom_effects",
    "validate_pack",
]

DEFAULT_PACK_DIR = Path(__file__).parent / "content"

# --------------------------------------------------------------------------- scalars

Symbol = Literal["clue", "force", "science"]
SYMBOLS: tuple[Symbol, ...] = ("clue", "force", "science")

Stage = Literal["slumber", "eye_opens", "crescendo", "awakens"]
STAGES: tuple[Stage, ...] = ("slumber", "eye_opens", "crescendo", "awakens")

Mode = Literal["conflict", "alliance"]

Who = Literal[
    "self",
    "target",
    "elected",
    "elected_other",
    "chosen_investigator",
    "chosen_other_investigator",
    "each_investigator",
    "each_other_investigator",
    "self_and_regrouped",
    "same",
]
WHO_SELECTORS: tuple[str, ...] = (
    "self",
    "target",
    "elected",
    "elected_other",
    "chosen_investigator",
    "chosen_other_investigator",
    "each_investigator",
    "each_other_investigator",
    "self_and_regrouped",
    "same",
)

HorrorSel = Literal["chosen", "lowest_street", "this", "same", "all"]
HORROR_SELECTORS: tuple[str, ...] = ("chosen", "lowest_street", "this", "same", "all")

# The Investigator actions of FW-ACT-01..08 (names used by action_cost_delta and options).
ActionName = Literal[
    "close_gate", "exploit", "unique", "search", "intervene", "utilise", "give_or_trade", "regroup"
]
ACTION_NAMES: tuple[str, ...] = (
    "close_gate",
    "exploit",
    "unique",
    "search",
    "intervene",
    "utilise",
    "give_or_trade",
    "regroup",
)

InstructionKind = Literal["intervene", "utilise", "deathrattle", "trigger"]
Event = Literal["wall_turn_start", "horror_defeated", "marble_lost", "gate_opened"]
ReactionWindow = Literal["before_lose_marble", "before_blitz_reveal", "any_time_out_of_turn"]


class _Model(BaseModel):
    """Base of every content model: immutable, and unknown keys are errors (typos)."""

    model_config = ConfigDict(frozen=True, extra="forbid")


# --------------------------------------------------------------------------- conditions


class StageAtLeast(_Model):
    """True once the Turn Tracker has reached ``stage`` (stages are cumulative, FW-AMB-22)."""

    test: Literal["stage_at_least"] = "stage_at_least"
    stage: Stage


class OpenGatesAtLeast(_Model):
    """True while at least ``n`` Gates are Open (Cult Leader, FW-GAP-11)."""

    test: Literal["open_gates_at_least"] = "open_gates_at_least"
    n: int = Field(ge=0)


class StreetOccupied(_Model):
    """{A} True while a Horror is on Street ``street``."""

    test: Literal["street_occupied"] = "street_occupied"
    street: int = Field(ge=1)


class ScourgeOnStreets(_Model):
    """True when The Scourge is On the Streets (``value=False``: when it is not)."""

    test: Literal["scourge_on_streets"] = "scourge_on_streets"
    value: bool = True


class ModeIs(_Model):
    """True in the named game mode only."""

    test: Literal["mode"] = "mode"
    mode: Mode


Condition = Annotated[
    StageAtLeast | OpenGatesAtLeast | StreetOccupied | ScourgeOnStreets | ModeIs,
    Field(discriminator="test"),
]
CONDITION_TESTS: frozenset[str] = frozenset(
    {"stage_at_least", "open_gates_at_least", "street_occupied", "scourge_on_streets", "mode"}
)


# --------------------------------------------------------------------------- effects


class _Effect(_Model):
    """Fields every effect has: ``only_if`` conditions (all must hold, else it is skipped)."""

    only_if: tuple[Condition, ...] = ()


class LoseMarble(_Effect):
    """``who`` Loses ``n`` Marbles: own choice, at random, or Chosen by The Wall
    (random in Alliance, FW-AMB-06). Each loss may be ignored by a Holy Symbol reaction."""

    op: Literal["lose_marble"] = "lose_marble"
    who: Who = "target"
    mode: Literal["own_choice", "random", "wall_choice"] = "own_choice"
    n: int = Field(default=1, ge=1)


class DrawMarbles(_Effect):
    """``who`` draws ``n`` Marbles from the Marble deck (Out of Cards: FW-HORROR-10)."""

    op: Literal["draw_marbles"] = "draw_marbles"
    who: Who = "self"
    n: int = Field(default=1, ge=1)


class DrawToSanity(_Effect):
    """``who`` draws until holding its current Hand Limit (0 if already there)."""

    op: Literal["draw_to_sanity"] = "draw_to_sanity"
    who: Who = "self"


class TakeFromMarbleDiscard(_Effect):
    """``who`` takes ``n`` Marbles of the player's choice from the Marble discard pile."""

    op: Literal["take_from_marble_discard"] = "take_from_marble_discard"
    who: Who = "self"
    n: int = Field(default=1, ge=1)


class TakeStreetMarble(_Effect):
    """``who`` takes ``n`` Marbles Attached to a Horror / Anchored to the Streets into hand."""

    op: Literal["take_street_marble"] = "take_street_marble"
    who: Who = "self"
    source: Literal["attached", "anchored", "any"] = "attached"
    n: int = Field(default=1, ge=1)


class GiveMarbles(_Effect):
    """Give ``n`` (``up_to``: 0..n) Marbles from ``giver``'s hand; each Marble's recipient is
    chosen by ``to`` separately (FW-TERM-09; "to yourself" only if ``to`` allows it)."""

    op: Literal["give_marbles"] = "give_marbles"
    # The spec writes this parameter as ``from``, a Python keyword; both spellings load.
    giver: Who = Field(default="self", validation_alias=AliasChoices("giver", "from"))
    to: Who = "chosen_other_investigator"
    n: int = Field(default=1, ge=1)
    up_to: bool = True


class GiveOrTrade(_Effect):
    """One standard Give or Trade (FW-ACT-07) without paying its AP cost."""

    op: Literal["give_or_trade"] = "give_or_trade"


class Find(_Effect):
    """Find a card by name: discard first, then the deck, shuffle if searched (FW-TERM-08).

    ``name=None``: the card's player names one of the pack's card names in ``deck``.
    ``to="streets"`` places a found Horror On the Streets ({A}: lowest free Street).
    """

    op: Literal["find"] = "find"
    deck: Literal["marble", "horror"] = "marble"
    name: str | None = None
    to: Literal["hand", "streets"] = "hand"


class Blitz(_Effect):
    """Blitz (n) [symbols] (FW-TERM-03): reveal n Marbles (+ Adrenaline bonuses); those
    sharing a Symbol must Intervene; the rest are discarded."""

    op: Literal["blitz"] = "blitz"
    n: int = Field(ge=1)
    symbols: tuple[Symbol, ...] = Field(min_length=1)


class Attach(_Effect):
    """Intervene with ``n`` (``up_to``: 1..n) Marbles from the resolver's hand, same or
    different Horrors, without AP; Intervene Instructions then the Defeat check each."""

    op: Literal["attach"] = "attach"
    n: int = Field(default=1, ge=1)
    up_to: bool = True


class MoveAttachment(_Effect):
    """Move ``n`` Marbles Attached to a Horror onto another Horror (Defeat check on both)."""

    op: Literal["move_attachment"] = "move_attachment"
    n: int = Field(default=1, ge=1)


class SwapWithStreetMarble(_Effect):
    """Swap a hand Marble with one Attached or Anchored; the incoming Marble is Attached or
    Anchored in its place (Intervene Instructions not used); Defeat check."""

    op: Literal["swap_with_street_marble"] = "swap_with_street_marble"


class Defeat(_Effect):
    """Defeat a Horror outright; ``deathrattle=False`` = no retaliation (FW-GAP-15)."""

    op: Literal["defeat"] = "defeat"
    horror: HorrorSel = "chosen"
    deathrattle: bool = True
    # Only Horrors whose effective Defeat Cost has exactly this many Symbols.
    defeat_cost_symbols: int | None = Field(default=None, ge=1)


class OpenGate(_Effect):
    """Open ``n`` Gates, one at a time (FW-GATE-04..07)."""

    op: Literal["open_gate"] = "open_gate"
    n: int = Field(default=1, ge=1)


class CloseGate(_Effect):
    """Close ``n`` Gates. ``cost="marbles"``: discard Marbles from hand that together show at
    least ``distinct_symbols`` different Symbol types (plus Aura extras); ``"none"``: free.
    Blocked while The Scourge is On the Streets (FW-SCOURGE-03, FW-AMB-32)."""

    op: Literal["close_gate"] = "close_gate"
    n: int = Field(default=1, ge=1)
    cost: Literal["none", "marbles"] = "marbles"
    distinct_symbols: int = Field(default=3, ge=1, le=3)


class AddDoom(_Effect):
    """Add ``n`` Doom to The Wall's Action Pool (deferred during a Wall turn, FW-DOOM-06)."""

    op: Literal["add_doom"] = "add_doom"
    n: int = Field(default=1, ge=1)


class Drain(_Effect):
    """Drain a Horror On the Streets (or all of them)."""

    op: Literal["drain"] = "drain"
    horror: HorrorSel = "chosen"


class Undrain(_Effect):
    """Make a Horror On the Streets (or all of them) no longer Drained."""

    op: Literal["undrain"] = "undrain"
    horror: HorrorSel = "chosen"


class Sacrifice(_Effect):
    """Sacrifice a Horror On the Streets, optionally only one ``named`` so (FW-HORROR-08)."""

    op: Literal["sacrifice"] = "sacrifice"
    horror: HorrorSel = "chosen"
    named: str | None = None


class ReturnHorror(_Effect):
    """Return a Horror to the Wall (FW-HORROR-07: {C} Wall hand, {A} shuffled into deck)."""

    op: Literal["return_horror"] = "return_horror"
    horror: HorrorSel = "chosen"


class Manifest(_Effect):
    """Place a Horror On the Streets from The Wall's hand or the Horror deck top."""

    op: Literal["manifest"] = "manifest"
    source: Literal["hand", "deck_top"] = "hand"
    free: bool = False


class Trigger(_Effect):
    """Use a Horror's Trigger Action (``free``: its Trigger Cost is not paid)."""

    op: Literal["trigger"] = "trigger"
    horror: HorrorSel = "chosen"
    free: bool = False


class DestroyMarble(_Effect):
    """Discard a Marble Attached to a Horror or Anchored to the Streets (FW-WALL-07)."""

    op: Literal["destroy_marble"] = "destroy_marble"
    which: Literal["chosen", "most_symbols"] = "chosen"


class Regroup(_Effect):
    """``who`` Regroups without AP (FW-ACT-08 b-d); ``draw`` is the "draw n" option."""

    op: Literal["regroup"] = "regroup"
    who: Who = "self"
    draw: int = Field(default=2, ge=0)
    optional: bool = False


class GrantAction(_Effect):
    """``who`` may take actions worth ``ap`` AP out of sequence, now (FW-PROMPT-24)."""

    op: Literal["grant_action"] = "grant_action"
    who: Who = "elected_other"
    ap: int = Field(default=1, ge=1)
    when: Literal["now"] = "now"
    optional: bool = True


class Peek(_Effect):
    """Look at the top ``n`` cards of a deck; put ``take`` into hand (Marbles only), the rest
    back on the top or bottom, reordered by the player when ``reorder``."""

    op: Literal["peek"] = "peek"
    deck: Literal["marble", "horror"] = "marble"
    n: int = Field(default=3, ge=1)
    take: int = Field(default=0, ge=0)
    rest: Literal["top", "bottom"] = "top"
    reorder: bool = True


class ViewHand(_Effect):
    """``viewer`` looks at ``owner``'s hand ("wall" = The Wall's hand of Horrors, {C})."""

    op: Literal["view_hand"] = "view_hand"
    viewer: Who = "self"
    owner: Literal["wall"] | Who = "wall"


class ShieldNextLoss(_Effect):
    """The next ``n`` Lose-a-Marble effects (any kind) on ``scope`` are ignored until ``until``."""

    op: Literal["shield_next_loss"] = "shield_next_loss"
    scope: Literal["self", "any_investigator"] = "any_investigator"
    n: int = Field(default=1, ge=1)
    until: Literal["start_of_your_next_turn"] = "start_of_your_next_turn"


class RemoveScourge(_Effect):
    """Remove The Scourge Token; the Scourge card is set aside (FW-SCOURGE-04)."""

    op: Literal["remove_scourge"] = "remove_scourge"


class IgnoreLoss(_Effect):
    """Reaction effect: the pending Lose-a-Marble is ignored (Holy Symbol)."""

    op: Literal["ignore_loss"] = "ignore_loss"


class BlitzBonus(_Effect):
    """Reaction effect: the pending Blitz reveals ``n`` more cards (Adrenaline, FW-GAP-02)."""

    op: Literal["blitz_bonus"] = "blitz_bonus"
    n: int = Field(default=1, ge=1)


class CustomEffect(_Effect):
    """A named effect implemented in Python (``register_custom_effect``), for printed packs
    whose cards the vocabulary cannot say. The default pack uses none."""

    op: Literal["custom"] = "custom"
    name: str = Field(min_length=1)
    params: dict[str, int | str | bool] = Field(default_factory=dict)


Effect = Annotated[
    LoseMarble
    | DrawMarbles
    | DrawToSanity
    | TakeFromMarbleDiscard
    | TakeStreetMarble
    | GiveMarbles
    | GiveOrTrade
    | Find
    | Blitz
    | Attach
    | MoveAttachment
    | SwapWithStreetMarble
    | Defeat
    | OpenGate
    | CloseGate
    | AddDoom
    | Drain
    | Undrain
    | Sacrifice
    | ReturnHorror
    | Manifest
    | Trigger
    | DestroyMarble
    | Regroup
    | GrantAction
    | Peek
    | ViewHand
    | ShieldNextLoss
    | RemoveScourge
    | IgnoreLoss
    | BlitzBonus
    | CustomEffect,
    Field(discriminator="op"),
]

EFFECT_OPS: frozenset[str] = frozenset(
    {
        "lose_marble",
        "draw_marbles",
        "draw_to_sanity",
        "take_from_marble_discard",
        "take_street_marble",
        "give_marbles",
        "give_or_trade",
        "find",
        "blitz",
        "attach",
        "move_attachment",
        "swap_with_street_marble",
        "defeat",
        "open_gate",
        "close_gate",
        "add_doom",
        "drain",
        "undrain",
        "sacrifice",
        "return_horror",
        "manifest",
        "trigger",
        "destroy_marble",
        "regroup",
        "grant_action",
        "peek",
        "view_hand",
        "shield_next_loss",
        "remove_scourge",
        "ignore_loss",
        "blitz_bonus",
        "custom",
    }
)
# Effects that only make sense inside a Reaction (they act on the pending event).
REACTION_ONLY_OPS: frozenset[str] = frozenset({"ignore_loss", "blitz_bonus"})

Sentence = Annotated[tuple[Effect, ...], Field(min_length=1)]
Instruction = tuple[Sentence, ...]


# --------------------------------------------------------------------------- modifiers


class _Modifier(_Model):
    """Fields every modifier has: ``only_if`` conditions (all must hold for it to apply)."""

    only_if: tuple[Condition, ...] = ()


class DefeatCostDelta(_Modifier):
    """Add ``n`` ``symbol`` to the Defeat Cost of ``this`` Horror (the card's own Horror or the
    Horror on this Street) or of every Horror On the Streets (FW-HORROR-04)."""

    kind: Literal["defeat_cost_delta"] = "defeat_cost_delta"
    scope: Literal["this", "all_on_streets"] = "this"
    symbol: Symbol
    n: int = Field(default=1, ge=1)


class ActionCostDelta(_Modifier):
    """Change the AP cost of an Investigator action by ``n`` (never below 0)."""

    kind: Literal["action_cost_delta"] = "action_cost_delta"
    action: ActionName
    n: int


class HandLimitDelta(_Modifier):
    """Change the Hand Limit by ``n`` (FW-HAND-01)."""

    kind: Literal["hand_limit_delta"] = "hand_limit_delta"
    n: int
    scope: Literal["self", "each_investigator"] = "self"


class ExploitDoomDelta(_Modifier):
    """Exploit the Rift adds ``n`` more Doom (FW-DOOM-03)."""

    kind: Literal["exploit_doom_delta"] = "exploit_doom_delta"
    n: int


class GateRequirementExtra(_Modifier):
    """Close a Gate needs ``n`` more ``symbol`` Symbols (FW-ACT-01 g)."""

    kind: Literal["gate_requirement_extra"] = "gate_requirement_extra"
    symbol: Symbol
    n: int = Field(default=1, ge=1)


class IgnoreInstructionKind(_Modifier):
    """Instructions of this kind are ignored (e.g. Marbles' Intervene Instructions)."""

    kind: Literal["ignore_instruction_kind"] = "ignore_instruction_kind"
    instruction: InstructionKind


class RegroupDrawDelta(_Modifier):
    """Both Regroup draw options draw ``n`` more (negative: fewer; never below 0)."""

    kind: Literal["regroup_draw_delta"] = "regroup_draw_delta"
    n: int


class OnEvent(_Modifier):
    """When ``event`` happens, resolve ``instruction`` (controlled by the card's owner)."""

    kind: Literal["on"] = "on"
    event: Event
    instruction: Instruction = Field(min_length=1)


Modifier = Annotated[
    DefeatCostDelta
    | ActionCostDelta
    | HandLimitDelta
    | ExploitDoomDelta
    | GateRequirementExtra
    | IgnoreInstructionKind
    | RegroupDrawDelta
    | OnEvent,
    Field(discriminator="kind"),
]
MODIFIER_KINDS: frozenset[str] = frozenset(
    {
        "defeat_cost_delta",
        "action_cost_delta",
        "hand_limit_delta",
        "exploit_doom_delta",
        "gate_requirement_extra",
        "ignore_instruction_kind",
        "regroup_draw_delta",
        "on",
    }
)


class Reaction(_Model):
    """A quick-use play (FW-GAP-02): discard this Marble from the holder's hand in ``window``.

    ``scope``: "holder" = only for a loss by / a Blitz of the holder itself; "any" = any
    Investigator's. ``repeatable``: several copies may be discarded in one window.
    """

    window: ReactionWindow
    scope: Literal["holder", "any"] = "holder"
    repeatable: bool = False
    cost: Literal["discard_self"] = "discard_self"
    effects: Sentence


# --------------------------------------------------------------------------- cards


class Ability(_Model):
    """An Investigator's Unique Action or Exploit the Rift: AP cost and the Instruction."""

    cost: int = Field(default=1, ge=0)
    instruction: Instruction = Field(min_length=1)


class Investigator(_Model):
    """An Investigator card (FW-COMP-04)."""

    id: str = Field(min_length=1)
    name: str = Field(min_length=1)
    sanity: int = Field(ge=1)
    unique: Ability
    exploit: Ability
    modifiers: tuple[Modifier, ...] = ()
    text: str = ""


class Marble(_Model):
    """A Marble card (FW-COMP-05); ``copies`` identical physical cards share this entry."""

    id: str = Field(min_length=1)
    name: str = Field(min_length=1)
    copies: int = Field(default=1, ge=1)
    symbols: tuple[Symbol, ...] = ()
    utilise: Instruction = ()
    anchor: bool = False
    anchored: tuple[Modifier, ...] = ()
    intervene: Instruction = ()
    reactions: tuple[Reaction, ...] = ()
    text: str = ""

    def symbol_counts(self) -> Counter[str]:
        """The printed Symbols as a multiset."""
        return Counter(self.symbols)

    @property
    def can_utilise(self) -> bool:
        """True when the Utilise action may play it (a Utilise Instruction or Anchor)."""
        return bool(self.utilise) or self.anchor


class WallUnique(_Model):
    """One Unique Action of a Wall card: Doom cost and Instruction."""

    cost: int = Field(ge=0)
    instruction: Instruction = Field(min_length=1)


class WallCard(_Model):
    """A Wall card (FW-COMP-06); ``uniques[0]`` is the top Unique Action (FW-PRES-03)."""

    id: str = Field(min_length=1)
    name: str = Field(min_length=1)
    uniques: tuple[WallUnique, ...] = Field(min_length=1)
    aura: tuple[Modifier, ...] = ()
    text: str = ""

    @property
    def top_unique(self) -> WallUnique:
        return self.uniques[0]


class ManifestCost(_Model):
    """A Horror's Manifest Cost: Doom, and whether it enters Drained (FW-HORROR-06)."""

    doom: int = Field(ge=0)
    drain: bool = False


class Horror(_Model):
    """A Horror card (FW-COMP-07)."""

    id: str = Field(min_length=1)
    name: str = Field(min_length=1)
    copies: int = Field(default=1, ge=1)
    manifest: ManifestCost
    defeat: tuple[Symbol, ...] = Field(min_length=1)
    trigger_cost: int = Field(ge=0)
    trigger: Instruction = Field(min_length=1)
    deathrattle: Instruction = ()
    modifiers: tuple[Modifier, ...] = ()
    text: str = ""

    def defeat_counts(self) -> Counter[str]:
        """The printed Defeat Cost as a multiset (modifiers not applied)."""
        return Counter(self.defeat)


class _PresenceBase(_Model):
    id: str = Field(min_length=1)
    name: str = Field(min_length=1)
    copies: int = Field(default=1, ge=1)
    text: str = ""


class PresenceDelve(_PresenceBase):
    """Reveal the top Horror and use its Trigger; else place it; else discard (FW-PRES-02)."""

    action: Literal["delve"] = "delve"


class PresenceWrath(_PresenceBase):
    """Use the Ancient One's top Unique Action; nothing during Slumber (FW-PRES-03)."""

    action: Literal["wrath"] = "wrath"


class PresenceDestroyMarble(_PresenceBase):
    """Destroy the Marble On the Streets with the most Symbols (FW-PRES-04)."""

    action: Literal["destroy_marble"] = "destroy_marble"


class PresenceTrouble(_PresenceBase):
    """Trouble on the Streets for Street ``street`` (FW-PRES-05)."""

    action: Literal["trouble"] = "trouble"
    street: int = Field(ge=1)


Presence = Annotated[
    PresenceDelve | PresenceWrath | PresenceDestroyMarble | PresenceTrouble,
    Field(discriminator="action"),
]
PRESENCE_ACTIONS: tuple[str, ...] = ("delve", "wrath", "destroy_marble", "trouble")


class Street(_Model):
    """{A} A Street card (FW-STREET-01): its Aura applies while a Horror is on it."""

    number: int = Field(ge=1)
    name: str = Field(min_length=1)
    aura: tuple[Modifier, ...] = ()
    text: str = ""


class TrackerLayout(_Model):
    """One Turn Tracker side (FW-TRACK-01, FW-GAP-07).

    Rank numbers per stage, highest first. The Wall card starts on the highest Slumber rank;
    each round end moves it to the next lower number; a stage's events fire when the card
    reaches that stage's first rank.
    """

    investigators: int = Field(ge=1)
    card: int = Field(default=1, ge=1)
    side: Literal["A", "B"] = "A"
    slumber: tuple[int, ...]
    eye_opens: tuple[int, ...]
    crescendo: tuple[int, ...]
    awakens: tuple[int, ...]

    def ranks(self) -> tuple[tuple[int, Stage], ...]:
        """Every rank in play order (start first) with its stage."""
        out: list[tuple[int, Stage]] = []
        for stage in STAGES:
            out.extend((rank, stage) for rank in getattr(self, stage))
        return tuple(out)

    @property
    def start_rank(self) -> int:
        """The rank the Wall card starts on (the first Slumber rank)."""
        return self.ranks()[0][0]

    def stage_of(self, rank: int) -> Stage:
        """The stage a rank belongs to; KeyError for a rank not on this side."""
        for number, stage in self.ranks():
            if number == rank:
                return stage
        raise KeyError(rank)

    def first_rank(self, stage: Stage) -> int:
        """The rank whose arrival fires ``stage``'s events."""
        return int(getattr(self, stage)[0])

    @property
    def rounds_before_loss(self) -> int:
        """Round ends before The Ancient One Awakens is reached."""
        return len(self.ranks()) - 1


class Scourge(_Model):
    """{C} The Scourge card (FW-AMB-02, FW-GAP-05): its optional printed effect."""

    modifiers: tuple[Modifier, ...] = ()
    text: str = ""


# --------------------------------------------------------------------------- options


class ActionCosts(_Model):
    """AP cost of each standard Investigator action (FW-ACT-01..08, FW-ACT-09)."""

    close_gate: int = Field(default=2, ge=0)
    search: int = Field(default=1, ge=0)
    intervene: int = Field(default=1, ge=0)
    utilise: int = Field(default=1, ge=0)
    give_or_trade: int = Field(default=1, ge=0)
    regroup: int = Field(default=2, ge=0)


class PackOptions(_Model):
    """Rule numbers and ruling switches of spec §1/§3/§4, with the spec defaults."""

    # Players and setup (FW-PLAY-01/02, FW-SETUP-04..08, FW-SETC-06).
    min_investigators: int = Field(default=3, ge=1)
    max_investigators: int = Field(default=6, ge=1)
    solo_investigators: int = Field(default=3, ge=1)  # 1 player plays 3 (FW-PLAY-01)
    duo_investigators_each: int = Field(default=2, ge=1)  # 2 players play 2 each
    investigator_cards_dealt: int = Field(default=2, ge=1)  # FW-SETUP-04
    first_game_remove: str | None = None  # investigator id removed in a first game (SETUP-02)
    wall_starting_hand: int = Field(default=5, ge=0)  # FW-SETC-06
    # The pentagram of Gates (FW-COMP-09, FW-SETUP-08, FW-GAP-13).
    max_open_gates: int = Field(default=5, ge=1)
    starting_gates: int = Field(default=3, ge=1)
    starting_gate_choices: tuple[int, ...] = (3, 4, 5)
    # Action Points (FW-AP-01, FW-TRACK-08) and action costs.
    action_points: int = Field(default=2, ge=1)
    crescendo_extra_ap: int = Field(default=1, ge=0)
    action_costs: ActionCosts = ActionCosts()
    regroup_draw: int = Field(default=2, ge=0)  # FW-ACT-08 (b)
    regroup_to: Literal["sanity", "hand_limit"] = "hand_limit"  # FW-AMB-43
    # Doom (FW-WALL-03/11, FW-DOOM-01..07, FW-ALLY-02).
    wrath_doom: int = Field(default=1, ge=0)
    brood_doom: int = Field(default=1, ge=0)
    alliance_doom: int = Field(default=2, ge=0)
    first_turn_extra_doom: int = Field(default=1, ge=0)
    crescendo_extra_doom: int = Field(default=1, ge=0)
    exploit_doom: int = Field(default=1, ge=0)  # FW-ACT-02 (b)
    doom_cap: int | None = Field(default=None, ge=1)  # FW-GAP-10: None = unlimited
    # Conflict Wall action costs (FW-WALL-05, FW-WALL-07).
    delve_cost: int = Field(default=1, ge=0)
    destroy_marble_cost: int = Field(default=1, ge=0)
    # Rulings with a switch.
    scourge_optional: bool = False  # FW-AMB-08
    presence_reshuffle: bool = True  # FW-AMB-34
    # Physical token counts (FW-COMP-02); informational, never a cap unless doom_cap is set.
    doom_tokens: int = Field(default=6, ge=0)
    enhancement_tokens: int = Field(default=8, ge=0)


# --------------------------------------------------------------------------- pack


def _instances(ids_and_copies: Iterable[tuple[str, int]]) -> list[str]:
    return [f"{ident}#{k}" for ident, copies in ids_and_copies for k in range(1, copies + 1)]


def _base_id(card_id: str) -> str:
    return card_id.split("#", 1)[0]


class Pack(_Model):
    """A whole content pack. Build it with :func:`load_pack`, which also validates it."""

    name: str = Field(min_length=1)
    version: str = Field(min_length=1)
    description: str = ""
    options: PackOptions = PackOptions()
    scourge: Scourge = Scourge()
    investigators: tuple[Investigator, ...]
    marbles: tuple[Marble, ...]
    horrors: tuple[Horror, ...]
    walls: tuple[WallCard, ...]
    presence: tuple[Presence, ...]
    streets: tuple[Street, ...]
    trackers: tuple[TrackerLayout, ...]

    _investigators: dict[str, Investigator] = PrivateAttr(default_factory=dict)
    _marbles: dict[str, Marble] = PrivateAttr(default_factory=dict)
    _horrors: dict[str, Horror] = PrivateAttr(default_factory=dict)
    _walls: dict[str, WallCard] = PrivateAttr(default_factory=dict)
    _presence: dict[
        str, PresenceDelve | PresenceWrath | PresenceDestroyMarble | PresenceTrouble
    ] = PrivateAttr(default_factory=dict)

    def model_post_init(self, context: Any, /) -> None:
        # Lookup tables; duplicates are reported by validate_pack, the first one wins here.
        for inv in self.investigators:
            self._investigators.setdefault(inv.id, inv)
        for marble in self.marbles:
            self._marbles.setdefault(marble.id, marble)
        for horror in self.horrors:
            self._horrors.setdefault(horror.id, horror)
        for wall in self.walls:
            self._walls.setdefault(wall.id, wall)
        for card in self.presence:
            self._presence.setdefault(card.id, card)

    # Lookups raise KeyError for an unknown id; "<id>#<k>" instance ids are accepted.
    def investigator(self, investigator_id: str) -> Investigator:
        return private(self, "_investigators")[investigator_id]

    def marble(self, marble_id: str) -> Marble:
        return private(self, "_marbles")[_base_id(marble_id)]

    def horror(self, horror_id: str) -> Horror:
        return private(self, "_horrors")[_base_id(horror_id)]

    def wall(self, wall_id: str) -> WallCard:
        return private(self, "_walls")[wall_id]

    def presence_card(
        self, presence_id: str
    ) -> PresenceDelve | PresenceWrath | PresenceDestroyMarble | PresenceTrouble:
        return private(self, "_presence")[_base_id(presence_id)]

    # Aliases that read well with instance ids ("M-C#3").
    def marble_of(self, card_id: str) -> Marble:
        return self.marble(card_id)

    def horror_of(self, card_id: str) -> Horror:
        return self.horror(card_id)

    def presence_of(
        self, card_id: str
    ) -> PresenceDelve | PresenceWrath | PresenceDestroyMarble | PresenceTrouble:
        return self.presence_card(card_id)

    def street(self, number: int) -> Street:
        for street in self.streets:
            if street.number == number:
                return street
        raise KeyError(number)

    def tracker(self, investigators: int) -> TrackerLayout:
        """The Turn Tracker side for this many Investigators (FW-SETC-03, FW-AMB-19)."""
        for layout in self.trackers:
            if layout.investigators == investigators:
                return layout
        raise KeyError(investigators)

    def marbles_named(self, name: str) -> list[Marble]:
        return [m for m in self.marbles if m.name == name]

    def horrors_named(self, name: str) -> list[Horror]:
        return [h for h in self.horrors if h.name == name]

    # Decks: one entry per physical card, file order (the engine shuffles).
    def investigator_deck(self) -> list[str]:
        return [inv.id for inv in self.investigators]

    def wall_deck(self) -> list[str]:
        return [w.id for w in self.walls]

    def marble_deck(self) -> list[str]:
        return [m.id for m in self.marbles for _ in range(m.copies)]

    def horror_deck(self) -> list[str]:
        return [h.id for h in self.horrors for _ in range(h.copies)]

    def presence_deck(self) -> list[str]:
        return [p.id for p in self.presence for _ in range(p.copies)]

    def marble_instances(self) -> list[str]:
        return _instances((m.id, m.copies) for m in self.marbles)

    def horror_instances(self) -> list[str]:
        return _instances((h.id, h.copies) for h in self.horrors)

    def presence_instances(self) -> list[str]:
        return _instances((p.id, p.copies) for p in self.presence)

    def street_numbers(self) -> list[int]:
        return sorted(s.number for s in self.streets)


# --------------------------------------------------------------------------- findings


_CUSTOM_EFFECTS: set[str] = set()


def register_custom_effect(name: str) -> str:
    """Declare a named custom effect implemented in Python, so packs may use it (§3.0 d)."""
    _CUSTOM_EFFECTS.add(name)
    return name


def registered_custom_effects() -> frozenset[str]:
    return frozenset(_CUSTOM_EFFECTS)


# --------------------------------------------------------------------------- loading

# file name -> (top-level key holding the list, or None for a single table; rule id for
# schema errors in that file: the component rule whose fields it carries).
PACK_FILES: dict[str, tuple[str | None, str]] = {
    "pack.toml": (None, "FW-COMP-01"),
    "investigators.toml": ("investigator", "FW-COMP-04"),
    "marbles.toml": ("marble", "FW-COMP-05"),
    "walls.toml": ("wall", "FW-COMP-06"),
    "horrors.toml": ("horror", "FW-COMP-07"),
    "presence.toml": ("presence", "FW-PRES-01"),
    "streets.toml": ("street", "FW-STREET-01"),
    "trackers.toml": ("layout", "FW-TRACK-01"),
}

# Which Pack field each list file fills, and the model of one entry.
_FILE_FIELD: dict[str, tuple[str, Any]] = {
    "investigators.toml": ("investigators", Investigator),
    "marbles.toml": ("marbles", Marble),
    "walls.toml": ("walls", WallCard),
    "horrors.toml": ("horrors", Horror),
    "presence.toml": ("presence", Presence),
    "streets.toml": ("streets", Street),
    "trackers.toml": ("trackers", TrackerLayout),
}


class _PackHeader(_Model):
    name: str = Field(min_length=1)
    version: str = Field(min_length=1)
    description: str = ""
    options: PackOptions = PackOptions()
    scourge: Scourge = Scourge()


def _loc_rule(default_rule: str, loc: tuple[int | str, ...], err_type: str = "") -> str:
    """A more precise rule id for a bad Symbol (check b), else the file's component rule."""
    last = next((p for p in reversed(loc) if isinstance(p, str)), "")
    if last in {"symbols", "defeat", "symbol"}:
        return "FW-COMP-03"
    return default_rule


def _schema_findings(
    file: str, rule: str, items: Any, key: str | None, exc: ValidationError
) -> list[Finding]:
    return schema_findings(
        file, rule, items, key, exc, rule_for=_loc_rule,
        id_keys=("id", "number", "investigators"), clean_loc=_strip_tags,
    )


_TAG_KEYS: tuple[str, ...] = ("op", "kind", "test", "action")


def _strip_tags(data: Any, loc: tuple[int | str, ...]) -> tuple[int | str, ...]:
    """Drop the segments pydantic inserts for discriminated unions (``"lose_marble"``).

    The input is walked along the location: a segment that is not a key of the current table
    but equals its tag (``op``/``kind``/``test``/``action`` value) is such a segment.
    """
    out: list[int | str] = []
    node: Any = data
    for part in loc:
        if isinstance(node, dict) and isinstance(part, str) and part not in node:
            if any(node.get(k) == part for k in _TAG_KEYS):
                continue
            node = None
        elif isinstance(node, dict):
            node = node.get(part)
        elif isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node):
            node = node[part]
        else:
            node = None
        out.append(part)
    return tuple(out)


def _target(file: str) -> tuple[str, Any] | None:
    return _FILE_FIELD.get(file)


def _read_pack(path: Path) -> tuple[Pack | None, list[Finding]]:
    """Parse every file; return the Pack (None if anything failed) and the parse findings."""
    header, parts, findings = read_toml_pack(
        path, folder_rule="FW-COMP-01", files=PACK_FILES, target=_target,
        header_model=_PackHeader, findings_for=_schema_findings,
    )
    if header is None:
        return None, findings
    pack = Pack(
        name=header.name,
        version=header.version,
        description=header.description,
        options=header.options,
        scourge=header.scourge,
        **parts,
    )
    return pack, findings


# --------------------------------------------------------------------------- walking


def _instruction_effects(instr: Instruction) -> Iterable[tuple[int, int, Any]]:
    for s_idx, sentence in enumerate(instr):
        for e_idx, eff in enumerate(sentence):
            yield s_idx, e_idx, eff


def _modifier_instructions(mods: Iterable[Any], where: str) -> Iterable[tuple[str, Instruction]]:
    for i, mod in enumerate(mods):
        if mod.kind == "on":
            yield f"{where}[{i}].instruction", mod.instruction


def _card_instructions(pack: Pack) -> Iterable[tuple[str, str, str, Instruction]]:
    """(file, card id, place, instruction) for every Instruction in the pack.

    ``place`` names the slot: "unique", "exploit", "utilise", "intervene", "trigger",
    "deathrattle", "wall_unique", "aura", "anchored", "modifiers", "reaction", "street_aura",
    "scourge".
    """
    for inv in pack.investigators:
        yield "investigators.toml", inv.id, "unique", inv.unique.instruction
        yield "investigators.toml", inv.id, "exploit", inv.exploit.instruction
        for _, instr in _modifier_instructions(inv.modifiers, "modifiers"):
            yield "investigators.toml", inv.id, "modifiers", instr
    for marble in pack.marbles:
        yield "marbles.toml", marble.id, "utilise", marble.utilise
        yield "marbles.toml", marble.id, "intervene", marble.intervene
        for _, instr in _modifier_instructions(marble.anchored, "anchored"):
            yield "marbles.toml", marble.id, "anchored", instr
        for reaction in marble.reactions:
            yield "marbles.toml", marble.id, "reaction", (reaction.effects,)
    for horror in pack.horrors:
        yield "horrors.toml", horror.id, "trigger", horror.trigger
        yield "horrors.toml", horror.id, "deathrattle", horror.deathrattle
        for _, instr in _modifier_instructions(horror.modifiers, "modifiers"):
            yield "horrors.toml", horror.id, "modifiers", instr
    for wall in pack.walls:
        for unique in wall.uniques:
            yield "walls.toml", wall.id, "wall_unique", unique.instruction
        for _, instr in _modifier_instructions(wall.aura, "aura"):
            yield "walls.toml", wall.id, "aura", instr
    for street in pack.streets:
        for _, instr in _modifier_instructions(street.aura, "aura"):
            yield "streets.toml", f"Street {street.number}", "street_aura", instr
    for _, instr in _modifier_instructions(pack.scourge.modifiers, "modifiers"):
        yield "pack.toml", "scourge", "scourge", instr


def iter_effects(pack: Pack) -> Iterable[tuple[str, str, str, Any]]:
    """(file, card id, place, effect) for every effect anywhere in the pack."""
    for file, card_id, place, instr in _card_instructions(pack):
        for _, _, eff in _instruction_effects(instr):
            yield file, card_id, place, eff


def _all_modifiers(pack: Pack) -> Iterable[tuple[str, str, str, Any]]:
    """(file, card id, place, modifier) for every modifier anywhere in the pack."""
    for inv in pack.investigators:
        for mod in inv.modifiers:
            yield "investigators.toml", inv.id, "modifiers", mod
    for marble in pack.marbles:
        for mod in marble.anchored:
            yield "marbles.toml", marble.id, "anchored", mod
    for horror in pack.horrors:
        for mod in horror.modifiers:
            yield "horrors.toml", horror.id, "modifiers", mod
    for wall in pack.walls:
        for mod in wall.aura:
            yield "walls.toml", wall.id, "aura", mod
    for street in pack.streets:
        for mod in street.aura:
            yield "streets.toml", f"Street {street.number}", "street_aura", mod
    for mod in pack.scourge.modifiers:
        yield "pack.toml", "scourge", "scourge", mod


def _conditions(item: Any) -> tuple[Any, ...]:
    return tuple(getattr(item, "only_if", ()))


def _this_names_a_horror(file: str, place: str) -> bool:
    """Where the selector "this" names a Horror: a Horror's own card, the Horror a Marble was
    Attached to (Intervene), the Horror on a Street (Street Aura), the Scourge Horror."""
    return file == "horrors.toml" or place in {"intervene", "street_aura", "scourge"}


# --------------------------------------------------------------------------- validation


def validate_pack(pack: Pack, custom_effects: Collection[str] | None = None) -> list[Finding]:
    """The semantic checks (a)-(g) of spec §3.0 and the cross-file checks on a parsed Pack.

    Count mismatches against the printed component list are warnings; anything that would
    make a rule dead or the engine unable to set up or resolve a card is an error.
    """
    customs = registered_custom_effects() if custom_effects is None else set(custom_effects)
    out: list[Finding] = []
    opts = pack.options

    def err(rule: str, msg: str, file: str | None = None) -> None:
        out.append(Finding(rule=rule, severity="error", message=msg, file=file))

    def warn(rule: str, msg: str, file: str | None = None) -> None:
        out.append(Finding(rule=rule, severity="warning", message=msg, file=file))

    # --- unique ids (a): the engine refers to every card by id.
    for file, ids, rule in (
        ("investigators.toml", [i.id for i in pack.investigators], "FW-COMP-04"),
        ("marbles.toml", [m.id for m in pack.marbles], "FW-COMP-05"),
        ("walls.toml", [w.id for w in pack.walls], "FW-COMP-06"),
        ("horrors.toml", [h.id for h in pack.horrors], "FW-COMP-07"),
        ("presence.toml", [p.id for p in pack.presence], "FW-PRES-01"),
    ):
        for ident, n in Counter(ids).items():
            if n > 1:
                err(rule, f"id {ident!r} is used {n} times", file)
            if "#" in ident:
                err(rule, f"id {ident!r} must not contain '#' (used for card instances)", file)

    # --- counts (f): warnings against FW-COMP-01.
    def count(what: str, actual: int, expected: int, file: str) -> None:
        if actual != expected:
            warn("FW-COMP-01", f"{what}: {actual}, the printed game has {expected}", file)

    count("Investigator cards", len(pack.investigators), 12, "investigators.toml")
    count("Marble cards", len(pack.marble_deck()), 54, "marbles.toml")
    count("Wall cards", len(pack.walls), 6, "walls.toml")
    count("Horror cards", len(pack.horror_deck()), 36, "horrors.toml")
    count("Presence cards", len(pack.presence_deck()), 9, "presence.toml")
    count("Street cards", len(pack.streets), 5, "streets.toml")
    sides = len(pack.trackers)
    if sides != 4:
        warn("FW-COMP-01", f"Turn Tracker sides: {sides}, the printed game has 4", "trackers.toml")
    if opts.doom_tokens != 6 or opts.enhancement_tokens != 8:
        warn("FW-COMP-02", "Doom/Enhancement token counts differ from 6/8", "pack.toml")

    # --- players and setup (FW-PLAY-02, FW-SETUP-04, FW-SETUP-02).
    if opts.min_investigators > opts.max_investigators:
        err("FW-PLAY-02", "min_investigators is above max_investigators", "pack.toml")
    for n_inv, rule in ((opts.solo_investigators, "1"), (2 * opts.duo_investigators_each, "2")):
        if not opts.min_investigators <= n_inv <= opts.max_investigators:
            err(
                "FW-PLAY-01",
                f"{rule} player(s) would play {n_inv} Investigators, outside "
                f"{opts.min_investigators}-{opts.max_investigators}",
                "pack.toml",
            )
    needed = opts.investigator_cards_dealt * opts.max_investigators
    if len(pack.investigators) < needed:
        err(
            "FW-SETUP-04",
            f"dealing {opts.investigator_cards_dealt} Investigator cards to "
            f"{opts.max_investigators} Investigators needs {needed}, the pack has "
            f"{len(pack.investigators)}",
            "investigators.toml",
        )
    inv_ids = {i.id for i in pack.investigators}
    if opts.first_game_remove is not None and opts.first_game_remove not in inv_ids:
        err(
            "FW-SETUP-02",
            f"first_game_remove names unknown Investigator {opts.first_game_remove!r}",
            "pack.toml",
        )
    max_sanity = max((i.sanity for i in pack.investigators), default=0)
    if max_sanity * opts.max_investigators > len(pack.marble_deck()):
        warn(
            "FW-SETUP-05",
            f"{opts.max_investigators} Investigators of Sanity {max_sanity} would need more "
            f"than the {len(pack.marble_deck())} Marbles",
            "marbles.toml",
        )

    # --- Gates (FW-COMP-09, FW-SETUP-08).
    if opts.starting_gates > opts.max_open_gates:
        err("FW-SETUP-08", "starting_gates is above max_open_gates", "pack.toml")
    for choice in opts.starting_gate_choices:
        if not 1 <= choice <= opts.max_open_gates:
            err("FW-SETUP-08", f"starting Gate choice {choice} is out of range", "pack.toml")
    if opts.starting_gates not in opts.starting_gate_choices:
        err("FW-SETUP-08", "starting_gates is not one of starting_gate_choices", "pack.toml")
    if len(pack.walls) < opts.max_open_gates + 1:
        err(
            "FW-COMP-09",
            f"{len(pack.walls)} Wall cards cannot make The Wall plus {opts.max_open_gates} Gates",
            "walls.toml",
        )

    # --- Symbols (b): every Symbol must be reachable, or Close a Gate is impossible.
    shown = {s for m in pack.marbles for s in m.symbols}
    for sym in SYMBOLS:
        if sym not in shown:
            err(
                "FW-ACT-01",
                f"no Marble shows a {sym} Symbol: no Gate can be closed",
                "marbles.toml",
            )
    for marble in pack.marbles:
        if marble.anchor and not marble.utilise and not marble.anchored:
            err(
                "FW-TERM-02",
                f"{marble.id!r} is Anchored to the Streets but does nothing there",
                "marbles.toml",
            )
        if marble.anchored and not marble.anchor:
            err(
                "FW-TERM-02",
                f"{marble.id!r} has anchored modifiers but is never Anchored",
                "marbles.toml",
            )

    # --- effects (d): registered customs; selectors used where they mean something.
    names = {
        "marble": {m.name for m in pack.marbles},
        "horror": {h.name for h in pack.horrors},
    }
    street_numbers = {s.number for s in pack.streets}
    for file, card_id, place, instr in _card_instructions(pack):
        for s_idx, e_idx, eff in _instruction_effects(instr):
            where = f"{card_id!r} {place} sentence {s_idx + 1}"
            if eff.op == "custom" and eff.name not in customs:
                err("FW-GAP-15", f"{where} uses unregistered custom effect {eff.name!r}", file)
            if eff.op in REACTION_ONLY_OPS and place != "reaction":
                err("FW-GAP-02", f"{where}: {eff.op!r} is only meaningful in a reaction", file)
            who_fields = [getattr(eff, f, None) for f in ("who", "giver", "to", "viewer", "owner")]
            horror_sel = getattr(eff, "horror", None)
            if e_idx == 0 and ("same" in who_fields or horror_sel == "same"):
                err("FW-INSTR-03", f"{where}: 'same' has no earlier effect to refer to", file)
            if horror_sel == "this" and not _this_names_a_horror(file, place):
                err("FW-INSTR-01", f"{where}: horror 'this' names no Horror here", file)
            if eff.op == "trigger" and horror_sel == "this" and place == "trigger":
                err(
                    "FW-INSTR-01",
                    f"{where}: a Trigger Action that Triggers itself never ends",
                    file,
                )
            if horror_sel == "all" and eff.op not in {"drain", "undrain"}:
                err("FW-INSTR-01", f"{where}: horror 'all' is only for drain/undrain", file)
            # References (e): names used by find and sacrifice must exist in the pack.
            if eff.op == "find" and eff.name is not None and eff.name not in names[eff.deck]:
                err("FW-TERM-08", f"{where}: find names unknown {eff.deck} {eff.name!r}", file)
            if eff.op == "find" and eff.to == "streets" and eff.deck != "horror":
                err("FW-TERM-08", f"{where}: only a Horror can be placed On the Streets", file)
            if eff.op == "sacrifice" and eff.named is not None and eff.named not in names["horror"]:
                err("FW-HORROR-08", f"{where}: sacrifice names unknown Horror {eff.named!r}", file)
            if eff.op == "peek" and eff.take > eff.n:
                err("FW-INSTR-01", f"{where}: peek takes more cards than it looks at", file)
            if eff.op == "peek" and eff.take and eff.deck != "marble":
                err("FW-INSTR-01", f"{where}: only Marbles can be taken into a hand", file)
            for cond in _conditions(eff):
                if cond.test == "street_occupied" and cond.street not in street_numbers:
                    err("FW-STREET-01", f"{where}: condition names unknown Street", file)
    for file, card_id, place, mod in _all_modifiers(pack):
        for cond in _conditions(mod):
            if cond.test == "street_occupied" and cond.street not in street_numbers:
                err("FW-STREET-01", f"{card_id!r} {place}: condition names unknown Street", file)
        this_ok = _this_names_a_horror(file, place)
        if mod.kind == "defeat_cost_delta" and mod.scope == "this" and not this_ok:
            err("FW-HORROR-04", f"{card_id!r} {place}: 'this' names no Horror here", file)

    # --- reactions (FW-GAP-02): effects must fit their window.
    for marble in pack.marbles:
        for reaction in marble.reactions:
            ops = {e.op for e in reaction.effects}
            if "ignore_loss" in ops and reaction.window != "before_lose_marble":
                err(
                    "FW-TERM-11",
                    f"{marble.id!r}: ignore_loss outside before_lose_marble",
                    "marbles.toml",
                )
            if "blitz_bonus" in ops and reaction.window != "before_blitz_reveal":
                err(
                    "FW-TERM-03",
                    f"{marble.id!r}: blitz_bonus outside before_blitz_reveal",
                    "marbles.toml",
                )
    windows = {r.window for m in pack.marbles for r in m.reactions}
    if "before_lose_marble" not in windows:
        warn("FW-TERM-11", "no Marble can ignore a Lose-a-Marble (Holy Symbol)", "marbles.toml")
    if "before_blitz_reveal" not in windows:
        warn("FW-TERM-03", "no Marble can increase a Blitz (Adrenaline)", "marbles.toml")

    # --- Horrors.
    for horror in pack.horrors:
        for mod in horror.modifiers:
            if mod.kind not in {"defeat_cost_delta", "on"}:
                warn("FW-COMP-07", f"{horror.id!r} has a {mod.kind!r} modifier", "horrors.toml")

    # --- Presence cards (FW-PRES-01..05, FW-GAP-04).
    kinds: Counter[str] = Counter(p.action for p in pack.presence for _ in range(p.copies))
    for action in PRESENCE_ACTIONS:
        if kinds[action] == 0:
            warn("FW-PRES-01", f"no Presence card has the {action!r} action", "presence.toml")
    for card in pack.presence:
        if card.action == "trouble" and card.street not in street_numbers:
            err(
                "FW-PRES-05",
                f"{card.id!r} names Street {card.street}, which does not exist",
                "presence.toml",
            )

    # --- Streets (FW-STREET-01, FW-SETA-03).
    numbers = [s.number for s in pack.streets]
    for number, n in Counter(numbers).items():
        if n > 1:
            err("FW-STREET-01", f"Street {number} is listed {n} times", "streets.toml")
    if numbers and sorted(set(numbers)) != list(range(1, len(set(numbers)) + 1)):
        err("FW-SETA-03", f"Street numbers {sorted(numbers)} are not 1..n", "streets.toml")
    if not numbers:
        err("FW-STREET-01", "there are no Streets (Alliance cannot place Horrors)", "streets.toml")

    # --- Turn Tracker (g).
    layouts = Counter(t.investigators for t in pack.trackers)
    for n_inv in range(opts.min_investigators, opts.max_investigators + 1):
        if layouts[n_inv] == 0:
            err("FW-SETC-03", f"no Turn Tracker side for {n_inv} Investigators", "trackers.toml")
    for n_inv, n in layouts.items():
        if n > 1:
            err("FW-SETC-03", f"{n} Turn Tracker sides for {n_inv} Investigators", "trackers.toml")
    for card_side, n in Counter((t.card, t.side) for t in pack.trackers).items():
        if n > 1:
            err(
                "FW-COMP-01",
                f"Turn Tracker card {card_side[0]} side {card_side[1]} is used {n} times",
                "trackers.toml",
            )
    for layout in pack.trackers:
        label = f"tracker for {layout.investigators}"
        for stage in ("slumber", "eye_opens", "crescendo"):
            if not getattr(layout, stage):
                err("FW-TRACK-01", f"{label} has no {stage} rank", "trackers.toml")
        if len(layout.awakens) != 1:
            err("FW-TRACK-09", f"{label} needs exactly one Awakens rank", "trackers.toml")
        ranks = [r for r, _ in layout.ranks()]
        if any(b != a - 1 for a, b in itertools.pairwise(ranks)):
            err("FW-TRACK-01", f"{label}: ranks {ranks} do not go down by one", "trackers.toml")

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
