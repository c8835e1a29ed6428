"""What each seat may see of an Exorcism game (spec §5), as a JSON-ready dict.

`view(state, None)` is the public view, safe for the channel: it never holds a face-down
Locked Room's face, which Locked Rooms are in play or in the box, any deck order, or the
One vs All Ghost player's hand (only the Ghost seat's view has ``hand``). A Medium / Seance
peek is public in core and Solo and for the investigators only in One vs All (EX-VIS-12).
The renderer draws the board ONLY from this dict; these keys are stable:

Top level
  game "exorcism"; mode "core"|"one_vs_all"|"solo"; pack (fingerprint); step (int);
  seat (the viewing seat or None); over (bool); result ({winners, losers, reason} | None);
  round; turn (game turns started, 1..48); phase "setup"|"haunt"|"actions"|"ghost"|"over";
  active_seat; active_label; actions_left; actions_per_turn; waiting_for [seat];
  waiting_labels [str].
layout
  {rows, cols, attic: cell id, foyer: cell id} — house cells are rows 1..rows, cols 1..cols;
  the Attic and the Foyer sit outside (row 0 / row rows+1).
cells: list, one per cell (house cells in reading order, then the Attic, then the Foyer):
  id ("r2c3" | "attic" | "foyer"), row, col, kind "house"|"attic"|"foyer",
  face_down (bool), name (Room name; "Locked Room" when face down; "Attic"), label (how
  events and buttons name it: the name, with "(row 2, column 3)" where another cell shows
  the same name, as the picture prints it),
  room_id (None when face down or the Attic), location (die face 1..6 | None when face down,
  Attic, Foyer), action_text (str | None), darkness (int; for a Shrouded Room the tokens
  under the Shroud), shrouded (bool), exorcism_tokens (int), dropped {tool: n},
  pawns [{investigator, character, name, seat, role}], ghosts ["wraith"|"bull"|"devourer"],
  edge (bool), cold_spot (bool).
clock
  {dice: [{index, pips, discarded, current, hour, action_icon}], current: index | None,
   dice_left, turns_left, pips_left, action_hours [int]}
darkness_track
  {spaces: [int], position: int, value: int}
exorcism {points, target, exorcised}
darkness_supply (int); darkness_total (30); shrouds_left; shrouds_total
tool_piles {tool: n}; tool_names {tool: name}
decks {haunt, haunt_discard, haunt_removed, task, plan, plan_discard, task_discard} (counts)
available_tasks [{id, name, subtype, to_complete [tool], points, reward, ongoing}]
ghosts {"wraith"|"bull"|"devourer": cell id | None}; ghost_names {...}
investigators [{id, seat, role "investigator"|"primary"|"secondary", character, name,
  cell, cell_name, tools {tool: n}, awaiting_rescue, escaped, specialization,
  specialization_bonus (int: the points it adds to a Task of its Subtype, EX-TASK-03),
  ability_text, modifiers [kind]}]
seats_info [{seat, label, role "investigator"|"ghost"|"solo", investigators [id], tasks [task
  dict as in available_tasks], plans [{id, name, timing, text}] (or None when hidden),
  plan_count, ongoing [task dict], out, next_turn_delta, is_active}]
characters {lookouts [{id, name}], wounded [...], devoured [...], escaped [...],
  out_of_play [...]}
ova (One vs All only, else None): {ghost_seat, haunt_level, haunt_level_win, hand_count,
  budget_left, terror_used, terror_per_turn, terror [{id, name, threshold, unlocked}],
  effects {cold_spot: cell | None, haunting_sounds: seat | None, walls_bleed: bool},
  amnesia {seat: delta}}
hand (the Ghost seat's own view only): [{id, location, die_value, arrows {wraith, bull,
  devourer}, text, in_hand (as the Ghost player's buttons play it now, the arrows of Ghosts
  not yet come marked)}]
peek [{position, text}] — a pending Haunt peek, when this seat may see it; else []
haunt_seen [{position, text}] — the top Haunt cards a finished peek showed, top first, still
  on the deck, when this seat saw that peek; else []
last_haunt (text of the last Haunt card resolved or played) | None
prompt {id, kind, text, seats, labels} | None — private details are left out for seats that
  may not see them
log [str] — the last public events, oldest first
"""

from __future__ import annotations

from typing import Any

from rules.core import memo
from rules.core.game import plural
from rules.exorcism.content import Task
from rules.exorcism.engine import GHOST_NAMES, GHOSTS, TOOL_NAMES, Engine
from rules.exorcism.result import result_of
from rules.exorcism.state import ExorcismState

_TASK_DICTS: dict[int, tuple[Task, dict[str, Any]]] = {}
"""id(Task card) -> (the card, its dict): a card's dict never changes, and a view holds a dozen
(the undo oracle and the secrets proof build tens of thousands of views, stop 67)."""


def _task_dict(eng: Engine, tid: str) -> dict[str, Any]:
    task = eng.pack.task(tid)
    kept = _TASK_DICTS.get(id(task))
    if kept is None or kept[0] is not task:
        kept = _TASK_DICTS[id(task)] = (task, _task_dict_of(task))
    made = kept[1]
    return {**made, "to_complete": list(made["to_complete"])}


def _task_dict_of(task: Task) -> dict[str, Any]:
    reward = ", ".join(_effect_summary(e) for e in task.rewards)
    ongoing = task.text.split("Ongoing:", 1)[1].strip() if "Ongoing:" in task.text else (
        "Ongoing Ability" if task.has_ongoing else ""
    )
    return {
        "id": task.id,
        "name": task.name,
        "subtype": task.subtype,
        "to_complete": list(task.to_complete),
        "points": task.points,
        "reward": reward,
        "ongoing": ongoing,
    }


def _effect_summary(eff: Any) -> str:
    op = eff.op
    if op == "gain_plan":
        return f"gain {eff.n} Plan {plural(eff.n, 'card')}"
    if op == "gain_tool":
        return "gain " + "/".join(TOOL_NAMES[t] for t in eff.types)
    if op == "gain_points":
        return f"+{eff.n} points"
    if op == "gain_task":
        return "gain a Task"
    return str(op).replace("_", " ")


def remembered_view(state: ExorcismState, seat: str | None) -> dict[str, Any]:
    """`build_view(state, seat)`, built once per state while the bot holds it
    (`rules.core.memo`): for the words and summaries, which only read it. Never change it."""
    return memo.remembered(state, ("view", seat), lambda: build_view(state, seat))


def build_view(state: ExorcismState, seat: str | None) -> dict[str, Any]:
    eng = Engine(state)
    pack = eng.pack
    opts = eng.opts  # the first-game setup changes the target (EX-FIRST-01)
    st = state
    ghost_view = seat is not None and seat == st.ghost_seat
    team = seat is not None and seat in st.seats and seat != st.ghost_seat
    to_act = sorted(eng.to_act())

    # Each cell's shown name and label (`Engine.cell_name`), worked out once for the view;
    # so are the Ghosts on each cell (`Engine.ghosts_in`) and each seat's label.
    shown = {cid: eng.shown_name(cid) for cid in st.cells}
    ghosts_at: dict[str, list[str]] = {}
    for g in GHOSTS:
        at = st.ghosts.get(g)
        if at is not None:
            ghosts_at.setdefault(at, []).append(g)
    seat_labels: dict[str, str] = {}

    def seat_label(s: str) -> str:
        got = seat_labels.get(s)
        if got is None:
            got = seat_labels[s] = eng.seat_label(s)
        return got

    name_count: dict[str, int] = {}
    for name in shown.values():
        name_count[name] = name_count.get(name, 0) + 1

    def label(cid: str) -> str:
        name = shown[cid]
        if name_count[name] > 1:
            cell = st.cells[cid]
            return f"{name} (row {cell.row}, column {cell.col})"
        return name

    pawns: dict[str, list[dict[str, Any]]] = {}
    investigators = []
    for inv in st.investigators.values():
        ch = eng.character(inv.character) if inv.character else None
        if inv.cell is not None and ch is not None and not inv.escaped:
            pawns.setdefault(inv.cell, []).append(
                {"investigator": inv.id, "character": ch.id, "name": ch.name, "seat": inv.seat,
                 "role": inv.role}
            )
        investigators.append({
            "id": inv.id,
            "seat": inv.seat,
            "role": inv.role,
            "character": inv.character,
            "name": ch.name if ch else None,
            "cell": inv.cell,
            "cell_name": label(inv.cell) if inv.cell else None,
            "tools": dict(inv.tools),
            "awaiting_rescue": inv.character is None,
            "escaped": inv.escaped,
            "specialization": ch.specialization if ch else None,
            "specialization_bonus": ch.specialization_bonus if ch else 0,
            "ability_text": ch.text if ch else None,
            "modifiers": [m.kind for m in eng.modifiers(inv)],
        })

    edge = set(eng.geo.edge)
    cells = []
    for cid in eng.geo.all:
        cell = st.cells[cid]
        room = (pack.room(cell.card) if cell.card is not None and not cell.face_down
                else None)  # `Engine.room_of`
        name = shown[cid]
        cells.append({
            "id": cid,
            "row": cell.row,
            "col": cell.col,
            "kind": cell.kind,
            "face_down": cell.face_down,
            "name": name,
            "label": label(cid),
            "room_id": room.id if room else None,
            "location": room.location if room else None,
            "action_text": room.text if room else None,
            "darkness": cell.darkness,
            "shrouded": cell.shrouded,
            "exorcism_tokens": cell.exorcism_tokens,
            "dropped": dict(cell.dropped),
            "pawns": pawns.get(cid, []),
            "ghosts": list(ghosts_at.get(cid, ())),
            "edge": cid in edge,
            "cold_spot": st.cold_spot == cid,
        })

    current = next((i for i, p in enumerate(st.dice) if p > 0), None)
    n = len(st.dice)
    dice = []
    for i, p in enumerate(st.dice):
        hour = i + 1 if opts.time_action_hours_from == "first" else n - i
        dice.append({"index": i, "pips": p, "discarded": p == 0, "current": i == current,
                     "hour": hour, "action_icon": hour in pack.clock.action_hours})
    pips_left = sum(st.dice)

    def chars(ids: list[str]) -> list[dict[str, str]]:
        return [{"id": c, "name": eng.char_name(c)} for c in ids]

    seats_info = []
    hide_plans = opts.hidden_plans and st.mode == "one_vs_all"
    for s in st.seats:
        player = st.players[s]
        show_plans = not hide_plans or team
        seats_info.append({
            "seat": s,
            "label": seat_label(s),
            "role": player.role,
            "investigators": [i.id for i in eng.invs_of(s)],
            "tasks": [_task_dict(eng, t) for t in player.tasks],
            "plans": ([{"id": p, "name": pack.plan(p).name, "timing": pack.plan(p).timing,
                        "text": pack.plan(p).text} for p in player.plans]
                      if show_plans else None),
            "plan_count": len(player.plans),
            "ongoing": [_task_dict(eng, t) for t in player.ongoing],
            "out": player.out,
            "next_turn_delta": player.pending_delta,
            "is_active": s == st.active,
        })

    prompt = None
    if st.prompts:
        top = st.prompts[-1]
        private = top.kind == "peek_order" and st.peek_team and not team
        prompt = {
            "id": top.id,
            "kind": top.kind,
            "text": "A secret choice is being made." if private else top.text,
            "seats": list(top.seats),
            "labels": [seat_label(x) for x in top.seats],
        }

    peek: list[dict[str, Any]] = []
    if st.peek and (not st.peek_team or team):
        peek = [{"position": i + 1, "text": eng.haunt_card_text(c)}
                for i, c in enumerate(st.peek)]
    haunt_seen: list[dict[str, Any]] = []
    if st.haunt_seen and (not st.peek_team or team):
        seen_top = st.haunt_deck[len(st.haunt_deck) - min(st.haunt_seen, len(st.haunt_deck)):]
        haunt_seen = [{"position": i + 1, "text": eng.haunt_card_text(c)}
                      for i, c in enumerate(reversed(seen_top))]

    ova = None
    if st.mode == "one_vs_all":
        ova = {
            "ghost_seat": st.ghost_seat,
            "haunt_level": st.haunt_level,
            "haunt_level_win": opts.haunt_level_win,
            "hand_count": len(st.ghost_hand),
            "budget_left": st.ghost_budget if st.phase == "ghost" else 0,
            "terror_used": st.terror_used,
            "terror_per_turn": opts.terror_per_turn,
            "terror": [{"id": t.id, "name": t.name, "threshold": t.threshold,
                        "unlocked": st.haunt_level >= t.threshold} for t in pack.terror],
            "effects": {"cold_spot": st.cold_spot, "haunting_sounds": st.haunting_sounds,
                        "walls_bleed": st.walls_bleed},
            "amnesia": {s: st.players[s].pending_delta for s in st.seats
                        if st.players[s].pending_delta},
        }

    out: dict[str, Any] = {
        "game": "exorcism",
        "mode": st.mode,
        "pack": st.pack,
        "step": st.step,
        "seat": seat,
        "over": st.outcome is not None,
        "result": None,
        "round": st.round,
        "turn": st.game_turn,
        "phase": st.phase,
        "active_seat": st.active,
        "active_label": seat_label(st.active) if st.active else None,
        "actions_left": st.actions_left,
        "actions_per_turn": opts.solo_actions_per_turn if st.mode == "solo"
        else opts.actions_per_turn,
        "waiting_for": to_act,
        "waiting_labels": [seat_label(s) for s in to_act],
        "layout": {"rows": pack.layout.rows, "cols": pack.layout.cols, "attic": "attic",
                   "foyer": "foyer"},
        "cells": cells,
        "clock": {"dice": dice, "current": current,
                  "dice_left": sum(1 for p in st.dice if p > 0),
                  "turns_left": pips_left, "pips_left": pips_left,
                  "action_hours": list(pack.clock.action_hours)},
        "darkness_track": {"spaces": list(pack.clock.darkness_track),
                           "position": st.track_index, "value": eng.track_value()},
        "exorcism": {"points": st.points, "target": opts.exorcism_target,
                     "exorcised": st.exorcised},
        "darkness_supply": st.darkness_supply,
        "darkness_total": opts.darkness_supply,
        "shrouds_left": st.shrouds_left,
        "shrouds_total": opts.shrouds,
        "tool_piles": dict(st.tool_piles),
        "tool_names": dict(TOOL_NAMES),
        "decks": {"haunt": len(st.haunt_deck), "haunt_discard": len(st.haunt_discard),
                  "haunt_removed": len(st.haunt_removed), "task": len(st.task_deck),
                  "task_discard": len(st.task_discard), "plan": len(st.plan_deck),
                  "plan_discard": len(st.plan_discard)},
        "available_tasks": [_task_dict(eng, t) for t in st.available_tasks],
        "ghosts": {g: st.ghosts.get(g) for g in GHOSTS},
        "ghost_names": dict(GHOST_NAMES),
        "investigators": investigators,
        "seats_info": seats_info,
        "characters": {"lookouts": chars(st.lookouts), "wounded": chars(st.wounded),
                       "devoured": chars(st.devoured), "escaped": chars(st.escaped),
                       "out_of_play": chars(st.out_of_play)},
        "ova": ova,
        "peek": peek,
        "haunt_seen": haunt_seen,
        "last_haunt": st.last_haunt,
        "prompt": prompt,
        "log": list(st.log),
    }
    if st.outcome is not None:
        res = result_of(st)
        if res is not None:
            out["result"] = res.model_dump()
    if ghost_view:
        hand = []
        for cid in st.ghost_hand:
            card = pack.haunt_card(cid)
            if card.kind != "haunt":
                continue
            hand.append({"id": cid, "location": card.location, "die_value": card.die_value,
                         "arrows": card.arrows.model_dump(), "text": eng.haunt_card_text(cid),
                         "in_hand": eng.haunt_card_in_hand(cid)})
        out["hand"] = hand
    return out
