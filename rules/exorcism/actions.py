"""Exorcism action kinds, their parameters, and which command family each belongs to.

The Discord cog groups `legal_actions` by `COMMAND_OF_KIND`: a kind listed there is a slash
command (with autocomplete from the listed actions) and also a button; every other kind is a
prompt answer, shown as buttons / a select under the pending prompt's text.

Main actions (the active seat's Action phase; in Solo every one carries ``who`` =
``primary`` | ``secondary``, EX-PROMPT-10):

=============  ==========================  ===============================================
kind           params                      meaning
=============  ==========================  ===============================================
move           to = cell id (``r2c3``)     Move up to 2 orthogonal spaces (EX-ACT-01)
purify         —                           Purify your Room (EX-ACT-02)
trade          with = investigator id      start a Trade with that partner (EX-ACT-03)
room_action    —                           use your Room's Action (EX-ACT-04)
task           task = task id              complete a gained Task (EX-ACT-05)
plan           plan = plan id              play a Plan, a Free Action (EX-ACT-09)
ability        source = character id or    a Character Action or an Ongoing Task's Action
               task id                     (EX-ACT-08, EX-TASK-04)
pick_up        —                           pick up dropped Tools (EX-ACT-06)
unlock         —                           unlock the Locked Room you stand in (EX-ACT-07)
pass           —                           end your turn
=============  ==========================  ===============================================

Prompt answers (buttons): see ``PROMPT_ANSWERS``. The Ghost player's Haunt phase (One vs All)
uses ``ghost_move`` / ``ghost_darkness`` (card = Haunt card id), ``haunt_level``,
``terror`` (ability = terror id) and ``end_haunt``.
"""

from __future__ import annotations

from rules.core.types import Action, act

MOVE = "move"
PURIFY = "purify"
TRADE = "trade"
ROOM_ACTION = "room_action"
TASK = "task"
PLAN = "plan"
ABILITY = "ability"
PICK_UP = "pick_up"
UNLOCK = "unlock"
PASS = "pass"

# Prompt answers.
CHOOSE_PRIMARY = "choose_primary"  # character                     EX-PROMPT-02
MANOR_PICK = "manor_pick"  # cell                                   EX-PROMPT-03
MANOR_SWAP = "manor_swap"  # cell
MANOR_DONE = "manor_done"
NO_PLAN = "no_plan"  # pass a Triage or Plan window         EX-PROMPT-05/06
RESCUE = "rescue"  # lookout = character id                         EX-PROMPT-07
PLACE = "place"  # cell (edge placement)                            EX-PROMPT-08
TRADE_WITH = "trade_with"  # with = investigator id (Plan trades)    EX-PROMPT-12
TRADE_GIVE = "trade_give"  # tool
TRADE_TAKE = "trade_take"  # tool
TRADE_OFFER = "trade_offer"
TRADE_CANCEL = "trade_cancel"
TRADE_ACCEPT = "trade_accept"
TRADE_DECLINE = "trade_decline"
CHOOSE_TOOL = "choose_tool"  # tool                                 EX-PROMPT-13
CHOOSE_TASK = "choose_task"  # task
CHOOSE_CELL = "choose_cell"  # cell (purify target, destination, swap, terror room)
CHOOSE_CHARACTER = "choose_character"  # character (heal)
CHOOSE_SEAT = "choose_seat"  # seat (terror targets)                EX-PROMPT-19
CHOOSE_CARD = "choose_card"  # card (next card on top of the Haunt deck, peek reorder)
EXCHANGE_RETURN = "exchange_return"  # tool
EXCHANGE_GAIN = "exchange_gain"  # tool
EXCHANGE_DONE = "exchange_done"
PICK_TOOL = "pick_tool"  # tool                                     EX-PROMPT-15
PICK_ALL = "pick_all"
PICK_DONE = "pick_done"
ESCAPE = "escape"  # Foyer: Escape the House                        EX-FOYER-01
SWITCH = "switch"  # lookout = character id
GHOST_MOVE = "ghost_move"  # card                                   EX-PROMPT-18
GHOST_DARKNESS = "ghost_darkness"  # card
HAUNT_LEVEL = "haunt_level"
TERROR = "terror"  # ability
END_HAUNT = "end_haunt"

MAIN_KINDS: tuple[str, ...] = (
    MOVE, PURIFY, TRADE, ROOM_ACTION, TASK, PLAN, ABILITY, PICK_UP, UNLOCK, PASS,
)
"""The investigator Actions (and a Plan play and ending the turn)."""

COMMAND_OF_KIND: dict[str, str] = {
    MOVE: "move",
    PURIFY: "purify",
    TRADE: "trade",
    ROOM_ACTION: "room",
    TASK: "task",
    PLAN: "plan",
    ABILITY: "ability",
    PICK_UP: "pickup",
    UNLOCK: "unlock",
    PASS: "end",
}
"""Slash-command family of each main kind; any kind not here is a prompt answer (buttons)."""

PROMPT_ANSWERS: dict[str, tuple[str, ...]] = {
    "choose_primary": (CHOOSE_PRIMARY,),
    "manipulate_manor": (MANOR_PICK, MANOR_SWAP, MANOR_DONE),
    "triage": (PLAN, NO_PLAN),
    "plan_window": (PLAN, NO_PLAN),
    "rescue": (RESCUE,),
    "place_pawn": (PLACE,),
    "trade_build": (TRADE_GIVE, TRADE_TAKE, TRADE_OFFER, TRADE_CANCEL),
    "trade_partner": (TRADE_WITH,),
    "trade_consent": (TRADE_ACCEPT, TRADE_DECLINE),
    "choose_tool": (CHOOSE_TOOL,),
    "choose_task": (CHOOSE_TASK,),
    "choose_cell": (CHOOSE_CELL,),
    "choose_character": (CHOOSE_CHARACTER,),
    "peek_order": (CHOOSE_CARD,),
    "exchange": (EXCHANGE_RETURN, EXCHANGE_GAIN, EXCHANGE_DONE),
    "pick_up": (PICK_TOOL, PICK_ALL, PICK_DONE),
    "foyer": (ESCAPE, SWITCH),
    "terror_seat": (CHOOSE_SEAT,),
    "terror_cell": (CHOOSE_CELL,),
    "possession": MAIN_KINDS,
}
"""Prompt kind (``state.prompts[-1].kind``) -> the action kinds that answer it.

The Ghost player's Haunt phase is not a prompt but a phase (``view["phase"] == "ghost"``)
whose actions are ``ghost_move``, ``ghost_darkness``, ``haunt_level``, ``terror``,
``end_haunt``."""

GHOST_PHASE_KINDS: tuple[str, ...] = (GHOST_MOVE, GHOST_DARKNESS, HAUNT_LEVEL, TERROR, END_HAUNT)


def with_who(action: Action, who: str | None) -> Action:
    """The same action naming the acting investigator (Solo: ``primary``/``secondary``)."""
    if who is None:
        return action
    return Action(kind=action.kind, params={**action.params, "who": who})


def move(to: str, who: str | None = None) -> Action:
    return with_who(act(MOVE, to=to), who)


def pass_turn() -> Action:
    return act(PASS)
