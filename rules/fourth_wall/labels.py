"""Fourth Wall button and menu labels: each action in the game's words, as a player reads it.

Above the engine (labels read the engine's names for marbles, horrors and investigators); the
action kinds themselves live in `rules.fourth_wall.actions`.
"""

from __future__ import annotations

from typing import Any

from rules.core.game import counted, short_label
from rules.core.types import Action
from rules.fourth_wall.actions import (
    ACCEPT,
    BROOD,
    CANCEL,
    CHOOSE_CARD,
    CHOOSE_HORROR,
    CHOOSE_INVESTIGATOR,
    CHOOSE_MARBLE,
    CHOOSE_NAME,
    CLOSE_GATE,
    CONFIRM,
    DECLINE,
    DELVE,
    DESTROY,
    DONE,
    END_TURN,
    EXPLOIT,
    FREE_GIVE,
    FREE_TRADE,
    GIVE,
    GIVE_OR_TRADE_GIVE,
    GIVE_OR_TRADE_TRADE,
    INTERVENE,
    KEEP,
    KEEP_SCOURGE,
    MANIFEST,
    PASS,
    REACT,
    REGROUP,
    REGROUP_DRAW,
    SCOURGE,
    SEARCH,
    SELECT,
    STOP,
    TAKE_DOOM,
    TRADE,
    TRIGGER,
    UNIQUE,
    UTILISE,
    WALL_UNIQUE,
    WRATH,
)
from rules.fourth_wall.engine import Engine

# --------------------------------------------------------------------------- labels


def describe_action(eng: Engine, seat: str, action: Action) -> str:
    """A short button label in the game's words (at most 80 characters)."""
    st = eng.st
    p = action.params
    prefix = ""
    who = p.get("inv")
    # A seat playing two Investigators is told which one acts; a choice *of* an Investigator
    # names its answer in `inv`, which is no actor ("The Bruiser: The Bruiser").
    if isinstance(who, str) and eng.has_inv(who) and len(eng.invs_of(seat)) > 1 \
            and action.kind != CHOOSE_INVESTIGATOR:
        prefix = eng.inv_name(eng.inv(who)) + ": "
    text = _label(eng, action, st.prompts[-1].data if st.prompts else {})
    return short_label(prefix + text)


def _m(eng: Engine, mid: Any) -> str:
    return eng.marble_name(str(mid))


def _h(eng: Engine, hid: Any) -> str:
    return eng.horror_label(str(hid))


def _i(eng: Engine, iid: Any) -> str:
    return eng.inv_name(eng.inv(str(iid))) if eng.has_inv(str(iid)) else str(iid)


def _label(eng: Engine, action: Action, data: dict[str, Any]) -> str:
    k = action.kind
    p = action.params
    costs = eng.cost_text
    if k == SEARCH:
        return f"Search: draw a Marble ({costs(action)})"
    if k == INTERVENE:
        return f"Intervene with {_m(eng, p.get('marble'))} ({costs(action)})"
    if k == UTILISE:
        return f"Utilise {_m(eng, p.get('marble'))} ({costs(action)})"
    if k == GIVE:
        return f"Give a Marble to {_i(eng, p.get('to'))} ({costs(action)})"
    if k == TRADE:
        return f"Trade a Marble with {_i(eng, p.get('with'))} ({costs(action)})"
    if k == REGROUP:
        return f"Regroup ({costs(action)})"
    if k == CLOSE_GATE:
        return f"Close a Gate ({costs(action)})"
    if k == EXPLOIT:
        # How much Doom, with Street 1's Aura counted (stop 65's demo: "+Doom" while it added 2).
        doom = eng.doom_from_exploit()
        return f"Exploit the Rift ({costs(action)}" + (f", +{doom} Doom)" if doom > 0 else ")")
    if k == UNIQUE:
        return f"Unique Action ({costs(action)})"
    if k == PASS:
        return "End the turn" if data.get("purpose") != "grant" else "Take no action"
    if k == REACT:
        return f"Quick use: discard {_m(eng, p.get('marble'))}"
    if k == WRATH:
        return f"Wrath (gain {eng.wrath_gain()} Doom, then take actions)"
    if k == BROOD:
        return "Brood (1 Doom, undrain, unleash the Scourge)"
    if k == DELVE:
        return f"Delve: draw a Horror ({eng.opts.delve_cost} Doom)"
    if k == MANIFEST:
        hid = str(p.get("horror"))
        return f"Manifest {eng.horror_name(hid)} ({eng.horror(hid).manifest.doom} Doom)"
    if k == TRIGGER:
        hid = str(p.get("horror"))
        # the Horror, not what it needs to be Defeated: no cost of the Wall's (stop 70)
        told = eng.horror_label(hid, needs=False)
        return f"Trigger {told} ({eng.horror(hid).trigger_cost} Doom)"
    if k == DESTROY:
        return f"Destroy {eng.street_marble_label(str(p.get('marble')))} " \
               f"({eng.opts.destroy_marble_cost} Doom)"
    if k == WALL_UNIQUE:
        idx = int(str(p.get("n") or 0))
        return f"Unique Action {idx + 1} ({eng.wall().uniques[idx].cost} Doom)"
    if k == END_TURN:
        return "End the Wall's turn"
    if k == KEEP:
        inv_card = eng.pack.investigator(str(p.get("card")))
        return f"Keep {inv_card.name} (Sanity {inv_card.sanity})"
    if k == SCOURGE:
        return f"The Scourge: {_h(eng, p.get('horror'))}"
    if k == KEEP_SCOURGE:
        return "Leave The Scourge where it is"
    if k == CHOOSE_INVESTIGATOR:
        return _i(eng, p.get("inv"))
    if k == CHOOSE_HORROR:
        return _h(eng, p.get("horror"))
    if k in (CHOOSE_MARBLE, SELECT):
        mid = str(p.get("marble"))
        where = eng.street_marble_label(mid) if eng.on_streets_marble(mid) else _m(eng, mid)
        return ("Select " if k == SELECT else "") + where
    if k == CHOOSE_NAME:
        return str(p.get("name"))
    if k == CHOOSE_CARD:
        card = str(p.get("card"))
        return eng.marble_name(card) if card in eng.st.marble_cards else eng.horror_name(card)
    if k == ACCEPT:
        return "Accept"
    if k == DECLINE:
        if data.get("window"):  # a quick-use window (FW-VIS-32)
            held = any(o.get("kind") == REACT for o in data.get("options", []))
            return "Decline the quick use" if held else "Continue (no quick-use Marble)"
        return "Decline"
    if k == REGROUP_DRAW:
        count = data.get("n_draw") if p.get("mode") == "n" else data.get("n_limit")
        marbles = counted(int(count or 0), "Marble")  # "no Marble", not "0 Marbles"
        return (f"Draw {marbles}" if p.get("mode") == "n"
                else f"Draw up to your Hand Limit ({marbles})")
    if k == CONFIRM:
        return "Confirm: discard the selected Marbles"
    if k == CANCEL:
        return "Cancel (the Action Points are refunded)" if data.get("refund") else "Cancel"
    if k == FREE_GIVE:
        return f"Give a Marble to {_i(eng, p.get('to'))} (free: no Action Point)"
    if k == FREE_TRADE:
        return f"Trade a Marble with {_i(eng, p.get('with'))} (free: no Action Point)"
    if k == GIVE_OR_TRADE_GIVE:
        return f"Give a Marble to {_i(eng, p.get('to'))}"
    if k == GIVE_OR_TRADE_TRADE:
        return f"Trade a Marble with {_i(eng, p.get('with'))}"
    if k == DONE:
        return "Done"
    if k == STOP:
        return "Stop here"
    if k == TAKE_DOOM:
        return "Place a Doom Token for the next turn"
    return k
