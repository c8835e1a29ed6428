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

from typing import TYPE_CHECKING, Any

from rules.core.types import Action, act

if TYPE_CHECKING:
    from rules.exorcism.engine import Engine

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


# --------------------------------------------------------------------------- labels


def _cell(eng: Engine, cid: Any) -> str:
    return eng.cell_name(cid) if isinstance(cid, str) and cid in eng.st.cells else str(cid)


def _tool(t: Any) -> str:
    from rules.exorcism.engine import TOOL_NAMES

    return TOOL_NAMES.get(str(t), str(t))


def describe_action(eng: Engine, seat: str, action: Action) -> str:
    """A short button label in the game's words (at most 80 characters)."""
    st = eng.st
    p = action.params
    prompt = st.prompts[-1] if st.prompts else None
    prefix = ""
    who = p.get("who")
    if isinstance(who, str) and who in st.investigators:
        prefix = eng.inv_name(st.investigators[who]) + ": "
    elif prompt is not None and prompt.kind == "possession":
        prefix = "As " + eng.inv_name(st.investigators[prompt.data["inv"]]) + ": "
    text = _label(eng, seat, action, prompt)
    return (prefix + text)[:80]


def card_label(eng: Engine, action: Action) -> str:
    """The label of an answer that names a card, as a button prints it (no prefix): what
    `Engine.hidden_labels` lists while the card is secret (EX-VIS-11/12/16)."""
    return _label(eng, "", action, None)[:80]


def _label(eng: Engine, seat: str, action: Action, prompt: Any) -> str:
    st = eng.st
    pack = eng.pack
    k = action.kind
    p = action.params
    if k == MOVE:
        return f"Move to {_cell(eng, p.get('to'))}"
    if k == PURIFY:
        return "Purify this Room (remove Darkness)"
    if k in (TRADE, TRADE_WITH):
        partner = p.get("with")
        if isinstance(partner, str) and partner in st.investigators:
            return f"Trade with {eng.inv_name(st.investigators[partner])}"
        return "Trade"
    if k == ROOM_ACTION:
        who = p.get("who")
        inv = (st.investigators[who] if isinstance(who, str) and who in st.investigators
               else eng.invs_of(seat)[0] if eng.invs_of(seat) else None)
        if prompt is not None and prompt.kind == "possession":
            inv = st.investigators[prompt.data["inv"]]
        room = eng.room_of(inv.cell) if inv is not None and inv.cell else None
        return f"Use the {room.name}: {room.text}" if room else "Use this Room's Action"
    if k == TASK:
        tid = str(p.get("task"))
        task = pack.task(tid)
        return f"Complete {task.name} ({task.points} pts)"
    if k == PLAN:
        plan = pack.plan(str(p.get("plan")))
        return f"Play {plan.name}: {plan.text}"
    if k == ABILITY:
        src = str(p.get("source"))
        try:
            ch = pack.character(src)
            return f"{ch.name} ability: {ch.text.removeprefix('Action: ')}"
        except KeyError:
            task = pack.task(src)
            return f"Ongoing ({task.name}): use an adjacent Room's Action"
    if k == PICK_UP:
        return "Pick up dropped Tools here"
    if k == UNLOCK:
        return "Unlock this Locked Room"
    if k == PASS:
        return "End your turn"
    if k == CHOOSE_PRIMARY:
        ch = pack.character(str(p.get("character")))
        return f"Primary: {ch.name} — {ch.text}"
    if k == MANOR_PICK:
        return f"Move the Room at {_cell(eng, p.get('cell'))}"
    if k == MANOR_SWAP:
        return f"Swap it with {_cell(eng, p.get('cell'))}"
    if k == MANOR_DONE:
        return "Finish manipulating the manor"
    if k == NO_PLAN:
        if prompt is not None and prompt.kind == "plan_window":
            return "Pass (play no Plan now)"
        return "Let the Wound happen (pass)"
    if k == RESCUE:
        return f"Rescue with {eng.char_name(str(p.get('lookout')))}"
    if k == PLACE:
        return f"Place in {_cell(eng, p.get('cell'))}"
    if k == TRADE_GIVE:
        return f"Give 1 {_tool(p.get('tool'))}"
    if k == TRADE_TAKE:
        return f"Take 1 {_tool(p.get('tool'))}"
    if k == TRADE_OFFER:
        return "Offer the Trade"
    if k == TRADE_CANCEL:
        return "Call off the Trade"
    if k == TRADE_ACCEPT:
        return "Accept the Trade"
    if k == TRADE_DECLINE:
        return "Decline the Trade"
    if k == CHOOSE_TOOL:
        return f"Gain a {_tool(p.get('tool'))}"
    if k == CHOOSE_TASK:
        task = pack.task(str(p.get("task")))
        need = ", ".join(_tool(t) for t in task.to_complete)
        return f"Take {task.name} ({need}; {task.points} pts)"
    if k == CHOOSE_CELL:
        purpose = prompt.data.get("purpose", prompt.data.get("ability")) if prompt else None
        where = _cell(eng, p.get("cell"))
        return {
            "purify": f"Purify {where}",
            "move": f"Move to {where}",
            "swap": f"Swap with {where}",
            "swap_first": f"Swap {where}…",
            "swap_second": f"…with {where}",
            "adjacent_room": f"Use the Action of {where}",
            "cold_spot": f"Cold Spot on {where}",
            "moving_objects": f"Put the Tool in {where}",
        }.get(str(purpose), where)
    if k == CHOOSE_CHARACTER:
        return f"Heal {eng.char_name(str(p.get('character')))}"
    if k == CHOOSE_SEAT:
        return f"Choose {eng.seat_label(str(p.get('seat')))}"
    if k == CHOOSE_CARD:
        return "Next on top: " + eng.haunt_card_text(str(p.get("card"))).removeprefix(
            "Haunt card: ")
    if k == EXCHANGE_RETURN:
        return f"Return 1 {_tool(p.get('tool'))}"
    if k == EXCHANGE_GAIN:
        return f"Gain 1 {_tool(p.get('tool'))} for it"
    if k == EXCHANGE_DONE:
        return "Stop exchanging"
    if k == PICK_TOOL:
        return f"Pick up 1 {_tool(p.get('tool'))}"
    if k == PICK_ALL:
        return "Pick up all of them"
    if k == PICK_DONE:
        return "Stop picking up"
    if k == ESCAPE:
        return "Escape the House (your pawn leaves for good)"
    if k == SWITCH:
        return f"Switch to the Lookout {eng.char_name(str(p.get('lookout')))}"
    if k in (GHOST_MOVE, GHOST_DARKNESS):
        text = eng.haunt_card_text(str(p.get("card"))).removeprefix("Haunt card: ")
        return ("Move the Ghosts: " if k == GHOST_MOVE else "Add Darkness: ") + text
    if k == HAUNT_LEVEL:
        return f"Raise the Haunt Level to {st.haunt_level + eng.opts.haunt_level_step}"
    if k == TERROR:
        ab = pack.terror_ability(str(p.get("ability")))
        return f"Cause Terror: {ab.name}"
    if k == END_HAUNT:
        return "End the Haunt phase"
    return k
