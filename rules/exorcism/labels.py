"""Exorcism button and menu labels: each action in the game's words, as a player reads it.

Above the engine (labels read the engine's names for cells, investigators and cards); the
action kinds themselves live in `rules.exorcism.actions`.
"""

from __future__ import annotations

from typing import Any

from rules.core.game import a_noun, short_label, the_name
from rules.core.types import Action, act
from rules.exorcism.actions import (
    ABILITY,
    CHOOSE_CARD,
    CHOOSE_CELL,
    CHOOSE_CHARACTER,
    CHOOSE_PRIMARY,
    CHOOSE_SEAT,
    CHOOSE_TASK,
    CHOOSE_TOOL,
    END_HAUNT,
    ESCAPE,
    EXCHANGE_DONE,
    EXCHANGE_GAIN,
    EXCHANGE_RETURN,
    GHOST_DARKNESS,
    GHOST_MOVE,
    HAUNT_LEVEL,
    MANOR_DONE,
    MANOR_PICK,
    MANOR_SWAP,
    MOVE,
    NO_PLAN,
    PASS,
    PICK_ALL,
    PICK_DONE,
    PICK_TOOL,
    PICK_UP,
    PLACE,
    PLAN,
    PURIFY,
    RESCUE,
    ROOM_ACTION,
    SWITCH,
    TASK,
    TERROR,
    TRADE,
    TRADE_ACCEPT,
    TRADE_CANCEL,
    TRADE_DECLINE,
    TRADE_GIVE,
    TRADE_OFFER,
    TRADE_TAKE,
    TRADE_WITH,
    UNLOCK,
)
from rules.exorcism.engine import TOOL_NAMES, Engine

# --------------------------------------------------------------------------- labels


def _cell(eng: Engine, cid: Any) -> str:
    return eng.cell_name(cid) if isinstance(cid, str) and cid in eng.st.cells else str(cid)


def _tool(t: Any) -> str:
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
    return short_label(prefix + text)


def card_label(eng: Engine, action: Action) -> str:
    """The label of an answer that names a card, as a button prints it (no prefix): what
    `hidden_labels` lists while the card is secret (EX-VIS-11/12/16)."""
    return short_label(_label(eng, "", action, None))


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
        return f"Use {the_name(room.name)}: {room.text}" if room else "Use this Room's Action"
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
        return "Gain " + a_noun(_tool(p.get("tool")))
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
        return "Next on top: " + eng.haunt_card_face(str(p.get("card")))
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
        text = eng.haunt_card_face(str(p.get("card")), in_house=True)
        if k == GHOST_DARKNESS and st.darkness_supply <= 0:
            # Legal, but it places nothing (EX-OVA-13; a stop 65 demo pressed it with the
            # supply empty, an Action and a card for nothing): the button says so.
            return "Add Darkness (the supply is empty: places nothing): " + text
        return ("Move the Ghosts: " if k == GHOST_MOVE else "Add Darkness: ") + text
    if k == HAUNT_LEVEL:
        return f"Raise the Haunt Level to {st.haunt_level + eng.opts.haunt_level_step}"
    if k == TERROR:
        ab = pack.terror_ability(str(p.get("ability")))
        return f"Cause Terror: {ab.name}"
    if k == END_HAUNT:
        return "End the Haunt phase"
    return k


def hidden_labels(eng: Engine) -> list[str]:
    """Every answer label that would name a card hidden from someone reading the thread,
    as the button prints it: the Haunt cards of a One vs All peek (EX-VIS-12), the Ghost
    player's hand (EX-VIS-11) and, under `hidden_plans`, the investigators' Plans
    (EX-VIS-16). None of these phrasings is ever printed in a public line."""
    st = eng.st
    acts: list[Action] = []
    if st.peek and st.peek_team:
        acts += [act(CHOOSE_CARD, card=c) for c in st.peek]
    for c in dict.fromkeys(st.ghost_hand):
        acts += [act(GHOST_MOVE, card=c), act(GHOST_DARKNESS, card=c)]
    if eng.plans_hidden:
        for player in st.players.values():
            acts += [act(PLAN, plan=p) for p in dict.fromkeys(player.plans)]
    return sorted({card_label(eng, a) for a in acts})
