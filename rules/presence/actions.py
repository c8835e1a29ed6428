"""The Presence action kinds, their parameters, and which command family each belongs to.

The Discord cog groups `legal_actions` by `COMMAND_OF_KIND`: a kind listed there is a slash
command (autocomplete from the listed actions) and also a button; every other kind is a prompt
answer, shown as buttons / a select under the pending prompt's text (``PROMPT_ANSWERS``).

Visitor actions (the active visitor's turn; quick ones also off-turn, `Game.may_act`):

==============  ============================  ============================================
kind            params                        meaning
==============  ============================  ============================================
rest            —                             Rest (main, P-BASIC-01/02)
walk            —                             Walk: 1 movement point (main, P-BASIC-03)
play            card, side ``a``/``b``        play one action of a card in hand (P-VIS-06)
use_item        item, side ``a``/``b``        use an item's action (P-ITEM-02)
room_action     index                         the room's action (P-VIS-04)
uncover         —                             Uncover, from any room (Secret Chamber, P-CHAMBER-05)
ability         index                         a character-board ability (G-10)
trade           to = seat                     give clue/item cards (quick, P-BASIC-04)
smother         —                             smother your own candle (quick, P-BASIC-05)
pick_up         from = seat, item             a succumbed visitor's item (quick, P-BASIC-06)
end_turn        —                             end the turn (P-VIS-14)
==============  ============================  ============================================

Spirit actions (the spirit turn):

==============  ============================  ============================================
move_die        die, to = room                Move Presence Die (P-SPIRIT-07)
increase        card                          Increase Presence: discard a card (P-SPIRIT-09)
play_spirit     card, die                     play a spirit card with a die (P-SPIRIT-11)
pawn            action                        a manifested pawn action (P-MANI-04)
whisper         line                          True Horror: post one atmospheric line (P-HORROR-02)
speak           words (free text)             say what an effect allows (P-DISCORD-08); never
                                              listed in legal_actions, validated by the engine
end_spirit      —                             end the spirit turn (P-SPIRIT-19)
==============  ============================  ============================================

Every other kind answers the pending prompt (``state.prompts[-1].kind``); the generic answer is
``choose`` with ``option`` = an option id the prompt lists (a room, a door, a seat, a card, a
position, ``yes``/``no`` ...). Labels come from the prompt's option table, so they never need
the engine to reveal more than the answering seat may see.
"""

from __future__ import annotations

from rules.core.types import Action

REST = "rest"
WALK = "walk"
PLAY = "play"
USE_ITEM = "use_item"
ROOM_ACTION = "room_action"
UNCOVER = "uncover"
ABILITY = "ability"
TRADE = "trade"
SMOTHER = "smother"
PICK_UP = "pick_up"
END_TURN = "end_turn"
MOVE_DIE = "move_die"
INCREASE = "increase"
PLAY_SPIRIT = "play_spirit"
PAWN = "pawn"
END_SPIRIT = "end_spirit"
WHISPER = "whisper"
SPEAK = "speak"
CHOOSE = "choose"

VISITOR_MAIN: tuple[str, ...] = (REST, WALK, PLAY, USE_ITEM, ROOM_ACTION, UNCOVER, END_TURN)
VISITOR_QUICK: tuple[str, ...] = (TRADE, SMOTHER, PICK_UP, PLAY, USE_ITEM)
SPIRIT_KINDS: tuple[str, ...] = (MOVE_DIE, INCREASE, PLAY_SPIRIT, PAWN, END_SPIRIT)

VISITOR_PUBLIC: frozenset[str] = frozenset({
    REST, WALK, USE_ITEM, ROOM_ACTION, UNCOVER, ABILITY, TRADE, SMOTHER, PICK_UP, END_TURN})
"""Visitor kinds whose labels name nothing hidden (items, rooms and abilities are public,
H-23/H-31): buttons on the public board (`Game.public_actions`). Not ``play`` (a hand card)."""

SPIRIT_PUBLIC: frozenset[str] = frozenset({MOVE_DIE, PAWN, END_SPIRIT})
"""Spirit kinds on the public board: the dice and the pawn are public (H-29). Not ``increase``
(the discarded card stays secret, H-06), ``play_spirit`` (a hand card, H-02), ``whisper``."""

COMMAND_OF_KIND: dict[str, str] = {
    REST: "rest",
    WALK: "walk",
    PLAY: "play",
    USE_ITEM: "item",
    ROOM_ACTION: "room",
    UNCOVER: "room",  # Uncover is offered with the room actions (P-CHAMBER-05)
    ABILITY: "ability",
    TRADE: "trade",
    SMOTHER: "smother",
    PICK_UP: "pickup",
    END_TURN: "end",
    MOVE_DIE: "die",
    INCREASE: "increase",
    PLAY_SPIRIT: "spiritcard",
    PAWN: "pawn",
    END_SPIRIT: "end",
    WHISPER: "whisper",
}
"""Slash-command family of each main kind; any kind not here is a prompt answer (buttons)."""

PROMPT_KINDS: tuple[str, ...] = (
    "setup",  # PR-24 spirit character, then each visitor's character
    "place_spirit_clue",  # PR-15 setup / upkeep: room for a drawn spirit clue
    "movement",  # PR-09 one movement point: a door to open/close/go through, or stop
    "clue_discard",  # PR-03 position 1..4 for a clue card being discarded
    "draw_source",  # PR-10 clue deck or a revealed card
    "hand_limit",  # PR-06 a card to discard (visitor end of turn / spirit)
    "item_limit",  # PR-07 an item to discard
    "rest_discard",  # PR-08 a card to discard, or done
    "fear_bonus",  # PR-05 a die to +1, or decline
    "target",  # PR-04 a target (visitor, door, die, room, token, secret)
    "choice",  # PR-02 / PR-11 / PR-13 an option of a choice (coloured or not)
    "trade_pick",  # PR-12 cards to give, then offer
    "trade_accept",  # PR-12 the receiver accepts or refuses
    "increase",  # PR-16 how to use an Increase Presence (then where to relocate)
    "power",  # PR-17 which die to declare, then which power, or done
    "drain",  # PR-14 pay a drain (or the manifestation) from a die, or release it
)

PROMPT_ANSWERS: dict[str, tuple[str, ...]] = {kind: (CHOOSE,) for kind in PROMPT_KINDS}
"""Prompt kind (``state.prompts[-1].kind``) -> the action kinds that answer it."""


def choose(option: str) -> Action:
    return Action(kind=CHOOSE, params={"option": option})


LABEL_MAX = 80
"""Discord's limit on a button or select label: the only limit a prompt keeps."""


def fit_label(label: str) -> str:
    """A label cut to LABEL_MAX at a word, marked with an ellipsis (never mid-word)."""
    if len(label) <= LABEL_MAX:
        return label
    cut = label[:LABEL_MAX - 1]
    if " " in cut:
        cut = cut[:cut.rfind(" ")]
    return cut.rstrip(" ,;:.") + "…"
