"""The Presence content: pydantic models of a content pack, its loader and its validator.

A *content pack* is a folder of TOML files (spec Part 3, §3.0). The shipped default pack
lives next to this module in ``content/``; a group that owns the printed game writes its own
folder with the same files and loads it with :func:`load_pack`. Nothing in the engine names a
card: every mechanic is data written with the effect vocabulary below (spec §3.1, DESIGN.md
"Content is data"), and the engine dispatches on ``effect.op`` / ``condition.test`` /
``trigger.event`` / ``test.test`` / ``modifier.kind``, never on a card's name or id.

Entry points
============
``load_pack(path=None) -> Pack``   load + validate; ``None`` = the shipped default pack.
                                   Raises :class:`ContentError` (a ``ValueError``) listing
                                   the error findings; warnings do not stop loading.
``default_pack() -> Pack``         the shipped pack, loaded once and cached.
``check_pack(path) -> list[Finding]``  every finding (errors and warnings); never raises for
                                   bad content (missing files, TOML syntax, schema errors).
``validate_pack(pack) -> list[Finding]``  the cross-file checks on an in-memory Pack.
``pack_fingerprint(pack) -> str``  ``"name@version+<12 hex>"``, stored with each game.
``register_custom_effect(name)``   a named effect implemented in Python that data may use as
                                   ``{op = "custom", name = ...}``; the default pack uses none.
``iter_effects(pack)``             (file, card id, slot, effect) for every effect, nested ones
                                   included (choices, reveal branches, dark banners).
``iter_effect_lists(pack)``        (file, card id, slot, "visitor"|"spirit", effects) for every
                                   top-level effect list, with the context that owns it.
``pack_json_schema()``             JSON Schema of a whole pack, for editors of printed packs.

Files and top-level keys (one model per entry; every model is frozen, ``extra="forbid"``,
collections are tuples): ``pack.toml`` (name, version, description, ``[options]``),
``presets.toml`` (``[[script_presets]]``, ``[[fear_presets]]``, ``[board_symbols]``,
``[[difficulty]]``, ``[first_game]``, ``[[unlocks]]``), ``manor.toml`` (``[[floors]]``,
``[[boards]]``, ``[[rooms]]`` with ``[[rooms.actions_a]]`` / ``[[rooms.actions_b]]``,
``walls``, ``vertical``, ``[[doors]]``, ``start_room``, ``fireplace_room``, ``cellar_room``,
``item_discard_room``, ``max_doors``, ``[chamber]``), ``hope_track.toml`` (a table with
``[sides.A]`` / ``[sides.B]``), ``secret_boards.toml`` ``[[board]]``, ``secrets.toml``
``[[secret]]``, ``clue_cards.toml`` ``[[clue]]``, ``fear_cards.toml`` ``[[fear]]``,
``items.toml`` ``[[item]]``, ``visitors.toml`` ``[[visitor]]``, ``action_cards.toml``
``[[card]]``, ``spirits.toml`` ``[[spirit]]``, ``spirit_cards.toml`` ``[[card]]``,
``spirit_clues.toml`` ``[[clue]]``, ``small_clues.toml`` ``[[clue]]``, ``scripts.toml``
``[[script]]``, ``manifestation.toml`` (a table with ``[[actions]]``). ``PACK_FILES`` maps
each file to its list key and to the rule id used for its parse errors.

Scalars
=======
``Trauma = "betrayal" | "tragedy" | "suffering" | "death"`` (P-COMP-09); ``Players = 3 | 4 |
5`` (N, the number of characters incl. the spirit; 2-player games use 3, P-2P-01);
``Speed = "main" | "quick"``; ``Side = "A" | "B"``; ``Marker = "hope" | "nerve"``.

Contexts: who is "self", where is "nearby"
==========================================
Every list of effects is resolved in order (P-TIME-01) in a *context* that fixes its
**owner** (who makes the choices, P-TIME-04), **self** (the visitor it belongs to) and its
**origin** (the room "nearby" and "this room" are measured from, A-56):

=============================  ==================  =====================  ====================
where the effects are          owner               self                   origin room
=============================  ==================  =====================  ====================
visitor action (card, item,    the acting visitor  the acting visitor     the actor's room
room, basic, ability)
reaction (fear card, item,     the holder          the holder             the holder's room
character ability)
spirit clue / small clue       the investigator    the investigator       the token's room
secret card tier               the revealer        the revealer           the revealer's room
spirit power                   the spirit          — (``self`` invalid)   the declared die's
                                                                          room (moves with it,
                                                                          P-SPIRIT-15)
drain ``ongoing`` reaction     the spirit          — (``self`` invalid)   the drain room
manifestation action           the spirit          — (``self`` invalid)   the spirit pawn's room
script reveal effects          the spirit          — (``self`` invalid)   — (board-wide only)
=============================  ==================  =====================  ====================

Visitor references (``who`` on visitor-affecting effects): ``self``; ``target`` (every
visitor picked by the latest ``target`` effect before it in the same list or an enclosing
list — a ``target`` inside a choice branch does not leak out of the branch; several targets:
the effect applies to each in turn order, starting with the active player); ``trigger_visitor``
(in a reaction: the visitor whose act fired the trigger, e.g. the one who Investigated in an
Echo drain room). The validator rejects ``self`` in spirit-owned lists and ``target`` before
any ``target`` effect.

Die references (``die``): ``this`` (the declared die of a spirit power; in a pawn action a
die in the pawn's room), ``nearby`` (one die in the origin room, chosen by the effect's owner
— for ``increase_presence``/``move_die`` always the spirit), ``trigger_die`` (the die that
entered the room, reactions), ``from_adjacent`` (``move_die`` only: a die in a room adjacent
to the origin moves *into* the origin).

Conditions (discriminated on ``test``; each has ``value: bool = True``, ``False`` negates)
-----------------------------------------------------------------------------------------
``room_dark`` (the origin room is dark), ``fireplace_lit``, ``in_card_room`` (the resolving
visitor stands in this clue card's room), ``room_is {room}`` (origin), ``floor_is {floor}``
(origin), ``alone {who}``, ``bonded {who}``, ``hand_size_gte {who, n, cards="any"|"action"|
"clue"}``, ``fear_cards_in_play_gte {n}`` (in front of all visitors), ``die_nearby`` (a
presence die in the origin room), ``other_visitor_nearby`` (another non-knocked-out visitor
in the origin room), ``visitor_nearby {candle_lit=None}`` (a visitor in the origin room, self
included, neither knocked out nor succumbed; with ``candle_lit`` one whose candle is lit or
out), ``other_light_source`` (a light in the origin room besides self's own candle),
``candle_lit {who}``, ``pawn_on_board``, ``knocked_out {who}``.

Effects (discriminated on ``op``; every effect also has ``only_if: tuple[Condition, ...]``,
all must hold when it resolves, else it is skipped — a skip is not a "cannot resolve")
-----------------------------------------------------------------------------------------
Visitor group (P-VIS, P-MOVE, P-CLUE, P-FEAR, P-ITEM, P-LIGHT, P-SECRET); the ops in
``VISITOR_ONLY_OPS`` need a visitor "self" and are refused in spirit-owned lists:
  move               points>=1 (one movement action: each point opens/closes a nearby door
                     or moves through an open one, PR-09; unspent points are lost)
  investigate        — (reveal one face-down clue token nearby self and resolve it, A-54)
  draw_clue          n=1, who="self" (each draw: top of the clue deck or a revealed card,
                     PR-10; a fear card goes in front of the drawer, P-FEAR-05)
  draw_item          n=1, keep: int|None=None (None = keep all; else keep that many, the
                     rest to the Cellar), who="self"   ("Search")
  draw_action        n=1, who="self" (from the visitor's own action deck)
  discard            n=1, cards="any"|"action"|"clue", up_to=False, who="self" (the
                     discarder picks the cards; clue cards go to a clue discard, PR-03)
  suffer_fear        n=1, who="self"
  cure_fear          n=1, who="self"
  trash_fear_card    n=1, up_to=False, pooled=False (True: n in total among all targets,
                     the owner picks), who="self"
  smother_candle     who="self"
  relight_candle     who="self"
  light_fireplace    — (only when the fireplace is in the origin room)
  door               actions: tuple[DoorAct, ...] (the owner picks ONE door nearby the origin
                     and one of these acts that is possible on it), then_may: tuple[DoorAct,
                     ...] (afterwards the owner may do one of these to the same door, free);
                     DoorAct = "open" | "close" | "lock" | "unlock" | "close_and_lock".
                     The secret passage can never be locked (P-MOVE-08).
  reveal_secret      min_matching=1 (the owner picks an unrevealed secret; it is revealed
                     only if at least this many clue cards of its trauma lie beneath it; 0 =
                     always), on_success: effects, on_fail: effects (Invoke, P-SECRET-02;
                     Mystery Mode: only the outcome is public, P-MYST-03). Also allowed in a
                     spirit effect: the secret is then resolved by the targeted visitor,
                     else one of the spirit's choice (A-31).
  reveal_clue_deck   n=1 (reveal the top n clue cards into the revealed row, P-CLUE-06)
  inspect            what="clue_deck"|"clue_token"|"spirit_clue"|"secret"|"removed_clue"|
                     "chamber", n=1, reorder=False, may_bottom=False (P-TIME-09; the result
                     is shown to the owner only)
  take_from_cellar   n=1 (the owner picks item cards from the Cellar discard)
  take_from_chamber  n=1 (look at the chamber cards, take n; a fear card taken is trashed
                     without effect, G-17)
  gain_main_actions  n=1, per=None|"fear_card_in_play" (n each); for the spirit: pawn actions
  adjust_track       marker: "hope"|"nerve", delta: int (+ increase, - reduce; a nerve
                     reduction that cannot happen makes the forced visitor succumb, P-SUCC-02)
  end_turn           —
  return_bond        who="self" (the bonded marker goes back to the spirit)
  uncover            — (the Secret Chamber passage check, P-CHAMBER-05)
  reduce_presence    n=1, die="nearby"|"this"|"trigger_die"
  prevent            — (reactions on a ``*_would_*`` event only: the pending thing does not
                     happen)
Spirit group (P-SPIRIT, P-BOND, P-MANI, P-DISCORD-08); the ops in ``SPIRIT_ONLY_OPS`` are
refused in visitor-owned lists, ``place_pawn`` (and a spirit's ``gain_main_actions``) only
in a manifestation power:
  increase_presence  n=1, die="this"|"nearby" (max 6)
  move_die           die="this"|"nearby"|"from_adjacent", steps=1, up_to=False,
                     light_penalty=True (P-SPIRIT-08)
  add_die            n=1 | "all" (from the supply, each to a dark room of the spirit's
                     choice, at value 1)
  bond               who
  place_pawn         — (the spirit pawn enters the origin room)
  move_pawn          steps=1, light_cost=1 (presence paid from a die in the pawn's room
                     before entering a light room)
  spirit_speak       max_words>=1, vocabulary: tuple[str, ...] = () (empty = free words)
  spirit_draw        n=1
Structure:
  target             selector, count=1|"all", exclude_self=False, allow_knocked_out=False,
                     candle_lit=None (True/False: only visitors whose candle is lit/out)
                     (sets ``target`` for the following effects; no valid target = the
                     effects on ``target`` do nothing, P-TIME-03). Selectors: "nearby_visitor",
                     "alone_nearby_visitor", "visitor_within_hearing" (origin room + rooms
                     sharing an open door), "bonded_visitor", "any_visitor".
  choice             kind="either"|"may", coloured=False, who="self" (the affected visitor),
                     chooser="affected"|"owner"|"spirit", options: tuple[tuple[Effect, ...],
                     ...] ("either": >= 2 branches, exactly one is resolved, a branch that
                     cannot be done is not choosable when another can, P-TIME-12; "may": one
                     branch, resolved or declined). A coloured choice of a bonded visitor is
                     made by the spirit (P-BOND-03). With chooser "owner"/"spirit" nobody
                     is affected and ``who`` is ignored.
  custom             name (registered), params: dict[str, int | str | bool]

Triggers, reactions, actions
----------------------------
``Trigger`` {event, by="any"|"spirit"|"other" (who caused it; "other" = not the holder),
floor: int|None (``enter_room`` only), only_if: conditions}. Events, relative to the holder
(reactions) or to the drain room (drain ``ongoing``): ``game_start``, ``start_of_spirit_turn``,
``end_of_own_turn``, ``die_enters_room``, ``pawn_enters_room`` (entered or placed),
``candle_would_be_smothered``, ``candle_smothered``, ``door_closed`` (a door of the room is
closed or locked), ``targeted_by_spirit`` (after the power resolves), ``reveal_spirit_clue``,
``reveal_small_clue``, ``investigate``, ``rest``, ``enter_room``, ``track_reduced``,
``draw_fear_card``, ``fear_card_would_cause_fear``. ``*_would_*`` events are replacement
windows (their reactions may ``prevent``).

``Reaction`` {trigger, effects, discard_this=False, optional=False, once_per_turn=False}
(P-VIS-12, A-22). ``DarkBanner`` {mode: "add" (after the effects) | "replace", effects}
(P-VIS-09). ``Action`` {name, speed, effects, dark: DarkBanner|None, requires: conditions
(legal only if they hold), once_per_turn=False, text} (P-VIS-06).

Cards, boards and tracks
========================
  VisitorCharacter  id, name, pronoun, colour, fear_track=5 (tracker starts on 0, reaching
                    this space knocks out, G-10), modifiers: (walk_points {n}), abilities:
                    tuple[Action], reactions: tuple[Reaction], text        (visitors.toml)
  ActionCard        id, name, owner (visitor id), actions: 2 Actions, text (action_cards.toml)
  ClueCard          id, name, trauma, room, mark: Players (used when N >= mark), special,
                    actions: 2 Actions, text                              (clue_cards.toml)
  FearCard          id, name, reaction, text                              (fear_cards.toml)
  ItemCard          id, name, copies, special (always in the deck), action: Action|None,
                    reaction: Reaction|None, text                         (items.toml)
  SpiritCharacter   id, name, number (the character symbol), first_game, text (spirits.toml)
  SpiritPower       requirement 0..6, spend, drain (0 = none), hindered_by_light,
                    manifestation, effects, ongoing: tuple[Reaction] (drain effects)
  SpiritCard        id, name, spirit, marks (e.g. ("A",)), top, bottom, text
  SecretCard        id, name, trauma, set ("A" = general, else a spirit id), marks, tiers:
                    SecretTiers(low, middle, high: effects), text             (secrets.toml)
  SecretBoard       players, positions: 4 x SecretPosition(remove, in_deck, low_max|None:
                    the position's own low tier, A-66), low_max, high_min (tier by matching
                    cards beneath: <= low_max low, >= high_min high, else middle)
                                                                         (secret_boards.toml)
  Script            id, type: Marker, alignment: "good"|"evil", set, needs_chamber, top,
                    bottom: ScriptHalf(spirit_wins_if: any of WinTests, visitors_also_need:
                    all of WinTests), reveal: effects, text                  (scripts.toml)
  SpiritClue        id, name, spirit: id|None (None = general), copies, unlock: str|None
                    (an unlock group, e.g. "first_session"), effects    (spirit_clues.toml)
  SmallClue         id, name, copies, effects                            (small_clues.toml)
  HopeTrack         spaces, time_start, even_rounds, final_round, sides: {"A", "B"} ->
                    TrackSide(hope, nerve)                                 (hope_track.toml)
  Manifestation     actions_per_turn=3, drain=1, actions: tuple[ManifestAction(id, name,
                    cost, effects, text)]                               (manifestation.toml)
  Manor             floors, boards (min_players, floor), rooms (board, floor, x, y,
                    clue_room, chamber, actions_a, actions_b), walls, vertical (die
                    adjacency), doors (rooms, stairs, open, locked), start_room,
                    fireplace_room, cellar_room, item_discard_room, chamber: Chamber(room,
                    passage_id, uncover: Action) | None                       (manor.toml)
  Presets           script presets, fear presets, board symbols, difficulty labels,
                    first-game preset, unlock groups, True Horror's atmospheric
                    lines (HorrorLine: id, text)                            (presets.toml)
  PackOptions       the printed numbers and switches (see the class)          (pack.toml)

Win tests (scripts; discriminated on ``test``): ``visitors_win``, ``succumbed_gte {n}``,
``knocked_out_gte {n}``, ``bonded_succumbed``, ``pawn_in_room {room}``,
``pawn_not_on_board``, ``surviving_in_light``, ``no_die_with_surviving_visitor``,
``fear_cards_each_lte {n}``, ``dice_on_board_lte {n}``, ``no_die_in_room {room}``,
``surviving_visitor_in_room {room}``.

Decks: ``item_instances()`` / ``spirit_clue_instances()`` / ``small_clue_instances()`` give
one id per physical card/token ``"<id>#<k>"`` (k from 1); ``item_of`` / ``spirit_clue_of`` /
``small_clue_of`` accept either form. Player-count helpers: ``rooms_in_play(n, chamber)``,
``doors_in_play(n)``, ``die_neighbours(room, n)``, ``clue_cards_for(n)``,
``clue_rooms_in_play(n)``; other decks: ``action_deck(visitor)``, ``spirit_deck(spirit,
mark)``, ``spirit_secrets(set)``, ``spirit_clue_bag(spirit, unlocked)``,
``special_item_ids()`` / ``random_item_ids()``, ``scripts_of(type, chamber)``,
``secret_board(n)``.

Validation (``validate_pack``; every finding names the rule it protects)
=======================================================================
Errors: unique ids per kind and across card kinds (a hand mixes action and clue cards);
every reference resolves (rooms, boards, floors, owners, spirits, sets, scripts, unlocks);
the map (P-MOVE-06 every room of each N reachable from the start room through doors,
P-SPIRIT-07 walls on one floor / vertical one floor apart, stairs between floors, P-COMP-12
door count, P-SETUP-05 a locked stairs door at the Cellar, P-SETUP-26/27 clue rooms vs dice
and small clues, P-CHAMBER-01/02/06/07 the chamber); the Hope Track (P-TRACK-01,
P-ROUND-01/07); clue cards vs secret boards (P-SETUP-22 equal traumas and 14/20/26 left,
P-CHAMBER-04 distinct rooms, P-COMP-06 marks, P-COMP-16 printed counts, P-SETUP-21,
P-SECRET-01/03, P-CHAMBER-01 one card set aside); fear cards (P-FEAR-06, P-SESSION-04,
P-FIRST-07); items (P-SETUP-18, P-ITEM-06, P-ITEM-02); visitors (P-SETUP-17, P-COMP-04);
spirits (P-SETUP-10/11/13, P-MANI-01, P-FIRST-03/05/06, P-SPIRIT-11/12, P-DRAIN-01/06);
scripts (P-WIN-02/04, P-SESSION-03, P-FIRST-04, P-DARK-02); presets (P-SESSION-06, G-22);
effect contexts (P-SPIRIT-13, P-TIME-03, P-VIS-12, P-CLUE-07, P-TIME-12, P-MANI-01/03, custom
effects P-TIME-01); rules that would be dead (P-SECRET-02 nothing reveals a secret, ...).
Warnings: counts that differ from the printed game (P-COMP-02 ...), printed numbers changed
in ``[options]``, dead-but-harmless content (G-02/G-18 rooms without actions, ...).
"""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Collection, Iterable, Iterator, Mapping
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PrivateAttr,
    ValidationError,
    field_validator,
)

from rules.core.content import (
    ContentError,
    CustomEffects,
    Finding,
    PackLoader,
    fingerprint,
    private,
    read_toml_pack,
    schema_findings,
)

__all__ = [
    "CONDITION_TESTS",
    "DEFAULT_PACK_DIR",
    "EFFECT_OPS",
    "MODIFIER_KINDS",
    "PACK_FILES",
    "PLAYER_COUNTS",
    "PRINTED_COUNTS",
    "REPLACEMENT_EVENTS",
    "SPIRIT_ONLY_OPS",
    "TRAUMAS",
    "VISITOR_ONLY_OPS",
    "WIN_TESTS",
    "Action",
    "ActionCard",
    "AddDie",
    "AdjustTrack",
    "Alone",
    "Board",
    "BoardSymbols",
    "Bond",
    "Bonded",
    "BondedSuccumbed",
    "CandleLit",
    "Chamber",
    "Choice",
    "ClueCard",
    "Condition",
    "ContentError",
    "Context",
    "CureFear",
    "CustomEffect",
    "CustomModifier",
    "DarkBanner",
    "DiceOnBoardLte",
    "DieNearby",
    "DifficultyLabel",
    "Discard",
    "Door",
    "DoorEffect",
    "DrawAction",
    "DrawClue",
    "DrawItem",
    "Effect",
    "EndTurn",
    "FearCard",
    "FearCardsEachLte",
    "FearCardsInPlayGte",
    "FearPreset",
    "Finding",
    "FireplaceLit",
    "FirstGame",
    "Floor",
    "FloorIs",
    "GainMainActions",
    "HandSizeGte",
    "HopeTrack",
    "InCardRoom",
    "IncreasePresence",
    "Inspect",
    "Investigate",
    "ItemCard",
    "KnockedOut",
    "KnockedOutGte",
    "LightFireplace",
    "ManifestAction",
    "Manifestation",
    "Manor",
    "Modifier",
    "Move",
    "MoveDie",
    "MovePawn",
    "NoDieInRoom",
    "NoDieWithSurvivingVisitor",
    "OtherLightSource",
    "OtherVisitorNearby",
    "Pack",
    "PackOptions",
    "PawnInRoom",
    "PawnNotOnBoard",
    "PawnOnBoard",
    "PlacePawn",
    "Presets",
    "Prevent",
    "Reaction",
    "ReducePresence",
    "RelightCandle",
    "ReturnBond",
    "RevealClueDeck",
    "RevealSecret",
    "Room",
    "RoomDark",
    "RoomIs",
    "Script",
    "ScriptHalf",
    "ScriptPreset",
    "SecretBoard",
    "SecretCard",
    "SecretPosition",
    "SecretTiers",
    "SmallClue",
    "SmotherCandle",
    "SpiritCard",
    "SpiritCharacter",
    "SpiritClue",
    "SpiritDraw",
    "SpiritPower",
    "SpiritSpeak",
    "SuccumbedGte",
    "SufferFear",
    "SurvivingInLight",
    "SurvivingVisitorInRoom",
    "TakeFromCellar",
    "TakeFromChamber",
    "Target",
    "TrackSide",
    "TrashFearCard",
    "Trigger",
    "Uncover",
    "Unlock",
    "VisitorCharacter",
    "VisitorsWin",
    "WalkPoints",
    "WinTest",
    "check_pack",
    "default_pack",
    "iter_effect_lists",
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

Trauma = Literal["betrayal", "tragedy", "suffering", "death"]
TRAUMAS: tuple[Trauma, ...] = ("betrayal", "tragedy", "suffering", "death")
Players = Literal[3, 4, 5]
PLAYER_COUNTS: tuple[int, ...] = (3, 4, 5)
Speed = Literal["main", "quick"]
Side = Literal["A", "B"]
Marker = Literal["hope", "nerve"]
VisitorRef = Literal["self", "target", "trigger_visitor"]
DieRef = Literal["this", "nearby", "trigger_die"]
DoorAct = Literal["open", "close", "lock", "unlock", "close_and_lock"]
CardKind = Literal["any", "action", "clue"]
Selector = Literal[
    "nearby_visitor",
    "alone_nearby_visitor",
    "visitor_within_hearing",
    "bonded_visitor",
    "any_visitor",
]
InspectWhat = Literal["clue_deck", "clue_token", "spirit_clue", "secret", "removed_clue", "chamber"]
TriggerEvent = Literal[
    "game_start",
    "start_of_spirit_turn",
    "end_of_own_turn",
    "die_enters_room",
    "pawn_enters_room",
    "candle_would_be_smothered",
    "candle_smothered",
    "door_closed",
    "targeted_by_spirit",
    "reveal_spirit_clue",
    "reveal_small_clue",
    "investigate",
    "rest",
    "enter_room",
    "track_reduced",
    "draw_fear_card",
    "fear_card_would_cause_fear",
]
REPLACEMENT_EVENTS: frozenset[str] = frozenset(
    {"candle_would_be_smothered", "fear_card_would_cause_fear"}
)


class _Model(BaseModel):
    """Base of every content model: immutable, and unknown keys are errors (typos)."""

    model_config = ConfigDict(frozen=True, extra="forbid")


# --------------------------------------------------------------------------- conditions


class _Cond(_Model):
    """Fields every condition has: ``value=False`` negates the test."""

    value: bool = True


class RoomDark(_Cond):
    """The origin room is dark (no light source in it, P-LIGHT-01)."""

    test: Literal["room_dark"] = "room_dark"


class FireplaceLit(_Cond):
    """The fireplace has been lit (P-LIGHT-02)."""

    test: Literal["fireplace_lit"] = "fireplace_lit"


class InCardRoom(_Cond):
    """The resolving visitor stands in this clue card's room (P-CLUE-07)."""

    test: Literal["in_card_room"] = "in_card_room"


class RoomIs(_Cond):
    """The origin room is ``room``."""

    test: Literal["room_is"] = "room_is"
    room: str = Field(min_length=1)


class FloorIs(_Cond):
    """The origin room is on floor ``floor``."""

    test: Literal["floor_is"] = "floor_is"
    floor: int


class Alone(_Cond):
    """``who`` is alone (P-DIST-04)."""

    test: Literal["alone"] = "alone"
    who: VisitorRef = "self"


class Bonded(_Cond):
    """``who`` holds the bonded marker (P-BOND-01)."""

    test: Literal["bonded"] = "bonded"
    who: VisitorRef = "self"


class KnockedOut(_Cond):
    """``who`` is knocked out (P-KO)."""

    test: Literal["knocked_out"] = "knocked_out"
    who: VisitorRef = "self"


class HandSizeGte(_Cond):
    """``who`` holds at least ``n`` cards of kind ``cards`` (P-BOND-05)."""

    test: Literal["hand_size_gte"] = "hand_size_gte"
    who: VisitorRef = "self"
    n: int = Field(ge=0)
    cards: CardKind = "any"


class FearCardsInPlayGte(_Cond):
    """At least ``n`` fear cards lie in front of visitors (all visitors together)."""

    test: Literal["fear_cards_in_play_gte"] = "fear_cards_in_play_gte"
    n: int = Field(ge=0)


class DieNearby(_Cond):
    """A presence die is in the origin room."""

    test: Literal["die_nearby"] = "die_nearby"


class OtherVisitorNearby(_Cond):
    """Another visitor, not knocked out, is in the origin room."""

    test: Literal["other_visitor_nearby"] = "other_visitor_nearby"


class VisitorNearby(_Cond):
    """A visitor in the origin room, self included, neither knocked out nor succumbed (one a
    ``nearby_visitor`` target may pick); with ``candle_lit`` one whose candle is lit (True)
    or out (False): an effect that relights a nearby candle is offered only while one is
    out (stop 66: Share Light beside lit candles did nothing)."""

    test: Literal["visitor_nearby"] = "visitor_nearby"
    candle_lit: bool | None = None


class OtherLightSource(_Cond):
    """A light source other than self's own candle is in the origin room."""

    test: Literal["other_light_source"] = "other_light_source"


class CandleLit(_Cond):
    """``who``'s candle is on its light side."""

    test: Literal["candle_lit"] = "candle_lit"
    who: VisitorRef = "self"


class PawnOnBoard(_Cond):
    """The spirit pawn is on the board (P-MANI)."""

    test: Literal["pawn_on_board"] = "pawn_on_board"


Condition = Annotated[
    RoomDark
    | FireplaceLit
    | InCardRoom
    | RoomIs
    | FloorIs
    | Alone
    | Bonded
    | KnockedOut
    | HandSizeGte
    | FearCardsInPlayGte
    | DieNearby
    | OtherVisitorNearby
    | VisitorNearby
    | OtherLightSource
    | CandleLit
    | PawnOnBoard,
    Field(discriminator="test"),
]
CONDITION_TESTS: frozenset[str] = frozenset(
    {
        "room_dark",
        "fireplace_lit",
        "in_card_room",
        "room_is",
        "floor_is",
        "alone",
        "bonded",
        "knocked_out",
        "hand_size_gte",
        "fear_cards_in_play_gte",
        "die_nearby",
        "other_visitor_nearby",
        "visitor_nearby",
        "other_light_source",
        "candle_lit",
        "pawn_on_board",
    }
)


# --------------------------------------------------------------------------- effects


class _Effect(_Model):
    """Fields every effect has: ``only_if`` conditions (all must hold, else it is skipped)."""

    only_if: tuple[Condition, ...] = ()


class Move(_Effect):
    """A movement action of ``points`` movement points (P-MOVE-01..02)."""

    op: Literal["move"] = "move"
    points: int = Field(ge=1)


class Investigate(_Effect):
    """Reveal one face-down clue token nearby self and resolve it (P-CLUE-02, A-54)."""

    op: Literal["investigate"] = "investigate"


class DrawClue(_Effect):
    """``who`` draws ``n`` clue cards, each from the deck or the revealed row (P-CLUE-03)."""

    op: Literal["draw_clue"] = "draw_clue"
    n: int = Field(default=1, ge=1)
    who: VisitorRef = "self"


class DrawItem(_Effect):
    """Search: ``who`` draws ``n`` item cards and keeps ``keep`` (None = all) (P-ITEM-01)."""

    op: Literal["draw_item"] = "draw_item"
    n: int = Field(default=1, ge=1)
    keep: int | None = Field(default=None, ge=0)
    who: VisitorRef = "self"


class DrawAction(_Effect):
    """``who`` draws ``n`` action cards from their own deck (P-VIS-13)."""

    op: Literal["draw_action"] = "draw_action"
    n: int = Field(default=1, ge=1)
    who: VisitorRef = "self"


class Discard(_Effect):
    """``who`` discards ``n`` cards of kind ``cards`` from hand, picking them (P-VIS-07)."""

    op: Literal["discard"] = "discard"
    n: int = Field(default=1, ge=1)
    cards: CardKind = "any"
    up_to: bool = False
    who: VisitorRef = "self"


class SufferFear(_Effect):
    """``who`` suffers ``n`` fear (P-FEAR-01..04)."""

    op: Literal["suffer_fear"] = "suffer_fear"
    n: int = Field(default=1, ge=1)
    who: VisitorRef = "self"


class CureFear(_Effect):
    """``who`` cures ``n`` fear (P-FEAR-07)."""

    op: Literal["cure_fear"] = "cure_fear"
    n: int = Field(default=1, ge=1)
    who: VisitorRef = "self"


class TrashFearCard(_Effect):
    """Trash ``n`` fear cards of ``who`` (``pooled``: n in total among all targets)."""

    op: Literal["trash_fear_card"] = "trash_fear_card"
    n: int = Field(default=1, ge=1)
    up_to: bool = False
    pooled: bool = False
    who: VisitorRef = "self"


class SmotherCandle(_Effect):
    """Flip ``who``'s candle to its dark side (P-LIGHT-03)."""

    op: Literal["smother_candle"] = "smother_candle"
    who: VisitorRef = "self"


class RelightCandle(_Effect):
    """Flip ``who``'s candle to its light side (P-LIGHT-05, G-23)."""

    op: Literal["relight_candle"] = "relight_candle"
    who: VisitorRef = "self"


class LightFireplace(_Effect):
    """Light the fireplace; only when it is in the origin room (P-LIGHT-04)."""

    op: Literal["light_fireplace"] = "light_fireplace"


class DoorEffect(_Effect):
    """One door nearby the origin: one of ``actions``, then optionally one of ``then_may``."""

    op: Literal["door"] = "door"
    actions: tuple[DoorAct, ...] = Field(min_length=1)
    then_may: tuple[DoorAct, ...] = ()


class RevealSecret(_Effect):
    """Pick an unrevealed secret; reveal it if ``min_matching`` matching cards lie beneath."""

    op: Literal["reveal_secret"] = "reveal_secret"
    min_matching: int = Field(default=1, ge=0)
    on_success: tuple[Effect, ...] = ()
    on_fail: tuple[Effect, ...] = ()


class RevealClueDeck(_Effect):
    """Reveal the top ``n`` clue cards into the revealed row (P-CLUE-06)."""

    op: Literal["reveal_clue_deck"] = "reveal_clue_deck"
    n: int = Field(default=1, ge=1)


class Inspect(_Effect):
    """Look at hidden components (P-TIME-09); the result is private to the owner."""

    op: Literal["inspect"] = "inspect"
    what: InspectWhat
    n: int = Field(default=1, ge=1)
    reorder: bool = False
    may_bottom: bool = False


class TakeFromCellar(_Effect):
    """Take ``n`` item cards of the owner's choice from the Cellar discard."""

    op: Literal["take_from_cellar"] = "take_from_cellar"
    n: int = Field(default=1, ge=1)


class TakeFromChamber(_Effect):
    """Look at the Secret Chamber cards and take ``n`` (a fear card is trashed, G-17)."""

    op: Literal["take_from_chamber"] = "take_from_chamber"
    n: int = Field(default=1, ge=1)


class GainMainActions(_Effect):
    """Gain ``n`` main actions (``per``: n for each fear card in play); P-VIS-03, P-MANI-03."""

    op: Literal["gain_main_actions"] = "gain_main_actions"
    n: int = Field(default=1, ge=1)
    per: Literal["fear_card_in_play"] | None = None


class AdjustTrack(_Effect):
    """Move the hope or nerve marker by ``delta`` (P-TRACK-02..05)."""

    op: Literal["adjust_track"] = "adjust_track"
    marker: Marker
    delta: int

    @field_validator("delta")
    @classmethod
    def _nonzero(cls, v: int) -> int:
        if v == 0:
            raise ValueError("adjust_track delta must not be 0")
        return v


class EndTurn(_Effect):
    """End the resolving visitor's turn after this action."""

    op: Literal["end_turn"] = "end_turn"


class ReturnBond(_Effect):
    """If ``who`` is bonded, the bonded marker returns to the spirit (A-39)."""

    op: Literal["return_bond"] = "return_bond"
    who: VisitorRef = "self"


class Uncover(_Effect):
    """Compare self's room with the set-aside card; open the passage on a match (G-17)."""

    op: Literal["uncover"] = "uncover"


class ReducePresence(_Effect):
    """Reduce a presence die by ``n``; 0 removes it (P-SPIRIT-06)."""

    op: Literal["reduce_presence"] = "reduce_presence"
    n: int = Field(default=1, ge=1)
    die: DieRef = "nearby"


class Prevent(_Effect):
    """Replacement: the pending ``*_would_*`` event does not happen."""

    op: Literal["prevent"] = "prevent"


class IncreasePresence(_Effect):
    """Increase a presence die by ``n`` (max 6); the spirit picks the die."""

    op: Literal["increase_presence"] = "increase_presence"
    n: int = Field(default=1, ge=1)
    die: Literal["this", "nearby"] = "this"


class MoveDie(_Effect):
    """Move a presence die (``from_adjacent``: into the origin) ``steps`` rooms (P-SPIRIT-07)."""

    op: Literal["move_die"] = "move_die"
    die: Literal["this", "nearby", "from_adjacent"] = "this"
    steps: int = Field(default=1, ge=1)
    up_to: bool = False
    light_penalty: bool = True


class AddDie(_Effect):
    """Add ``n`` supply dice (or all) to dark rooms of the spirit's choice at value 1."""

    op: Literal["add_die"] = "add_die"
    n: int | Literal["all"] = 1


class Bond(_Effect):
    """``who`` takes the bonded marker (P-BOND-01..02)."""

    op: Literal["bond"] = "bond"
    who: VisitorRef = "target"


class PlacePawn(_Effect):
    """The spirit pawn enters the origin room (P-MANI-01)."""

    op: Literal["place_pawn"] = "place_pawn"


class MovePawn(_Effect):
    """Move the spirit pawn ``steps`` rooms (die adjacency); entering light costs presence."""

    op: Literal["move_pawn"] = "move_pawn"
    steps: int = Field(default=1, ge=1)
    light_cost: int = Field(default=1, ge=0)


class SpiritSpeak(_Effect):
    """The spirit may post one message (P-DISCORD-08)."""

    op: Literal["spirit_speak"] = "spirit_speak"
    max_words: int = Field(ge=1)
    vocabulary: tuple[str, ...] = ()


class SpiritDraw(_Effect):
    """The spirit draws ``n`` spirit cards."""

    op: Literal["spirit_draw"] = "spirit_draw"
    n: int = Field(default=1, ge=1)


class Target(_Effect):
    """Pick the visitors the following ``who="target"`` effects affect (P-SPIRIT-13)."""

    op: Literal["target"] = "target"
    selector: Selector
    count: int | Literal["all"] = 1
    exclude_self: bool = False
    allow_knocked_out: bool = False
    candle_lit: bool | None = None
    """Only visitors whose candle is lit (True) or out (False); None: any."""


class Choice(_Effect):
    """``either`` (one of >= 2 branches) or ``may`` (one branch or nothing) (P-TIME-12)."""

    op: Literal["choice"] = "choice"
    kind: Literal["either", "may"]
    coloured: bool = False
    who: VisitorRef = "self"
    chooser: Literal["affected", "owner", "spirit"] = "affected"
    options: tuple[tuple[Effect, ...], ...] = Field(min_length=1)


class CustomEffect(_Effect):
    """A named effect implemented in Python (``register_custom_effect``); default pack: none."""

    op: Literal["custom"] = "custom"
    name: str = Field(min_length=1)
    params: dict[str, int | str | bool] = Field(default_factory=dict)


Effect = Annotated[
    Move
    | Investigate
    | DrawClue
    | DrawItem
    | DrawAction
    | Discard
    | SufferFear
    | CureFear
    | TrashFearCard
    | SmotherCandle
    | RelightCandle
    | LightFireplace
    | DoorEffect
    | RevealSecret
    | RevealClueDeck
    | Inspect
    | TakeFromCellar
    | TakeFromChamber
    | GainMainActions
    | AdjustTrack
    | EndTurn
    | ReturnBond
    | Uncover
    | ReducePresence
    | Prevent
    | IncreasePresence
    | MoveDie
    | AddDie
    | Bond
    | PlacePawn
    | MovePawn
    | SpiritSpeak
    | SpiritDraw
    | Target
    | Choice
    | CustomEffect,
    Field(discriminator="op"),
]

RevealSecret.model_rebuild()
Choice.model_rebuild()

EFFECT_OPS: frozenset[str] = frozenset(
    {
        "move",
        "investigate",
        "draw_clue",
        "draw_item",
        "draw_action",
        "discard",
        "suffer_fear",
        "cure_fear",
        "trash_fear_card",
        "smother_candle",
        "relight_candle",
        "light_fireplace",
        "door",
        "reveal_secret",
        "reveal_clue_deck",
        "inspect",
        "take_from_cellar",
        "take_from_chamber",
        "gain_main_actions",
        "adjust_track",
        "end_turn",
        "return_bond",
        "uncover",
        "reduce_presence",
        "prevent",
        "increase_presence",
        "move_die",
        "add_die",
        "bond",
        "place_pawn",
        "move_pawn",
        "spirit_speak",
        "spirit_draw",
        "target",
        "choice",
        "custom",
    }
)
# Ops that only make sense in a spirit-owned context (the spirit is the owner).
SPIRIT_ONLY_OPS: frozenset[str] = frozenset(
    {"place_pawn", "move_pawn", "spirit_speak", "spirit_draw", "add_die"}
)
# Ops that need a visitor "self" (visitor-owned contexts only).
VISITOR_ONLY_OPS: frozenset[str] = frozenset(
    {
        "move",
        "investigate",
        "light_fireplace",
        "inspect",
        "take_from_cellar",
        "take_from_chamber",
        "end_turn",
        "uncover",
    }
)


# --------------------------------------------------------------------------- structure


class Trigger(_Model):
    """When a reaction fires; relative to its holder (or to the drain room)."""

    event: TriggerEvent
    by: Literal["any", "spirit", "other"] = "any"
    floor: int | None = None
    only_if: tuple[Condition, ...] = ()


class Reaction(_Model):
    """A reaction (P-VIS-12): mandatory unless ``optional`` (A-22)."""

    trigger: Trigger
    effects: tuple[Effect, ...] = Field(min_length=1)
    discard_this: bool = False
    optional: bool = False
    once_per_turn: bool = False


class DarkBanner(_Model):
    """The dark banner of an action: applied only if the actor's room is dark (P-VIS-09)."""

    mode: Literal["add", "replace"] = "add"
    effects: tuple[Effect, ...] = Field(min_length=1)


class Action(_Model):
    """One visitor action (card half, item, room, ability): main or quick (P-VIS-06)."""

    name: str = Field(min_length=1)
    speed: Speed = "main"
    effects: tuple[Effect, ...] = Field(min_length=1)
    dark: DarkBanner | None = None
    requires: tuple[Condition, ...] = ()
    once_per_turn: bool = False
    text: str = ""


class WalkPoints(_Model):
    """The Walk basic action gives ``n`` movement points instead of 1 (G-10)."""

    kind: Literal["walk_points"] = "walk_points"
    n: int = Field(ge=1)


class CustomModifier(_Model):
    """A standing rule implemented in Python (registered like a custom effect)."""

    kind: Literal["custom"] = "custom"
    name: str = Field(min_length=1)
    params: dict[str, int | str | bool] = Field(default_factory=dict)


Modifier = Annotated[WalkPoints | CustomModifier, Field(discriminator="kind")]
MODIFIER_KINDS: frozenset[str] = frozenset({"walk_points", "custom"})


# --------------------------------------------------------------------------- win tests


class VisitorsWin(_Model):
    """The visitors win this win check (a good spirit's goal)."""

    test: Literal["visitors_win"] = "visitors_win"


class SuccumbedGte(_Model):
    """At least ``n`` visitor characters have succumbed."""

    test: Literal["succumbed_gte"] = "succumbed_gte"
    n: int = Field(ge=1)


class KnockedOutGte(_Model):
    """At least ``n`` visitor characters are knocked out now."""

    test: Literal["knocked_out_gte"] = "knocked_out_gte"
    n: int = Field(ge=1)


class BondedSuccumbed(_Model):
    """The character that was bonded when it succumbed (A-39) exists."""

    test: Literal["bonded_succumbed"] = "bonded_succumbed"


class PawnInRoom(_Model):
    """The spirit pawn is in ``room``."""

    test: Literal["pawn_in_room"] = "pawn_in_room"
    room: str = Field(min_length=1)


class PawnNotOnBoard(_Model):
    """The spirit pawn is not on the board."""

    test: Literal["pawn_not_on_board"] = "pawn_not_on_board"


class SurvivingInLight(_Model):
    """Every surviving visitor stands in a light room."""

    test: Literal["surviving_in_light"] = "surviving_in_light"


class NoDieWithSurvivingVisitor(_Model):
    """No presence die shares a room with a surviving visitor."""

    test: Literal["no_die_with_surviving_visitor"] = "no_die_with_surviving_visitor"


class FearCardsEachLte(_Model):
    """Every surviving visitor has at most ``n`` fear cards in front of them."""

    test: Literal["fear_cards_each_lte"] = "fear_cards_each_lte"
    n: int = Field(ge=0)


class DiceOnBoardLte(_Model):
    """At most ``n`` presence dice are on the board."""

    test: Literal["dice_on_board_lte"] = "dice_on_board_lte"
    n: int = Field(ge=0)


class NoDieInRoom(_Model):
    """No presence die is in ``room``."""

    test: Literal["no_die_in_room"] = "no_die_in_room"
    room: str = Field(min_length=1)


class SurvivingVisitorInRoom(_Model):
    """At least one surviving visitor stands in ``room``."""

    test: Literal["surviving_visitor_in_room"] = "surviving_visitor_in_room"
    room: str = Field(min_length=1)


WinTest = Annotated[
    VisitorsWin
    | SuccumbedGte
    | KnockedOutGte
    | BondedSuccumbed
    | PawnInRoom
    | PawnNotOnBoard
    | SurvivingInLight
    | NoDieWithSurvivingVisitor
    | FearCardsEachLte
    | DiceOnBoardLte
    | NoDieInRoom
    | SurvivingVisitorInRoom,
    Field(discriminator="test"),
]
WIN_TESTS: frozenset[str] = frozenset(
    {
        "visitors_win",
        "succumbed_gte",
        "knocked_out_gte",
        "bonded_succumbed",
        "pawn_in_room",
        "pawn_not_on_board",
        "surviving_in_light",
        "no_die_with_surviving_visitor",
        "fear_cards_each_lte",
        "dice_on_board_lte",
        "no_die_in_room",
        "surviving_visitor_in_room",
    }
)


# --------------------------------------------------------------------------- visitors


class VisitorCharacter(_Model):
    """A visitor character board (P-COMP-07, G-10)."""

    id: str = Field(min_length=1)
    name: str = Field(min_length=1)
    pronoun: Literal["he", "she", "they"] = "they"
    colour: str = ""
    fear_track: int = Field(default=5, ge=1)
    modifiers: tuple[Modifier, ...] = ()
    abilities: tuple[Action, ...] = ()
    reactions: tuple[Reaction, ...] = ()
    text: str = ""

    @property
    def walk_points(self) -> int:
        """Movement points of this character's Walk (P-BASIC-03, default 1)."""
        for m in self.modifiers:
            if isinstance(m, WalkPoints):
                return m.n
        return 1


class ActionCard(_Model):
    """A visitor action card: two actions, play one (P-VIS-06, G-09)."""

    id: str = Field(min_length=1)
    name: str = Field(min_length=1)
    owner: str = Field(min_length=1)
    actions: tuple[Action, ...] = Field(min_length=2, max_length=2)
    text: str = ""


class ClueCard(_Model):
    """A clue card: trauma + room + player-count mark + two actions (P-COMP-09, G-06)."""

    id: str = Field(min_length=1)
    name: str = Field(min_length=1)
    trauma: Trauma
    room: str = Field(min_length=1)
    mark: Players = 3
    special: bool = False
    actions: tuple[Action, ...] = Field(min_length=2, max_length=2)
    text: str = ""


class FearCard(_Model):
    """A fear card: one reaction that makes its holder suffer fear (P-FEAR-06, G-07)."""

    id: str = Field(min_length=1)
    name: str = Field(min_length=1)
    reaction: Reaction
    text: str = ""


class ItemCard(_Model):
    """An item card (P-ITEM, G-08); ``copies`` identical cards share one entry."""

    id: str = Field(min_length=1)
    name: str = Field(min_length=1)
    copies: int = Field(default=1, ge=1)
    special: bool = False
    action: Action | None = None
    reaction: Reaction | None = None
    text: str = ""


# --------------------------------------------------------------------------- spirit


class SpiritCharacter(_Model):
    """A spirit character board (P-COMP-08, G-11)."""

    id: str = Field(min_length=1)
    name: str = Field(min_length=1)
    number: int = Field(ge=1)
    first_game: bool = False
    text: str = ""


class SpiritPower(_Model):
    """One power of a spirit card (P-SPIRIT-11..18, P-DRAIN, P-MANI, G-12)."""

    requirement: int = Field(ge=0, le=6)
    spend: int = Field(default=0, ge=0, le=6)
    drain: int = Field(default=0, ge=0)
    hindered_by_light: bool = False
    manifestation: bool = False
    effects: tuple[Effect, ...] = ()
    ongoing: tuple[Reaction, ...] = ()
    text: str = ""


class SpiritCard(_Model):
    """A spirit card: top and bottom power (P-SPIRIT-11)."""

    id: str = Field(min_length=1)
    name: str = Field(min_length=1)
    spirit: str = Field(min_length=1)
    marks: tuple[str, ...] = ()
    top: SpiritPower
    bottom: SpiritPower
    text: str = ""

    def powers(self) -> tuple[SpiritPower, SpiritPower]:
        return (self.top, self.bottom)


class SecretTiers(_Model):
    """The three reveal effects of a secret card (P-SECRET-03..04, G-05)."""

    low: tuple[Effect, ...] = Field(min_length=1)
    middle: tuple[Effect, ...] = Field(min_length=1)
    high: tuple[Effect, ...] = Field(min_length=1)


class SecretCard(_Model):
    """A secret card: one trauma, a set (general "A" or a spirit id), tier effects."""

    id: str = Field(min_length=1)
    name: str = Field(min_length=1)
    trauma: Trauma
    set: str = Field(min_length=1)
    marks: tuple[str, ...] = ()
    tiers: SecretTiers
    text: str = ""


class SecretPosition(_Model):
    """Printed under one secret position: setup removal and the "in deck" count (G-04)."""

    remove: int = Field(ge=0)
    in_deck: int = Field(ge=0)
    low_max: int | None = Field(default=None, ge=0)
    """This position's own low tier when it is not the board's (A-66): at 3 players the
    rarest position prints 2 matching cards, and one is enough for the middle tier there."""


class SecretBoard(_Model):
    """The secret board for ``players`` (P-COMP-16, G-04)."""

    players: Players
    positions: tuple[SecretPosition, ...] = Field(min_length=4, max_length=4)
    low_max: int = Field(ge=0)
    high_min: int = Field(ge=1)

    def tier(self, matching: int, position: int | None = None) -> Literal["low", "middle", "high"]:
        """Which tier effect a reveal with ``matching`` matching clue cards beneath the secret
        at ``position`` (1-4) resolves; without a position, the board's own tiers."""
        if matching <= self.low_max_at(position):
            return "low"
        if matching >= self.high_min:
            return "high"
        return "middle"

    def low_max_at(self, position: int | None) -> int:
        """The most matching cards that still reveal the secret at ``position`` (1-4) at the
        low tier: the position's own (A-66) where it prints one, else the board's."""
        if position is None:
            return self.low_max
        own = self.positions[position - 1].low_max
        return self.low_max if own is None else own


class ScriptHalf(_Model):
    """One section of a spirit script (P-SCRIPT-01, P-WIN-02/04).

    ``spirit_wins_if``: any one test is enough (empty = the spirit cannot win);
    ``visitors_also_need``: every test must hold for the visitors to win (bottom only).
    """

    spirit_wins_if: tuple[WinTest, ...] = ()
    visitors_also_need: tuple[WinTest, ...] = ()
    text: str = ""


class Script(_Model):
    """A spirit script with its display twin (P-SCRIPT, G-16)."""

    id: str = Field(min_length=1)
    name: str = Field(min_length=1)
    type: Marker
    alignment: Literal["good", "evil"]
    set: str = Field(min_length=1)
    needs_chamber: bool = False
    top: ScriptHalf
    reveal: tuple[Effect, ...] = ()
    bottom: ScriptHalf
    text: str = ""


class SpiritClue(_Model):
    """A spirit clue token kind (P-CLUE-01, G-14); ``spirit=None`` = general."""

    id: str = Field(min_length=1)
    name: str = Field(min_length=1)
    spirit: str | None = None
    copies: int = Field(default=1, ge=1)
    unlock: str | None = None
    effects: tuple[Effect, ...] = Field(min_length=1)
    text: str = ""


class SmallClue(_Model):
    """A small clue token kind (P-SETUP-14, G-15)."""

    id: str = Field(min_length=1)
    name: str = Field(min_length=1)
    copies: int = Field(default=1, ge=1)
    effects: tuple[Effect, ...] = Field(min_length=1)
    text: str = ""


class ManifestAction(_Model):
    """One action of the manifested spirit pawn (G-13); ``cost`` presence from a die there."""

    id: str = Field(min_length=1)
    name: str = Field(min_length=1)
    cost: int = Field(default=0, ge=0)
    effects: tuple[Effect, ...] = Field(min_length=1)
    text: str = ""


class Manifestation(_Model):
    """The manifestation spirit aid (P-MANI-02..04, G-13)."""

    actions_per_turn: int = Field(default=3, ge=0)
    drain: int = Field(default=1, ge=0)
    actions: tuple[ManifestAction, ...] = Field(min_length=1)


# --------------------------------------------------------------------------- track


class TrackSide(_Model):
    """Printed starting spaces of hope and nerve on one side (G-03)."""

    hope: int = Field(ge=1)
    nerve: int = Field(ge=1)


class HopeTrack(_Model):
    """The Hope Track (P-COMP-11, P-TRACK, G-03)."""

    spaces: int = Field(default=12, ge=2)
    time_start: int = Field(default=1, ge=1)
    even_rounds: tuple[int, ...] = (2, 4, 6, 8)
    final_round: int = Field(default=9, ge=1)
    sides: dict[Side, TrackSide]


# --------------------------------------------------------------------------- manor


class Floor(_Model):
    """A floor of the manor; ``level`` 0 = ground, -1 basement, +1 upper."""

    level: int
    name: str = Field(min_length=1)


class Board(_Model):
    """A main board (P-SETUP-03): used when N >= ``min_players``."""

    id: str = Field(min_length=1)
    name: str = Field(min_length=1)
    min_players: Players = 3
    floor: int = 0


class Room(_Model):
    """A room: its board, floor, grid position and room actions per side (G-01, G-02, G-18)."""

    id: str = Field(min_length=1)
    name: str = Field(min_length=1)
    board: str = Field(min_length=1)
    floor: int
    x: int = 0
    y: int = 0
    clue_room: bool = True
    chamber: bool = False
    actions_a: tuple[Action, ...] = ()
    actions_b: tuple[Action, ...] = ()
    text: str = ""

    def actions(self, side: Side) -> tuple[Action, ...]:
        return self.actions_a if side == "A" else self.actions_b


class Door(_Model):
    """A door marker between two rooms (P-COMP-12, P-MOVE); ``stairs`` joins floors."""

    id: str = Field(min_length=1)
    rooms: tuple[str, str]
    stairs: bool = False
    open: bool = False
    locked: bool = False


class Chamber(_Model):
    """The Secret Chamber (P-CHAMBER, G-17): its room, passage id and the Uncover action."""

    room: str = Field(min_length=1)
    passage_id: str = Field(default="passage", min_length=1)
    uncover: Action


class Manor(_Model):
    """The map (G-01): floors, boards, rooms, die adjacency, doors and named rooms."""

    floors: tuple[Floor, ...] = Field(min_length=1)
    boards: tuple[Board, ...] = Field(min_length=1)
    rooms: tuple[Room, ...] = Field(min_length=1)
    walls: tuple[tuple[str, str], ...] = ()
    vertical: tuple[tuple[str, str], ...] = ()
    doors: tuple[Door, ...] = ()
    max_doors: int = Field(default=14, ge=0)
    start_room: str = Field(min_length=1)
    fireplace_room: str = Field(min_length=1)
    cellar_room: str = Field(min_length=1)
    item_discard_room: str = Field(min_length=1)
    chamber: Chamber | None = None


# --------------------------------------------------------------------------- presets


class ScriptPreset(_Model):
    """A script deck setup (P-SESSION-03)."""

    id: str = Field(min_length=1)
    name: str = Field(min_length=1)
    hope: int = Field(ge=0)
    nerve: int = Field(ge=0)
    symbols: int = Field(ge=0)


class FearPreset(_Model):
    """Fear cards per visitor (P-SESSION-04)."""

    id: str = Field(min_length=1)
    name: str = Field(min_length=1)
    per_visitor: int = Field(ge=0)
    symbols: int = Field(ge=0)


class BoardSymbols(_Model):
    """Difficulty symbols of the board sides (P-SESSION-05, G-19)."""

    hope_track_a: int = 0
    hope_track_b: int = 1
    main_a: int = 1
    main_b: int = 2


class DifficultyLabel(_Model):
    """A label of the difficulty scale for totals >= ``min_symbols`` (P-SESSION-06, G-19)."""

    name: str = Field(min_length=1)
    min_symbols: int = Field(ge=0)


class FirstGame(_Model):
    """The first-game / introductory preset (P-FIRST)."""

    spirit: str = Field(min_length=1)
    scripts: tuple[str, ...] = Field(min_length=1)
    secret_set: str = "A"
    spirit_card_mark: str = "A"
    spirit_cards: int = Field(default=10, ge=1)
    fear_per_visitor: int = Field(default=1, ge=0)
    hope_track_side: Side = "A"
    open_communication: bool = True


class Unlock(_Model):
    """A named group of content ids unlocked together (P-SESSION-02, G-22)."""

    id: str = Field(min_length=1)
    name: str = Field(min_length=1)
    scripts: tuple[str, ...] = ()
    spirit_clues: tuple[str, ...] = ()
    secret_sets: tuple[str, ...] = ()
    spirits: tuple[str, ...] = ()


class HorrorLine(_Model):
    """An atmospheric line the spirit may have the bot post in True Horror (P-HORROR-02):
    immersion only, never information."""

    id: str = Field(min_length=1)
    text: str = Field(min_length=1, max_length=90)


class Presets(_Model):
    """``presets.toml``: script/fear presets, board symbols, difficulty, first game, unlocks,
    True Horror's atmospheric lines."""

    script_presets: tuple[ScriptPreset, ...] = Field(min_length=1)
    fear_presets: tuple[FearPreset, ...] = Field(min_length=1)
    board_symbols: BoardSymbols = BoardSymbols()
    difficulty: tuple[DifficultyLabel, ...] = Field(min_length=1)
    first_game: FirstGame
    unlocks: tuple[Unlock, ...] = ()
    horror_lines: tuple[HorrorLine, ...] = ()

    def horror_lines_by_id(self) -> list[tuple[str, str]]:
        return [(ln.id, ln.text) for ln in self.horror_lines]

    def difficulty_of(self, scripts: str, fear: str, hope_track: str, main: str) -> tuple[
            int, str]:
        """P-SESSION-06 / G-19: the combined fear symbols of a setup and their label."""
        total = (next(p.symbols for p in self.script_presets if p.id == scripts)
                 + next(p.symbols for p in self.fear_presets if p.id == fear)
                 + (self.board_symbols.hope_track_a if hope_track == "A"
                    else self.board_symbols.hope_track_b)
                 + (self.board_symbols.main_b if main == "B" else self.board_symbols.main_a))
        return total, self.difficulty_label(total)

    def difficulty_label(self, symbols: int) -> str:
        """The label for a total of ``symbols`` (the highest threshold reached)."""
        best = self.difficulty[0]
        for label in self.difficulty:
            if symbols >= label.min_symbols and label.min_symbols >= best.min_symbols:
                best = label
        return best.name


# --------------------------------------------------------------------------- pack


class PackOptions(_Model):
    """The printed numbers of the rulebook (Part 0.1) and the rulings with a switch."""

    main_actions: int = Field(default=3, ge=1)  # P-VIS-01
    two_player_main_actions: int = Field(default=5, ge=1)  # P-2P-02
    hand_size: int = Field(default=5, ge=1)  # P-LIMIT-01
    two_player_hand_size: int = Field(default=7, ge=1)  # P-2P-03
    item_limit: int = Field(default=2, ge=1)  # P-ITEM-05
    max_presence: int = Field(default=6, ge=1)  # P-COMP-10
    presence_dice: int = Field(default=5, ge=3)  # P-COMP-01
    drain_markers: int = Field(default=6, ge=0)  # P-COMP-15
    candles: int = Field(default=4, ge=1)  # P-COMP-07
    special_items_per_deck: int = Field(default=4, ge=0)  # P-SETUP-18
    # Item deck totals and clue-card counts per N (P-SETUP-18, P-SETUP-22).
    item_deck: dict[int, int] = Field(default_factory=lambda: {3: 12, 4: 16, 5: 20})
    clue_deck_clues: dict[int, int] = Field(default_factory=lambda: {3: 14, 4: 20, 5: 26})
    quick_action_cap: int = Field(default=20, ge=1)  # A-48
    # Rulings with a switch (Part 4).
    doors_start_open: bool = False  # A-10
    fear_bonus: Literal["per_point", "per_event"] = "per_point"  # A-14
    ko_companions_count: bool = False  # A-24
    upkeep_order: Literal["numbered", "overview"] = "numbered"  # A-12
    revealed_fear_cards_count: bool = False  # A-38


_DIE_NEIGHBOURS: dict[tuple[int, str, int], tuple[Pack, tuple[str, ...]]] = {}
"""`Pack.die_neighbours` by (pack, room, players), the pack kept to tell a reused id apart:
a pack is frozen, and the spirit's moves and the AI ask for the same few thousand times a
search."""


class Pack(_Model):
    """A whole content pack. Build it with :func:`load_pack`, which also validates it."""

    name: str = Field(min_length=1)
    version: str = Field(min_length=1)
    description: str = ""
    options: PackOptions = PackOptions()
    presets: Presets
    manor: Manor
    hope_track: HopeTrack
    secret_boards: tuple[SecretBoard, ...]
    secrets: tuple[SecretCard, ...]
    clue_cards: tuple[ClueCard, ...]
    fear_cards: tuple[FearCard, ...]
    items: tuple[ItemCard, ...]
    visitors: tuple[VisitorCharacter, ...]
    action_cards: tuple[ActionCard, ...]
    spirits: tuple[SpiritCharacter, ...]
    spirit_cards: tuple[SpiritCard, ...]
    spirit_clues: tuple[SpiritClue, ...]
    small_clues: tuple[SmallClue, ...]
    scripts: tuple[Script, ...]
    manifestation: Manifestation

    _index: dict[str, dict[str, Any]] = PrivateAttr(default_factory=dict)
    _board_min: dict[str, int] = PrivateAttr(default_factory=dict)

    def model_post_init(self, context: Any, /) -> None:
        # Lookup tables; duplicates are reported by validate_pack, the first one wins here.
        groups: dict[str, Iterable[Any]] = {
            "room": self.manor.rooms,
            "door": self.manor.doors,
            "board": self.manor.boards,
            "secret": self.secrets,
            "clue_card": self.clue_cards,
            "fear_card": self.fear_cards,
            "item": self.items,
            "visitor": self.visitors,
            "action_card": self.action_cards,
            "spirit": self.spirits,
            "spirit_card": self.spirit_cards,
            "spirit_clue": self.spirit_clues,
            "small_clue": self.small_clues,
            "script": self.scripts,
            "manifest_action": self.manifestation.actions,
        }
        for group, entries in groups.items():
            table: dict[str, Any] = {}
            for entry in entries:
                table.setdefault(entry.id, entry)
            self._index[group] = table
        self._board_min = {b.id: b.min_players for b in self.manor.boards}

    # ---- lookups (KeyError for an unknown id: ids come from the pack itself)

    def room(self, room_id: str) -> Room:
        return private(self, "_index")["room"][room_id]  # type: ignore[no-any-return]

    def door(self, door_id: str) -> Door:
        return private(self, "_index")["door"][door_id]  # type: ignore[no-any-return]

    def secret(self, secret_id: str) -> SecretCard:
        return private(self, "_index")["secret"][secret_id]  # type: ignore[no-any-return]

    def clue_card(self, card_id: str) -> ClueCard:
        return private(self, "_index")["clue_card"][card_id]  # type: ignore[no-any-return]

    def fear_card(self, card_id: str) -> FearCard:
        return private(self, "_index")["fear_card"][card_id]  # type: ignore[no-any-return]

    def is_fear_card(self, card_id: str) -> bool:
        return card_id in private(self, "_index")["fear_card"]

    def item(self, item_id: str) -> ItemCard:
        return private(self, "_index")["item"][item_id]  # type: ignore[no-any-return]

    def item_of(self, instance_id: str) -> ItemCard:
        """The item definition of an instance id ``"<id>#<k>"`` (or of a plain id)."""
        return self.item(instance_id.split("#", 1)[0])

    def visitor(self, visitor_id: str) -> VisitorCharacter:
        return private(self, "_index")["visitor"][visitor_id]  # type: ignore[no-any-return]

    def action_card(self, card_id: str) -> ActionCard:
        return private(self, "_index")["action_card"][card_id]  # type: ignore[no-any-return]

    def is_action_card(self, card_id: str) -> bool:
        """Whether `card_id` is an action card (else a clue card): the AI asks this hundreds
        of thousands of times a search, where a lookup that raises costs several times more."""
        return card_id in private(self, "_index")["action_card"]

    def spirit(self, spirit_id: str) -> SpiritCharacter:
        return private(self, "_index")["spirit"][spirit_id]  # type: ignore[no-any-return]

    def spirit_card(self, card_id: str) -> SpiritCard:
        return private(self, "_index")["spirit_card"][card_id]  # type: ignore[no-any-return]

    def spirit_clue(self, clue_id: str) -> SpiritClue:
        return private(self, "_index")["spirit_clue"][clue_id]  # type: ignore[no-any-return]

    def spirit_clue_of(self, instance_id: str) -> SpiritClue:
        return self.spirit_clue(instance_id.split("#", 1)[0])

    def small_clue(self, clue_id: str) -> SmallClue:
        return private(self, "_index")["small_clue"][clue_id]  # type: ignore[no-any-return]

    def small_clue_of(self, instance_id: str) -> SmallClue:
        return self.small_clue(instance_id.split("#", 1)[0])

    def script(self, script_id: str) -> Script:
        return private(self, "_index")["script"][script_id]  # type: ignore[no-any-return]

    def manifest_action(self, action_id: str) -> ManifestAction:
        return private(self, "_index")["manifest_action"][action_id]  # type: ignore[no-any-return]

    def secret_board(self, players: int) -> SecretBoard:
        """The secret board for N = ``players`` (2-player games pass 3, P-2P-01)."""
        for board in self.secret_boards:
            if board.players == players:
                return board
        raise KeyError(players)

    # ---- map helpers (P-SETUP-03, P-MOVE, P-SPIRIT-07)

    def room_min_players(self, room_id: str) -> int:
        """The smallest N whose boards include ``room_id``."""
        return self._board_min.get(self.room(room_id).board, 99)

    def rooms_in_play(self, players: int, chamber: bool = False) -> list[str]:
        """Room ids on the boards in play for N = ``players`` (the chamber only if used)."""
        return [
            r.id
            for r in self.manor.rooms
            if self._board_min.get(r.board, 99) <= players and (chamber or not r.chamber)
        ]

    def clue_rooms_in_play(self, players: int) -> list[str]:
        """Rooms that get a spirit clue or small clue at setup (P-SETUP-26..27, A-11)."""
        return [
            rid
            for rid in self.rooms_in_play(players)
            if self.room(rid).clue_room and rid != self.manor.start_room
        ]

    def doors_in_play(self, players: int) -> list[Door]:
        """Doors whose both rooms are in play (P-SETUP-05)."""
        rooms = set(self.rooms_in_play(players))
        return [d for d in self.manor.doors if d.rooms[0] in rooms and d.rooms[1] in rooms]

    def die_neighbours(self, room_id: str, players: int) -> list[str]:
        """Rooms a presence die may move to from ``room_id`` (walls + vertical, P-SPIRIT-07).

        The Secret Chamber has no printed neighbours; the engine adds the passage room.
        """
        key = (id(self), room_id, players)
        hit = _DIE_NEIGHBOURS.get(key)
        if hit is not None and hit[0] is self:
            return list(hit[1])
        rooms = set(self.rooms_in_play(players))
        out: list[str] = []
        for a, b in (*self.manor.walls, *self.manor.vertical):
            if a == room_id and b in rooms:
                out.append(b)
            elif b == room_id and a in rooms:
                out.append(a)
        _DIE_NEIGHBOURS[key] = (self, tuple(out))
        return out

    def clue_cards_for(self, players: int) -> list[ClueCard]:
        """Clue cards eligible at N = ``players`` (mark <= N, P-COMP-06)."""
        return [c for c in self.clue_cards if c.mark <= players]

    # ---- decks

    def special_item_ids(self) -> list[str]:
        """Instance ids of the items that are always in the deck (P-SETUP-18)."""
        return [i for i in self.item_instances() if self.item_of(i).special]

    def random_item_ids(self) -> list[str]:
        """Instance ids of the items the random part of the deck is drawn from."""
        return [i for i in self.item_instances() if not self.item_of(i).special]

    def item_instances(self) -> list[str]:
        """One id per physical item card, ``"<id>#<k>"``, file order."""
        return [f"{it.id}#{k}" for it in self.items for k in range(1, it.copies + 1)]

    def spirit_clue_instances(self, ids: Iterable[str] | None = None) -> list[str]:
        """One id per physical spirit clue (restricted to the definitions ``ids``)."""
        wanted = None if ids is None else set(ids)
        return [
            f"{c.id}#{k}"
            for c in self.spirit_clues
            if wanted is None or c.id in wanted
            for k in range(1, c.copies + 1)
        ]

    def small_clue_instances(self) -> list[str]:
        return [f"{c.id}#{k}" for c in self.small_clues for k in range(1, c.copies + 1)]

    def action_deck(self, visitor_id: str) -> list[str]:
        """The 10 action card ids of one visitor (P-SETUP-17)."""
        return [c.id for c in self.action_cards if c.owner == visitor_id]

    def spirit_deck(self, spirit_id: str, mark: str | None = None) -> list[str]:
        """The spirit cards of one spirit; ``mark="A"`` = the first-game deck (P-FIRST-05)."""
        return [
            c.id
            for c in self.spirit_cards
            if c.spirit == spirit_id and (mark is None or mark in c.marks)
        ]

    def spirit_secrets(self, set_id: str) -> list[str]:
        """The 4 secret card ids of a set ("A" or a spirit id) (P-SETUP-10)."""
        return [s.id for s in self.secrets if s.set == set_id]

    def general_spirit_clues(self, unlocked: Collection[str] | None = None) -> list[str]:
        """General spirit clue ids; with ``unlocked`` given, locked ones must be listed there."""
        return [
            c.id
            for c in self.spirit_clues
            if c.spirit is None and (c.unlock is None or unlocked is None or c.id in unlocked)
        ]

    def spirit_clue_bag(self, spirit_id: str, unlocked: Collection[str] | None = None) -> list[str]:
        """Instance ids for the bag: general (unlocked) + the spirit's own five (P-SETUP-13)."""
        ids = self.general_spirit_clues(unlocked) + [
            c.id for c in self.spirit_clues if c.spirit == spirit_id
        ]
        return self.spirit_clue_instances(ids)

    def scripts_of(self, kind: str, chamber: bool = True) -> list[str]:
        """Script ids of type ``kind`` ("hope"/"nerve"); without the chamber, those not
        needing it (G-16)."""
        return [s.id for s in self.scripts if s.type == kind and (chamber or not s.needs_chamber)]


# --------------------------------------------------------------------------- findings


_CUSTOM_EFFECTS = CustomEffects()
register_custom_effect = _CUSTOM_EFFECTS.register
registered_custom_effects = _CUSTOM_EFFECTS.names


# --------------------------------------------------------------------------- loading

# file name -> (top-level key holding the list, or None for a single table; the rule id
# for a missing file or schema errors in it: the component rule whose fields it carries).
PACK_FILES: dict[str, tuple[str | None, str]] = {
    "pack.toml": (None, "P-COMP-01"),
    "presets.toml": (None, "P-SESSION-03"),
    "manor.toml": (None, "G-01"),
    "hope_track.toml": (None, "G-03"),
    "secret_boards.toml": ("board", "G-04"),
    "secrets.toml": ("secret", "G-05"),
    "clue_cards.toml": ("clue", "G-06"),
    "fear_cards.toml": ("fear", "G-07"),
    "items.toml": ("item", "G-08"),
    "action_cards.toml": ("card", "G-09"),
    "visitors.toml": ("visitor", "G-10"),
    "spirits.toml": ("spirit", "G-11"),
    "spirit_cards.toml": ("card", "G-12"),
    "manifestation.toml": (None, "G-13"),
    "spirit_clues.toml": ("clue", "G-14"),
    "small_clues.toml": ("clue", "G-15"),
    "scripts.toml": ("script", "G-16"),
}

# Which Pack field each file fills, and the model of one entry (or of the whole table).
_PACK_FIELD: dict[str, tuple[str, Any]] = {
    "presets.toml": ("presets", Presets),
    "manor.toml": ("manor", Manor),
    "hope_track.toml": ("hope_track", HopeTrack),
    "secret_boards.toml": ("secret_boards", SecretBoard),
    "secrets.toml": ("secrets", SecretCard),
    "clue_cards.toml": ("clue_cards", ClueCard),
    "fear_cards.toml": ("fear_cards", FearCard),
    "items.toml": ("items", ItemCard),
    "action_cards.toml": ("action_cards", ActionCard),
    "visitors.toml": ("visitors", VisitorCharacter),
    "spirits.toml": ("spirits", SpiritCharacter),
    "spirit_cards.toml": ("spirit_cards", SpiritCard),
    "manifestation.toml": ("manifestation", Manifestation),
    "spirit_clues.toml": ("spirit_clues", SpiritClue),
    "small_clues.toml": ("small_clues", SmallClue),
    "scripts.toml": ("scripts", Script),
}


class _PackHeader(_Model):
    name: str = Field(min_length=1)
    version: str = Field(min_length=1)
    description: str = ""
    options: PackOptions = PackOptions()


def _loc_rule(default_rule: str, loc: tuple[int | str, ...], err_type: str = "") -> str:
    """A more precise rule id for a few well-known fields, else the file's rule."""
    if err_type in ("union_tag_invalid", "union_tag_not_found"):
        # An effect op / condition test / win test outside the vocabulary (spec §3.1).
        return "P-TIME-01"
    names = {p for p in loc if isinstance(p, str)}
    if "trauma" in names:
        return "P-COMP-09"
    if "requirement" in names or "spend" in names:
        return "P-SPIRIT-11"
    if "op" in names or "only_if" in names:
        return "P-TIME-01"
    return default_rule


def _schema_findings(
    file: str, rule: str, items: Any, key: str | None, exc: ValidationError
) -> list[Finding]:
    return schema_findings(file, rule, items, key, exc, rule_for=_loc_rule)


def _target(file: str) -> tuple[str, Any] | None:
    return None if file == "pack.toml" else _PACK_FIELD[file]


def _read_pack(path: Path) -> tuple[Pack | None, list[Finding]]:
    """Parse every file; return the Pack (None if anything failed) and the parse findings."""
    header, parts, findings = read_toml_pack(
        path, folder_rule="P-COMP-01", files=PACK_FILES, target=_target,
        header_model=_PackHeader, findings_for=_schema_findings,
    )
    if header is None:
        return None, findings
    try:
        pack = Pack(
            name=header.name,
            version=header.version,
            description=header.description,
            options=header.options,
            **parts,
        )
    except ValidationError as exc:  # pragma: no cover - every part was validated above
        return None, _schema_findings("pack.toml", "P-COMP-01", None, None, exc)
    return pack, findings


def pack_json_schema() -> Mapping[str, Any]:
    """JSON Schema of a whole pack, for editors of printed packs."""
    return Pack.model_json_schema()


# --------------------------------------------------------------------------- walking


def _nested(effects: Iterable[Any], slot: str) -> Iterator[tuple[str, Any]]:
    """Every effect in ``effects`` and inside choices / reveal branches, with its slot path."""
    for i, eff in enumerate(effects):
        here = f"{slot}[{i}]"
        yield here, eff
        if isinstance(eff, Choice):
            for b, branch in enumerate(eff.options):
                yield from _nested(branch, f"{here}.options[{b}]")
        elif isinstance(eff, RevealSecret):
            yield from _nested(eff.on_success, f"{here}.on_success")
            yield from _nested(eff.on_fail, f"{here}.on_fail")


def _action_effects(action: Action, slot: str) -> Iterator[tuple[str, Any]]:
    yield from _nested(action.effects, f"{slot}.effects")
    if action.dark is not None:
        yield from _nested(action.dark.effects, f"{slot}.dark")


# Which kind of context an effect list is resolved in: "visitor" lists have a visitor
# "self"; "spirit" lists are owned by the spirit and have none.
Context = Literal["visitor", "spirit"]


# --------------------------------------------------------------------------- validation


# Printed component counts (P-COMP-01/02): a pack that differs gets a warning, not an error.
PRINTED_COUNTS: dict[str, tuple[int, str, str]] = {
    # what: (count, rule, file)
    "visitor characters": (8, "P-COMP-07", "visitors.toml"),
    "visitor action cards": (80, "P-COMP-02", "action_cards.toml"),
    "spirit characters": (5, "P-COMP-01", "spirits.toml"),
    "spirit cards": (60, "P-COMP-02", "spirit_cards.toml"),
    "secret cards": (24, "P-COMP-02", "secrets.toml"),
    "clue cards": (40, "P-COMP-02", "clue_cards.toml"),
    "fear cards": (12, "P-COMP-02", "fear_cards.toml"),
    "item cards": (32, "P-COMP-02", "items.toml"),
    "spirit clues": (38, "P-COMP-02", "spirit_clues.toml"),
    "small clues": (16, "P-SETUP-14", "small_clues.toml"),
    "scripts": (10, "P-COMP-02", "scripts.toml"),
}

# Events whose reactions know an acting visitor (``who = "trigger_visitor"``).
_VISITOR_EVENTS: frozenset[str] = frozenset(
    {
        "end_of_own_turn",
        "candle_would_be_smothered",
        "candle_smothered",
        "targeted_by_spirit",
        "reveal_spirit_clue",
        "reveal_small_clue",
        "investigate",
        "rest",
        "enter_room",
        "draw_fear_card",
        "fear_card_would_cause_fear",
    }
)
# Ops that only a spirit-owned list may use, with the rule that says why.
_SPIRIT_OP_RULES: dict[str, str] = {
    "place_pawn": "P-MANI-01",
    "move_pawn": "P-MANI-04",
    "spirit_speak": "P-COMM-09",
    "spirit_draw": "P-LIMIT-02",
    "add_die": "P-SPIRIT-09",
}


class _Where(BaseModel):
    """Where an effect list lives, for the context-dependent checks."""

    model_config = ConfigDict(frozen=True)

    file: str
    card: str
    slot: str
    owner: Context
    kind: Literal[
        "action", "clue_action", "reaction", "token", "secret", "power", "manifest", "script"
    ]
    event: str | None = None
    manifestation: bool = False


def _effect_lists(pack: Pack) -> Iterator[tuple[_Where, tuple[Any, ...]]]:
    """Every top-level effect list with its context (see the module docstring table)."""

    def actions(
        file: str, card: str, slot: str, acts: Iterable[Action], kind: str = "action"
    ) -> Iterator[tuple[_Where, tuple[Any, ...]]]:
        for i, act in enumerate(acts):
            w = _Where(file=file, card=card, slot=f"{slot}[{i}]", owner="visitor", kind=kind)
            yield w, act.effects
            if act.dark is not None:
                yield w.model_copy(update={"slot": f"{slot}[{i}].dark"}), act.dark.effects

    def reaction(
        file: str, card: str, slot: str, r: Reaction, owner: Context
    ) -> tuple[_Where, tuple[Any, ...]]:
        w = _Where(
            file=file, card=card, slot=slot, owner=owner, kind="reaction", event=r.trigger.event
        )
        return w, r.effects

    for room in pack.manor.rooms:
        yield from actions("manor.toml", room.id, "actions_a", room.actions_a)
        yield from actions("manor.toml", room.id, "actions_b", room.actions_b)
    if pack.manor.chamber is not None:
        yield from actions("manor.toml", "chamber", "uncover", (pack.manor.chamber.uncover,))
    for s in pack.secrets:
        for tier in ("low", "middle", "high"):
            w = _Where(file="secrets.toml", card=s.id, slot=tier, owner="visitor", kind="secret")
            yield w, getattr(s.tiers, tier)
    for c in pack.clue_cards:
        yield from actions("clue_cards.toml", c.id, "actions", c.actions, "clue_action")
    for f in pack.fear_cards:
        yield reaction("fear_cards.toml", f.id, "reaction", f.reaction, "visitor")
    for it in pack.items:
        if it.action is not None:
            yield from actions("items.toml", it.id, "action", (it.action,))
        if it.reaction is not None:
            yield reaction("items.toml", it.id, "reaction", it.reaction, "visitor")
    for v in pack.visitors:
        yield from actions("visitors.toml", v.id, "abilities", v.abilities)
        for i, r in enumerate(v.reactions):
            yield reaction("visitors.toml", v.id, f"reactions[{i}]", r, "visitor")
    for a in pack.action_cards:
        yield from actions("action_cards.toml", a.id, "actions", a.actions)
    for sc in pack.spirit_cards:
        for half in ("top", "bottom"):
            power: SpiritPower = getattr(sc, half)
            w = _Where(
                file="spirit_cards.toml",
                card=sc.id,
                slot=half,
                owner="spirit",
                kind="power",
                manifestation=power.manifestation,
            )
            yield w, power.effects
            for i, r in enumerate(power.ongoing):
                yield reaction("spirit_cards.toml", sc.id, f"{half}.ongoing[{i}]", r, "spirit")
    for m in pack.manifestation.actions:
        w = _Where(
            file="manifestation.toml", card=m.id, slot="effects", owner="spirit", kind="manifest"
        )
        yield w, m.effects
    for sp in pack.spirit_clues:
        w = _Where(
            file="spirit_clues.toml", card=sp.id, slot="effects", owner="visitor", kind="token"
        )
        yield w, sp.effects
    for sm in pack.small_clues:
        w = _Where(
            file="small_clues.toml", card=sm.id, slot="effects", owner="visitor", kind="token"
        )
        yield w, sm.effects
    for scr in pack.scripts:
        w = _Where(file="scripts.toml", card=scr.id, slot="reveal", owner="spirit", kind="script")
        yield w, scr.reveal


def iter_effect_lists(pack: Pack) -> Iterator[tuple[str, str, str, Context, tuple[Any, ...]]]:
    """(file, card id, slot, "visitor"|"spirit", top-level effect list) for every list."""
    for w, effects in _effect_lists(pack):
        yield w.file, w.card, w.slot, w.owner, effects


def iter_effects(pack: Pack) -> Iterator[tuple[str, str, str, Any]]:
    """(file, card id, slot, effect) for every effect anywhere, nested ones included."""
    for w, effects in _effect_lists(pack):
        for path, eff in _nested(effects, w.slot):
            yield w.file, w.card, path, eff


def _all_actions(pack: Pack) -> Iterator[tuple[str, str, Action]]:
    """(file, card id, action) for every visitor action of the pack."""
    for room in pack.manor.rooms:
        for act in (*room.actions_a, *room.actions_b):
            yield "manor.toml", room.id, act
    if pack.manor.chamber is not None:
        yield "manor.toml", "chamber", pack.manor.chamber.uncover
    for c in pack.clue_cards:
        for act in c.actions:
            yield "clue_cards.toml", c.id, act
    for it in pack.items:
        if it.action is not None:
            yield "items.toml", it.id, it.action
    for v in pack.visitors:
        for act in v.abilities:
            yield "visitors.toml", v.id, act
    for a in pack.action_cards:
        for act in a.actions:
            yield "action_cards.toml", a.id, act


def _all_reactions(pack: Pack) -> Iterator[tuple[str, str, Reaction]]:
    for f in pack.fear_cards:
        yield "fear_cards.toml", f.id, f.reaction
    for it in pack.items:
        if it.reaction is not None:
            yield "items.toml", it.id, it.reaction
    for v in pack.visitors:
        for r in v.reactions:
            yield "visitors.toml", v.id, r
    for sc in pack.spirit_cards:
        for power in sc.powers():
            for r in power.ongoing:
                yield "spirit_cards.toml", sc.id, r


class _Report:
    """Collects findings."""

    def __init__(self) -> None:
        self.out: list[Finding] = []

    def err(self, rule: str, msg: str, file: str | None = None) -> None:
        self.out.append(Finding(rule=rule, severity="error", message=msg, file=file))

    def warn(self, rule: str, msg: str, file: str | None = None) -> None:
        self.out.append(Finding(rule=rule, severity="warning", message=msg, file=file))


def validate_pack(pack: Pack, custom_effects: Collection[str] | None = None) -> list[Finding]:
    """The cross-file invariants of spec §3.0 on a parsed Pack; each finding names its rule.

    Count differences from the printed game are warnings; anything that makes a rule dead,
    a reference dangle, or setup impossible is an error.
    """
    customs = registered_custom_effects() if custom_effects is None else set(custom_effects)
    rep = _Report()
    _check_ids(pack, rep)
    _check_options(pack, rep)
    _check_manor(pack, rep)
    _check_track(pack, rep)
    _check_clues_and_boards(pack, rep)
    _check_fear_cards(pack, rep)
    _check_items(pack, rep)
    _check_visitors(pack, rep)
    _check_spirits(pack, rep)
    _check_scripts(pack, rep)
    _check_presets(pack, rep)
    _check_effects(pack, rep, customs)
    _check_counts(pack, rep)
    return rep.out


def _check_ids(pack: Pack, rep: _Report) -> None:
    """Unique ids per kind; card ids unique across kinds (a visitor's hand mixes action and
    clue cards); no ``#`` (the instance separator)."""
    groups: list[tuple[str, str, list[str]]] = [
        ("manor.toml", "G-01", [r.id for r in pack.manor.rooms]),
        ("manor.toml", "P-COMP-12", [d.id for d in pack.manor.doors]),
        ("manor.toml", "G-01", [b.id for b in pack.manor.boards]),
        ("secrets.toml", "P-COMP-08", [s.id for s in pack.secrets]),
        ("clue_cards.toml", "P-COMP-09", [c.id for c in pack.clue_cards]),
        ("fear_cards.toml", "P-FEAR-06", [f.id for f in pack.fear_cards]),
        ("items.toml", "P-ITEM-06", [i.id for i in pack.items]),
        ("visitors.toml", "P-COMP-07", [v.id for v in pack.visitors]),
        ("action_cards.toml", "P-COMP-07", [a.id for a in pack.action_cards]),
        ("spirits.toml", "P-COMP-08", [s.id for s in pack.spirits]),
        ("spirit_cards.toml", "P-COMP-08", [s.id for s in pack.spirit_cards]),
        ("spirit_clues.toml", "P-CLUE-01", [c.id for c in pack.spirit_clues]),
        ("small_clues.toml", "P-CLUE-01", [c.id for c in pack.small_clues]),
        ("scripts.toml", "P-SCRIPT-03", [s.id for s in pack.scripts]),
        ("manifestation.toml", "G-13", [m.id for m in pack.manifestation.actions]),
        ("presets.toml", "P-SESSION-03", [p.id for p in pack.presets.script_presets]),
        ("presets.toml", "P-SESSION-04", [p.id for p in pack.presets.fear_presets]),
        ("presets.toml", "G-22", [u.id for u in pack.presets.unlocks]),
        ("secret_boards.toml", "P-COMP-16", [str(b.players) for b in pack.secret_boards]),
    ]
    for file, rule, ids in groups:
        for ident, n in Counter(ids).items():
            if n > 1:
                rep.err(rule, f"id {ident!r} is used {n} times", file)
    owners: dict[str, str] = {}
    for file, ids in (
        ("action_cards.toml", [a.id for a in pack.action_cards]),
        ("clue_cards.toml", [c.id for c in pack.clue_cards]),
        ("fear_cards.toml", [f.id for f in pack.fear_cards]),
        ("items.toml", [i.id for i in pack.items]),
        ("spirit_cards.toml", [s.id for s in pack.spirit_cards]),
        ("secrets.toml", [s.id for s in pack.secrets]),
        ("spirit_clues.toml", [c.id for c in pack.spirit_clues]),
        ("small_clues.toml", [c.id for c in pack.small_clues]),
    ):
        for ident in ids:
            if "#" in ident:
                rep.err("P-COMP-01", f"id {ident!r} must not contain '#'", file)
            other = owners.setdefault(ident, file)
            if other != file:
                rep.err("P-COMP-01", f"id {ident!r} is used in {other} and {file}", file)


def _check_options(pack: Pack, rep: _Report) -> None:
    opts = pack.options
    for name, table, rule in (
        ("item_deck", opts.item_deck, "P-SETUP-18"),
        ("clue_deck_clues", opts.clue_deck_clues, "P-SETUP-22"),
    ):
        if set(table) != set(PLAYER_COUNTS):
            rep.err(
                rule, f"options.{name} must give N = 3, 4 and 5, has {sorted(table)}", "pack.toml"
            )
    for n, total in opts.item_deck.items():
        if total < opts.special_items_per_deck:
            rep.err(
                "P-SETUP-18",
                f"the item deck for N={n} ({total}) is smaller than the "
                f"{opts.special_items_per_deck} special items",
                "pack.toml",
            )
    if opts.presence_dice < max(PLAYER_COUNTS):
        rep.err("P-SETUP-12", f"{opts.presence_dice} presence dice; 5 players need 5", "pack.toml")
    if opts.candles < max(PLAYER_COUNTS) - 1:
        rep.err("P-COMP-07", f"{opts.candles} candles; 4 visitors need 4", "pack.toml")
    printed: list[tuple[str, Any, Any, str]] = [
        ("main_actions", opts.main_actions, 3, "P-VIS-01"),
        ("two_player_main_actions", opts.two_player_main_actions, 5, "P-2P-02"),
        ("hand_size", opts.hand_size, 5, "P-LIMIT-01"),
        ("two_player_hand_size", opts.two_player_hand_size, 7, "P-2P-03"),
        ("item_limit", opts.item_limit, 2, "P-ITEM-05"),
        ("max_presence", opts.max_presence, 6, "P-COMP-10"),
        ("drain_markers", opts.drain_markers, 6, "P-COMP-15"),
        ("special_items_per_deck", opts.special_items_per_deck, 4, "P-SETUP-18"),
        ("item_deck", opts.item_deck, {3: 12, 4: 16, 5: 20}, "P-SETUP-18"),
        ("clue_deck_clues", opts.clue_deck_clues, {3: 14, 4: 20, 5: 26}, "P-SETUP-22"),
    ]
    for name, actual, expected, rule in printed:
        if actual != expected:
            rep.warn(
                rule, f"options.{name} = {actual}, the rulebook prints {expected}", "pack.toml"
            )


def _check_manor(pack: Pack, rep: _Report) -> None:
    m = pack.manor
    file = "manor.toml"
    rooms = {r.id: r for r in m.rooms}
    boards = {b.id: b for b in m.boards}
    floors = {f.level for f in m.floors}
    for brd in m.boards:
        if brd.floor not in floors:
            rep.err("G-01", f"board {brd.id!r} is on unknown floor {brd.floor}", file)
    seen_cells: dict[tuple[int, int, int], str] = {}
    for r in m.rooms:
        board = boards.get(r.board)
        if board is None:
            rep.err("G-01", f"room {r.id!r} is on unknown board {r.board!r}", file)
        elif board.floor != r.floor:
            rep.err(
                "G-01",
                f"room {r.id!r} is on floor {r.floor} but board {r.board!r} is on "
                f"floor {board.floor}",
                file,
            )
        if r.floor not in floors:
            rep.err("G-01", f"room {r.id!r} is on unknown floor {r.floor}", file)
        cell = (r.floor, r.x, r.y)
        if cell in seen_cells and not r.chamber:
            rep.warn("G-01", f"rooms {seen_cells[cell]!r} and {r.id!r} share a grid cell", file)
        seen_cells.setdefault(cell, r.id)
    # Named rooms.
    for attr, rule in (
        ("start_room", "P-SETUP-16"),
        ("fireplace_room", "P-SETUP-04"),
        ("cellar_room", "P-SETUP-05"),
        ("item_discard_room", "P-ITEM-04"),
    ):
        rid = getattr(m, attr)
        if rid not in rooms:
            rep.err(rule, f"{attr} {rid!r} is not a room", file)
        elif pack.room_min_players(rid) > 3 or rooms[rid].chamber:
            rep.err(rule, f"{attr} {rid!r} is not in play in every game", file)
    start = rooms.get(m.start_room)
    if start is not None and start.clue_room:
        rep.err("P-SETUP-27", f"the start room {m.start_room!r} must not be a clue room", file)
    for r in m.rooms:
        if not r.clue_room and not r.chamber and r.id != m.start_room:
            rep.warn("P-SETUP-27", f"room {r.id!r} gets no clue at setup", file)
    # Die adjacency (P-SPIRIT-07).
    pairs: set[frozenset[str]] = set()
    for key, links in (("walls", m.walls), ("vertical", m.vertical)):
        for a, b in links:
            if a not in rooms or b not in rooms:
                rep.err("G-01", f"{key} [{a!r}, {b!r}] names an unknown room", file)
                continue
            if a == b:
                rep.err("G-01", f"{key} [{a!r}, {b!r}] joins a room to itself", file)
                continue
            pair = frozenset((a, b))
            if pair in pairs:
                rep.err("G-01", f"{key} [{a!r}, {b!r}] is listed twice", file)
            pairs.add(pair)
            if rooms[a].chamber or rooms[b].chamber:
                rep.err(
                    "P-CHAMBER-07",
                    f"{key} [{a!r}, {b!r}] touches the Secret Chamber, "
                    "which is adjacent only to the passage room",
                    file,
                )
            if key == "walls" and rooms[a].floor != rooms[b].floor:
                rep.err("P-SPIRIT-07", f"wall [{a!r}, {b!r}] joins different floors", file)
            if key == "vertical" and abs(rooms[a].floor - rooms[b].floor) != 1:
                rep.err("P-SPIRIT-07", f"vertical [{a!r}, {b!r}] is not directly above/below", file)
    # Doors (P-COMP-12, P-MOVE-06).
    if len(m.doors) > m.max_doors:
        rep.err("P-COMP-12", f"{len(m.doors)} doors, only {m.max_doors} door markers", file)
    door_pairs: set[frozenset[str]] = set()
    for d in m.doors:
        a, b = d.rooms
        if a not in rooms or b not in rooms:
            rep.err("G-01", f"door {d.id!r} names an unknown room", file)
            continue
        if a == b:
            rep.err("G-01", f"door {d.id!r} joins {a!r} to itself", file)
            continue
        if rooms[a].chamber or rooms[b].chamber:
            rep.err(
                "P-CHAMBER-06",
                f"door {d.id!r} touches the Secret Chamber; only the secret passage may",
                file,
            )
        if (rooms[a].floor != rooms[b].floor) != d.stairs:
            rep.err(
                "P-MOVE-06",
                f"door {d.id!r}: a door between floors is stairs and stairs join floors",
                file,
            )
        pair = frozenset((a, b))
        if pair in door_pairs:
            rep.warn("G-01", f"door {d.id!r} duplicates another door between the same rooms", file)
        door_pairs.add(pair)
        if pair not in pairs:
            rep.warn("P-SPIRIT-07", f"door {d.id!r} joins rooms that are not die-adjacent", file)
        if m.chamber is not None and d.id == m.chamber.passage_id:
            rep.err("P-MOVE-08", f"door id {d.id!r} is the secret passage id", file)
    cellar_doors = [d for d in m.doors if m.cellar_room in d.rooms]
    if m.cellar_room in rooms and not any(d.locked for d in cellar_doors):
        rep.err("P-SETUP-05", f"no door of the Cellar {m.cellar_room!r} starts locked", file)
    if m.cellar_room in rooms and not any(d.stairs for d in cellar_doors):
        rep.err("P-MOVE-06", f"the Cellar {m.cellar_room!r} has no stairs door", file)
    # Connectivity per player count (P-MOVE-06) and setup capacity (P-SETUP-26..27).
    small_total = sum(c.copies for c in pack.small_clues)
    for n in PLAYER_COUNTS:
        in_play = set(pack.rooms_in_play(n))
        if m.start_room in in_play:
            reach = _reachable(m.start_room, [d.rooms for d in pack.doors_in_play(n)])
            lost = sorted(in_play - reach)
            if lost:
                rep.err(
                    "P-MOVE-06",
                    f"N={n}: rooms {lost} cannot be reached from the start room through doors",
                    file,
                )
            die_reach = _reachable(
                m.start_room,
                [(a, b) for a, b in (*m.walls, *m.vertical) if a in in_play and b in in_play],
            )
            if in_play - die_reach:
                rep.warn(
                    "P-SPIRIT-07",
                    f"N={n}: presence dice cannot reach {sorted(in_play - die_reach)}",
                    file,
                )
        clue_rooms = len(pack.clue_rooms_in_play(n))
        if clue_rooms < n:
            rep.err("P-SETUP-26", f"N={n}: {clue_rooms} clue rooms for {n} presence dice", file)
        elif clue_rooms - n > small_total:
            rep.err(
                "P-SETUP-27",
                f"N={n}: {clue_rooms - n} rooms need a small clue, only {small_total} small clues",
                "small_clues.toml",
            )
    # Room actions (G-02, G-18).
    for r in m.rooms:
        if r.chamber:
            if r.actions_a:
                rep.warn(
                    "P-DARK-02",
                    f"the Secret Chamber {r.id!r} exists only on the B side; "
                    "its A actions are never used",
                    file,
                )
            continue
        if not r.actions_a:
            rep.warn("G-02", f"room {r.id!r} has no A-side room action", file)
        if not r.actions_b:
            rep.warn("G-18", f"room {r.id!r} has no B-side (Dark Board) room action", file)
    # The Secret Chamber (P-CHAMBER).
    flagged = [r.id for r in m.rooms if r.chamber]
    if m.chamber is None:
        if flagged:
            rep.err(
                "P-CHAMBER-01",
                f"rooms {flagged} are flagged chamber but there is no [chamber]",
                file,
            )
        return
    ch = rooms.get(m.chamber.room)
    if ch is None:
        rep.err("P-CHAMBER-01", f"the chamber room {m.chamber.room!r} is not a room", file)
        return
    if flagged != [ch.id]:
        rep.err(
            "P-CHAMBER-01", f"exactly the chamber room must be flagged chamber, got {flagged}", file
        )
    if ch.clue_room:
        rep.err(
            "P-CHAMBER-02", "the Secret Chamber gets no clue at setup (clue_room = false)", file
        )
    if pack.room_min_players(ch.id) > 3:
        rep.err("P-DARK-02", "the Secret Chamber must be on a board used in every game", file)
    if len(ch.actions_b) != 2:
        rep.warn(
            "P-CHAMBER-08",
            f"the Secret Chamber has {len(ch.actions_b)} actions; the rulebook gives it two",
            file,
        )
    if not any(isinstance(e, Uncover) for e in m.chamber.uncover.effects):
        rep.err("P-CHAMBER-05", "the chamber's uncover action has no uncover effect", file)


def _reachable(start: str, links: Iterable[tuple[str, str]]) -> set[str]:
    graph: dict[str, set[str]] = {}
    for a, b in links:
        graph.setdefault(a, set()).add(b)
        graph.setdefault(b, set()).add(a)
    seen = {start}
    queue = deque([start])
    while queue:
        cur = queue.popleft()
        for nxt in graph.get(cur, ()):
            if nxt not in seen:
                seen.add(nxt)
                queue.append(nxt)
    return seen


def _check_track(pack: Pack, rep: _Report) -> None:
    t = pack.hope_track
    file = "hope_track.toml"
    for side in ("A", "B"):
        if side not in t.sides:
            rep.err("P-COMP-11", f"the Hope Track has no {side} side", file)
    for side, start in t.sides.items():
        for marker in ("hope", "nerve"):
            pos = getattr(start, marker)
            if not t.time_start < pos <= t.spaces:
                rep.err(
                    "P-TRACK-01",
                    f"side {side}: {marker} starts on {pos}, must be above "
                    f"the time marker ({t.time_start}) and at most {t.spaces}",
                    file,
                )
    if t.final_round > t.spaces:
        rep.err(
            "P-ROUND-01", f"final round {t.final_round} is past the last space {t.spaces}", file
        )
    if t.final_round != 9:
        rep.warn("P-ROUND-01", f"final round {t.final_round}; the rulebook plays nine rounds", file)
    if t.time_start != 1:
        rep.warn(
            "P-TRACK-01", f"the time marker starts on {t.time_start}, not the first space", file
        )
    for r in t.even_rounds:
        if r % 2 or not 1 <= r <= t.final_round:
            rep.err("P-ROUND-07", f"even round {r} is not an even round of the game", file)
    if len(set(t.even_rounds)) != len(t.even_rounds):
        rep.err("P-ROUND-07", "an even round is listed twice", file)
    if tuple(t.even_rounds) != (2, 4, 6, 8):
        rep.warn(
            "P-ROUND-07", f"even rounds {list(t.even_rounds)}; the rulebook marks 2, 4, 6, 8", file
        )


def _check_clues_and_boards(pack: Pack, rep: _Report) -> None:
    rooms = {r.id: r for r in pack.manor.rooms}
    for c in pack.clue_cards:
        room = rooms.get(c.room)
        if room is None:
            rep.err("G-06", f"clue card {c.id!r} names unknown room {c.room!r}", "clue_cards.toml")
            continue
        if not room.clue_room:
            rep.err(
                "P-CLUE-07",
                f"clue card {c.id!r} names {c.room!r}, which is not a clue room",
                "clue_cards.toml",
            )
        if pack.room_min_players(c.room) > c.mark:
            rep.err(
                "P-COMP-06",
                f"clue card {c.id!r} is marked {c.mark} but its room "
                f"{c.room!r} is only in play from N={pack.room_min_players(c.room)}",
                "clue_cards.toml",
            )
    boards = {b.players: b for b in pack.secret_boards}
    opts = pack.options
    for n in PLAYER_COUNTS:
        eligible = pack.clue_cards_for(n)
        per = Counter(c.trauma for c in eligible)
        counts = {t: per[t] for t in TRAUMAS}
        if len(set(counts.values())) != 1:
            rep.err(
                "P-SETUP-22",
                f"N={n}: eligible clue cards per trauma differ {counts} (A-09)",
                "clue_cards.toml",
            )
        clue_rooms = set(pack.clue_rooms_in_play(n))
        for t in TRAUMAS:
            t_rooms = [c.room for c in eligible if c.trauma == t]
            dup = sorted(r for r, k in Counter(t_rooms).items() if k > 1)
            if dup:
                rep.err(
                    "P-CHAMBER-04",
                    f"N={n}: {t} has several clue cards for rooms {dup}",
                    "clue_cards.toml",
                )
            elif set(t_rooms) != clue_rooms:
                rep.warn(
                    "P-CHAMBER-04",
                    f"N={n}: {t} clue cards do not cover exactly the clue "
                    "rooms in play (the Secret Chamber deduction needs them)",
                    "clue_cards.toml",
                )
        board = boards.get(n)  # type: ignore[call-overload]
        if board is None:
            rep.err("P-COMP-16", f"no secret board for N={n}", "secret_boards.toml")
            continue
        file = "secret_boards.toml"
        if board.low_max >= board.high_min:
            rep.err(
                "P-SECRET-03",
                f"N={n}: low_max {board.low_max} must be below high_min {board.high_min}",
                file,
            )
        per_trauma = max(counts.values()) if counts else 0
        for k, pos in enumerate(board.positions, start=1):
            if pos.low_max is not None and pos.low_max >= board.high_min:
                rep.err(
                    "P-SECRET-03",
                    f"N={n} position {k}: low_max {pos.low_max} must be below high_min "
                    f"{board.high_min}",
                    file,
                )
            if pos.remove > per_trauma:
                rep.err(
                    "P-SETUP-21",
                    f"N={n} position {k}: removes {pos.remove}, only "
                    f"{per_trauma} eligible per trauma",
                    file,
                )
            if pos.in_deck != per_trauma - pos.remove:
                rep.err(
                    "P-COMP-16",
                    f"N={n} position {k}: prints {pos.in_deck} in the deck, "
                    f"but {per_trauma} - {pos.remove} = {per_trauma - pos.remove}",
                    file,
                )
        decks = [p.in_deck for p in board.positions]
        if decks[0] != max(decks):
            rep.err(
                "P-SECRET-01",
                f"N={n}: the leftmost position must have the most clue cards, has {decks}",
                file,
            )
        elif decks != sorted(decks, reverse=True):
            rep.warn("P-SECRET-01", f"N={n}: positions are not in decreasing order {decks}", file)
        left = sum(per_trauma - p.remove for p in board.positions)
        want = opts.clue_deck_clues.get(n)
        if want is not None and left != want:
            rep.err(
                "P-SETUP-22",
                f"N={n}: the clue deck keeps {left} clue cards after setup, needs {want}",
                file,
            )
        if pack.manor.chamber is not None and board.positions[0].remove != 1:
            rep.err(
                "P-CHAMBER-01",
                f"N={n}: position 1 must remove exactly 1 clue card (it is "
                "set aside for the Secret Chamber)",
                file,
            )
        if board.high_min > max(decks, default=0):
            rep.warn(
                "P-SECRET-03",
                f"N={n}: the high tier needs {board.high_min} matching cards, "
                "more than any position can get",
                file,
            )


def _check_fear_cards(pack: Pack, rep: _Report) -> None:
    file = "fear_cards.toml"
    n = len(pack.fear_cards)
    most = max((p.per_visitor for p in pack.presets.fear_presets), default=0)
    if most * (max(PLAYER_COUNTS) - 1) > n:
        rep.err(
            "P-SESSION-04",
            f"{n} fear cards; {most} per visitor for 4 visitors needs {most * 4}",
            file,
        )
    first = pack.presets.first_game.fear_per_visitor
    if first * (max(PLAYER_COUNTS) - 1) > n:
        rep.err("P-FIRST-07", f"{n} fear cards; the first game needs {first * 4}", file)
    for f in pack.fear_cards:
        if f.reaction.optional:
            rep.err("P-FEAR-06", f"fear card {f.id!r}: its reaction is mandatory", file)
        if not any(isinstance(e, SufferFear) for _p, e in _nested(f.reaction.effects, "")):
            rep.err(
                "P-FEAR-06",
                f"fear card {f.id!r}: its reaction must make the holder suffer fear",
                file,
            )
        if f.reaction.discard_this:
            rep.warn(
                "P-FEAR-06",
                f"fear card {f.id!r} discards itself; fear cards stay until removed by an effect",
                file,
            )


def _check_items(pack: Pack, rep: _Report) -> None:
    file = "items.toml"
    opts = pack.options
    special = len(pack.special_item_ids())
    random = len(pack.random_item_ids())
    if special != opts.special_items_per_deck:
        rep.err(
            "P-SETUP-18",
            f"{special} special item cards, the deck always holds {opts.special_items_per_deck}",
            file,
        )
    need = max(opts.item_deck.values(), default=0) - opts.special_items_per_deck
    if random < need:
        rep.err("P-SETUP-18", f"{random} random item cards, a 5-player deck needs {need}", file)
    for name in ("Manor Key", "Match"):
        copies = sum(i.copies for i in pack.items if i.name == name and i.special)
        if copies != 2:
            rep.err("P-ITEM-06", f"the deck needs 2 special {name} cards, has {copies}", file)
    crucifix = [i for i in pack.items if i.name == "Crucifix"]
    if not crucifix:
        rep.warn("P-ITEM-07", "no Crucifix item", file)
    elif not any(i.action is not None and i.action.speed == "quick" for i in crucifix):
        rep.warn("P-ITEM-07", "the Crucifix is used as a quick action", file)
    for i in pack.items:
        if i.action is None and i.reaction is None:
            rep.err("P-ITEM-02", f"item {i.id!r} has neither an action nor a reaction", file)


def _check_visitors(pack: Pack, rep: _Report) -> None:
    file = "visitors.toml"
    ids = {v.id for v in pack.visitors}
    if len(ids) < max(PLAYER_COUNTS) - 1:
        rep.err("P-COMP-04", f"{len(ids)} visitor characters; a 5-player game needs 4", file)
    decks = Counter(a.owner for a in pack.action_cards)
    for a in pack.action_cards:
        if a.owner not in ids:
            rep.err(
                "P-COMP-07",
                f"action card {a.id!r} belongs to unknown visitor {a.owner!r}",
                "action_cards.toml",
            )
    for v in pack.visitors:
        if decks[v.id] != 10:
            rep.err(
                "P-SETUP-17",
                f"visitor {v.id!r} has {decks[v.id]} action cards, needs 10",
                "action_cards.toml",
            )
        for mod in v.modifiers:
            if isinstance(mod, CustomModifier) and mod.name not in registered_custom_effects():
                rep.err(
                    "P-VIS-04",
                    f"visitor {v.id!r} uses unregistered custom modifier {mod.name!r}",
                    file,
                )
    names = {act.name for _f, _c, act in _all_actions(pack)}
    for name, rule in (("Comfort", "P-FEAR-06"), ("Invoke", "P-SECRET-02")):
        if name not in names:
            rep.warn(
                rule, f"no action is named {name!r} (the rulebook names it)", "action_cards.toml"
            )


def _check_spirits(pack: Pack, rep: _Report) -> None:
    file = "spirits.toml"
    spirit_ids = {s.id for s in pack.spirits}
    for num, k in Counter(s.number for s in pack.spirits).items():
        if k > 1:
            rep.err("P-COMP-08", f"spirit number {num} is used {k} times", file)
    first = [s.id for s in pack.spirits if s.first_game]
    if len(first) != 1:
        rep.err("P-FIRST-03", f"exactly one spirit is the first-game spirit, got {first}", file)
    for sc in pack.spirit_cards:
        if sc.spirit not in spirit_ids:
            rep.err(
                "P-COMP-08",
                f"spirit card {sc.id!r} belongs to unknown spirit {sc.spirit!r}",
                "spirit_cards.toml",
            )
    for sec in pack.secrets:
        if sec.set != "A" and sec.set not in spirit_ids:
            rep.err("P-COMP-08", f"secret {sec.id!r} is in unknown set {sec.set!r}", "secrets.toml")
    for c in pack.spirit_clues:
        if c.spirit is not None and c.spirit not in spirit_ids:
            rep.err(
                "P-SETUP-13",
                f"spirit clue {c.id!r} belongs to unknown spirit {c.spirit!r}",
                "spirit_clues.toml",
            )
    for s in pack.spirits:
        cards = [c for c in pack.spirit_cards if c.spirit == s.id]
        if len(cards) != 12:
            rep.err(
                "P-SETUP-11",
                f"spirit {s.id!r} has {len(cards)} spirit cards, needs 12",
                "spirit_cards.toml",
            )
        mani = sum(p.manifestation for c in cards for p in c.powers())
        if mani != 1:
            rep.err(
                "P-MANI-01",
                f"spirit {s.id!r} has {mani} manifestation powers, needs 1",
                "spirit_cards.toml",
            )
        own = sum(c.copies for c in pack.spirit_clues if c.spirit == s.id)
        if own != 5:
            rep.err(
                "P-SETUP-13",
                f"spirit {s.id!r} has {own} spirit clues, needs 5",
                "spirit_clues.toml",
            )
        _check_secret_set(pack, rep, s.id, "P-SETUP-10")
    _check_secret_set(pack, rep, "A", "P-FIRST-06")
    fg = pack.presets.first_game
    if fg.spirit in spirit_ids:
        marked = pack.spirit_deck(fg.spirit, fg.spirit_card_mark)
        if len(marked) != fg.spirit_cards:
            rep.err(
                "P-FIRST-05",
                f"the first-game spirit {fg.spirit!r} has {len(marked)} cards "
                f"marked {fg.spirit_card_mark!r}, needs {fg.spirit_cards}",
                "spirit_cards.toml",
            )
        if len(marked) < max(PLAYER_COUNTS):
            rep.err(
                "P-SETUP-28",
                "the first-game deck is smaller than a 5-player starting hand",
                "spirit_cards.toml",
            )
    for sc in pack.spirit_cards:
        for half in ("top", "bottom"):
            p: SpiritPower = getattr(sc, half)
            where = f"spirit card {sc.id!r} {half}"
            if p.spend > p.requirement:
                rep.err(
                    "P-SPIRIT-12",
                    f"{where}: spends {p.spend}, more than its requirement {p.requirement}",
                    "spirit_cards.toml",
                )
            if p.requirement > pack.options.max_presence:
                rep.err(
                    "P-SPIRIT-11",
                    f"{where}: requirement {p.requirement} is above the maximum presence",
                    "spirit_cards.toml",
                )
            if not p.effects and not p.ongoing:
                rep.err("P-SPIRIT-11", f"{where}: the power does nothing", "spirit_cards.toml")
            if p.ongoing and not p.drain:
                rep.err(
                    "P-DRAIN-01", f"{where}: ongoing effects need a drain cost", "spirit_cards.toml"
                )
            if p.manifestation and not any(isinstance(e, PlacePawn) for e in p.effects):
                rep.err(
                    "P-MANI-01",
                    f"{where}: a manifestation power must place the spirit pawn",
                    "spirit_cards.toml",
                )
            for r in p.ongoing:
                if r.trigger.event == "game_start":
                    rep.err(
                        "P-DRAIN-06",
                        f"{where}: a drain effect cannot wait for game start",
                        "spirit_cards.toml",
                    )
    if not any(isinstance(e, MovePawn) for m in pack.manifestation.actions for e in m.effects):
        rep.warn("P-MANI-04", "no manifestation action moves the spirit pawn", "manifestation.toml")


def _check_secret_set(pack: Pack, rep: _Report, set_id: str, rule: str) -> None:
    cards = [s for s in pack.secrets if s.set == set_id]
    traumas = sorted({s.trauma for s in cards})
    if len(cards) != 4 or len(traumas) != 4:
        rep.err(
            rule,
            f"secret set {set_id!r} needs 4 cards with the 4 traumas, has "
            f"{len(cards)} with {traumas}",
            "secrets.toml",
        )


def _check_scripts(pack: Pack, rep: _Report) -> None:
    file = "scripts.toml"
    rooms = {r.id: r for r in pack.manor.rooms}
    chamber_room = pack.manor.chamber.room if pack.manor.chamber else None
    for s in pack.scripts:
        if s.alignment == "evil" and s.top.spirit_wins_if:
            rep.err(
                "P-WIN-04",
                f"script {s.id!r}: an evil spirit cannot win while its script is hidden",
                file,
            )
        if s.alignment == "good" and not s.top.spirit_wins_if:
            rep.warn("P-WIN-04", f"script {s.id!r}: a good script whose spirit cannot win", file)
        if s.top.visitors_also_need:
            rep.err(
                "P-WIN-02",
                f"script {s.id!r}: the visitors' extra condition belongs to the "
                "revealed (bottom) half",
                file,
            )
        if not s.bottom.spirit_wins_if:
            rep.warn("P-WIN-04", f"script {s.id!r}: the revealed spirit can never win", file)
        for test in (*s.top.spirit_wins_if, *s.bottom.spirit_wins_if, *s.bottom.visitors_also_need):
            room = getattr(test, "room", None)
            if room is None:
                continue
            if room not in rooms:
                rep.err("G-16", f"script {s.id!r} names unknown room {room!r}", file)
            elif room == chamber_room and not s.needs_chamber:
                rep.err(
                    "P-DARK-02",
                    f"script {s.id!r} uses the Secret Chamber but does not need it (needs_chamber)",
                    file,
                )
        if s.needs_chamber and pack.manor.chamber is None:
            rep.err(
                "P-DARK-02", f"script {s.id!r} needs the Secret Chamber; the manor has none", file
            )
    hope = len(pack.scripts_of("hope", chamber=False))
    nerve = len(pack.scripts_of("nerve", chamber=False))
    for p in pack.presets.script_presets:
        if p.hope > hope or p.nerve > nerve:
            rep.err(
                "P-SESSION-03",
                f"preset {p.id!r} needs {p.hope} hope + {p.nerve} nerve "
                f"scripts; without the Secret Chamber the pack has {hope} + {nerve}",
                file,
            )
    script_ids = {s.id for s in pack.scripts}
    for sid in pack.presets.first_game.scripts:
        if sid not in script_ids:
            rep.err("P-FIRST-04", f"first-game script {sid!r} does not exist", "presets.toml")
        elif pack.script(sid).needs_chamber:
            rep.err(
                "P-FIRST-04", f"first-game script {sid!r} needs the Secret Chamber", "presets.toml"
            )


def _check_presets(pack: Pack, rep: _Report) -> None:
    file = "presets.toml"
    pr = pack.presets
    fg = pr.first_game
    spirit_ids = {s.id for s in pack.spirits}
    if fg.spirit not in spirit_ids:
        rep.err("P-FIRST-03", f"first-game spirit {fg.spirit!r} does not exist", file)
    elif not pack.spirit(fg.spirit).first_game:
        rep.err("P-FIRST-03", f"first-game spirit {fg.spirit!r} is not flagged first_game", file)
    if fg.secret_set != "A" and fg.secret_set not in spirit_ids:
        rep.err("P-FIRST-06", f"first-game secret set {fg.secret_set!r} does not exist", file)
    if fg.hope_track_side not in pack.hope_track.sides:
        rep.err("P-FIRST-02", f"the Hope Track has no side {fg.hope_track_side!r}", file)
    lines = [ln.id for ln in pr.horror_lines]
    if len(set(lines)) != len(lines):
        rep.err("P-HORROR-02", "two atmospheric lines share an id", file)
    thresholds = [d.min_symbols for d in pr.difficulty]
    if len(set(thresholds)) != len(thresholds):
        rep.err("P-SESSION-06", "two difficulty labels share a threshold", file)
    if 0 not in thresholds:
        rep.err("P-SESSION-06", "no difficulty label starts at 0 symbols", file)
    scripts = {p.id: p for p in pr.script_presets}
    fears = {p.id: p for p in pr.fear_presets}
    if "normal" in scripts and "normal" in fears:
        standard = (
            scripts["normal"].symbols
            + fears["normal"].symbols
            + pr.board_symbols.hope_track_b
            + pr.board_symbols.main_a
        )
        if pr.difficulty_label(standard) != "Standard":
            rep.warn(
                "G-19",
                f"the all-standard setup scores {standard} = "
                f"{pr.difficulty_label(standard)!r}, not 'Standard'",
                file,
            )
    script_ids = {s.id for s in pack.scripts}
    clue_ids = {c.id for c in pack.spirit_clues}
    groups = {u.id: u for u in pr.unlocks}
    for u in pr.unlocks:
        for sid in u.scripts:
            if sid not in script_ids:
                rep.err("G-22", f"unlock {u.id!r} names unknown script {sid!r}", file)
        for cid in u.spirit_clues:
            if cid not in clue_ids:
                rep.err("G-22", f"unlock {u.id!r} names unknown spirit clue {cid!r}", file)
        for set_id in u.secret_sets:
            if set_id != "A" and set_id not in spirit_ids:
                rep.err("G-22", f"unlock {u.id!r} names unknown secret set {set_id!r}", file)
        for sp in u.spirits:
            if sp not in spirit_ids:
                rep.err("G-22", f"unlock {u.id!r} names unknown spirit {sp!r}", file)
    for c in pack.spirit_clues:
        if c.unlock is None:
            continue
        group = groups.get(c.unlock)
        if group is None or c.id not in group.spirit_clues:
            rep.err(
                "G-22",
                f"spirit clue {c.id!r} is unlocked by {c.unlock!r}, which does not list it",
                "spirit_clues.toml",
            )
        if c.spirit is not None:
            rep.warn(
                "P-SETUP-13",
                f"spirit clue {c.id!r} is a spirit's own clue but locked",
                "spirit_clues.toml",
            )


def _check_effects(pack: Pack, rep: _Report, customs: Collection[str]) -> None:
    """Context rules of the effect vocabulary (module docstring) on every effect list."""
    floors = {f.level for f in pack.manor.floors}
    rooms = {r.id for r in pack.manor.rooms}
    ops_seen: set[str] = set()

    def cond(where: str, file: str, c: Any, w: _Where | None, has_target: bool) -> None:
        if isinstance(c, InCardRoom) and (w is None or w.kind != "clue_action"):
            rep.err("P-CLUE-07", f"{where}: in_card_room is only meaningful on a clue card", file)
        if isinstance(c, RoomIs) and c.room not in rooms:
            rep.err("G-01", f"{where}: unknown room {c.room!r}", file)
        if isinstance(c, FloorIs) and c.floor not in floors:
            rep.err("G-01", f"{where}: unknown floor {c.floor}", file)
        who = getattr(c, "who", None)
        if who is not None:
            ref(where, file, who, w, has_target)

    def ref(where: str, file: str, who: str, w: _Where | None, has_target: bool) -> None:
        if who == "self" and w is not None and w.owner == "spirit":
            rep.err(
                "P-SPIRIT-13",
                f"{where}: 'self' means no visitor in a spirit effect; target a visitor first",
                file,
            )
        if who == "target" and not has_target:
            rep.err("P-TIME-03", f"{where}: 'target' is used before any target effect", file)
        if who == "trigger_visitor" and (
            w is None or w.kind != "reaction" or w.event not in _VISITOR_EVENTS
        ):
            rep.err(
                "P-VIS-12", f"{where}: 'trigger_visitor' needs a reaction to a visitor's act", file
            )

    def walk(w: _Where, effects: Iterable[Any], slot: str, has_target: bool) -> bool:
        for i, eff in enumerate(effects):
            where = f"{w.card} {slot}[{i}] {eff.op}"
            ops_seen.add(eff.op)
            for c in eff.only_if:
                cond(where, w.file, c, w, has_target)
            who = getattr(eff, "who", None)
            if isinstance(eff, Choice) and eff.chooser != "affected":
                who = None  # nobody is "affected": the owner or the spirit decides
            if who is not None:
                ref(where, w.file, who, w, has_target)
            if isinstance(eff, Target):
                has_target = True
                if isinstance(eff.count, int) and eff.count < 1:
                    rep.err("P-SPIRIT-13", f"{where}: target count must be 1 or more", w.file)
            if isinstance(eff, CustomEffect) and eff.name not in customs:
                rep.err("P-TIME-01", f"{where}: unregistered custom effect {eff.name!r}", w.file)
            if w.owner == "spirit" and eff.op in VISITOR_ONLY_OPS:
                rep.err("P-SPIRIT-13", f"{where}: a visitor-only effect in a spirit effect", w.file)
            rule = _SPIRIT_OP_RULES.get(eff.op)
            if rule is not None and w.owner != "spirit":
                rep.err(rule, f"{where}: only the spirit's own effects may do this", w.file)
            if isinstance(eff, PlacePawn) and not w.manifestation:
                rep.err("P-MANI-01", f"{where}: only a manifestation power places the pawn", w.file)
            if isinstance(eff, GainMainActions) and w.owner == "spirit" and not w.manifestation:
                rep.err(
                    "P-MANI-03",
                    f"{where}: the spirit gains main actions only by manifesting",
                    w.file,
                )
            if isinstance(eff, Prevent) and not (
                w.kind == "reaction" and w.event in REPLACEMENT_EVENTS
            ):
                rep.err(
                    "P-VIS-12", f"{where}: prevent needs a reaction to a '*_would_*' event", w.file
                )
            die = getattr(eff, "die", None)
            if die == "this" and w.kind not in ("power", "manifest", "reaction"):
                rep.err("P-SPIRIT-11", f"{where}: 'this' die exists only in spirit powers", w.file)
            if die == "this" and w.kind == "reaction" and w.owner != "spirit":
                rep.err("P-SPIRIT-11", f"{where}: 'this' die exists only in spirit powers", w.file)
            if die == "trigger_die" and not (w.kind == "reaction" and w.event == "die_enters_room"):
                rep.err(
                    "P-VIS-12", f"{where}: 'trigger_die' needs a die_enters_room reaction", w.file
                )
            if isinstance(eff, DrawItem) and eff.keep is not None and eff.keep > eff.n:
                rep.err("P-ITEM-01", f"{where}: keeps {eff.keep} of {eff.n} items", w.file)
            if isinstance(eff, Choice):
                if eff.kind == "either" and len(eff.options) < 2:
                    rep.err("P-TIME-12", f"{where}: 'either' needs at least 2 options", w.file)
                if eff.kind == "may" and len(eff.options) != 1:
                    rep.err("P-TIME-12", f"{where}: 'may' has exactly 1 option", w.file)
                if (
                    eff.coloured
                    and w.owner == "visitor"
                    and w.kind in ("action", "clue_action", "reaction", "secret")
                ):
                    rep.warn(
                        "P-TIME-12", f"{where}: coloured choices belong to spirit effects", w.file
                    )
                for b, branch in enumerate(eff.options):
                    if not branch:
                        rep.err("P-TIME-12", f"{where}: option {b} is empty", w.file)
                    walk(w, branch, f"{slot}[{i}].options[{b}]", has_target)
            if isinstance(eff, RevealSecret):
                walk(w, eff.on_success, f"{slot}[{i}].on_success", has_target)
                walk(w, eff.on_fail, f"{slot}[{i}].on_fail", has_target)
        return has_target

    for w, effects in _effect_lists(pack):
        walk(w, effects, w.slot, False)
    for file, card, act in _all_actions(pack):
        kind: Literal["clue_action", "action"] = (
            "clue_action" if file == "clue_cards.toml" else "action"
        )
        w = _Where(file=file, card=card, slot="requires", owner="visitor", kind=kind)
        for c in act.requires:
            cond(f"{card} {act.name} requires", file, c, w, False)
    for file, card, r in _all_reactions(pack):
        owner: Context = "spirit" if file == "spirit_cards.toml" else "visitor"
        w = _Where(
            file=file,
            card=card,
            slot="trigger",
            owner=owner,
            kind="reaction",
            event=r.trigger.event,
        )
        where = f"{card} trigger {r.trigger.event}"
        for c in r.trigger.only_if:
            cond(where, file, c, w, False)
        if r.trigger.floor is not None:
            if r.trigger.event != "enter_room":
                rep.err("P-VIS-12", f"{where}: 'floor' only applies to enter_room", file)
            elif r.trigger.floor not in floors:
                rep.err("G-01", f"{where}: unknown floor {r.trigger.floor}", file)
        if r.discard_this and file != "items.toml":
            rep.warn("P-ITEM-03", f"{where}: only item reactions discard themselves", file)
    # Rules that would be dead without some effect in the pack.
    for op, rule, what, severe in (
        (
            "reveal_secret",
            "P-SECRET-02",
            "no effect reveals a secret: the visitors cannot win",
            True,
        ),
        ("investigate", "P-CLUE-02", "no effect Investigates a clue token", True),
        ("draw_clue", "P-CLUE-03", "no effect draws a clue card", True),
        ("trash_fear_card", "P-FEAR-06", "no effect removes a fear card", False),
        ("relight_candle", "G-23", "no effect relights a candle", False),
        ("light_fireplace", "P-LIGHT-04", "no effect lights the fireplace", False),
        ("draw_item", "P-ITEM-01", "no effect Searches the item deck", False),
    ):
        if op not in ops_seen:
            (rep.err if severe else rep.warn)(rule, what, None)
    unlocks = any(
        isinstance(e, DoorEffect) and ("unlock" in e.actions or "unlock" in e.then_may)
        for _f, _c, _s, e in iter_effects(pack)
    )
    if not unlocks:
        rep.warn("P-MOVE-04", "no effect unlocks a door: the locked Cellar stays shut", None)


def _check_counts(pack: Pack, rep: _Report) -> None:
    actual = {
        "visitor characters": len(pack.visitors),
        "visitor action cards": len(pack.action_cards),
        "spirit characters": len(pack.spirits),
        "spirit cards": len(pack.spirit_cards),
        "secret cards": len(pack.secrets),
        "clue cards": len(pack.clue_cards),
        "fear cards": len(pack.fear_cards),
        "item cards": len(pack.item_instances()),
        "spirit clues": len(pack.spirit_clue_instances()),
        "small clues": len(pack.small_clue_instances()),
        "scripts": len(pack.scripts),
    }
    for what, (expected, rule, file) in PRINTED_COUNTS.items():
        if actual[what] != expected:
            rep.warn(rule, f"{actual[what]} {what}, the printed game has {expected}", file)


_PACKS: PackLoader[Pack] = PackLoader(_read_pack, validate_pack, DEFAULT_PACK_DIR)
check_pack = _PACKS.check
load_pack = _PACKS.load
default_pack = _PACKS.default
pack_fingerprint = fingerprint
"""``name@version+<hash>``: which content a game was created with."""
